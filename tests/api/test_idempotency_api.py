"""One tap is one record, through /api/v1: a write sent twice with the same
``Idempotency-Key`` changes nothing the second time and answers what the first answered."""

from __future__ import annotations

from sqlmodel import func, select

from hotmeals.db.engine import session_scope
from hotmeals.db.models import Child, ContactMessage, FormSubmission, ParentAltEmail
from tests.api.helpers import get, ok, post, refused, signed_up
from tests.api.test_children_api import _child_body


def _count(model, *where) -> int:
    with session_scope() as session:
        return session.exec(select(func.count()).select_from(model).where(*where)).one()


def _children(client, token) -> list[dict]:
    return ok(get(client, "/Parent/user/GetChilds", token))["data"]


def test_add_child_twice_with_one_key_adds_one_child(client):
    token, _ = signed_up(client)
    first = ok(
        post(
            client,
            "/Parent/user/AddChild",
            _child_body(),
            token,
            **{"idempotency-key": "add-zoe-1"},
        )
    )
    again = ok(
        post(
            client,
            "/Parent/user/AddChild",
            _child_body(),
            token,
            **{"idempotency-key": "add-zoe-1"},
        )
    )
    assert again["data"] == first["data"]
    assert [c["id"] for c in _children(client, token)] == [first["data"]["id"]]
    # Another key is another submission: a second child (the control).
    ok(
        post(
            client,
            "/Parent/user/AddChild",
            _child_body(first_name="Emma"),
            token,
            **{"idempotency-key": "add-emma-1"},
        )
    )
    assert len(_children(client, token)) == 2


def test_without_a_key_each_request_counts(client):
    token, _ = signed_up(client)
    ok(post(client, "/Parent/user/AddChild", _child_body(), token))
    ok(post(client, "/Parent/user/AddChild", _child_body(), token))
    assert len(_children(client, token)) == 2


def test_delete_child_twice_answers_success_twice_and_deletes_once(client):
    token, _ = signed_up(client)
    child = ok(post(client, "/Parent/user/AddChild", _child_body(), token))["data"]
    for _ in range(2):
        ok(
            post(
                client,
                "/Parent/user/DeleteChild",
                {"child_id": child["id"]},
                token,
                **{"idempotency-key": "delete-1"},
            )
        )
    assert _children(client, token) == []
    # Without the key the repeat is what it always was: the child is gone.
    refused(
        post(client, "/Parent/user/DeleteChild", {"child_id": child["id"]}, token),
        "Child not found",
    )


def test_contact_message_sent_twice_is_stored_once(client):
    token, data = signed_up(client)
    body = {
        "first_name": "Ann",
        "last_name": "Lee",
        "email": data["email"],
        "phone": "613-555-0142",
        "subject": "Menu",
        "description": "More soup, please",
    }
    before = _count(ContactMessage)
    for _ in range(2):
        ok(post(client, "/Parent/user/contact_us", body, token, **{"idempotency-key": "contact-1"}))
    assert _count(ContactMessage) == before + 1


def test_alternate_email_added_twice_sends_one_code(client):
    token, data = signed_up(client)
    answers = [
        ok(
            post(
                client,
                "/Parent/auth/AddAltEmail",
                {"email": "work.ann@example.org"},
                token,
                **{"idempotency-key": "alt-1"},
            )
        )
        for _ in range(2)
    ]
    assert answers[0]["data"] == answers[1]["data"]  # no "wait before a new code" refusal
    assert _count(ParentAltEmail, ParentAltEmail.email == "work.ann@example.org") == 1


def test_profile_answer_kept_for_a_repeat_holds_no_session_token(client):
    token, data = signed_up(client)
    body = {"first_name": "Ann", "last_name": "Dubé", "phone": data.get("phone") or "613-555-0142"}
    profile = get(client, "/Parent/user/GetUserDetails", token).json()["data"]
    body["phone"] = profile["phone"]
    for _ in range(2):
        answer = ok(
            post(
                client, "/Parent/auth/EditProfile", body, token, **{"idempotency-key": "profile-1"}
            )
        )
        assert answer["data"]["token"] == token and answer["data"]["last_name"] == "Dubé"
    with session_scope() as session:
        stored = session.exec(select(FormSubmission).where(FormSubmission.key == "profile-1"))
        assert all(token not in row.result for row in stored)


def test_a_key_is_for_one_action_and_has_a_shape(client):
    token, _ = signed_up(client)
    ok(post(client, "/Parent/user/AddChild", _child_body(), token, **{"idempotency-key": "k-1"}))
    refused(
        post(
            client,
            "/Parent/user/update_parent_email_noti_details",
            {"newsletter": True},
            token,
            **{"idempotency-key": "k-1"},
        ),
        "This Idempotency-Key was already used for another action",
    )
    body = refused(
        post(
            client,
            "/Parent/user/AddChild",
            _child_body(),
            token,
            **{"idempotency-key": "no spaces allowed"},
        )
    )
    assert body["data"] == {"field": "idempotency_key"}
    assert len(_children(client, token)) == 1


def test_a_refused_submission_keeps_no_key(client):
    """A submission that fails is not remembered: fixed and sent again, it goes through."""
    token, _ = signed_up(client)
    refused(
        post(
            client,
            "/Parent/user/AddChild",
            _child_body(first_name="Zoe2"),
            token,
            **{"idempotency-key": "retry-1"},
        )
    )
    ok(
        post(
            client, "/Parent/user/AddChild", _child_body(), token, **{"idempotency-key": "retry-1"}
        )
    )
    assert len(_children(client, token)) == 1


def test_two_parents_may_use_the_same_key(client):
    token_a, _ = signed_up(client)
    token_b, _ = signed_up(client)
    for token in (token_a, token_b):
        ok(
            post(
                client, "/Parent/user/AddChild", _child_body(), token, **{"idempotency-key": "same"}
            )
        )
        assert len(_children(client, token)) == 1
    assert _count(Child, Child.first_name == "Zoe") >= 2


def test_the_same_submission_sent_in_parallel_is_recorded_once(client):
    """Two workers answering the same double tap at once: the parent's row is locked first,
    so the second waits for the first and answers what it answered."""
    from concurrent.futures import ThreadPoolExecutor

    token, _ = signed_up(client)

    def send(_):
        return post(
            client,
            "/Parent/user/AddChild",
            _child_body(),
            token,
            **{"idempotency-key": "parallel-1"},
        ).json()

    with ThreadPoolExecutor(max_workers=4) as pool:
        answers = list(pool.map(send, range(4)))
    assert all(a["code"] == 1 for a in answers), answers
    assert len({a["data"]["id"] for a in answers}) == 1
    assert len(_children(client, token)) == 1
