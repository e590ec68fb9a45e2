"""The order's details name the day a moved meal came from as parents read dates, not ISO."""

from __future__ import annotations

from hotmeals.ui.state.orders import detail_lines


def _answer(moved_from: str | None) -> dict:
    line = {
        "order_line_id": 7,
        "child_name": "Emma Tremblay",
        "date": "2026-12-10",
        "day": "x",
        "meal_name": "Pasta",
        "size_label": "Regular",
        "quantity": 1,
        "cancelled_quantity": 0,
        "active_quantity": 1,
        "line_total": "7,00 $",
        "state": "active",
        "state_label": "Active",
        "moved_from": moved_from,
        "can_cancel": True,
    }
    return {"lines": [line]}


def test_moved_from_is_a_long_date_in_the_parents_language() -> None:
    assert detail_lines(_answer("2026-12-03"), "fr")[0].moved_from == "jeudi 3 décembre 2026"
    assert detail_lines(_answer("2026-12-03"), "en")[0].moved_from == "Thursday, December 3, 2026"
    assert detail_lines(_answer(None), "en")[0].moved_from == ""
