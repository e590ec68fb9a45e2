"""Every router of /api/v1 and optional mounts (the Converge simulator), registered in one
place so that feature modules never edit app.py."""

from __future__ import annotations

import importlib
import logging

from fastapi import FastAPI

log = logging.getLogger("hotmeals.api")

# Modules that define ``router`` (an APIRouter). Added here as features land.
ROUTER_MODULES: list[str] = ["hotmeals.api.accounts", "hotmeals.api.children"]
ROUTER_MODULES.append("hotmeals.api.payments")  # card payments, saved cards, donations
ROUTER_MODULES.append("hotmeals.api.menu")  # meal days, menus, meal details, add-ons
ROUTER_MODULES.append("hotmeals.api.cart")  # cart lines, price tiers, order summary
ROUTER_MODULES.append("hotmeals.api.orders")  # the checkout: AddOrder, OrderDeclined
ROUTER_MODULES.append("hotmeals.api.booking")  # many days at once, repeat a week
ROUTER_MODULES.append("hotmeals.api.orders_after")  # order history, detail, cancels, refunds
ROUTER_MODULES.append("hotmeals.api.order_changes")  # modify an order, move a meal
ROUTER_MODULES.append("hotmeals.api.unsubscribe")  # the reminder e-mails' unsubscribe link
ROUTER_MODULES.append("hotmeals.api.school_year")  # give-back figures, start of the school year
ROUTER_MODULES.append("hotmeals.api.standing")  # standing orders: list, create, pause, end
ROUTER_MODULES.append("hotmeals.api.calendar_receipts")  # calendar feed, receipts (issue 26)


def include_routers(api: FastAPI) -> None:
    for name in ROUTER_MODULES:
        module = importlib.import_module(name)
        api.include_router(module.router)
    mount_payment_simulator(api)


def mount_payment_simulator(api: FastAPI) -> None:
    """Serve the local Converge simulator at /converge-sim when no credentials are set."""
    try:
        from hotmeals.payments.configured import settings_from_env
        from hotmeals.payments.simulator import create_simulator_app
    except ImportError:  # payments package not present yet
        return
    import os

    from hotmeals.settings import get_settings

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
