"""The Reflex app: pages, theme, and the /api/v1 FastAPI app mounted beside them."""

from __future__ import annotations

import reflex as rx

from hotmeals.api.app import create_api
from hotmeals.api.readiness import lifespan as readiness_lifespan
from hotmeals.jobs.runner import register_background_jobs
from hotmeals.logs import configure_from_env
from hotmeals.mode import check_mode
from hotmeals.ui.lang_paint import LANG_COOKIE_SCRIPT
from hotmeals.ui.pages.booking_routes import register_booking_pages
from hotmeals.ui.pages.checkout_routes import register_checkout_pages
from hotmeals.ui.pages.not_found import not_found
from hotmeals.ui.pages.order_changes_routes import register_order_change_pages
from hotmeals.ui.pages.orders_routes import register_order_pages
from hotmeals.ui.pages.payments_routes import register_payment_pages
from hotmeals.ui.pages.receipt import register_receipt_pages
from hotmeals.ui.pages.school_year import register_school_year_pages
from hotmeals.ui.pages.standing_orders import register_standing_pages
from hotmeals.ui.routes import register_pages, toaster
from hotmeals.ui.state.i18n import t
from hotmeals.web.cache import cache_headers
from hotmeals.web.guard import backend_entry
from hotmeals.web.lang_pages import lang_pages

configure_from_env()  # HOTMEALS_LOG_LEVEL (README "Settings")
check_mode()  # production refuses to start without the real thing; demo says it is one

app = rx.App(
    # Around Reflex's app: a page in the parent's language (hotmeals.web.lang_pages.py), then
    # the cache headers of the built frontend files (hotmeals.web.cache.py). Last, the guard
    # in front of everything (body sizes, the upload's session, security headers), which also
    # hands /api/v1 straight to the FastAPI app (hotmeals.web.guard.backend_entry).
    api_transformer=[lang_pages, cache_headers, backend_entry(create_api())],
    stylesheets=["/hotmeals.css", "/ui.css", "/booking.css"],
    toaster=toaster(),
    head_components=[
        # The stored language mirrored in a cookie, so the server answers a page in it
        # (hotmeals/ui/lang_paint.py). First in the head: it runs before the stylesheet.
        rx.el.script(LANG_COOKIE_SCRIPT),
        rx.el.meta(name="theme-color", content="#D13415"),
        rx.el.link(rel="icon", href="/parent/logo.svg", type="image/svg+xml"),
        # One tap, one submission: buttons marked data-hm-once (components/forms.once_attrs).
        rx.el.script(src="/parent/forms.js", defer=True),
        rx.el.meta(
            name="description",
            content="Order hot school meals for your children in Ontario. "
            "Every meal gives back to the school and to nutrition programs.",
        ),
    ],
)

register_pages(app)  # every screen and its route (hotmeals/ui/routes.py), landing included
register_payment_pages(app)  # donate and payment methods (hotmeals/ui/pages/payments_routes.py)
register_booking_pages(app)  # Book meal (hotmeals/ui/pages/booking_routes.py)
register_checkout_pages(app)  # cart, order summary, payment (ui/pages/checkout_routes.py)
register_order_pages(app)  # order history, order details, cancel cart (ui/pages/orders_routes.py)
register_order_change_pages(app)  # modify order, manage one meal (order_changes_routes.py)
register_school_year_pages(app)  # the start of the school year (ui/pages/school_year.py)
register_standing_pages(app)  # standing orders (hotmeals/ui/pages/standing_orders.py)
register_receipt_pages(app)  # receipts of orders, changes, donations (ui/pages/receipt.py)
app.add_page(not_found, route="404", title=t("title.not_found"))
register_background_jobs(app)  # reconciliation, mail, housekeeping: once per cluster
app.register_lifespan_task(readiness_lifespan)  # /api/v1/ready answers 503 once draining
