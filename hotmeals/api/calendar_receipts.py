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
from hotmeals.services.receipt_rows import (
    Receipt,
    ReceiptCharge,
    ReceiptGroup,
    ReceiptLine,
    ReceiptPayment,
    ReceiptRefund,
)
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


def _charge_out(row: ReceiptCharge) -> dict[str, Any]:
    return {"name": row.name, "label": row.label, "cents": row.cents, "amount": row.amount}


def _line_out(line: ReceiptLine) -> dict[str, Any]:
    return {
        "order_line_id": line.order_line_id,
        "meal": line.meal,
        "size_label": line.size_label,
        "quantity": line.quantity,
        "cancelled_quantity": line.cancelled_quantity,
        "status": line.status,
        "moved_from": line.moved_from.isoformat() if line.moved_from else None,
        "moved_from_day": line.moved_from_day,
        "special_note": line.special_note,
        "items": [
            {"label": item.label, "cents": item.cents, "amount": item.amount} for item in line.items
        ],
        "cents": line.cents,
        "amount": line.amount,
        "action": line.action,  # a change's line: what the change did
        "action_label": line.action_label,
    }


def _group_out(group: ReceiptGroup) -> dict[str, Any]:
    return {
        "child_id": group.child_id,
        "child_name": group.child_name,
        "days": [
            {
                "date": day.on.isoformat(),
                "day": day.day,
                "lines": [_line_out(line) for line in day.lines],
            }
            for day in group.days
        ],
    }


def _payment_out(row: ReceiptPayment) -> dict[str, Any]:
    return {
        "date": row.on.isoformat(),
        "day": row.day,
        "card": row.card,
        "paid_by": row.paid_by,
        "approval_code": row.approval_code,
        "invoice_number": row.invoice_number,
        "cents": row.cents,
        "amount": row.amount,
    }


def _refund_out(row: ReceiptRefund) -> dict[str, Any]:
    return {
        "refund_id": row.refund_id,
        "date": row.on.isoformat(),
        "day": row.day,
        "state": row.state,
        "state_label": row.state_label,
        "cents": row.cents,
        "amount": row.amount,
    }


def receipt_out(receipt: Receipt) -> dict[str, Any]:
    """A receipt as ``GET /Parent/Receipt`` answers it (``ReceiptOut``)."""
    head = receipt.head
    return {
        "kind": head.kind,
        "number": head.number,
        "title": head.title,
        "date": head.on.isoformat(),
        "day": head.day,
        "parent_name": head.parent_name,
        "parent_email": head.parent_email,
        "seller": head.seller,
        "seller_email": head.seller_email,
        "hst_number": head.hst_number,
        "hst_label": head.hst_label,
        "lang": head.lang,
        "order_number": receipt.order_number,
        "order_id": receipt.order_id,
        "status_label": receipt.status_label,
        "promo_code": receipt.promo_code,
        "school": receipt.school,
        "change_id": receipt.change_id,
        "groups": [_group_out(group) for group in receipt.groups],
        "charges": [_charge_out(row) for row in receipt.charges],
        "total_cents": receipt.total_cents,
        "tax_bps": receipt.tax_bps,
        "payments": [_payment_out(row) for row in receipt.payments],
        "refunds": [_refund_out(row) for row in receipt.refunds],
        "refunded_cents": receipt.refunded_cents,
        "refunded": receipt.refunded,
        "net_cents": receipt.net_cents,
        "net": receipt.net,
        "giveback": [_charge_out(row) for row in receipt.giveback],
        "changes": [{"change_id": link.change_id, "label": link.label} for link in receipt.changes],
    }


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
    found = await run_in_transaction(
        receipts.receipt,
        parent_id=who.parent_id,
        lang=who.lang,
        order=order or "",
        change=change,
        donation=donation,
    )
    return answer(receipt_out(found), who.lang)


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
    found = await run_in_transaction(
        receipts.receipt,
        parent_id=who.parent_id,
        order=order or "",
        change=change,
        donation=donation,
        lang=who.lang,
    )
    return Response(
        receipt_pdf(found),
        media_type="application/pdf",
        headers={
            "Content-Disposition": f'inline; filename="receipt-{found.head.number}.pdf"',
            "Cache-Control": "private, no-store",
        },
    )


# The feed's route answers iCal text and a bare 404, never the envelope.
router.include_router(feeds)
