"""Les pages CMS en français (Markdown) : à propos, conditions, confidentialité. Texte de
démonstration pour un programme de dîners chauds en Ontario."""

from __future__ import annotations

ABOUT = """\
# À propos de Hot Meals

Hot Meals livre des dîners chauds et frais, préparés par des traiteurs locaux, aux écoles
élémentaires de l'Ontario. Les parents choisissent et paient les repas en ligne, et le
traiteur les livre en classe à l'heure du dîner, étiquetés au nom de l'enfant, avec son
enseignante ou enseignant et son année.

## Pourquoi nous avons commencé

Préparer une boîte à lunch chaque matin n'est pas toujours simple, et beaucoup de familles
voulaient un repas chaud et abordable quelques jours par semaine. Les écoles, elles,
cherchaient une façon d'amasser des fonds sans vendre de tablettes de chocolat. Hot Meals
répond aux deux.

## Chaque repas redonne

Les repas commencent à **5,00 $** la portion, et une portion agrandie ne coûte jamais plus de
**7,25 $**. Sur chaque repas commandé :

- **0,50 $** va à la **communauté scolaire** de votre enfant — équipement de cour d'école,
  livres pour la bibliothèque, sorties éducatives ou tout autre projet choisi par le conseil
  d'école;
- **0,20 $** va aux **programmes locaux de nutrition pour enfants**, comme les programmes de
  déjeuners et de collations de votre région.

Vous pouvez aussi faire un don distinct à votre école en tout temps depuis votre compte.

## Des traiteurs d'ici, de vrais aliments

Nos traiteurs sont des entreprises ontariennes qui cuisinent dans des cuisines commerciales
inspectées. Les menus suivent les saisons et offrent chaque jour un choix végétarien. Chaque
repas indique ses ingrédients, ses allergènes, son mode de cuisson et sa valeur nutritive
complète pour que vous puissiez choisir en toute confiance.

## Attentifs aux allergies

Lorsque vous inscrivez les allergies de votre enfant à son profil, nous signalons les repas
qui contiennent ces ingrédients, et les alertes d'allergie sont imprimées sur l'étiquette du
repas. Nos traiteurs ne cuisinent pas avec des arachides; toutefois, les repas sont préparés
dans des cuisines qui peuvent manipuler d'autres allergènes. Lisez attentivement la liste des
allergènes de chaque repas.

## Comment ça marche

1. **Inscrivez-vous** et créez un profil pour chaque enfant (école, enseignant, année et
   allergies).
2. **Consultez le menu** de l'école de votre enfant et choisissez repas, extras et boisson.
3. **Payez par carte** avant l'heure limite du traiteur.
4. **Le dîner arrive** à l'école, chaud et étiqueté.

Des questions? Consultez la FAQ ou écrivez-nous par la page Nous joindre — nous répondons en
un jour ouvrable.
"""

TERMS = """\
# Conditions d'utilisation

Ces conditions s'appliquent à toute commande passée sur Hot Meals. En créant un compte et en
passant une commande, vous les acceptez. Si vous ne les acceptez pas, n'utilisez pas le service.

## 1. Votre compte

Vous devez être le parent ou le tuteur des enfants pour qui vous commandez et avoir au moins
18 ans. Gardez votre mot de passe confidentiel; vous êtes responsable des commandes passées
avec votre compte. Les renseignements sur vos enfants (nom, école, enseignant, année et
allergies) doivent être exacts, car ils sont imprimés sur l'étiquette et servent à la livraison.

## 2. Prix et paiement

- Les repas commencent à 5,00 $ la portion; une portion agrandie coûte au plus 7,25 $. Les
  extras, boissons et options sont au prix affiché au menu. Certains repas coûtent moins cher
  l'unité lorsque vous en commandez plusieurs à la fois.
- Un message spécial imprimé sur l'étiquette du repas coûte 1,00 $ par message.
- Les prix sont en dollars canadiens et comprennent les taxes et frais applicables indiqués
  dans le sommaire de commande avant le paiement.
- Le paiement est prélevé par carte de crédit ou de débit, par notre fournisseur de services
  de paiement, au moment de la commande. Nous ne voyons ni ne conservons jamais le numéro
  complet de votre carte.
- Les codes promotionnels ne sont pas échangeables contre de l'argent et un seul code
  s'applique par commande.

## 3. Heures limites

Chaque traiteur fixe une **heure limite** pour chaque jour de repas — par exemple 17 h deux
jours avant le repas, ou midi trois jours d'école avant. L'heure limite de chaque jour est
affichée au menu. Les commandes, modifications et annulations ne sont acceptées **qu'avant**
l'heure limite. Après celle-ci, le traiteur a acheté les aliments et planifié la production :
la commande ne peut plus être modifiée ni remboursée.

## 4. Modifications et annulations

Avant l'heure limite, vous pouvez :

- annuler une commande complète, ou certains repas ou quantités;
- changer un repas, sa taille, ses options ou ses extras;
- déplacer un repas à une autre date où le même traiteur dessert l'école de votre enfant.

Si une modification réduit le prix, la différence est remboursée; si elle l'augmente, vous
payez la différence avant que la modification soit confirmée.

## 5. Remboursements

- Les remboursements des repas annulés avant l'heure limite sont versés sur la **carte
  utilisée pour le paiement**. Nous ne pouvons pas rembourser sur une autre carte, en argent
  ou en crédit.
- Votre banque affiche généralement le remboursement dans un délai de **5 à 10 jours
  ouvrables**, selon l'émetteur de la carte. Un remboursement le jour même du paiement peut
  plutôt apparaître comme une transaction annulée.
- Si une école ferme de façon imprévue (tempête de neige, urgence, panne de courant) et que les
  repas ne sont pas livrés, ils sont remboursés en entier sur votre carte.
- Si un repas est livré en retard, erroné ou manquant, écrivez-nous dans les deux jours d'école
  et nous corrigerons la situation par un remboursement ou un remplacement.
- Les repas non mangés en raison d'une absence, ou annulés après l'heure limite, ne sont pas
  remboursés.

## 6. Allergies

Nous affichons les ingrédients et allergènes de chaque repas tels que fournis par le traiteur
et signalons les repas qui contiennent un ingrédient inscrit au profil d'allergies de votre
enfant. Les repas sont préparés dans des cuisines qui peuvent manipuler d'autres allergènes; un
contact croisé est possible. Il vous revient de choisir des repas sécuritaires pour votre
enfant. En cas d'urgence, suivez le plan de l'école de votre enfant.

## 7. Dons

Sur chaque repas, 0,50 $ va à la communauté scolaire et 0,20 $ aux programmes locaux de
nutrition pour enfants. Les dons distincts faits à une école ne sont pas remboursables.

## 8. Utilisation acceptable

N'utilisez pas le service de façon abusive, ne tentez pas d'accéder aux renseignements
d'autres familles et n'en perturbez pas le fonctionnement. Nous pouvons suspendre les comptes
qui le font.

## 9. Modifications des conditions

Nous pouvons mettre ces conditions à jour; la date ci-dessous indique la version en vigueur.
Les commandes déjà passées suivent les conditions en vigueur au moment de la commande.

## 10. Droit applicable

Ces conditions sont régies par les lois de la province de l'Ontario et les lois fédérales du
Canada qui s'y appliquent.

*Dernière mise à jour : 1er septembre 2025.*
"""

PRIVACY = """\
# Politique de confidentialité

Hot Meals respecte votre vie privée et celle de vos enfants. Nous recueillons, utilisons et
communiquons les renseignements personnels conformément à la **Loi sur la protection des
renseignements personnels et les documents électroniques (LPRPDE, ou PIPEDA en anglais)** et à
la présente politique.

## Ce que nous recueillons

- **À votre sujet :** nom, adresse(s) courriel, numéro de téléphone, mot de passe (conservé
  uniquement sous forme de hachage sécurisé), langue et préférences de notification.
- **Au sujet de vos enfants :** prénom et nom, ville, école, enseignant, année et allergies, y
  compris leur gravité.
- **Au sujet de vos commandes :** repas, dates, messages spéciaux, montants payés,
  remboursements et dons.
- **Paiement :** les cartes sont traitées par notre fournisseur de services de paiement. Nous
  ne gardons que le type de carte et les quatre derniers chiffres, jamais le numéro complet ni
  le code de sécurité.

## Pourquoi nous les utilisons

Uniquement pour faire fonctionner le programme de repas : afficher le bon menu pour l'école de
votre enfant, livrer et étiqueter les repas, vous avertir des allergènes, percevoir les
paiements et verser les remboursements, envoyer les confirmations et rappels demandés, et
répondre à vos questions. Nous ne vendons aucun renseignement personnel et ne l'utilisons pas
à des fins publicitaires.

## Avec qui nous les partageons

- **Les traiteurs** reçoivent ce qu'il faut pour préparer et étiqueter chaque repas : nom de
  l'enfant, école, enseignant, année, repas commandé et alerte d'allergie ou message spécial.
- **Les écoles** reçoivent les listes de livraison de leurs élèves et le total des fonds
  amassés.
- **Nos fournisseurs de services** (paiement, envoi de courriels, hébergement au Canada)
  traitent les renseignements en notre nom, sous contrat les obligeant à les protéger.
- Nous pouvons communiquer des renseignements lorsque la loi l'exige.

## Consentement

En créant un compte, vous consentez à cette utilisation. Vous pouvez retirer votre
consentement en tout temps en supprimant les profils de vos enfants ou en fermant votre compte;
nous ne pourrons alors plus livrer de repas. Les renseignements sur les allergies sont
facultatifs, mais nous recommandons de les fournir.

## Conservation

Nous conservons les dossiers de commandes et de paiements pendant sept ans, comme l'exigent
les lois fiscales canadiennes. Les autres renseignements sont supprimés ou anonymisés dans les
12 mois suivant la fermeture de votre compte.

## Témoins et stockage du navigateur

Nous utilisons un témoin de connexion valide sept jours et le stockage du navigateur pour
votre langue et le nombre d'articles au panier. Nous n'utilisons aucun témoin publicitaire ou
de pistage.

## Vos droits

Vous pouvez demander à consulter les renseignements que nous détenons sur vous ou vos enfants
et à les faire corriger. La plupart peuvent être consultés et modifiés dans votre profil. Pour
toute autre demande, écrivez à notre responsable de la protection de la vie privée par la page
Nous joindre; nous répondons dans les 30 jours.

Si notre réponse ne vous satisfait pas, vous pouvez communiquer avec le **Commissariat à la
protection de la vie privée du Canada** à priv.gc.ca.

## Sécurité

Les mots de passe sont hachés, les connexions sont chiffrées, l'accès aux renseignements
personnels est limité au personnel qui en a besoin, et les numéros de carte n'atteignent
jamais nos serveurs.

*Dernière mise à jour : 1er septembre 2025.*
"""

PAGES: dict[str, tuple[str, str]] = {
    "about": ("À propos de nous", ABOUT),
    "terms": ("Conditions d'utilisation", TERMS),
    "privacy": ("Politique de confidentialité", PRIVACY),
}
