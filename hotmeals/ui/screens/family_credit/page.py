"""/edit-profile/family-credit: the balance, where refunds go (the card by default, or family
credit, instant), and the newest movements of the ledger."""

from __future__ import annotations

import reflex as rx

from hotmeals.ui.components.after_parts import (
    RULED_ROW,
    ruled_list,
    section_title,
    text_stack,
)
from hotmeals.ui.components.form_parts import muted
from hotmeals.ui.components.forms import choice_fieldset, choice_option
from hotmeals.ui.components.panels import column
from hotmeals.ui.components.screens import parent_screen, screen_intro
from hotmeals.ui.screens.family_credit.closure_choice import closure_choice
from hotmeals.ui.screens.family_credit.state import FamilyCreditState
from hotmeals.ui.shared_state.i18n import t


def balance_card() -> rx.Component:
    return rx.card(
        rx.vstack(
            muted(t("credit_ui.balance")),
            rx.text(FamilyCreditState.balance, size="8", weight="bold", id="credit-balance"),
            muted(t("credit_ui.balance_text")),
            spacing="1",
        ),
        width="100%",
    )


def _destination(value: str) -> rx.Component:
    return choice_option(
        value, f"refund-to-{value}", t(f"credit_ui.to_{value}"), t(f"credit_ui.to_{value}_text")
    )


def refund_choice() -> rx.Component:
    return choice_fieldset(
        t("credit_ui.refunds_go"),
        [_destination("card"), _destination("credit")],
        FamilyCreditState,
        field="refund_to",
        save_id="refund-choice-save",
    )


def history_row(move: rx.Var) -> rx.Component:
    return rx.hstack(
        text_stack(
            rx.text(move["label"], weight="medium"),
            muted(move["date"]),
            rx.cond(move["about"] != "", rx.text(move["about"], size="2")),
        ),
        rx.text(
            move["amount"],
            weight="bold",
            color=rx.cond(move["sign"] == "in", rx.color("grass", 11), rx.color("gray", 12)),
            white_space="nowrap",
        ),
        align="center",
        spacing="3",
        **RULED_ROW,
        class_name="hm-credit-move",
    )


def history() -> rx.Component:
    return column(
        section_title("credit_ui.history", size="5"),
        ruled_list(
            FamilyCreditState.history,
            history_row,
            "credit-history",
            empty_key="credit_ui.no_moves",
            empty_id="credit-no-moves",
        ),
        spacing="2",
    )


def family_credit() -> rx.Component:
    return parent_screen(
        *screen_intro(t("credit_ui.title"), t("credit_ui.intro")),
        balance_card(),
        refund_choice(),
        closure_choice(),
        history(),
        spacing="5",
        show_cart=False,
    )
