"""The page shell: skip link, header, main, footer. Components take values, not states,
except the shell's own: the language switch (I18nState) and which header to show (AuthState:
a logged-in parent gets the parent header of ``components/header.py``)."""

from __future__ import annotations

from typing import Any

import reflex as rx

from hotmeals.settings import get_settings
from hotmeals.ui.components.forms import link_button
from hotmeals.ui.components.header import (
    cms_dialog,
    footer_page_button,
    parent_actions,
    visitor_menu,
)
from hotmeals.ui.components.icons import icon as svg_icon
from hotmeals.ui.shared_state.auth import AuthState
from hotmeals.ui.shared_state.i18n import I18nState, t
from hotmeals.ui.shared_state.steps import ABOUT, CONTACT, PRIVACY, TERMS

MAX_WIDTH = "1120px"
# The site's column: centred, at most MAX_WIDTH wide, 16 px from a phone's edges.
CENTRED = {"max_width": MAX_WIDTH, "margin_x": "auto"}
COLUMN = {**CENTRED, "padding_x": "16px"}
# The row at the top of every page (the header's, a focused screen's slim bar).
BAR = {**COLUMN, "padding_y": "12px", "align": "center", "spacing": "4"}
# A logged-in screen's column: the site's across the page, roomier on desktops.
SCREEN_COLUMN = {**COLUMN, "padding_y": rx.breakpoints(initial="16px", md="32px"), "width": "100%"}
PREFIX = "/parent"


def static(path: str) -> str:
    """URL of a file in assets/: the app is served under /parent (links get the prefix from
    the router; plain src attributes do not)."""
    return f"{PREFIX}{path}"


def brand(compact: bool = False) -> rx.Component:
    """The logo and name, a link home. ``compact``: narrow phones show the logo alone (the
    signed-in header's cart, meals to cancel and account menu need the width)."""
    return rx.link(
        rx.hstack(
            rx.image(src=static("/logo.svg"), alt="", width="32px", height="32px"),
            rx.text(
                t("brand.name"),
                weight="bold",
                size="5",
                color=rx.color("gray", 12),
                white_space="nowrap",
                class_name="hm-hide-xs" if compact else None,
            ),
            align="center",
            spacing="2",
        ),
        href="/",
        underline="none",
        aria_label=t("ui.brand.home"),
    )


def language_switch() -> rx.Component:
    return rx.button(
        svg_icon("languages", size=16, aria_hidden="true"),
        # Narrow phones get the language code, so the header never overflows.
        rx.el.span(t("nav.switch_to_other"), class_name="hm-hide-xs"),
        rx.el.span(t("nav.switch_to_other_code"), class_name="hm-show-xs"),
        on_click=I18nState.toggle_lang,
        variant="ghost",
        size="2",
        aria_label=t("nav.switch_to_other_label"),
        id="lang-switch",
    )


def _external(label_key: str, href: str) -> rx.Component:
    return rx.link(
        t(label_key),
        rx.el.span(t("nav.opens_new_tab"), class_name="sr-only"),
        href=href,
        is_external=True,
        color=rx.color("gray", 12),
        weight="medium",
    )


def visitor_nav_links(direction: str = "row") -> rx.Component:
    s = get_settings()
    return rx.flex(
        rx.link(t("nav.parents"), href="/", color=rx.color("gray", 12), weight="medium"),
        _external("nav.school", s.school_site_url),
        _external("nav.vendor", s.vendor_site_url),
        direction=direction,
        spacing="5",
        align="start" if direction == "column" else "center",
    )


def _header_bar(*children: rx.Component) -> rx.Component:
    """The sticky bar at the top of a page with chrome."""
    return rx.el.header(
        rx.flex(*children, **BAR),
        border_bottom=f"1px solid {rx.color('gray', 5)}",
        background_color=rx.color("gray", 1),
        position="sticky",
        top="0",
        z_index="10",
    )


def visitor_header() -> rx.Component:
    return _header_bar(
        brand(),
        rx.spacer(),
        rx.box(visitor_nav_links(), display=["none", "none", "block"]),
        rx.hstack(
            language_switch(),
            # One element each (a link styled as a button): one Tab stop, one role.
            rx.box(
                link_button(t("nav.sign_up"), href="/sign-up", variant="outline"),
                display=["none", "block"],
            ),
            link_button(t("nav.login"), href="/sign-in"),
            rx.box(visitor_menu(), display=["block", "block", "none"]),
            spacing="3",
            align="center",
            # Until the session is known, keep the place but show no visitor buttons: a
            # logged-in parent must not see 'Login' flash before the parent header.
            visibility=rx.cond(AuthState.is_known, "visible", "hidden"),
        ),
    )


def parent_header(show_cart: bool = False) -> rx.Component:
    """The logged-in header (docs/product.md §2); ``show_cart`` on /edit-profile."""
    return _header_bar(brand(compact=True), rx.spacer(), parent_actions(show_cart))


def pending_header() -> rx.Component:
    """The bar of a guarded page while the session is checked: the brand alone, at the parent
    header's height (its account menu is 40 px high: assets/ui.css ``.hm-menu > summary``),
    so nothing moves when that header replaces it."""
    return _header_bar(brand(compact=True), rx.spacer(), rx.box(height="40px"))


def site_header(show_cart: bool = False) -> rx.Component:
    return rx.cond(AuthState.is_parent, parent_header(show_cart), visitor_header())


def footer() -> rx.Component:
    s = get_settings()
    heading = {"size": "2", "weight": "bold", "color": rx.color("gray", 12)}
    link = {"color": rx.color("gray", 11), "size": "2"}
    return rx.el.footer(
        rx.grid(
            rx.vstack(
                brand(),
                rx.text(t("brand.tagline"), size="2", color=rx.color("gray", 11)),
                spacing="2",
            ),
            rx.vstack(
                rx.heading(t("footer.contact"), as_="h2", **heading),
                rx.link(
                    rx.el.span(t("footer.phone_label"), ": ", class_name="sr-only"),
                    s.support_phone,
                    href=f"tel:{s.support_phone.replace(' ', '')}",
                    **link,
                ),
                rx.link(
                    rx.el.span(t("footer.email_label"), ": ", class_name="sr-only"),
                    s.provider_email,
                    href=f"mailto:{s.provider_email}",
                    **link,
                ),
                spacing="2",
            ),
            rx.vstack(
                rx.heading(t("footer.company"), as_="h2", **heading),
                footer_page_button("footer.about", "about", ABOUT),
                footer_page_button("footer.terms", "terms", TERMS),
                footer_page_button("footer.privacy", "privacy", PRIVACY),
                footer_page_button("ui.faq.title", "faq", CONTACT),
                cms_dialog(),
                spacing="2",
                align="start",
            ),
            rx.vstack(
                rx.heading(t("footer.follow"), as_="h2", **heading),
                rx.hstack(
                    *[
                        rx.link(
                            name,
                            rx.el.span(t("nav.opens_new_tab"), class_name="sr-only"),
                            href=url,
                            is_external=True,
                            **link,
                        )
                        for _icon, name, url in s.social_links
                    ],
                    spacing="4",
                    wrap="wrap",
                ),
                spacing="2",
            ),
            columns=rx.breakpoints(initial="1", sm="2", md="4"),
            spacing="6",
            **COLUMN,
            padding_y="32px",
        ),
        rx.text(
            t("footer.rights"),
            size="1",
            color=rx.color("gray", 11),
            text_align="center",
            padding_bottom="24px",
            padding_x="16px",
        ),
        border_top=f"1px solid {rx.color('gray', 5)}",
        background_color=rx.color("gray", 2),
        margin_top="48px",
    )


def demo_banner() -> rx.Component | None:
    """Demo mode (HOTMEALS_MODE, the default) says so on every page: payments are simulated.
    Decided when the pages are built, so production pages carry no trace of it."""
    if get_settings().production:
        return None
    return rx.el.p(
        rx.el.strong(t("demo_banner")),
        role="note",
        aria_label=t("demo_banner_label"),
        id="demo-banner",
        style={
            "margin": "0",
            "padding": "4px 16px",
            "text_align": "center",
            "font_size": "var(--font-size-1)",
            "line_height": "var(--line-height-1)",
            "overflow_wrap": "anywhere",
            "background_color": rx.color("orange", 3),
            "color": rx.color("gray", 12),
            "border_bottom": f"1px solid {rx.color('orange', 6)}",
        },
    )


def skip_link() -> rx.Component:
    return rx.el.a(t("nav.skip_to_content"), href="#main", class_name="skip-link")


def page(*children: rx.Component, header: rx.Component | None = None, chrome: bool = True) -> Any:
    """A page with the visitor header and footer (``chrome=False`` hides both, as docs/product.md §2
    asks for sign-in, sign-up, errors and the like)."""
    # data-hydrated tells tests (and only tests) that event handlers are live.
    body = rx.el.main(
        *children,
        id="main",
        tab_index=-1,
        class_name="hm-main",
        custom_attrs={"data-hydrated": rx.Var.create(rx.State.is_hydrated).to_string()},
    )
    banner = [b for b in (demo_banner(),) if b is not None]
    if not chrome:
        return rx.box(*banner, body, lang=I18nState.html_lang, min_height="100vh")
    return rx.box(
        skip_link(),
        *banner,
        header if header is not None else site_header(),
        body,
        footer(),
        lang=I18nState.html_lang,
        min_height="100vh",
        display="flex",
        flex_direction="column",
    )
