"""/api/v1/Parent/standing/* (extensions) on SQLite and PostgreSQL: the demo
parent's standing order listed in the request's language; create, pause, resume, end in the
envelope; a repeated Idempotency-Key creates once; another parent's standing order is not
found; no token is 401."""

from __future__ import annotations

from sqlmodel import select

from hotmeals.db.engine import session_scope
from hotmeals.db.models import StandingOrder
from tests.api.helpers import ok, post, quick_token, refused, signed_up

LIST = "/Parent/standing/ListStandingOrders"


def test_the_demo_parents_standing_order_is_listed_in_the_parents_language(client):
    token = quick_token()
    [row] = ok(post(client, LIST, token=token))["data"]
    assert row["summary"].startswith("Every Monday: ") and row["summary"].endswith(" for Emma")
    assert row["status"] == "active" and row["next_label"].startswith("Next: Monday, ")
    [french] = ok(post(client, LIST, token=token, lang="fr"))["data"]
    assert french["summary"].startswith("Chaque lundi : ")
    assert french["status_label"] == "Active"


def test_create_pause_resume_end(client):
    token = quick_token()
    [demo] = ok(post(client, LIST, token=token))["data"]
    body = {
        "child_id": demo["child_id"],
        "meal_id": demo["meal_id"],
        "size": "large",
        "weekday": 2,
        "until": "year",
    }
    key = {"Idempotency-Key": "standing-create-1"}
    created = ok(post(client, "/Parent/standing/CreateStandingOrder", body, token, **key))
    again = ok(post(client, "/Parent/standing/CreateStandingOrder", body, token, **key))
    assert created == again and created["message"] == "Standing order set up"
    row = created["data"]
    assert (
        row["summary"].startswith("Every Wednesday: ") and "(1 portion + upgrade)" in row["summary"]
    )
    assert row["ends_on"].endswith("-06-30") or row["ends_on"][5:7] == "06"
    assert len(ok(post(client, LIST, token=token))["data"]) == 2
    target = {"standing_order_id": row["id"]}
    paused = ok(post(client, "/Parent/standing/PauseStandingOrder", target, token))
    assert paused["data"]["status"] == "paused" and paused["data"]["next_date"] is None
    resumed = ok(post(client, "/Parent/standing/ResumeStandingOrder", target, token))
    assert resumed["data"]["status"] == "active" and resumed["data"]["next_date"]
    ended = ok(post(client, "/Parent/standing/EndStandingOrder", target, token))
    assert ended["message"] == "Standing order ended" and ended["data"]["status"] == "ended"
    refused(
        post(client, "/Parent/standing/ResumeStandingOrder", target, token),
        "This standing order has ended.",
    )
    listed = ok(post(client, LIST, token=token))["data"]
    assert [r["status"] for r in listed] == ["active", "ended"]  # ended last
    with session_scope() as s:
        s.delete(s.exec(select(StandingOrder).where(StandingOrder.id == row["id"])).one())


def test_refusals(client):
    token = quick_token()
    [demo] = ok(post(client, LIST, token=token))["data"]
    stranger, _ = signed_up(client)
    target = {"standing_order_id": demo["id"]}
    refused(
        post(client, "/Parent/standing/EndStandingOrder", target, stranger),
        "Standing order not found.",
    )
    refused(
        post(
            client,
            "/Parent/standing/CreateStandingOrder",
            {"child_id": demo["child_id"], "meal_id": demo["meal_id"]},
            stranger,
        ),
        "Child not found",
    )
    refused(
        post(
            client,
            "/Parent/standing/CreateStandingOrder",
            {"child_id": demo["child_id"], "meal_id": demo["meal_id"], "weekday": 6},
            token,
            lang="fr",
        ),
        "Une commande régulière se répète un jour d'école, du lundi au vendredi.",
    )
    assert ok(post(client, LIST, token=stranger))["data"] == []
    refused(post(client, LIST), status=401)
    [still] = ok(post(client, LIST, token=token))["data"]
    assert still["status"] == "active"
