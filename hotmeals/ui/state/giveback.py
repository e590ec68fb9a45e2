"""The give-back dashboard on the account page: ``services/giveback.py``'s
figures for the signed-in family, loaded when the card mounts."""

from __future__ import annotations

import reflex as rx

from hotmeals.services import giveback
from hotmeals.services.transaction import run_in_transaction
from hotmeals.ui.state.auth import signed_up_parent


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
        got = await run_in_transaction(
            giveback.family_giveback, parent_id=who.parent_id, lang=who.lang
        )
        self.year_label = got["school_year_label"]
        self.meals = int(got["meals"])
        self.total = got["total"]
        self.school_community = got["school_community"]
        self.nutrition = got["nutrition"]
        self.donations = got["donations"]
        self.schools = [
            {
                "id": str(row["school_id"]),
                "school": row["school"],
                "children": ", ".join(row["children"]),
                "meals": str(row["meals"]),
                "given": row["given"],
                "school_total": row["school_total"],
            }
            for row in got["schools"]
        ]
        self.loaded = True
