"""The cancel-reason fields of the screens that cancel: the reason select and, for
Other, its text, with their errors (ids ``cancel-reason`` and ``cancel-other``, which the
state's ``_ask_sure`` focuses)."""

from __future__ import annotations

from typing import Any

import reflex as rx

from hotmeals.ui.components.forms import label
from hotmeals.ui.state.i18n import t


def reason_fields(state: Any) -> rx.Component:
    """The cancel reason (CancelOrderReason) and, for Other, its free text. ``state`` is a
    ``CancelReasonForm`` (the order's details, the cancel cart, one meal)."""
    return rx.vstack(
        rx.box(
            label(t("orders_ui.reason"), "cancel-reason"),
            rx.el.select(
                rx.el.option(t("orders_ui.reason_placeholder"), value=""),
                rx.foreach(state.reasons, lambda r: rx.el.option(r.name, value=r.id)),
                id="cancel-reason",
                value=state.reason_id,
                on_change=state.set_reason,
                class_name="hm-select",
                custom_attrs={
                    "aria-required": "true",
                    "aria-invalid": rx.cond(state.reason_error != "", "true", "false"),
                    "aria-describedby": "cancel-reason-error",
                },
            ),
            rx.text(
                state.reason_error, id="cancel-reason-error", color=rx.color("red", 11), size="2"
            ),
            class_name="hm-field",
            width="100%",
        ),
        rx.cond(
            state.other_chosen,
            rx.box(
                label(t("orders_ui.other_text"), "cancel-other"),
                rx.text_area(
                    id="cancel-other",
                    value=state.other_text,
                    on_change=state.set_other_text,
                    rows="3",
                    size="3",
                    max_length=500,
                    custom_attrs={
                        "aria-required": "true",
                        "aria-invalid": rx.cond(state.other_error != "", "true", "false"),
                        "aria-describedby": "cancel-other-error",
                    },
                ),
                rx.text(
                    state.other_error,
                    id="cancel-other-error",
                    color=rx.color("red", 11),
                    size="2",
                ),
                class_name="hm-field",
                width="100%",
            ),
        ),
        spacing="2",
        width="100%",
    )
