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


def _family_with_child() -> tuple[str, int]:
    with session_scope() as s:
        parent = f.make_parent(s)
        child = f.make_child(s, parent, is_default=True)
        s.flush()
        email, child_id = parent.email, child.id or 0
    return quick_token(email), child_id


def test_away_preview_and_mark_away_check_the_children_the_days_and_the_key(client):
    body = {"child_ids": [1], "from_date": "2031-03-03", "to_date": "2031-03-07"}
    assert post(client, "/Parent/child/AwayPreview", body).status_code == 401
    token, child_id = _family_with_child()
    _, other_child = _family_with_child()
    mine = {**body, "child_ids": [child_id]}
    shown = ok(post(client, "/Parent/child/AwayPreview", mine, token, lang="fr"))["data"]
    assert shown == {
        "meals": [],
        "cancel_count": 0,
        "refund_cents": 0,
        "refund": "0,00\u00a0$",
        "refund_to": "card",
    }
    refused(
        post(client, "/Parent/child/AwayPreview", {**body, "child_ids": [other_child]}, token),
        "Child not found",
    )
    refused(
        post(client, "/Parent/child/AwayPreview", {**mine, "to_date": "2031-03-01"}, token),
        "Choose a first and a last day, the last on or after the first, at most 62 days",
    )
    refused(post(client, "/Parent/child/MarkAway", mine, token), "Please try again.")
    # No meal booked: the days are stored (booking them refused); the same days again: nothing.
    stored = ok(
        post(client, "/Parent/child/MarkAway", mine, token, **{"Idempotency-Key": "away-k1"})
    )
    assert stored["message"] == "Done: these days are marked away, no meal can be booked on them"
    assert stored["data"]["cancelled"] == 0
    refused(
        post(client, "/Parent/child/MarkAway", mine, token, **{"Idempotency-Key": "away-k9"}),
        "No booked meals on these days",
    )
