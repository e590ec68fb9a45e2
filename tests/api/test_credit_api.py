"""Family credit on /api/v1 (SQLite and PostgreSQL): FamilyCredit shows the balance as the sum of
the family's movements, newest first, in the parent's language; RefundChoice switches where
refunds go (card by default), refuses anything else, and needs a token."""

from __future__ import annotations

from datetime import date, datetime

from hotmeals import clock
from hotmeals.db.engine import session_scope
from hotmeals.domain.credit import CreditKind
from hotmeals.domain.cutoff import TORONTO
from hotmeals.i18n import t
from hotmeals.services import credit
from hotmeals.services.ordering.cart import add_to_cart
from tests import factories as f
from tests.api.helpers import get, ok, post, quick_token, refused


def _family_with_credit() -> tuple[str, int]:
    with session_scope() as s:
        parent = f.make_parent(s)
        s.flush()
        assert parent.id is not None
        credit.record(s, parent.id, CreditKind.REFUND, 1_250, key="refund:cancel:1")
        credit.record(s, parent.id, CreditKind.SPEND, 500, key="spend:order:1")
        credit.record(s, parent.id, CreditKind.ADJUST, 100, key="adjust:1", reason="goodwill")
        email, parent_id = parent.email, parent.id
    return quick_token(email), parent_id


def test_family_credit_is_the_sum_of_the_movements(client):
    assert get(client, "/Parent/user/FamilyCredit").status_code == 401
    token, _ = _family_with_credit()
    data = ok(get(client, "/Parent/user/FamilyCredit", token))["data"]
    assert data["balance_cents"] == 850 == sum(m["amount_cents"] for m in data["history"])
    assert data["balance"] == "$8.50" and data["refund_to"] == "card"
    assert [m["kind"] for m in data["history"]][0] == "adjust"  # newest first
    assert {m["kind"]: m["amount_cents"] for m in data["history"]} == {
        "refund": 1_250,
        "spend": -500,
        "adjust": 100,
    }
    french = ok(get(client, "/Parent/user/FamilyCredit", token, lang="fr"))["data"]
    assert french["balance"] == "8,50\u00a0$"
    assert "Ajustement" in {m["label"] for m in french["history"]}
    # each says what it was for in the parent's language, a minus sign as the summary's
    about = {m["kind"]: (m["about"], m["amount"]) for m in french["history"]}
    assert about["adjust"] == ("Crédit de courtoisie", "1,00\u00a0$")
    assert about["spend"] == ("", "\u22125,00\u00a0$")  # no order: nothing to name


def _new_family() -> tuple[str, int]:
    with session_scope() as s:
        parent = f.make_parent(s)
        s.flush()
        email, parent_id = parent.email, parent.id
    return quick_token(email), parent_id or 0


def test_a_new_family_has_no_credit(client):
    token, _ = _new_family()
    data = ok(get(client, "/Parent/user/FamilyCredit", token))["data"]
    assert data == {"balance_cents": 0, "balance": "$0.00", "refund_to": "card", "history": []}


def test_the_refund_choice_is_a_setting_and_only_card_or_credit(client):
    token, _ = _new_family()
    assert post(client, "/Parent/user/RefundChoice", {"refund_to": "credit"}).status_code == 401
    done = ok(post(client, "/Parent/user/RefundChoice", {"refund_to": "credit"}, token))
    assert done["data"] == {"refund_to": "credit"}
    assert ok(get(client, "/Parent/user/FamilyCredit", token))["data"]["refund_to"] == "credit"
    refused(
        post(client, "/Parent/user/RefundChoice", {"refund_to": "cash"}, token),
        "Choose where refunds go: your card or family credit",
    )
    refused(post(client, "/Parent/user/RefundChoice", {}, token))
    back = ok(post(client, "/Parent/user/RefundChoice", {"refund_to": "card"}, token))
    assert back["data"] == {"refund_to": "card"}


def test_the_order_summary_says_how_credit_and_the_card_share_the_total(client):
    """OrderSummary, CheckOrderSummary and check_promocode answer ``credit_cents``,
    ``card_cents`` and ``credit_lines`` (docs/api.md): credit pays first."""
    clock.set_now(datetime(2026, 3, 2, 7, 0, tzinfo=TORONTO))  # a Monday morning
    with session_scope() as s:
        parent = f.make_parent(s)
        child = f.make_child(s, parent, is_default=True)
        vendor = f.make_vendor(s, cutoff_days_before=1)
        meal = f.make_meal(s, vendor, small_cents=650)
        day = f.make_menu_day(s, f.child_school(s, child), vendor, date(2026, 3, 4), [meal])
        add_to_cart(
            session=s, parent_id=parent.id, child_id=child.id, meal_id=meal.id, menu_day_id=day.id
        )
        credit.record(s, parent.id, CreditKind.ADJUST, 500, key="adjust:summary", reason="gift")
        email = parent.email
    token = quick_token(email)
    for path, body in (
        ("/Parent/cart/OrderSummary", {}),
        ("/Parent/cart/CheckOrderSummary", {}),
        ("/Promocode/promocode_management/check_promocode", {"promo_code": "WELCOME10"}),
    ):
        data = ok(post(client, path, body, token))["data"]
        total = data["charges"]["total_pay_cents"]
        assert total > 500, path
        assert (data["credit_cents"], data["card_cents"]) == (500, total - 500), path
        assert [(x["name"], x["cents"]) for x in data["credit_lines"]] == [
            ("family_credit", -500),
            ("card_pay", total - 500),
        ], path
    french = ok(post(client, "/Parent/cart/OrderSummary", {}, token, lang="fr"))["data"]
    assert french["credit_lines"][0] == {
        "name": "family_credit",
        "label": t("credit.summary_credit", "fr"),
        "cents": -500,
        "amount": "−5,00\u00a0$",
    }
