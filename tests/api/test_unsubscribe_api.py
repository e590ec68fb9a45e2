"""The reminder e-mails' unsubscribe link (/api/v1/mail/unsubscribe): opened with no
api-key and no session; GET asks (a mail scanner opening the link changes nothing), POST turns
that one switch off, in the parent's language; a bad token is a page saying so, never a 500."""

from __future__ import annotations

import hashlib
from datetime import date

from hotmeals.db.engine import session_scope
from hotmeals.db.models import ReminderSent
from hotmeals.services import notifications
from tests import factories as f

TOKEN = "t0ken-for-the-unsubscribe-test-0001"


def _parent_with_link(kind: str = "order_reminder", lang: str = "fr") -> int:
    with session_scope() as s:
        parent = f.make_parent(s, language=lang)
        s.add(
            ReminderSent(
                parent_id=parent.id,
                kind=kind,
                for_date=date(2026, 3, 11),
                token_hash=hashlib.sha256(TOKEN.encode()).hexdigest(),
            )
        )
        return parent.id


def _prefs(parent_id: int) -> notifications.Preferences:
    with session_scope() as s:
        return notifications.get_preferences(session=s, parent_id=parent_id)


def test_get_asks_and_post_turns_that_switch_off(client):
    parent_id = _parent_with_link()
    page = client.get("/api/v1/mail/unsubscribe", params={"token": TOKEN})
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "rappel de commande" in page.text and "Me désabonner" in page.text
    assert _prefs(parent_id).order_reminder is True  # opening the link changes nothing
    done = client.post("/api/v1/mail/unsubscribe", data={"token": TOKEN})
    assert done.status_code == 200 and "vous ne recevrez plus" in done.text
    prefs = _prefs(parent_id)
    assert prefs.order_reminder is False and prefs.cutoff_reminder is True
    again = client.post("/api/v1/mail/unsubscribe", data={"token": TOKEN})
    assert again.status_code == 200  # repeat-safe
    with session_scope() as s:
        s.query(ReminderSent).filter(ReminderSent.parent_id == parent_id).delete()


def test_a_bad_token_is_a_page_saying_so(client):
    for token in ("", "short", "x" * 40, "é" * 300):
        page = client.get("/api/v1/mail/unsubscribe", params={"token": token})
        assert page.status_code == 404, page.text
        done = client.post("/api/v1/mail/unsubscribe", data={"token": token})
        assert done.status_code == 404, done.text
    page = client.get("/api/v1/mail/unsubscribe", params={"token": "x" * 40})
    assert "not valid" in page.text
