"""The header's menus (the parent's account menu, the visitor's phone menu) as native
disclosures: a ``<details>`` whose ``<summary>`` opens a panel of buttons.

Radix's DropdownMenu, with the positioning library it brings, was about 15 KiB of every first
screen for two small lists. A disclosure is what WAI-ARIA recommends for site navigation
anyway: the summary is one Tab stop that says whether it is expanded, the items are ordinary
buttons in Tab order, and it opens before the page is live. ``assets/forms.js`` (part 6)
closes an open menu on Escape (focus back on its summary), on a tap or a focus outside it, and
once one of its items is chosen (focus back on the summary, so a dialog the item opens gives
the focus back there when it closes).
"""

from __future__ import annotations

from typing import Any

import reflex as rx

from hotmeals.ui.components.icons import icon as svg_icon


def disclosure_menu(
    trigger: list[rx.Component],
    *items: rx.Component,
    trigger_id: str,
    label: Any,
    class_name: str = "",
    trigger_attrs: dict[str, Any] | None = None,
) -> rx.Component:
    """``trigger`` is what the summary shows; ``label`` its accessible name."""
    return rx.el.details(
        rx.el.summary(
            *trigger,
            id=trigger_id,
            aria_label=label,
            class_name="hm-menu-trigger",
            custom_attrs=trigger_attrs or {},
        ),
        rx.el.div(*items, class_name="hm-menu-panel"),
        class_name=f"hm-menu {class_name}".strip(),
    )


def menu_button(
    label: Any,
    on_click: Any,
    icon: str | None = None,
    class_name: str = "",
    **props: Any,
) -> rx.Component:
    """One item: a button with an icon and its label."""
    content = [rx.el.span(label)]
    if icon:
        content.insert(0, svg_icon(icon, size=16, aria_hidden="true"))
    return rx.el.button(
        *content,
        type="button",
        on_click=on_click,
        class_name=f"hm-menu-item {class_name}".strip(),
        **props,
    )


def menu_separator(class_name: str = "") -> rx.Component:
    return rx.el.hr(class_name=f"hm-menu-sep {class_name}".strip())
