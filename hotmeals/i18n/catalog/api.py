"""Messages of the API layer itself."""

EN = {
    "api.invalid_request": "The request is not valid. Please check the fields and try again.",
    "api.not_found": "No such API endpoint.",
    "api.method_not_allowed": "This method is not allowed here.",
    "api.server_error": "Something went wrong on our side. Please try again.",
    "api.invalid_json": "The request body must be a JSON object.",
    "api.bad_api_key": "Invalid api-key.",
    "api.unauthorized": "Your session has expired. Please sign in again.",
}

FR = {
    "api.invalid_request": "La requête n'est pas valide. Veuillez vérifier les champs et "
    "réessayer.",
    "api.not_found": "Ce point d'accès de l'API n'existe pas.",
    "api.method_not_allowed": "Cette méthode n'est pas permise ici.",
    "api.server_error": "Un problème est survenu de notre côté. Veuillez réessayer.",
    "api.invalid_json": "Le corps de la requête doit être un objet JSON.",
    "api.bad_api_key": "Clé d'API (api-key) invalide.",
    "api.unauthorized": "Votre session a expiré. Veuillez vous reconnecter.",
}
