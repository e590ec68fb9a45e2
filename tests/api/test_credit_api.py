"""Family credit on /api/v1 (SQLite and PostgreSQL): FamilyCredit shows the balance as the sum of
the family's movements, newest first, in the parent's language; RefundChoice switches where
refunds go (card by default), refuses anything else, and needs a token."""

from __future__ import annotations

from hotmeals.db.engine import session_scope
from hotmeals.domain.credit import CreditKind
from hotmeals.services import credit
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
