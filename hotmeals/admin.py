"""The operator's commands for a school day: closed after parents booked it, or its
delivery confirmed (docs/api.md "Admin"; the same as ``POST /api/v1/Admin/CloseDay``,
``ReopenDay`` and ``ConfirmDelivery``)::

    python -m hotmeals.admin close-day --school "Maple PS" --date 2026-12-03 --reason storm
    python -m hotmeals.admin reopen-day --school 4 --date 2026-12-03
    python -m hotmeals.admin confirm-delivery --school 4 --date 2026-12-03 [--vendor "Chef Co"]

``--school``: the school's id or its exact name. ``--reason``: storm, strike, pa_day,
emergency, power or heat (shown to parents in their language), or any text up to 120
characters. Closing handles every booked meal at once by each family's closure choice and
e-mails each family; closing the same day again handles only meals not handled yet.
Reopening makes the day bookable again; meals already handled stay as they were handled.
Confirming a delivery (on or after the day, Toronto) moves the day's meals at that school, of
``--vendor`` (id or exact name) or of every vendor serving it that day, to delivered;
confirming again answers the first confirmation.
"""

from __future__ import annotations

import asyncio
import sys

from hotmeals.cli import command_engine, command_parser, database_url
from hotmeals.domain.errors import DomainError
from hotmeals.services import closure_apply, closures, deliveries
from hotmeals.services.payments.runtime import run_sync
from hotmeals.services.runtime import Runtime
from hotmeals.services.startup import register_payment_purposes


def main(argv: list[str] | None = None) -> int:
    register_payment_purposes()
    parser, sub = command_parser(
        "hotmeals.admin",
        __doc__,
        url_flag="--database-url",
        url_help="default: DATABASE_URL or the settings' default",
    )
    close = sub.add_parser("close-day", help="close a school day and handle its booked meals")
    reopen = sub.add_parser("reopen-day", help="make a closed day bookable again")
    deliver = sub.add_parser("confirm-delivery", help="confirm a school day's meals delivered")
    for cmd in (close, reopen, deliver):
        cmd.add_argument("--school", required=True, help="the school's id or exact name")
        cmd.add_argument("--date", required=True, help="YYYY-MM-DD")
    close.add_argument("--reason", required=True, help="storm, strike, pa_day, ... or text")
    deliver.add_argument(
        "--vendor", default="", help="the vendor's id or exact name (default: every vendor)"
    )
    args = parser.parse_args(argv)
    try:
        with command_engine(database_url(args.database_url)) as engine:
            runtime = Runtime(engine=engine)
            if args.command == "close-day":
                result = run_sync(
                    closure_apply.close_day,
                    school=args.school,
                    day=args.date,
                    reason=args.reason,
                    actor="operator:cli",
                    runtime=runtime,
                )
                retry = result.refund_failures
                print(
                    f"{result.school} closed on {result.date} ({result.reason}): "
                    f"{result.meals} meal(s) of {result.families} family(ies) handled, "
                    f"{result.made_up} make-up meal(s), "
                    f"{result.refunded_cents / 100:.2f} $ refunded to cards, "
                    f"{result.credited_cents / 100:.2f} $ to family credit"
                    + (f", {retry} refund(s) left to the refund retries" if retry else "")
                )
            elif args.command == "confirm-delivery":
                print(
                    delivered_text(
                        asyncio.run(
                            deliveries.confirm_delivery(
                                school=args.school,
                                day=args.date,
                                vendor=args.vendor,
                                actor="operator:cli",
                                runtime=runtime,
                            )
                        )
                    )
                )
            else:
                done = asyncio.run(
                    closures.reopen_day(
                        school=args.school, day=args.date, actor="operator:cli", runtime=runtime
                    )
                )
                print(f"{done.school} is open again on {done.day.isoformat()}.")
    except DomainError as err:
        print(err.message("en"), file=sys.stderr)
        return 1
    return 0


def delivered_text(done: deliveries.DayDelivered) -> str:
    """The command's answer: the day, then one line per vendor (as first confirmed)."""
    head = (
        f"{done.school} on {done.day.isoformat()}: {done.meals} meal(s) delivered, "
        f"{done.orders_delivered} order(s) now delivered"
    )
    rows = [
        f"  {v.vendor}: {v.meals} meal(s), confirmed {v.confirmed_at.isoformat()} "
        f"by {v.confirmed_by}" + (" (already confirmed)" if v.repeated else "")
        for v in done.vendors
    ]
    return "\n".join([head, *rows])


if __name__ == "__main__":
    sys.exit(main())
