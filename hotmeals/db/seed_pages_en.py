"""The English CMS pages (Markdown): about, terms, privacy. Demo text written for an Ontario
hot-lunch program; the operator replaces it with their own before going live."""

from __future__ import annotations

ABOUT = """\
# About Hot Meals

Hot Meals brings fresh, hot lunches from local caterers to elementary schools across Ontario.
Parents choose and pay for meals online, and the caterer delivers them to the classroom at
lunchtime, labelled with each child's name, teacher and grade.

## Why we started

Packing a lunch every school morning is hard, and many families told us they wanted a simple,
affordable hot meal a few days a week. Schools told us they wanted a way to raise funds that
doesn't mean selling chocolate bars. Hot Meals does both.

## Every meal gives back

Meals start at **$5.00** per portion, and an upsized portion never costs more than **$7.25**.
From every meal ordered:

- **$0.50** goes to your child's **school community** — for playground equipment, library
  books, field trips or whatever the school council decides;
- **$0.20** goes to **local children's nutrition programs**, such as student breakfast and
  snack programs in your region.

You can also make a separate donation to your school at any time from your account.

## Local caterers, real food

Our caterers are Ontario businesses that cook in inspected commercial kitchens. Menus change
with the seasons and include vegetarian choices every day. Each meal lists its ingredients,
allergens, cooking method and full nutrition facts so you can choose with confidence.

## Allergy-aware

When you add your child's allergies to their profile, we flag meals that contain those
ingredients, and allergy alerts are printed on the meal label. Schools in Ontario are
peanut-aware and our caterers do not cook with peanuts; however, meals are prepared in kitchens
that may handle other allergens, so please read each meal's allergen list carefully.

## How it works

1. **Sign up** and add a profile for each child (school, teacher, grade and allergies).
2. **Browse the menu** for your child's school and pick meals, add-ons and a drink.
3. **Pay by card** before the caterer's cut-off time.
4. **Lunch arrives** at school, hot and labelled.

Questions? Visit the FAQ or reach us through the Contact us page — we answer within one
business day.
"""

TERMS = """\
# Terms and Conditions

These terms apply to every order placed through Hot Meals. By creating an account and placing
an order, you agree to them. If you do not agree, please do not use the service.

## 1. Your account

You must be a parent or guardian of the children you order for, and at least 18 years old.
Keep your password private; you are responsible for orders placed with your account. The
information you give about your children (name, school, teacher, grade and allergies) must be
accurate, because it is printed on the meal label and used to deliver the meal.

## 2. Prices and payment

- Meals start at $5.00 per portion; an upsized portion costs at most $7.25. Add-ons, drinks and
  meal options are priced as shown on the menu. Some meals are cheaper per meal when you order
  several at once.
- A special message printed on your child's meal label costs $1.00 per message.
- Prices are in Canadian dollars and include any applicable taxes and fees shown in the order
  summary before you pay.
- Payment is taken by credit or debit card through our payment processor when you place the
  order. We never see or store your full card number.
- Promo codes cannot be exchanged for cash and only one code applies per order.

## 3. Cut-off times

Each caterer sets a **cut-off** for every meal day — for example, 5:00 p.m. two days before the
meal, or noon three school days before. The cut-off for each day is shown on the menu. Orders,
changes and cancellations for a meal day are accepted only **before** its cut-off. After the
cut-off, the caterer has bought the food and scheduled the kitchen, and the order can no longer
be changed or refunded.

## 4. Changes and cancellations

Before the cut-off you may:

- cancel a whole order, or some of its meals or quantities;
- change a meal, its size, options or add-ons;
- move a meal to another date on which the same caterer serves your child's school.

If a change lowers the price, the difference is refunded; if it raises the price, you pay the
difference before the change is confirmed.

## 5. Refunds

- Refunds for meals cancelled before the cut-off go back to the **card used to pay**. We cannot
  refund to a different card, in cash or as store credit.
- Your bank usually shows the refund within **5–10 business days**, depending on the card
  issuer. A refund on the same day as the payment may appear as a cancelled charge instead.
- If a school closes unexpectedly (a snow day, an emergency or a power failure) and meals are
  not delivered, the affected meals are refunded in full to your card.
- If a meal is delivered late, incorrect or missing, contact us within two school days and we
  will make it right with a refund or a replacement.
- Meals not eaten because a child was absent, or cancelled after the cut-off, are not refunded.

## 6. Allergies

We show each meal's ingredients and allergens as supplied by the caterer and flag meals that
contain an ingredient listed in your child's allergy profile. Meals are prepared in kitchens
that may handle other allergens, and cross-contact is possible. You remain responsible for
choosing meals that are safe for your child. In an emergency, follow your child's school plan.

## 7. Donations

$0.50 of every meal goes to the school community and $0.20 to local children's nutrition
programs. Separate donations you make to a school are not refundable once paid.

## 8. Acceptable use

Do not misuse the service, attempt to access other families' information, or interfere with
its operation. We may suspend accounts that do.

## 9. Changes to these terms

We may update these terms; the date below shows the latest version. Orders already placed
follow the terms in force when they were placed.

## 10. Governing law

These terms are governed by the laws of the Province of Ontario and the federal laws of Canada
that apply there.

*Last updated: September 1, 2025.*
"""

PRIVACY = """\
# Privacy Policy

Hot Meals respects your privacy and your children's. We collect, use and disclose personal
information in line with the **Personal Information Protection and Electronic Documents Act
(PIPEDA)** and this policy.

## What we collect

- **About you:** your name, e-mail address(es), phone number, password (stored only as a
  secure hash), language preference and notification choices.
- **About your children:** first and last name, city, school, teacher, grade and allergy
  information, including how severe each allergy is.
- **About your orders:** meals, dates, special messages, amounts paid, refunds and donations.
- **Payment details:** cards are processed by our payment processor. We keep only the card
  brand and the last four digits so you can recognise a card; never the full number or CVV.

## Why we use it

We use this information only to run the meal program: to show the right menu for your
child's school, to deliver and label meals, to warn you about allergens, to take payments and
issue refunds, to send order confirmations and reminders you asked for, and to answer your
questions. We do not sell personal information and we do not use it for advertising.

## Who we share it with

- **Caterers** receive what they need to prepare and label each meal: your child's name,
  school, teacher, grade, the meal ordered and any allergy alert or special message.
- **Schools** receive delivery lists for their students and totals of funds raised.
- **Service providers** (payment processing, e-mail delivery, hosting in Canada) process
  information on our behalf under contracts that require them to protect it.
- We may disclose information when the law requires it.

## Consent

By creating an account you consent to this use. You may withdraw consent at any time by
deleting your children's profiles or closing your account, but we then cannot deliver meals.
Allergy information is optional, and we recommend providing it.

## How long we keep it

We keep order and payment records for seven years, as Canadian tax law requires. Other
information is deleted or anonymised within 12 months after you close your account.

## Cookies and browser storage

We use a sign-in cookie that lasts seven days and browser storage for your language and cart
counts. We do not use advertising or tracking cookies.

## Your rights

You may ask to see the personal information we hold about you or your children and ask us to
correct it. Most of it can be viewed and edited in your profile. For anything else, write to
our Privacy Officer through the Contact us page; we answer within 30 days.

If you are not satisfied with our answer, you may contact the **Office of the Privacy
Commissioner of Canada** at priv.gc.ca.

## Security

Passwords are hashed, connections are encrypted, access to personal information is limited to
staff who need it, and card numbers never reach our servers.

*Last updated: September 1, 2025.*
"""

PAGES: dict[str, tuple[str, str]] = {
    "about": ("About us", ABOUT),
    "terms": ("Terms and Conditions", TERMS),
    "privacy": ("Privacy Policy", PRIVACY),
}
