"""The Reflex app: pages, theme, and the /api/v1 FastAPI app mounted beside them."""

from __future__ import annotations

import reflex as rx

from hotmeals.api.app import create_api
from hotmeals.ui.pages.landing import landing
from hotmeals.ui.pages.not_found import not_found

app = rx.App(
    api_transformer=create_api(),
    stylesheets=["/hotmeals.css"],
    head_components=[
        rx.el.meta(name="theme-color", content="#D13415"),
        rx.el.link(rel="icon", href="/parent/logo.svg", type="image/svg+xml"),
        rx.el.meta(
            name="description",
            content="Order hot school meals for your children in Ontario. "
            "Every meal gives back to the school and to nutrition programs.",
        ),
    ],
)

app.add_page(landing, route="/", title="Hot Meals — hot school lunches in Ontario")
app.add_page(not_found, route="404", title="Page not found — Hot Meals")
