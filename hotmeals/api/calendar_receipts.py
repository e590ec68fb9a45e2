"""/api/v1 calls of the calendar feed and the receipts (issue 26, items 5 and 6).

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

from fastapi import APIRouter, Depends, Query
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict

from hotmeals.api.account_schemas import FAILURES, Envelope
from hotmeals.api.deps import EnvelopeRoute, ParentClient, parent_context, run
from hotmeals.api.envelope import ok
from hotmeals.i18n import t
from hotmeals.services import calendar_feed, receipts
from hotmeals.services.receipt_pdf import receipt_pdf
from hotmeals.services.transaction import run_in_transaction

router = APIRouter(prefix="/api/v1", route_class=EnvelopeRoute, responses=FAILURES)
feeds = APIRouter(tags=["Calendar feed"])
FEED = ["Calendar feed"]
RECEIPTS = ["Receipts"]
ICS = "text/calendar; charset=utf-8"


# -- the feed itself (calendar apps) --------------------------------------------------------------


@feeds.get(
    "/calendar/{token}.ics",
    summary="The family's calendar feed (iCal), from its private link",
    response_class=Response,
    responses={200: {"content": {"text/calendar": {}}}, 404: {"description": "No such feed."}},
)
async def calendar(token: str) -> Response:
    body = await run_in_transaction(calendar_feed.build_feed, token=token)
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


class FeedOut(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "url": "https://meals.example.org/api/v1/calendar/3q2-…-Xw.ics",
                    "webcal_url": "webcal://meals.example.org/api/v1/calendar/3q2-…-Xw.ics",
                    "created_at": "2026-11-26T01:50:00+00:00",
                }
            ]
        }
    )
    url: str
    webcal_url: str
    created_at: str


class RevokedOut(BaseModel):
    revoked: bool


@router.get(
    "/Parent/CalendarFeed",
    tags=FEED,
    summary="The parent's private calendar feed address (made on first ask)",
    response_model=Envelope[FeedOut],
)
async def get_feed(who: ParentClient = Depends(parent_context)):
    data = await run(calendar_feed.get_feed, parent_id=who.parent_id)
    return ok(data, t("success", who.lang))


@router.post(
    "/Parent/CalendarFeed/Rotate",
    tags=FEED,
    summary="A new feed address; the old one stops working",
    response_model=Envelope[FeedOut],
)
async def rotate_feed(who: ParentClient = Depends(parent_context)):
    data = await run(calendar_feed.rotate_feed, parent_id=who.parent_id)
    return ok(data, t("feed.rotated", who.lang))


@router.post(
    "/Parent/CalendarFeed/Revoke",
    tags=FEED,
    summary="No feed any more: its address stops working",
    response_model=Envelope[RevokedOut],
)
async def revoke_feed(who: ParentClient = Depends(parent_context)):
    revoked = await run(calendar_feed.revoke_feed, parent_id=who.parent_id)
    return ok({"revoked": revoked}, t("success", who.lang))


# -- receipts -------------------------------------------------------------------------------------


class AmountOut(BaseModel):
    cents: int
    amount: str


class ItemOut(AmountOut):
    label: str


class ChargeOut(AmountOut):
    name: str
    label: str


class LineOut(AmountOut):
    order_line_id: int | None
    meal: str
    size_label: str
    quantity: int
    cancelled_quantity: int
    status: str
    moved_from: str | None
    moved_from_day: str
    special_note: str
    items: list[ItemOut]
    action: str | None = None
    action_label: str | None = None


class DayOut(BaseModel):
    date: str
    day: str
    lines: list[LineOut]


class GroupOut(BaseModel):
    child_id: int
    child_name: str
    days: list[DayOut]


class PaymentOut(AmountOut):
    date: str
    day: str
    card: str
    approval_code: str
    invoice_number: str


class RefundOut(AmountOut):
    refund_id: int | None
    date: str
    day: str
    state: str
    state_label: str


class ChangeLinkOut(BaseModel):
    change_id: int | None
    label: str


class ReceiptOut(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "kind": "order",
                    "number": "HM-000123",
                    "title": "Receipt",
                    "date": "2026-11-24",
                    "day": "Tuesday, November 24",
                    "parent_name": "Sam Parent",
                    "parent_email": "parent@example.com",
                    "seller": "Hot Meals",
                    "seller_email": "support@hotmeals.example",
                    "hst_number": "123456789 RT0001",
                    "hst_label": "HST registration no. 123456789 RT0001",
                    "lang": "en",
                    "order_number": "HM-000123",
                    "groups": [],
                    "charges": [
                        {
                            "name": "meal_net_cents",
                            "label": "Meal net amount",
                            "cents": 1450,
                            "amount": "$14.50",
                        },
                        {
                            "name": "tax_cents",
                            "label": "Tax (HST 13%)",
                            "cents": 189,
                            "amount": "$1.89",
                        },
                        {
                            "name": "total_pay_cents",
                            "label": "Total paid",
                            "cents": 1639,
                            "amount": "$16.39",
                        },
                    ],
                    "total_cents": 1639,
                    "tax_bps": 1300,
                    "payments": [],
                    "refunds": [],
                    "refunded_cents": 0,
                    "refunded": "$0.00",
                    "net_cents": 1639,
                    "net": "$16.39",
                    "giveback": [],
                    "changes": [],
                }
            ]
        }
    )
    kind: str
    number: str
    title: str
    date: str
    day: str
    parent_name: str
    parent_email: str
    seller: str
    seller_email: str
    hst_number: str
    hst_label: str
    lang: str
    order_number: str
    order_id: int | None = None
    status_label: str | None = None
    promo_code: str | None = None
    school: str | None = None
    change_id: int | None = None
    groups: list[GroupOut]
    charges: list[ChargeOut]
    total_cents: int
    tax_bps: int
    payments: list[PaymentOut]
    refunds: list[RefundOut]
    refunded_cents: int
    refunded: str
    net_cents: int
    net: str
    giveback: list[ChargeOut]
    changes: list[ChangeLinkOut]


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
    order: str | None = ORDER_Q,
    change: int | None = CHANGE_Q,
    donation: int | None = DONATION_Q,
    who: ParentClient = Depends(parent_context),
):
    data = await run(
        receipts.receipt,
        parent_id=who.parent_id,
        order=order,
        change=change,
        donation=donation,
        lang=who.lang,
    )
    return ok(data, t("success", who.lang))


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
):
    data = await run(
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
