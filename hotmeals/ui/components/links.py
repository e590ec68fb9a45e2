"""Which app routes exist, so a link to a screen that is not built yet answers with the
'Under development' info toast (docs/product.md §8) instead of a 404.
``hotmeals/ui/routes.py`` marks every route it registers; pages are evaluated after
registration, so components can ask."""

from __future__ import annotations

from typing import Any

import reflex as rx

from hotmeals.ui.shared_state.i18n import t

_READY: set[str] = set()


def mark_ready(route: str) -> None:
    _READY.add("/" + route.strip("/"))


def is_ready(route: str) -> bool:
    return "/" + route.strip("/") in _READY


def app_link(*children: Any, href: str, **props: Any) -> rx.Component:
    """A link to ``href``, or (while that screen is not built) a button with the toast."""
    if is_ready(href):
        return rx.link(*children, href=href, **props)
    return rx.el.button(
        *children,
        type="button",
        on_click=rx.toast.info(t("ui.under_development")),
        class_name="hm-linklike",
        **{k: v for k, v in props.items() if k not in ("underline",)},
    )
