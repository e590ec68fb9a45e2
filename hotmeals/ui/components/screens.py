"""Screen frames: the focused screens without header and footer (sign-in, sign-up, add-child,
allergy-profile, parent-edit-profile, edit-child: docs/product.md §2), and the guard that renders a
logged-in page only once the session is checked and the profile loaded."""

from __future__ import annotations

from typing import Any

import reflex as rx

from hotmeals.ui.components.form_parts import loading_block, muted
from hotmeals.ui.components.forms import link_button
from hotmeals.ui.components.layout import (
    BAR,
    CENTRED,
    COLUMN,
    SCREEN_COLUMN,
    brand,
    language_switch,
    page,
    parent_header,
    pending_header,
    static,
)
from hotmeals.ui.components.panels import column
from hotmeals.ui.shared_state.auth import AuthState
from hotmeals.ui.shared_state.i18n import I18nState, t


def loading_screen() -> rx.Component:
    """What a guarded page shows while the session is checked: no header, no content, a spinner
    and the word "Loading…"."""
    return rx.center(
        rx.vstack(
            rx.spinner(size="3"),
            # Visible: a parent on a slow line sees the page answer at once (the first paint).
            muted(t("ui.common.loading")),
            align="center",
            role="status",
        ),
        min_height="100vh",
        lang=I18nState.html_lang,
        # Nothing to paint before the scripts: the page starts them at once (ui/first_paint.py).
        custom_attrs={"data-hm-placeholder": ""},
    )


def parent_only(content: rx.Component) -> rx.Component:
    """docs/product.md §2: nothing protected before hydration, and the shell renders nothing
    until the profile has loaded (``AuthState.is_parent`` is set only by a profile load)."""
    return signed_in(content, loading_screen())


def signed_in(content: rx.Component, waiting: rx.Component) -> rx.Component:
    """``content`` once the session is checked and the parent's profile loaded, ``waiting``
    until then (and in the prerendered page)."""
    return rx.cond(rx.State.is_hydrated & AuthState.is_parent, content, waiting)


def skeleton() -> rx.Component:
    """Where a guarded page's data will be while the session is checked: gray bars, no text
    but "Loading…" for screen readers."""

    def bar(width: str, height: str) -> rx.Component:
        return rx.el.div(class_name="hm-skeleton-bar", style={"width": width, "height": height})

    return column(
        rx.el.span(t("ui.common.loading"), class_name="sr-only"),
        bar("60%", "36px"),
        bar("100%", "160px"),
        bar("100%", "120px"),
        role="status",
        spacing="4",
        id="page-skeleton",
    )


def session_only(content: rx.Component) -> rx.Component:
    """For /add-child and /allergy-profile: a parent or a sign-up in progress."""
    ready = rx.State.is_hydrated & ((AuthState.status == "parent") | (AuthState.status == "signup"))
    return rx.cond(ready, content, loading_screen())


def top_bar() -> rx.Component:
    """The slim bar of a focused screen: brand and the language switch."""
    return rx.flex(brand(), rx.spacer(), language_switch(), **BAR, width="100%")


def back_link(href: str, label_key: str) -> rx.Component:
    return rx.link(
        rx.icon("arrow-left", size=16, aria_hidden="true"),
        t(label_key),
        href=href,
        size="2",
        weight="medium",
        class_name="hm-icon-link",
        margin_bottom="12px",
    )


def focus_screen(
    *children: Any,
    illustration: str,
    aside_title: Any,
    aside_text: Any,
    back_href: str | None = None,
    back_key: str = "ui.common.back",
) -> rx.Component:
    """Two columns on desktops (a warm panel with an illustration, then the form); on phones
    the form alone under a slim bar. Header and footer hidden (docs/product.md §2)."""
    aside = rx.box(
        rx.vstack(
            rx.image(
                src=static(illustration),
                alt="",
                width="100%",
                max_width="360px",
                height="auto",
                loading="lazy",
            ),
            rx.text(aside_title, as_="p", size="6", weight="bold", text_align="center"),
            muted(aside_text, size="3", text_align="center"),
            align="center",
            spacing="4",
            max_width="400px",
        ),
        class_name="hm-aside",
    )
    return page(
        rx.box(
            top_bar(),
            rx.grid(
                aside,
                rx.flex(
                    rx.box(
                        back_link(back_href, back_key) if back_href else rx.fragment(),
                        *children,
                        width="100%",
                        max_width="480px",
                    ),
                    justify="center",
                    align="start",
                    padding_x="16px",
                    padding_y=rx.breakpoints(initial="8px", md="40px"),
                ),
                columns=rx.breakpoints(initial="1", md="2"),
                **CENTRED,
                width="100%",
                spacing="6",
                padding_bottom="48px",
            ),
            width="100%",
        ),
        chrome=False,
    )


def screen_heading(title: Any, subtitle: Any | None = None, id_: str | None = None) -> Any:
    return rx.vstack(
        rx.heading(title, as_="h1", size=rx.breakpoints(initial="7", md="8"), id=id_),
        muted(subtitle, size="3") if subtitle is not None else rx.fragment(),
        spacing="2",
        margin_bottom="20px",
    )


def plain_screen(
    *children: Any,
    back_href: str = "/edit-profile",
    back_key: str = "ui.common.back_to_profile",
    width: str = "720px",
) -> Any:
    """A logged-in focused screen (parent-edit-profile, edit-child, school year): slim bar,
    one column; shown to a signed-in parent only (``parent_only``)."""
    return parent_only(
        page(
            top_bar(),
            rx.box(
                back_link(back_href, back_key),
                *children,
                **COLUMN | {"max_width": width},
                padding_top="8px",
                padding_bottom="48px",
                width="100%",
            ),
            chrome=False,
        )
    )


def screen_intro(title: Any, intro: Any) -> tuple[rx.Component, rx.Component]:
    """A logged-in screen's h1 and the gray line under it."""
    return (
        rx.heading(title, as_="h1", size="7"),
        muted(intro, size=None),
    )


def missing_notice(title: Any, message: Any, id_: str, **props: Any) -> rx.Component:
    """The screen's h1 and why there is nothing to show (an order or receipt not found)."""
    return rx.vstack(
        rx.heading(title, as_="h1", size="7"),
        muted(message, size=None, id=id_),
        **props,
    )


def parent_screen(
    *children: Any,
    frame: tuple[rx.Component, ...] = (),
    spacing: str = "4",
    max_width: str = "720px",
    show_cart: bool = True,
    **props: Any,
) -> rx.Component:
    """A logged-in screen with the site's header and footer: one centred column.

    The page's frame paints before the session check answers (for a fast first paint; a deliberate
    departure from docs/product.md §2 "the shell renders nothing", documented there): the
    header bar with the brand alone, the screen's ``frame`` (its heading and intro: catalog
    text, nothing of the parent's) and a skeleton. The parent's header and ``children`` render
    only once the check has answered for a parent; a visitor is sent to sign-in by the
    page's on_load as before."""
    return page(
        rx.vstack(
            *frame,
            signed_in(rx.fragment(*children), skeleton()),
            spacing=spacing,
            **SCREEN_COLUMN | {"max_width": max_width},
            # The footer starts below the first screen, skeleton or data: nothing on screen
            # moves when the data replaces the skeleton (no layout shift).
            min_height="100vh",
            **props,
        ),
        header=signed_in(parent_header(show_cart=show_cart), pending_header()),
    )


def message_with_link(message: Any, message_id: str, link_text: Any, href: Any) -> rx.Component:
    """Why the screen has nothing to show, and the soft button to where there is."""
    return rx.vstack(
        rx.text(message, id=message_id),
        link_button(link_text, href=href, variant="soft"),
        spacing="3",
    )


def back_button(
    label: Any, on_click: Any, *, type_: str | None = "button", **props: Any
) -> rx.Component:
    """A step back inside one screen (to the sign-in, to the settings menu)."""
    typed = {"type": type_} if type_ is not None else {}
    return rx.button(
        rx.icon("arrow-left", size=14, aria_hidden="true"),
        label,
        **typed,
        variant="ghost",
        size="2",
        on_click=on_click,
        **props,
    )


def child_or_missing(
    loading: Any, missing: Any, missing_title: Any, content: rx.Component
) -> rx.Component:
    """A screen of one chosen child (edit child, allergy profile): a spinner while it loads,
    "child not found" and the way back to the profile when the child is not there, else
    ``content``."""
    return rx.cond(
        loading,
        loading_block(),
        rx.cond(
            missing,
            rx.vstack(
                screen_heading(missing_title),
                rx.text(t("child_not_found")),
                rx.link(t("ui.common.back_to_profile"), href="/edit-profile"),
            ),
            content,
        ),
    )
