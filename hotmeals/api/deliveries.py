"""/api/v1/Admin/ConfirmDelivery: the vendor's or the school's word that a school day's meals
were handed out, given through the operator (the same as ``python -m hotmeals.admin
confirm-delivery``). Guarded by the admin key (``api/admin.admin_client``). Documented in
docs/api.md "Admin"."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends

from hotmeals.api.admin import ADMIN, admin_client
from hotmeals.api.bodies import openapi_body
from hotmeals.api.deliveries_schemas import ConfirmDeliveryIn, ConfirmDeliveryOut
from hotmeals.api.deps import Client, answer, api_router, json_body, required
from hotmeals.api.envelope import Envelope
from hotmeals.services import deliveries
from hotmeals.services.deliveries import DayDelivered

router = api_router()


def delivered_out(done: DayDelivered) -> dict[str, Any]:
    return {
        "school_id": done.school_id,
        "school": done.school,
        "date": done.day.isoformat(),
        "vendors": [
            {
                "vendor_id": v.vendor_id,
                "vendor": v.vendor,
                "meals": v.meals,
                "confirmed_at": v.confirmed_at.isoformat(),
                "confirmed_by": v.confirmed_by,
                "repeated": v.repeated,
            }
            for v in done.vendors
        ],
        "meals": done.meals,
        "orders_delivered": done.orders_delivered,
        "repeated": done.repeated,
    }


@router.post(
    "/Admin/ConfirmDelivery",
    tags=ADMIN,
    summary="Confirm a school day's meals delivered (one vendor, or every vendor that day)",
    response_model=Envelope[ConfirmDeliveryOut],
    openapi_extra=openapi_body(ConfirmDeliveryIn),
)
async def confirm_delivery(
    admin: Annotated[Client, Depends(admin_client)],
    body: Annotated[ConfirmDeliveryIn, Depends(json_body(ConfirmDeliveryIn))],
) -> Any:
    done = await deliveries.confirm_delivery(
        school=required(body.school, "closure_school_required", "school"),
        day=body.date or "",
        vendor=body.vendor or "",
        actor="operator:api",
    )
    return answer(delivered_out(done), admin.lang)
