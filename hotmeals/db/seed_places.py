"""Demo places and allergens: Ontario cities, their schools and teachers, the grades, and the
ingredient list parents pick a child's allergies from. School names are invented."""

from __future__ import annotations

# city -> ((school name, address), ...); two schools per city.
CITIES: dict[str, tuple[tuple[str, str], ...]] = {
    "Ottawa": (
        ("Riverside Heights Public School", "215 Bank Street, Ottawa, ON K1S 3W2"),
        ("École élémentaire Les Érables", "1480 Carling Avenue, Ottawa, ON K1Z 7L9"),
    ),
    "Toronto": (
        ("High Park Meadows Public School", "88 Parkside Drive, Toronto, ON M6R 2Y8"),
        ("St. Bernadette Catholic School", "402 Pape Avenue, Toronto, ON M4M 2W5"),
    ),
    "Mississauga": (
        ("Lakeview Shores Public School", "1170 Lakeshore Road East, Mississauga, ON L5E 1E9"),
        ("Credit River Junior Public School", "35 Queen Street South, Mississauga, ON L5M 1K4"),
    ),
}

# The schools whose kitchen labels and production list are in French (``SchoolLanguage``);
# the others read English.
FRENCH_SCHOOLS: tuple[str, ...] = ("École élémentaire Les Érables",)

# (code, English label, French label); ``sort`` is the position.
GRADES: tuple[tuple[str, str, str], ...] = (
    ("JK", "Junior Kindergarten", "Maternelle"),
    ("SK", "Senior Kindergarten", "Jardin d'enfants"),
    ("1", "Grade 1", "1re année"),
    ("2", "Grade 2", "2e année"),
    ("3", "Grade 3", "3e année"),
    ("4", "Grade 4", "4e année"),
    ("5", "Grade 5", "5e année"),
    ("6", "Grade 6", "6e année"),
    ("7", "Grade 7", "7e année"),
    ("8", "Grade 8", "8e année"),
)

# Teachers are drawn from this list: one per grade at each school, a different mix per school.
TEACHERS: tuple[str, ...] = (
    "Ms. Nguyen",
    "Mr. Patel",
    "Mme Gagnon",
    "Ms. Campbell",
    "Mr. Okafor",
    "Ms. Singh",
    "M. Tremblay",
    "Ms. MacDonald",
    "Mr. Chen",
    "Mme Bouchard",
    "Ms. Kowalski",
    "Mr. Ahmed",
    "Ms. Fraser",
    "Mr. Rossi",
    "Mme Lavoie",
    "Ms. Thompson",
    "Mr. Dubois",
    "Ms. Haddad",
    "Mr. Wilson",
    "Ms. Santos",
    "Mme Côté",
    "Mr. O'Brien",
    "Ms. Lee",
    "Mr. Fortin",
    "Ms. Martin",
    "Ms. Kaur",
    "Mme Pelletier",
    "Ms. Robinson",
    "Mr. Sharma",
    "Ms. Bélanger",
)

# key -> (English name, French name, one of Canada's priority allergens)
ALLERGENS: dict[str, tuple[str, str, bool]] = {
    "peanuts": ("Peanuts", "Arachides", True),
    "tree_nuts": ("Tree nuts", "Noix", True),
    "milk": ("Milk", "Lait", True),
    "eggs": ("Eggs", "Œufs", True),
    "fish": ("Fish", "Poisson", True),
    "shellfish": ("Crustaceans and shellfish", "Crustacés et mollusques", True),
    "sesame": ("Sesame", "Sésame", True),
    "soy": ("Soy", "Soja", True),
    "wheat": ("Wheat and triticale", "Blé et triticale", True),
    "mustard": ("Mustard", "Moutarde", True),
    "sulphites": ("Sulphites", "Sulfites", True),
    "gluten": ("Gluten", "Gluten", False),
    "corn": ("Corn", "Maïs", False),
    "celery": ("Celery", "Céleri", False),
    "garlic": ("Garlic", "Ail", False),
    "onion": ("Onion", "Oignon", False),
    "kiwi": ("Kiwi", "Kiwi", False),
    "strawberries": ("Strawberries", "Fraises", False),
    "tomato": ("Tomato", "Tomate", False),
    "banana": ("Banana", "Banane", False),
    "oats": ("Oats", "Avoine", False),
    "citrus": ("Citrus fruits", "Agrumes", False),
    "cinnamon": ("Cinnamon", "Cannelle", False),
}
