"""The give-back dashboard on the account page: ``services/giveback.py``'s
figures for the signed-in family, loaded when the card mounts."""

from __future__ import annotations

import reflex as rx

from hotmeals.domain.money import format_money
from hotmeals.services import giveback
from hotmeals.services.transaction import run_in_transaction
from hotmeals.ui.shared_state.auth import signed_up_parent


class GiveBackState(rx.State):
    loaded: bool = False
    year_label: str = ""
    meals: int = 0
    total: str = ""
    school_community: str = ""
    nutrition: str = ""
    donations: str = ""
    schools: list[dict[str, str]] = []

    @rx.event
    async def load(self) -> None:
        who = await signed_up_parent(self)
        if who is None:
            return
        got = await run_in_transaction(giveback.family_giveback, parent_id=who.parent_id)
        lang = who.lang
        self.year_label = got.year.label
        self.meals = got.meals
        self.total = format_money(got.total_cents, lang)
        self.school_community = format_money(got.school_cents, lang)
        self.nutrition = format_money(got.nutrition_cents, lang)
        self.donations = format_money(got.donation_cents, lang)
        self.schools = [
            {
                "id": str(row.school_id),
                "school": row.school,
                "children": ", ".join(row.children),
                "meals": str(row.meals),
                "given": format_money(row.given_cents, lang),
                "school_total": format_money(row.school_total_cents, lang),
            }
            for row in got.schools
        ]
        self.loaded = True
