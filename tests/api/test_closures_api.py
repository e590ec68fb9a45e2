"""The family's closure choice on /api/v1 (SQLite and PostgreSQL): card by default, card,
credit or makeup kept as a setting, anything else refused, a token needed."""

from __future__ import annotations

from hotmeals.db.engine import session_scope
from tests import factories as f
from tests.api.helpers import get, ok, post, quick_token, refused


def _new_family() -> str:
    with session_scope() as s:
        parent = f.make_parent(s)
        s.flush()
        email = parent.email
    return quick_token(email)


def test_the_closure_choice_is_a_setting_with_the_card_by_default(client):
    assert get(client, "/Parent/user/ClosureChoice").status_code == 401
    token = _new_family()
    shown = ok(get(client, "/Parent/user/ClosureChoice", token, lang="fr"))["data"]
    assert shown["closure_choice"] == "card"
    assert [o["value"] for o in shown["options"]] == ["card", "credit", "makeup"]
    assert shown["options"][2]["label"] == "Un repas de reprise le prochain jour servi"
    body = {"closure_choice": "makeup"}
    assert post(client, "/Parent/user/ClosureChoice", body).status_code == 401
    assert ok(post(client, "/Parent/user/ClosureChoice", body, token))["data"] == {
        "closure_choice": "makeup",
        "options": [],
    }
    shown = ok(get(client, "/Parent/user/ClosureChoice", token))["data"]
    assert shown["closure_choice"] == "makeup"
    refused(
        post(client, "/Parent/user/ClosureChoice", {"closure_choice": "cash"}, token),
        "Choose what happens to a meal on a closed day: card, credit or makeup",
    )
