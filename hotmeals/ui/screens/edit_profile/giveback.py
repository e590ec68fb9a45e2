"""The give-back dashboard card on the account page: what the family's
meals and donations gave this school year, per school, and the school's total so far."""

from __future__ import annotations

import reflex as rx

from hotmeals.ui.components.after_parts import spread_row
from hotmeals.ui.components.form_parts import icon_bubble, muted, section_card
from hotmeals.ui.components.lang_watch import on_language_change
from hotmeals.ui.components.panels import column
from hotmeals.ui.screens.edit_profile.giveback_state import GiveBackState
from hotmeals.ui.shared_state.i18n import t


def _figure(label_key: str, value: rx.Var, id_: str) -> rx.Component:
    return rx.vstack(
        muted(t(label_key), size="1"),
        rx.text(value, size="4", weight="bold", id=id_),
        spacing="0",
        class_name="hm-gb-figure",
    )


def _school(row: rx.Var) -> rx.Component:
    """One school: what the school community got from this family (meals x $0.50 and
    donations) beside what it got from every family so far."""
    return rx.box(
        rx.text(row["school"], weight="bold", size="2"),
        rx.cond(row["children"] != "", muted(row["children"], size="1")),
        rx.grid(
            _figure("gb.school_yours", row["given"], "gb-given-" + row["id"]),
            _figure("gb.school_total", row["school_total"], "gb-school-total-" + row["id"]),
            columns="2",
            spacing="3",
            width="100%",
            margin_top="8px",
        ),
        class_name="hm-gb-school",
        custom_attrs={"data-school-id": row["id"]},
    )


def giveback_card() -> rx.Component:
    return section_card(
        on_language_change(GiveBackState.load),
        rx.cond(
            GiveBackState.loaded,
            column(
                rx.flex(
                    icon_bubble("heart-handshake", 22),
                    rx.vstack(
                        rx.heading(t("gb.title"), as_="h2", size="4"),
                        muted(t("gb.year"), " ", GiveBackState.year_label, size="1"),
                        spacing="0",
                        flex="1",
                        min_width="0",
                    ),
                    spacing="3",
                    align="center",
                    width="100%",
                ),
                muted(t("gb.intro")),
                spread_row(
                    rx.text(t("gb.family_total"), size="2"),
                    rx.text(GiveBackState.total, size="6", weight="bold", id="giveback-total"),
                    align="baseline",
                    spacing="3",
                    wrap="wrap",
                ),
                rx.grid(
                    _figure("gb.meals", GiveBackState.meals.to_string(), "giveback-meals"),
                    _figure("gb.school_community", GiveBackState.school_community, "gb-school"),
                    _figure("gb.nutrition", GiveBackState.nutrition, "giveback-nutrition"),
                    _figure("gb.donations", GiveBackState.donations, "giveback-donations"),
                    columns=rx.breakpoints(initial="2", sm="4"),
                    spacing="3",
                    width="100%",
                ),
                rx.cond(
                    GiveBackState.meals == 0,
                    muted(t("gb.empty")),
                ),
                rx.foreach(GiveBackState.schools, _school),
                spacing="3",
            ),
            rx.center(rx.spinner(size="2"), padding="16px"),
        ),
        id="giveback",
        class_name="hm-gb-card",
    )
