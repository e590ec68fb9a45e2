"""The addresses of the parent app's screens that mail and the calendar feed link to, under
rxconfig's ``frontend_path`` ("/parent"), and the absolute link a mail carries
(``PUBLIC_BASE_URL``)."""

from __future__ import annotations

from urllib.parse import urlencode

from hotmeals.settings import get_settings

BOOK_MEAL_PATH = "/parent/edit-profile/meal-detailed"
CART_PATH = "/parent/edit-profile/cart"
ORDERS_PATH = "/parent/edit-profile/order-history"
ORDER_DETAILS_PATH = "/parent/edit-profile/order-details"
STANDING_PATH = "/parent/standing-orders"


def parent_url(path: str, **query: object) -> str:
    """``path`` of the parent app as an absolute link, with ``query`` (``id=12``)."""
    base = get_settings().public_base_url
    return f"{base}{path}?{urlencode(query)}" if query else f"{base}{path}"


def order_url(order_id: int) -> str:
    """The order's details screen (the screen checks the order is the signed-in parent's)."""
    return parent_url(ORDER_DETAILS_PATH, id=order_id)
