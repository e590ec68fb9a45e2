"""/api/v1 calls of the calendar feed and the receipts.

- ``GET /api/v1/calendar/{token}.ics``: the family's feed, for calendar apps. No api-key and no
  session: the private link's token is the whole authority (``services/calendar_feed.py``); an
  unknown or revoked token is HTTP 404.
- ``GET /api/v1/Parent/CalendarFeed``, ``POST .../Rotate``, ``POST .../Revoke``: the parent's
  feed address (made on first ask), a new one (the old one stops working), none.
- ``GET /api/v1/Parent/Receipt?order=HM-000123`` (``&change=<id>`` for a change of it, or
  ``?donation=<id>``): the receipt as JSON; ``GET /api/v1/Parent/Receipt.pdf`` with the same
  query: the PDF, in the language of ``Accept-Language``. Only the parent's own receipts:
  anything else is "No receipt found" (code 0).

See docs/api.md.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Query
from fastapi.responses import Response

from hotmeals.api.calendar_receipts_schemas import (
    FeedOut,
    ReceiptOut,
    RevokedOut,
)
from hotmeals.api.deps import (
    CurrentParent,
    ParentClient,
    answer,
    api_router,
    parent_context,
    tags,
)
from hotmeals.api.envelope import Envelope
from hotmeals.services import calendar_feed, receipts
from hotmeals.services.calendar_feed import FeedAddress
from hotmeals.services.receipt_pdf import receipt_pdf
from hotmeals.services.transaction import run_in_transaction

router = api_router()
feeds = APIRouter(tags=["Calendar feed"])
FEED = tags("Calendar feed")
RECEIPTS = tags("Receipts")
ICS = "text/calendar; charset=utf-8"


# -- the feed itself (calendar apps) --------------------------------------------------------------


@feeds.get(
    "/calendar/{token}.ics",
    summary="The family's calendar feed (iCal), from its private link",
    response_class=Response,
    responses={200: {"content": {"text/calendar": {}}}, 404: {"description": "No such feed."}},
)
async def calendar(token: str, lang: str | None = None) -> Response:
    body = await run_in_transaction(calendar_feed.build_feed, token=token, lang=lang)
    if body is None:
        return Response("Not found\n", status_code=404, media_type="text/plain; charset=utf-8")
    return Response(
        body,
        media_type=ICS,
        headers={
            "Content-Disposition": 'inline; filename="hotmeals.ics"',
            "Cache-Control": "private, max-age=300",
            "X-Robots-Tag": "noindex",
        },
    )


def feed_out(feed: FeedAddress) -> dict[str, Any]:
    return {
        "url": feed.url,
        "webcal_url": feed.webcal_url,
        "created_at": feed.created_at.isoformat(),
    }


def _feed_lang(who: ParentClient) -> str | None:
    """The language the feed's link speaks: the request's when it names one
    (Accept-Language), else None (the parent's, ``Parent.language``)."""
    return who.lang if who.client.request.headers.get("accept-language") else None


@router.get(
    "/Parent/CalendarFeed",
    tags=FEED,
    summary="The parent's private calendar feed address (made on first ask)",
    response_model=Envelope[FeedOut],
)
async def get_feed(who: CurrentParent) -> Any:
    feed = await run_in_transaction(
        calendar_feed.get_feed, parent_id=who.parent_id, lang=_feed_lang(who)
    )
    return answer(feed_out(feed), who.lang)


@router.post(
    "/Parent/CalendarFeed/Rotate",
    tags=FEED,
    summary="A new feed address; the old one stops working",
    response_model=Envelope[FeedOut],
)
async def rotate_feed(who: CurrentParent) -> Any:
    feed = await run_in_transaction(
        calendar_feed.rotate_feed, parent_id=who.parent_id, lang=_feed_lang(who)
    )
    return answer(feed_out(feed), who.lang, "feed.rotated")


@router.post(
    "/Parent/CalendarFeed/Revoke",
    tags=FEED,
    summary="No feed any more: its address stops working",
    response_model=Envelope[RevokedOut],
)
async def revoke_feed(who: CurrentParent) -> Any:
    revoked = await run_in_transaction(calendar_feed.revoke_feed, parent_id=who.parent_id)
    return answer({"revoked": revoked}, who.lang)


# -- receipts -------------------------------------------------------------------------------------


ORDER_Q = Query(None, max_length=20, description="The order number, e.g. HM-000123.")
CHANGE_Q = Query(None, ge=1, le=2**31 - 1, description="An applied change of that order.")
DONATION_Q = Query(None, ge=1, le=2**31 - 1, description="A donation's id (instead of order).")


@router.get(
    "/Parent/Receipt",
    tags=RECEIPTS,
    summary="The receipt of an order, of a change of it, or of a donation",
    response_model=Envelope[ReceiptOut],
)
async def receipt(
    *,
    order: str | None = ORDER_Q,
    change: int | None = CHANGE_Q,
    donation: int | None = DONATION_Q,
    who: CurrentParent,
) -> Any:
    data = await run_in_transaction(
        receipts.receipt,
        parent_id=who.parent_id,
        lang=who.lang,
        order=order,
        change=change,
        donation=donation,
    )
    return answer(data, who.lang)


@router.get(
    "/Parent/Receipt.pdf",
    tags=RECEIPTS,
    summary="The same receipt as a PDF",
    response_class=Response,
    responses={200: {"content": {"application/pdf": {}}, "description": "The PDF."}},
)
async def receipt_as_pdf(
    order: str | None = ORDER_Q,
    change: int | None = CHANGE_Q,
    donation: int | None = DONATION_Q,
    who: ParentClient = Depends(parent_context),
) -> Any:
    data = await run_in_transaction(
        receipts.receipt,
        parent_id=who.parent_id,
        order=order,
        change=change,
        donation=donation,
        lang=who.lang,
    )
    return Response(
        receipt_pdf(data),
        media_type="application/pdf",
        headers={
            "Content-Disposition": f'inline; filename="receipt-{data["number"]}.pdf"',
            "Cache-Control": "private, no-store",
        },
    )


# The feed's route answers iCal text and a bare 404, never the envelope.
router.include_router(feeds)
