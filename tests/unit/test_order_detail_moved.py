"""The order's details name the day a moved meal came from as parents read dates, not ISO."""

from __future__ import annotations

from datetime import UTC, date, datetime

from hotmeals.services.ordering.queries import DetailLine, OrderDetail
from hotmeals.ui.screens.order_history.state import detail_lines


def _answer(moved_from: date | None) -> OrderDetail:
    line = DetailLine(
        order_line_id=7,
        child_id=3,
        child_name="Emma Tremblay",
        moved_from=moved_from,
        date=date(2026, 12, 10),
        day="x",
        meal_id=5,
        meal_name="Pasta",
        size="regular",
        size_label="Regular",
        menu_option="",
        meal_option="",
        addons=[],
        special_note="",
        quantity=1,
        cancelled_quantity=0,
        active_quantity=1,
        unit_price_cents=700,
        line_total_cents=700,
        state="active",
        state_label="Active",
        can_cancel=True,
        cutoff_at=datetime(2026, 12, 9, 15, tzinfo=UTC),
    )
    return OrderDetail(
        order_id=1,
        number="HM-1",
        status="placed",
        status_label="Placed",
        ordered_on=date(2026, 12, 1),
        promo_code=None,
        lines=[line],
        charges=[],
        total_pay_cents=700,
        total_refund_cents=0,
        refunds=[],
        voided_attempts=[],
        can_cancel=True,
    )


def test_moved_from_is_a_long_date_in_the_parents_language() -> None:
    moved = _answer(date(2026, 12, 3))
    assert detail_lines(moved, "fr")[0].moved_from == "jeudi 3 décembre 2026"
    assert detail_lines(moved, "en")[0].moved_from == "Thursday, December 3, 2026"
    assert detail_lines(_answer(None), "en")[0].moved_from == ""
    assert detail_lines(moved, "fr")[0].price == "7,00\xa0$"
