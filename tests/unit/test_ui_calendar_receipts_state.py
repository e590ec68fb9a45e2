"""The calendar feed card and the receipt page without a browser:
the parent's feed address is made once and shown again, 'Make a new link' replaces it and the
old address then serves nothing; the receipt page shows the parent's own order, a change and
a donation with the stored amounts, switches language, and answers "No receipt found" for
another parent's order number, change or donation; no session gets nothing. The receipt's
figures to the cent and the PDF's contents are tests/api/test_receipts_api.py's (whose
``world`` these tests share)."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

import reflex as rx
from reflex.istate.data import ReflexURL
from sqlmodel import select

from hotmeals.db.engine import session_scope
from hotmeals.db.models import CalendarFeed, Parent
from hotmeals.services import calendar_feed
from hotmeals.services.parents import start_session
from hotmeals.ui.screens.receipt.state import CalendarFeedState, ReceiptState
from hotmeals.ui.shared_state.auth import AuthState
from hotmeals.ui.shared_state.i18n import I18nState
from tests import factories as f
from tests.api.test_receipts_api import world  # noqa: F401 - the receipts' fixture
from tests.unit.test_ui_orders_state import _run, database, sqlite_only  # noqa: F401

BASE = "http://localhost/parent"


async def _root(email: str | None, path: str = "/settings") -> rx.State:
    root = rx.State(_reflex_internal_init=True)
    root.router = dataclasses.replace(root.router, url=ReflexURL(BASE + path))
    if email is not None:
        with session_scope() as session:
            parent = session.exec(select(Parent).where(Parent.email == email)).one()
            token = start_session(session, parent, "tests")
        auth = await root.get_state(AuthState)
        auth.token = token
        await _run(auth.require_parent())
    return root


def _token_of(url: str) -> str:
    return url.partition("?")[0].rsplit("/", 1)[1].removesuffix(".ics")


def _serves(url: str) -> bool:
    with session_scope() as s:
        return calendar_feed.build_feed(s, token=_token_of(url)) is not None


def _feeds(email: str) -> int:
    with session_scope() as s:
        parent = s.exec(select(Parent).where(Parent.email == email)).one()
        return len(s.exec(select(CalendarFeed).where(CalendarFeed.parent_id == parent.id)).all())


@sqlite_only
def test_the_feed_address_is_shown_and_a_new_link_replaces_it(database: Path) -> None:  # noqa: F811
    async def scenario():
        with session_scope() as s:
            email = f.make_parent(s, email="feed-owner@example.com").email
        assert _feeds(email) == 0
        root = await _root(email)
        card = await root.get_state(CalendarFeedState)
        await _run(card.load())
        first = card.url
        assert "/api/v1/calendar/" in first and first.endswith(".ics?lang=en")
        assert card.webcal_url == "webcal://" + first.split("://", 1)[1]
        assert _feeds(email) == 1 and _serves(first)
        await _run(card.load())  # shown again: the same address
        assert card.url == first and _feeds(email) == 1

        card.set_rotate_open(True)
        assert card.rotate_open
        said = await _run(card.rotate())
        assert "New link made. The old one no longer works." in str(said)
        assert card.url != first and not card.rotate_open and not card.busy
        assert _serves(card.url) and not _serves(first)
        assert _feeds(email) == 1

        card.busy = True  # a tap while the new link is made: ignored
        card.set_rotate_open(True)
        assert not card.rotate_open
        assert await _run(card.rotate()) == []
        card.busy = False

    asyncio.run(scenario())


@sqlite_only
def test_no_session_gets_no_feed(database: Path) -> None:  # noqa: F811
    async def scenario():
        with session_scope() as s:
            before = [(r.id, r.token_hash) for r in s.exec(select(CalendarFeed)).all()]
        root = await _root(None)
        card = await root.get_state(CalendarFeedState)
        card.url = "stale"
        await _run(card.load())
        assert card.url == card.webcal_url == ""
        assert await _run(card.rotate()) == []
        with session_scope() as s:
            after = [(r.id, r.token_hash) for r in s.exec(select(CalendarFeed)).all()]
        assert after == before

    asyncio.run(scenario())


@sqlite_only
def test_the_parent_sees_their_order_receipt_in_either_language(database: Path, world) -> None:  # noqa: F811
    async def scenario():
        number, total = world["number"], world["total"]
        root = await _root(world["email"], f"/receipt?order={number}")
        page = await root.get_state(ReceiptState)
        await _run(page.load())
        assert page.loaded and page.missing == ""
        assert (page.kind, page.title, page.number) == ("order", "Receipt", number)
        assert page.order_number == number and page.billed_to.endswith(world["email"])
        assert page.back_href == f"/edit-profile/order-details?id={world['order_id']}"
        total_row = next(c for c in page.charges if c.strong)
        assert total_row.amount == f"${total // 100}.{total % 100:02d}"
        # The lines by child and day, with the add-on and the note; the cancelled one says so.
        kinds = [r.kind for r in page.rows]
        assert kinds.count("child") == 2 and "note" in kinds
        assert ("item", "Add-on: Milk × 2") in [(r.kind, r.label) for r in page.rows]
        assert any("1 cancelled" in r.detail for r in page.rows if r.kind == "line")
        assert [p.amount for p in page.payments][:1] and "A1B2C3" in page.payments[0].label
        # Refunds: the succeeded and the pending one, then what was refunded and the net.
        assert [r.amount for r in page.refunds[:2]] == ["$7.91", "$0.10"]
        assert page.refunds[-1].strong and page.refunds[-1].amount == (
            f"${(total - 791) // 100}.{(total - 791) % 100:02d}"
        )
        assert {g.amount for g in page.giveback} >= {"$3.00"}
        assert [c.href for c in page.changes] == [
            f"/receipt?order={number}&change={world['cut']}",
            f"/receipt?order={number}&change={world['grow']}",
        ]
        download = await _run(page.download_pdf())
        assert len(download) == 1 and f"receipt-{number}.pdf" in str(download[0])

        # French: read again in the new language; the same language again reads nothing.
        (await root.get_state(I18nState)).lang = "fr"
        await _run(page.relang())
        assert page.title == "Reçu"
        assert next(c for c in page.charges if c.strong).label == "Total payé"
        assert any(r.label.startswith("Poulet au beurre") for r in page.rows)

    asyncio.run(scenario())


@sqlite_only
def test_change_and_donation_receipts(database: Path, world) -> None:  # noqa: F811
    async def scenario():
        number = world["number"]
        root = await _root(world["email"], f"/receipt?order={number}&change={world['grow']}")
        page = await root.get_state(ReceiptState)
        await _run(page.load())
        assert page.missing == "" and page.kind == "change"
        assert page.number == f"{number}-C{world['grow']}"
        # The difference before HST, its HST at the order's stored rate, the total charged.
        assert [c.amount for c in page.charges] == ["$7.50", "$0.97", "$8.47"]
        assert [p.amount for p in page.payments] == ["$8.47"]

        root = await _root(world["email"], f"/receipt?order={number}&change={world['cut']}")
        cut = await root.get_state(ReceiptState)
        await _run(cut.load())
        assert cut.missing == "" and cut.payments == []
        assert cut.refunds[-2].amount == "$7.91"  # refunded in all

        root = await _root(world["email"], f"/receipt?donation={world['gift']}")
        gift = await root.get_state(ReceiptState)
        await _run(gift.load())
        assert gift.missing == "" and gift.kind == "donation"
        assert gift.title == "Donation receipt" and gift.school == "Maple Public School"
        assert gift.back_href == "" and [p.amount for p in gift.payments] == ["$5.00"]

    asyncio.run(scenario())


@sqlite_only
def test_another_parent_or_no_session_gets_no_receipt(database: Path, world) -> None:  # noqa: F811
    async def scenario():
        number = world["number"]
        for query in (
            f"order={number}",
            f"order={number}&change={world['cut']}",
            f"donation={world['gift']}",
            "order=HM-000000",
            "order=../etc",
            "",
        ):
            root = await _root(world["other"], f"/receipt?{query}")
            page = await root.get_state(ReceiptState)
            await _run(page.load())
            assert page.loaded and page.missing == "No receipt found", query
            assert page.number == "" and page.rows == [] and page.charges == []
            assert await _run(page.download_pdf()) == []
        root = await _root(world["email"], f"/receipt?order={world['unpaid']}")
        unpaid = await root.get_state(ReceiptState)
        await _run(unpaid.load())
        assert unpaid.missing == "No receipt found"
        (await root.get_state(I18nState)).lang = "fr"
        await _run(unpaid.relang())
        assert unpaid.missing == "Aucun reçu trouvé"

        root = await _root(None, f"/receipt?order={number}")
        page = await root.get_state(ReceiptState)
        await _run(page.load())
        assert not page.loaded and page.number == "" and page.missing == ""
        assert await _run(page.download_pdf()) == []

    asyncio.run(scenario())
