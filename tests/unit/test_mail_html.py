"""A catalog mail's HTML part is made from the same text as its plain one
(services/mail_html.py): paragraphs, lists, links and tables, everything else escaped, in the
mail's language."""

from __future__ import annotations

from hotmeals.services import mail
from hotmeals.services.mail_html import MailTable
from tests.mailparts import read_html


def _table() -> MailTable:
    return MailTable(
        text="  1 × Pizza <b>grande</b> (1 portion) : 6,50 $",
        caption="Vos repas",
        columns=("Repas", "Quantité", "Montant"),
        rows=(("Emma, lundi 7 décembre",), ("Pizza <b>grande</b> (1 portion)", "1", "6,50 $")),
        numeric=frozenset({1, 2}),
    )


def test_the_text_part_shows_the_tables_text_and_the_html_part_its_cells():
    made = mail.render_templated(
        template="order_confirmation",
        language="fr",
        name="Claire",
        number="HM-1",
        lines=_table(),
        charges=MailTable(text="Taxe : 0,85 $", caption="Paiement", columns=("A", "B"), rows=()),
        total="7,35 $",
        giveback="0,50 $ à l'école",
        order_url="https://hotmeals.example/parent/edit-profile/order-details?id=7&x=<1>",
    )
    assert "  1 × Pizza <b>grande</b> (1 portion) : 6,50 $" in made.body
    assert "\x00" not in made.body and "\x00" not in made.html
    html = read_html(made.html)
    assert html.lang == "fr"
    assert html.captions == ["Vos repas", "Paiement"]
    assert html.headers == [
        ("Repas", "col"),
        ("Quantité", "col"),
        ("Montant", "col"),
        ("Emma, lundi 7 décembre", "rowgroup"),  # the child's day heads its meals
        ("A", "col"),
        ("B", "col"),
    ]
    # the meal's name is text, never markup
    assert html.rows == [["Pizza <b>grande</b> (1 portion)", "1", "6,50 $"]]
    assert "<b>grande" not in made.html
    assert html.paragraphs[0] == "Bonjour Claire,"
    assert "Total payé : 7,35 $" in html.paragraphs
    (link,) = html.links
    assert (
        link[0] == link[1] == ("https://hotmeals.example/parent/edit-profile/order-details?id=7&x=")
    )  # an address ends where markup would begin
    assert any(p.startswith("Voir votre commande : https://") for p in html.paragraphs)


def test_lines_that_start_with_a_dash_are_a_list():
    made = mail.render_templated(
        template="school_closed",
        language="en",
        school="Riverside",
        day="Friday, January 8, 2027",
        reason="Storm",
        meals="- Emma, Rice: moved to Tuesday, January 12, 2027, at no cost\n- Lucas, Pizza: "
        "$5.00 refunded to your card",
    )
    html = read_html(made.html)
    assert html.lang == "en" and html.captions == []
    assert html.items == [
        "Emma, Rice: moved to Tuesday, January 12, 2027, at no cost",
        "Lucas, Pizza: $5.00 refunded to your card",
    ]
    assert made.body.count("\n- ") == 2
