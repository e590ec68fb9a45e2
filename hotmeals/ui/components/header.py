"""The logged-in header (docs/product.md §2): book meal, contact us, the profile menu (edit
profile, manage notification, change password, change language, logout), the logout dialog, and on
/edit-profile the Cart and Cancel Cart counts. Also the visitor's phone menu and the CMS dialog
the footer opens for visitors."""

from __future__ import annotations

from typing import Any

import reflex as rx
from reflex.vars.number import NumberVar

from hotmeals.settings import get_settings
from hotmeals.ui.components.dialogs import confirm_dialog, shown_by, title_bar
from hotmeals.ui.components.disclosure import disclosure_menu, menu_button, menu_separator
from hotmeals.ui.components.forms import link_button
from hotmeals.ui.components.icons import icon as svg_icon
from hotmeals.ui.components.links import is_ready
from hotmeals.ui.components.panels import column, faq_fold
from hotmeals.ui.shared_state.auth import AuthState
from hotmeals.ui.shared_state.content import ContentState
from hotmeals.ui.shared_state.edit_profile import EditProfileState
from hotmeals.ui.shared_state.i18n import I18nState, t, t_count
from hotmeals.ui.shared_state.settings import LanguageState
from hotmeals.ui.shared_state.steps import (
    CHANGE_PASSWORD,
    CONTACT,
    NOTIFICATIONS,
    SETTINGS,
    SETTINGS_MENU,
)

GRAY_12 = rx.color("gray", 12)
BOOK_MEAL_ROUTE = "/edit-profile/meal-detailed"  # the Book meal screen
STANDING_ROUTE = "/standing-orders"  # the standing orders screen
PROFILE_ROUTE = "/edit-profile/parent-edit-profile"  # the parent's own details

# The account menu's entries: its label's catalog key, where it goes, its icon and its id.
ACCOUNT_SCREENS = (  # screens of their own
    ("ui.header.my_orders", "/edit-profile/order-history", "receipt-text", "menu-my-orders"),
    ("standing_ui.menu", STANDING_ROUTE, "repeat", "menu-standing-orders"),
    ("ui.header.child_away", "/edit-profile/child-away", "calendar-x", "menu-child-away"),
    ("ui.header.family_credit", "/edit-profile/family-credit", "wallet", "menu-family-credit"),
    ("ui.header.edit_profile", PROFILE_ROUTE, "user-pen", "menu-edit-profile"),
)
SETTINGS_STEPS = (  # steps of the /edit-profile settings
    ("ui.header.manage_notification", NOTIFICATIONS, "bell", "menu-notifications"),
    ("ui.header.change_password", CHANGE_PASSWORD, "key-round", "menu-change-password"),
)


def avatar(size: Any = "2") -> rx.Component:
    return rx.avatar(
        src=AuthState.profile_image,
        fallback=AuthState.avatar_initials,
        size=size,
        radius="full",
        # Decorative (the name is beside it or in the button's label). An attribute: as a
        # keyword, Reflex made ``alt`` a CSS property and the picture had no alt at all.
        custom_attrs={"alt": ""},
    )


def _count_link(
    label_key: str, name_key: str, count: NumberVar, route: str, icon: str, id_: str
) -> rx.Component:
    # The name says what and how many, whatever is hidden at a phone's width: "Cart, 0 items"
    # and "Cancel cart, 0 items", never two bare "0 items".
    name = t(name_key) + ", " + count.to_string() + " " + t_count("ui.header.items", count)
    content = [
        svg_icon(icon, size=18, aria_hidden="true"),
        rx.el.span(t(label_key), class_name="hm-hide-phone", aria_hidden="true"),
        rx.badge(count, variant="solid", radius="full", size="1", aria_hidden="true"),
    ]
    if is_ready(route):
        return link_button(*content, href=route, id_=id_, variant="soft", size="2", aria_label=name)
    return rx.button(
        *content,
        variant="soft",
        size="2",
        id=id_,
        aria_label=name,
        on_click=rx.toast.info(t("ui.under_development")),
    )


def cart_counts() -> rx.Component:
    """Cart and the meals to cancel with their counts; hidden when no child is active
    (docs/product.md §2)."""
    return rx.cond(
        AuthState.active_child_count > 0,
        rx.hstack(
            _count_link(
                "ui.header.cart",
                "ui.header.cart_name",
                AuthState.shown_cart_count,
                "/edit-profile/cart",
                "shopping-cart",
                "header-cart",
            ),
            # A crossed-out day, not a second bag: the meals the parent is about to cancel,
            # named so (never "Cancel cart", which reads as "empty my cart") and shown only
            # when it holds any.
            rx.cond(
                AuthState.shown_cancel_cart_count > 0,
                _count_link(
                    "ui.header.cancel_cart",
                    "ui.header.cancel_cart_name",
                    AuthState.shown_cancel_cart_count,
                    "/edit-profile/cancel-cart",
                    "calendar-x",
                    "header-cancel-cart",
                ),
            ),
            spacing="2",
        ),
    )


def profile_menu() -> rx.Component:
    """The account menu: who is signed in, then what they can do (docs/product.md §2)."""
    return disclosure_menu(
        [
            avatar("2"),
            rx.el.span(AuthState.first_name, class_name="hm-hide-phone"),
            svg_icon("chevron-down", size=16, aria_hidden="true"),
        ],
        rx.box(
            rx.text(AuthState.full_name, weight="bold", size="2"),
            rx.text(AuthState.email, size="1", color=rx.color("gray", 11)),
            padding="8px 12px",
            class_name="hm-break",
        ),
        menu_separator(),
        # Phones have no room in the bar for these two: they live in the menu.
        menu_button(
            t("ui.header.book_meal"),
            rx.redirect(BOOK_MEAL_ROUTE),
            icon="utensils",
            class_name="hm-show-phone",
            id="menu-book-meal",
        ),
        menu_button(
            t("ui.header.contact_us"),
            EditProfileState.open_step(CONTACT, SETTINGS_MENU),
            icon="mail",
            class_name="hm-show-phone",
            id="menu-contact",
        ),
        menu_separator("hm-show-phone"),
        *[
            menu_button(t(key), rx.redirect(route), icon=icon, id=id_)
            for key, route, icon, id_ in ACCOUNT_SCREENS
        ],
        *[
            menu_button(t(key), EditProfileState.open_step(SETTINGS, step), icon=icon, id=id_)
            for key, step, icon, id_ in SETTINGS_STEPS
        ],
        menu_button(
            t("nav.switch_to_other"),
            LanguageState.toggle,
            icon="languages",
            id="menu-language",
            lang=rx.cond(I18nState.is_fr, "en", "fr"),
        ),
        menu_separator(),
        menu_button(
            t("ui.header.logout"),
            AuthState.open_logout,
            icon="log-out",
            class_name="is-danger",
            id="menu-logout",
        ),
        trigger_id="profile-menu",
        label=t("ui.header.account_menu"),
        trigger_attrs={"title": AuthState.full_name},
    )


def logout_dialog() -> rx.Component:
    """docs/product.md §2: 'Logout?' / 'Are you sure you want to log out of your account?'."""
    return confirm_dialog(
        title=t("ui.logout.title"),
        description=t("ui.logout.text"),
        cancel_label=t("ui.logout.cancel"),
        confirm_label=t("ui.logout.confirm"),
        **shown_by(AuthState, "logout_open"),
        on_confirm=AuthState.confirm_logout,
        busy=AuthState.logging_out,
        confirm_id="logout-confirm",
        max_width="420px",
    )


def parent_nav() -> rx.Component:
    link = {"variant": "ghost", "size": "2", "color": GRAY_12}
    return rx.hstack(
        link_button(
            svg_icon("utensils", size=16, aria_hidden="true"),
            t("ui.header.book_meal"),
            href=BOOK_MEAL_ROUTE,
            id_="nav-book-meal",
            **link,
        ),
        rx.button(
            svg_icon("mail", size=16, aria_hidden="true"),
            t("ui.header.contact_us"),
            on_click=EditProfileState.open_step(CONTACT, SETTINGS_MENU),
            id="nav-contact",
            **link,
        ),
        spacing="4",
        class_name="hm-hide-phone",
    )


def parent_actions(show_cart: bool = False) -> rx.Component:
    return rx.hstack(
        parent_nav(),
        cart_counts() if show_cart else rx.fragment(),
        profile_menu(),
        logout_dialog(),
        spacing="3",
        align="center",
    )


def _new_tab_hint() -> rx.Component:
    return rx.fragment(
        svg_icon("external-link", size=12, aria_hidden="true", margin_left="6px"),
        rx.el.span(" ", t("nav.opens_new_tab"), class_name="sr-only"),
    )


def visitor_menu() -> rx.Component:
    """Phones: Parents, School, Vendor and Sign up behind one button."""
    s = get_settings()
    return disclosure_menu(
        [svg_icon("menu", size=28, aria_hidden="true")],
        menu_button(t("nav.parents"), rx.redirect("/"), id="visitor-menu-parents"),
        menu_button(
            rx.fragment(t("nav.school"), _new_tab_hint()),
            rx.redirect(s.school_site_url, is_external=True),
        ),
        menu_button(
            rx.fragment(t("nav.vendor"), _new_tab_hint()),
            rx.redirect(s.vendor_site_url, is_external=True),
        ),
        menu_separator(),
        menu_button(t("nav.sign_up"), rx.redirect("/sign-up"), id="visitor-menu-sign-up"),
        trigger_id="visitor-menu",
        label=t("ui.header.menu"),
        class_name="hm-show-phone hm-menu-icon",
    )


def in_lang(fr: rx.Var, en: rx.Var) -> rx.Var:
    """A CMS text in the page's language: ``fr`` in French, ``en`` otherwise."""
    return rx.cond(I18nState.is_fr, fr, en)


def cms_title() -> rx.Var:
    """The open CMS page's title ("FAQ" for the questions)."""
    return rx.cond(
        ContentState.slug == "faq",
        t("ui.faq.title"),
        in_lang(ContentState.title_fr, ContentState.title_en),
    )


def cms_html() -> rx.Component:
    """The open CMS page as HTML made on the server (visitor pages load no Markdown
    renderer), or the FAQ's questions."""
    return rx.cond(
        ContentState.slug == "faq",
        faq_list(in_lang(ContentState.faq_fr, ContentState.faq_en), html=True),
        rx.html(in_lang(ContentState.html_fr, ContentState.html_en), class_name="hm-prose"),
    )


def cms_article(title: Any, body: rx.Component) -> rx.Component:
    """A CMS page on a screen of its own: its title the page's h1, or why there is none."""
    return rx.cond(
        ContentState.failed,
        rx.text(t("ui.common.no_data")),
        rx.el.article(
            rx.heading(title, as_="h1", size="7", margin_bottom="16px"),
            body,
            width="100%",
        ),
    )


def cms_dialog() -> rx.Component:
    """The footer's About / Terms / Privacy / FAQ for a visitor, in an accessible dialog."""
    return rx.dialog.root(
        rx.dialog.content(
            title_bar(rx.dialog.title(cms_title(), margin="0"), align="center"),
            rx.cond(
                ContentState.loading,
                rx.center(rx.spinner(size="3"), padding="32px"),
                cms_html(),
            ),
            max_width="720px",
            max_height="85vh",
            overflow_y="auto",
        ),
        open=ContentState.dialog_open,
        on_open_change=ContentState.set_dialog_open,
    )


# The screen's own heading is the page's h1: Markdown headings start one level lower. Code
# renders as plain <pre>/<code> (the default pulls a syntax highlighter into the bundle).
_MARKDOWN_COMPONENTS = {
    "h1": lambda value: rx.heading(value, as_="h2", size="6", margin_y="0.6em"),
    "h2": lambda value: rx.heading(value, as_="h3", size="5", margin_y="0.6em"),
    "h3": lambda value: rx.heading(value, as_="h4", size="4", margin_y="0.5em"),
    "pre": lambda value, **props: rx.el.pre(value),
    "code": lambda value: rx.el.code(value),
}


def markdown(text: rx.Var) -> rx.Component:
    """CMS Markdown: no math (prices like $5.00 ... $7.25 are not LaTeX) and no raw HTML."""
    return rx.markdown(
        text,
        use_math=False,
        use_katex=False,
        use_raw=False,
        use_unwrap_images=False,
        component_map=_MARKDOWN_COMPONENTS,
    )


def faq_list(items: rx.Var, html: bool = False) -> rx.Component:
    def answer(qa: rx.Var) -> rx.Component:
        if html:
            return rx.html(qa["answer_html"], class_name="hm-prose hm-faq-a")
        return rx.box(markdown(qa["answer"]), class_name="hm-prose hm-faq-a")

    return column(
        rx.foreach(
            items,
            lambda qa: faq_fold(qa["question"], answer(qa)),
        ),
        spacing="2",
    )


def footer_page_button(label_key: str, slug: str, step: str) -> rx.Component:
    """A logged-in parent opens the matching /edit-profile step; a visitor, a dialog."""
    return rx.el.button(
        t(label_key),
        type="button",
        on_click=ContentState.open_from_footer(slug, step),
        class_name="hm-linklike hm-footer-link",
    )
