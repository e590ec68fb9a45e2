"""Child form (names, city -> school -> teacher, grade, dietary needs), child cards and the
delete warning."""

from __future__ import annotations

from typing import Any

import reflex as rx

from hotmeals.domain.diet import DIETS
from hotmeals.ui.components.dialogs import confirm_dialog, shown_by
from hotmeals.ui.components.form_parts import choice_field, muted, synced_field, waits_for
from hotmeals.ui.components.forms import (
    check_label,
    error_of,
    field_pair,
    once_attrs,
    save_button,
    server_form,
)
from hotmeals.ui.shared_state.children import (
    PREFIX,
    ChildChoiceState,
    ChildFormState,
    ChildrenState,
)
from hotmeals.ui.shared_state.i18n import t


def _name_field(name: str, label_key: str) -> rx.Component:
    return synced_field(
        PREFIX,
        ChildFormState,
        name,
        label_key,
        on_blur=ChildFormState.blur_name(name),
        auto_complete="off",
    )


def _choice(name: str, label_text: Any, placeholder: Any = None, **props: Any) -> rx.Component:
    """City, school, teacher or grade: ``ChildFormState.<name>_id``, its message at the field."""
    return choice_field(
        ChildFormState,
        name,
        PREFIX + name,
        label_text,
        placeholder,
        error=error_of(ChildFormState.errors, name),
        **props,
    )


def _diet_box(code: str) -> rx.Component:
    field_id = f"{PREFIX}diet-{code}"
    return check_label(
        field_id,
        ChildFormState.diets.contains(code),
        lambda checked: ChildFormState.toggle_diet(code, checked),
        t(f"diet_{code}"),
        class_name="hm-diet-choice",
        style={"display": "flex", "alignItems": "center", "gap": "8px", "minHeight": "44px"},
    )


def diet_fieldset() -> rx.Component:
    """The child's dietary needs: one checkbox per mark, under its legend and what it means
    (a preference, not an allergy)."""
    return rx.el.fieldset(
        rx.el.legend(t("ui.diet.legend"), class_name="hm-label"),
        muted(t("ui.diet.help"), id="child-diet-help"),
        rx.flex(*(_diet_box(d.value) for d in DIETS), wrap="wrap", column_gap="16px"),
        class_name="hm-fieldset",
        id="child-diets",
        aria_describedby="child-diet-help",
    )


def child_form(submit_key: str) -> rx.Component:
    form = ChildFormState
    return server_form(
        field_pair(
            _name_field("first_name", "ui.field.child_first_name"),
            _name_field("last_name", "ui.field.child_last_name"),
        ),
        _choice("city", t("ui.field.city"), t("ui.field.choose_city"), options=form.cities),
        _choice(
            "school",
            t("ui.field.school"),
            **waits_for(form.city_id, t("ui.field.city_first"), t("ui.field.choose_school")),
        ),
        _choice(
            "teacher",
            t("ui.field.teacher"),
            **waits_for(form.school_id, t("ui.field.school_first"), t("ui.field.choose_teacher")),
        ),
        _choice("grade", t("ui.field.grade"), t("ui.field.choose_grade")),
        diet_fieldset(),
        save_button(form.busy, text=t(submit_key), id="child-submit", turn=form.turn),
        on_submit=form.save,
        width="100%",
    )


def delete_child_dialog() -> rx.Component:
    """docs/product.md §8: the warning dialog for deletions is titled 'Are you sure?'."""
    return confirm_dialog(
        title=t("ui.child.delete_title"),
        description=rx.fragment(
            t("ui.child.delete_text_1"),
            " ",
            rx.el.strong(ChildrenState.delete_name),
            " ",
            t("ui.child.delete_text_2"),
        ),
        confirm_label=t("ui.child.delete_confirm"),
        **shown_by(ChildrenState, "delete_open"),
        on_confirm=ChildrenState.confirm_delete,
        busy=ChildrenState.busy,
        turn=ChildrenState.turn,
        confirm_id="child-delete-confirm",
    )


def _detail(icon: str, text: rx.Var) -> rx.Component:
    return rx.hstack(
        rx.icon(icon, size=14, aria_hidden="true", color=rx.color("gray", 10), flex_shrink="0"),
        muted(text),
        spacing="2",
        align="center",
    )


def _kid_button(
    icon: str, label: Any, on_click: Any, kid: rx.Var, color_scheme: str | None = None, **attrs: Any
) -> rx.Component:
    """One action of a child's card, named with the child for screen readers."""
    scheme = {"color_scheme": color_scheme} if color_scheme is not None else {}
    return rx.button(
        rx.icon(icon, size=14, aria_hidden="true"),
        label,
        variant="soft",
        size="2",
        **scheme,
        on_click=on_click,
        aria_label=label + " " + kid["name"],
        **attrs,
    )


def child_card(kid: rx.Var) -> rx.Component:
    is_default = kid["is_default"] != ""
    return rx.card(
        rx.vstack(
            rx.hstack(
                rx.avatar(fallback=kid["initials"], radius="full", size="3", color_scheme="orange"),
                rx.vstack(
                    rx.heading(kid["name"], as_="h3", size="4"),
                    rx.cond(is_default, rx.badge(t("ui.child.default"), color_scheme="grass")),
                    spacing="1",
                ),
                spacing="3",
                align="center",
            ),
            rx.cond(
                kid["major"] != "",
                rx.badge(
                    rx.icon("triangle-alert", size=14, aria_hidden="true"),
                    t("ui.child.major_allergy"),
                    t("checkout.colon"),  # French puts a no-break space before the colon
                    kid["major"],
                    color_scheme="red",
                    variant="solid",
                    size="2",
                    class_name="hm-major-allergy",
                    white_space="normal",
                ),
            ),
            _detail("school", kid["school"]),
            _detail("user", kid["teacher"] + " · " + kid["grade"]),
            _detail(
                "shield-alert",
                rx.cond(kid["allergies"] != "", kid["allergies"], t("ui.child.no_allergies")),
            ),
            rx.cond(
                kid["diets"] != "",
                _detail("leaf", t("ui.diet.legend") + t("checkout.colon") + kid["diets"]),
            ),
            rx.flex(
                _kid_button("pencil", t("ui.common.edit"), ChildChoiceState.edit(kid["id"]), kid),
                _kid_button(
                    "shield-alert",
                    t("ui.child.allergies"),
                    ChildChoiceState.allergies(kid["id"]),
                    kid,
                ),
                rx.cond(
                    is_default,
                    rx.fragment(),
                    _kid_button(
                        "star",
                        t("ui.child.make_default"),
                        ChildrenState.set_default(kid["id"]),
                        kid,
                        color_scheme="gray",
                        custom_attrs=once_attrs(ChildrenState.turn),
                    ),
                ),
                _kid_button(
                    "trash-2",
                    t("ui.common.delete"),
                    ChildrenState.ask_delete(kid["id"], kid["name"]),
                    kid,
                    color_scheme="red",
                ),
                spacing="2",
                wrap="wrap",
            ),
            spacing="3",
        ),
        size="2",
        width="100%",
    )
