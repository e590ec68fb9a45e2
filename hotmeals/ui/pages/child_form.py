"""Child form (names, city -> school -> teacher, grade), child cards and the delete warning."""

from __future__ import annotations

from typing import Any

import reflex as rx

from hotmeals.ui.components.dialogs import confirm_dialog
from hotmeals.ui.components.forms import (
    error_of,
    name_fields,
    once_attrs,
    save_button,
    select_field,
    server_form,
    text_field,
)
from hotmeals.ui.state.children import (
    PREFIX,
    ChildChoiceState,
    ChildFormState,
    ChildrenState,
)
from hotmeals.ui.state.i18n import t


def _name_field(name: str, label_key: str) -> rx.Component:
    return text_field(
        PREFIX + name,
        name,
        t(label_key),
        error_of(ChildFormState.errors, name),
        value=getattr(ChildFormState, name),
        on_change=getattr(ChildFormState, f"set_{name}"),
        on_blur=ChildFormState.blur_name(name),
        auto_complete="off",
    )


def child_form(submit_key: str) -> rx.Component:
    errors = ChildFormState.errors
    return server_form(
        name_fields(
            _name_field("first_name", "ui.field.child_first_name"),
            _name_field("last_name", "ui.field.child_last_name"),
        ),
        select_field(
            PREFIX + "city",
            t("ui.field.city"),
            error_of(errors, "city"),
            ChildFormState.cities,
            ChildFormState.city_id,
            ChildFormState.set_city,
            t("ui.field.choose_city"),
        ),
        select_field(
            PREFIX + "school",
            t("ui.field.school"),
            error_of(errors, "school"),
            ChildFormState.schools,
            ChildFormState.school_id,
            ChildFormState.set_school,
            rx.cond(
                ChildFormState.city_id == "",
                t("ui.field.city_first"),
                t("ui.field.choose_school"),
            ),
            disabled=ChildFormState.city_id == "",
        ),
        select_field(
            PREFIX + "teacher",
            t("ui.field.teacher"),
            error_of(errors, "teacher"),
            ChildFormState.teachers,
            ChildFormState.teacher_id,
            ChildFormState.set_teacher,
            rx.cond(
                ChildFormState.school_id == "",
                t("ui.field.school_first"),
                t("ui.field.choose_teacher"),
            ),
            disabled=ChildFormState.school_id == "",
        ),
        select_field(
            PREFIX + "grade",
            t("ui.field.grade"),
            error_of(errors, "grade"),
            ChildFormState.grades,
            ChildFormState.grade_id,
            ChildFormState.set_grade,
            t("ui.field.choose_grade"),
        ),
        save_button(
            ChildFormState.busy,
            text=t(submit_key),
            id="child-submit",
            turn=ChildFormState.turn,
        ),
        on_submit=ChildFormState.save,
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
        cancel_label=t("ui.common.cancel"),
        confirm_label=t("ui.child.delete_confirm"),
        open_=ChildrenState.delete_open,
        on_open_change=ChildrenState.set_delete_open,
        on_confirm=ChildrenState.confirm_delete,
        busy=ChildrenState.busy,
        turn=ChildrenState.turn,
        confirm_id="child-delete-confirm",
    )


def _detail(icon: str, text: rx.Var) -> rx.Component:
    return rx.hstack(
        rx.icon(icon, size=14, aria_hidden="true", color=rx.color("gray", 10), flex_shrink="0"),
        rx.text(text, size="2", color=rx.color("gray", 11)),
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
