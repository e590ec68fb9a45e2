"""Every router of /api/v1 and optional mounts (the Converge simulator), registered in one
place so that feature modules never edit app.py."""

from __future__ import annotations

import os

from fastapi import APIRouter, FastAPI

from hotmeals.api import (
    accounts,
    admin,
    booking,
    calendar_receipts,
    cart,
    children,
    closures,
    credit,
    deliveries,
    kitchen,
    menu,
    order_changes,
    orders,
    orders_after,
    payments,
    school_year,
    standing,
    unsubscribe,
)
from hotmeals.converge.configured import settings_from_env
from hotmeals.converge.simulator import create_simulator_app
from hotmeals.settings import get_settings

# In the order they are registered (the OpenAPI document lists them so).
ROUTERS: tuple[APIRouter, ...] = (
    accounts.router,
    children.router,
    payments.router,  # card payments, saved cards, donations
    menu.router,  # meal days, menus, meal details, add-ons
    cart.router,  # cart lines, price tiers, order summary
    orders.router,  # the checkout: AddOrder, OrderDeclined
    booking.router,  # many days at once, repeat a week
    orders_after.router,  # order history, detail, cancels, refunds
    order_changes.router,  # modify an order, move a meal
    unsubscribe.router,  # the reminder e-mails' unsubscribe link
    school_year.router,  # give-back figures, start of the school year
    standing.router,  # standing orders: list, create, pause, end
    calendar_receipts.router,  # calendar feed, receipts
    credit.router,  # family credit: balance, movements, refund choice
    closures.router,  # closed days' choice, a child away
    admin.router,  # the operator: close and reopen a school day (its own key)
    kitchen.router,  # the operator: a school day's production list and labels (its own key)
    deliveries.router,  # the operator: a school day's delivery confirmed (the same key)
)


def include_routers(api: FastAPI) -> None:
    for router in ROUTERS:
        api.include_router(router)
    mount_payment_simulator(api)


def mount_payment_simulator(api: FastAPI) -> None:
    """Serve the local Converge simulator at /converge-sim when no credentials are set."""
    settings = settings_from_env(get_settings().public_base_url)
    if settings.simulated:
        # Declines by cents are off in the demo (a total with HST ending in .59 would decline at
        # random); tests switch them on through /_sim/config. The /_sim/ control endpoints are
        # only mounted when CONVERGE_SIM_CONTROL=1 (the test suite sets it).
        api.mount(
            "/converge-sim",
            create_simulator_app(
                decline_by_cents=os.environ.get("CONVERGE_SIM_DECLINE_BY_CENTS") == "1",
                control=os.environ.get("CONVERGE_SIM_CONTROL") == "1",
            ),
        )
        # First in the routing table: each of the server's own Converge calls is matched at
        # once instead of after every /api/v1 route (no route of those starts with the prefix).
        api.router.routes.insert(0, api.router.routes.pop())
