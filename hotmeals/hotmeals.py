"""The Reflex app: pages, theme, and the /api/v1 FastAPI app mounted beside them."""

from __future__ import annotations

import reflex as rx

from hotmeals.api.app import create_api
from hotmeals.api.readiness import lifespan as readiness_lifespan
from hotmeals.jobs.runner import register_background_jobs
from hotmeals.logs import configure_from_env
from hotmeals.mode import check_mode
from hotmeals.ui.lang_paint import LANG_COOKIE_SCRIPT
from hotmeals.ui.routes import register_pages, toaster
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

register_pages(app)  # every screen: route, page, title, on_load (hotmeals/ui/routes.py)
register_background_jobs(app)  # reconciliation, mail, housekeeping: once per cluster
app.register_lifespan_task(readiness_lifespan)  # /api/v1/ready answers 503 once draining
