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
from fastapi.responses import JSONResponse, Response

from hotmeals.api.calendar_receipts_schemas import (
    FeedOut,
    ReceiptOut,
    RevokedOut,
)
from hotmeals.api.calls import Get, Post, declare_all, handler
from hotmeals.api.deps import (
    ParentClient,
    answer,
    api_router,
    parent_context,
    read_for,
    route,
    tags,
)
from hotmeals.services import calendar_feed, receipts
from hotmeals.services.receipt_pdf import receipt_pdf
from hotmeals.services.transaction import run_in_transaction

router = api_router()
feeds = APIRouter(tags=["Calendar feed"])
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


def _feed_lang(who: ParentClient) -> str | None:
    """The language the feed's link speaks: the request's when it names one
    (Accept-Language), else None (the parent's, ``Parent.language``)."""
    return who.lang if who.client.request.headers.get("accept-language") else None


async def get_feed(who: ParentClient) -> JSONResponse:
    data = await run_in_transaction(
        calendar_feed.get_feed, parent_id=who.parent_id, lang=_feed_lang(who)
    )
    return answer(data, who.lang)


async def rotate_feed(who: ParentClient) -> JSONResponse:
    data = await run_in_transaction(
        calendar_feed.rotate_feed, parent_id=who.parent_id, lang=_feed_lang(who)
    )
    return answer(data, who.lang, "feed.rotated")


async def revoke_feed(who: ParentClient) -> JSONResponse:
    revoked = await run_in_transaction(calendar_feed.revoke_feed, parent_id=who.parent_id)
    return answer({"revoked": revoked}, who.lang)


declare_all(
    router,
    tags("Calendar feed"),
    [
        Get(
            "/Parent/CalendarFeed",
            handler(get_feed),
            answer=FeedOut,
            summary="The parent's private calendar feed address (made on first ask)",
        ),
        Post(
            "/Parent/CalendarFeed/Rotate",
            handler(rotate_feed),
            answer=FeedOut,
            summary="A new feed address; the old one stops working",
        ),
        Post(
            "/Parent/CalendarFeed/Revoke",
            handler(revoke_feed),
            answer=RevokedOut,
            summary="No feed any more: its address stops working",
        ),
    ],
)


# -- receipts -------------------------------------------------------------------------------------


ORDER_Q = Query(None, max_length=20, description="The order number, e.g. HM-000123.")
CHANGE_Q = Query(None, ge=1, le=2**31 - 1, description="An applied change of that order.")
DONATION_Q = Query(None, ge=1, le=2**31 - 1, description="A donation's id (instead of order).")


@route(
    router.get,
    "/Parent/Receipt",
    answer=ReceiptOut,
    tags=RECEIPTS,
    summary="The receipt of an order, of a change of it, or of a donation",
)
async def receipt(
    order: str | None = ORDER_Q,
    change: int | None = CHANGE_Q,
    donation: int | None = DONATION_Q,
    who: ParentClient = Depends(parent_context),
) -> Any:
    return await read_for(who, receipts.receipt, order=order, change=change, donation=donation)


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


# The feed's route keeps its own plain class (its answers are iCal text and a bare 404).
router.include_router(feeds)
