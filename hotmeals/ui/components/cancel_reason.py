"""What the screens that cancel share: the reason select and, for Other, its text, with their
errors (ids ``cancel-reason`` and ``cancel-other``, which the state's ``_ask_sure`` focuses),
the section around them with the button that asks, and the "Are you sure?" that confirms the
cancel."""

from __future__ import annotations

from typing import Any

import reflex as rx

from hotmeals.ui.components.dialogs import confirm_dialog, shown_by
from hotmeals.ui.components.forms import label, native_select, radio_card
from hotmeals.ui.components.panels import column
from hotmeals.ui.shared_state.i18n import t


def _field(label_key: str, field_id: str, control: rx.Component, error: Any) -> rx.Component:
    """A field the cancel requires: its label, ``control`` and the error under it."""
    return rx.box(
        label(t(label_key), field_id),
        control,
        rx.text(error, id=f"{field_id}-error", color=rx.color("red", 11), size="2"),
        class_name="hm-field",
        width="100%",
    )


def _required(field_id: str, error: Any) -> dict[str, Any]:
    """A required control's ARIA: invalid while its ``error`` says so, described by it."""
    return {
        "aria-required": "true",
        "aria-invalid": rx.cond(error != "", "true", "false"),
        "aria-describedby": f"{field_id}-error",
    }


def reason_fields(state: Any) -> rx.Component:
    """The cancel reason (CancelOrderReason) and, for Other, its free text. ``state`` is a
    ``CancelReasonForm`` (the order's details, the cancel cart, one meal)."""
    return column(
        _field(
            "orders_ui.reason",
            "cancel-reason",
            native_select(
                "cancel-reason",
                rx.el.option(t("orders_ui.reason_placeholder"), value=""),
                rx.foreach(state.reasons, lambda r: rx.el.option(r.name, value=r.id)),
                value=state.reason_id,
                on_change=state.set_reason,
                custom_attrs=_required("cancel-reason", state.reason_error),
            ),
            state.reason_error,
        ),
        rx.cond(
            state.other_chosen,
            _field(
                "orders_ui.other_text",
                "cancel-other",
                rx.text_area(
                    id="cancel-other",
                    value=state.other_text,
                    on_change=state.set_other_text,
                    rows="3",
                    size="3",
                    max_length=500,
                    custom_attrs=_required("cancel-other", state.other_error),
                ),
                state.other_error,
            ),
        ),
        refund_to_field(state),
        spacing="2",
    )


def cancel_section(
    state: Any, *before: rx.Component, button: rx.Component, spacing: str
) -> rx.Component:
    """What a cancel asks before "Are you sure?": ``before`` (its title and intro, or its
    total), the reason and where the refund goes (``reason_fields``), then ``button``, which
    asks."""
    return column(*before, reason_fields(state), button, spacing=spacing)


def refund_to_field(state: Any) -> rx.Component:
    """Where this cancel's refund goes: the card that paid or family credit (instant); the
    family's standing choice is picked until the parent picks the other."""

    def option(value: str, key: str) -> rx.Component:
        return radio_card(value, f"cancel-refund-{value}", rx.text(t(key)), flex="1")

    return rx.el.fieldset(
        rx.el.legend(t("credit_ui.refund_to"), class_name="hm-label"),
        rx.radio_group.root(
            rx.flex(
                option("card", "credit_ui.to_card"),
                option("credit", "credit_ui.to_credit_short"),
                spacing="2",
                direction=rx.breakpoints(initial="column", sm="row"),
                width="100%",
            ),
            value=state.refund_to,
            on_change=state.set_refund_to,
            name="refund_to",
            size="3",
        ),
        class_name="hm-fieldset",
        width="100%",
    )


def cancel_sure_dialog(
    state: Any,
    description: Any,
    *,
    on_confirm: Any,
    busy: Any,
    confirm_id: str,
    confirm_label: Any = None,
    keep_key: str = "orders_ui.sure_no",
) -> rx.Component:
    """ "Are you sure?" before a cancel; ``state`` is the screen's ``CancelReasonForm`` (its
    ``sure_open`` and one tap per ``turn``). ``keep_key``: "No, keep it" in the grammar of what
    is cancelled (French: "la garder", an order; "le garder", a meal; "les garder", meals)."""
    return confirm_dialog(
        title=t("orders_ui.sure_title"),
        description=description,
        cancel_label=t(keep_key),
        confirm_label=t("orders_ui.sure_yes") if confirm_label is None else confirm_label,
        **shown_by(state, "sure_open"),
        on_confirm=on_confirm,
        busy=busy,
        confirm_id=confirm_id,
        turn=state.turn,
    )
