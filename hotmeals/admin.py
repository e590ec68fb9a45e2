"""The operator's commands for a school day: closed after parents booked it, the kitchen's
production list and labels, its delivery confirmed (docs/api.md "Admin", docs/operations.md;
the same as ``POST /api/v1/Admin/CloseDay``, ``ReopenDay``, ``ProductionList``, ``Labels`` and
``ConfirmDelivery``)::

    python -m hotmeals.admin close-day --school "Maple PS" --date 2026-12-03 --reason storm
    python -m hotmeals.admin reopen-day --school 4 --date 2026-12-03
    python -m hotmeals.admin production-list --school 4 --date 2026-12-07 [--vendor V] [--csv]
    python -m hotmeals.admin labels --school 4 --date 2026-12-07 --pdf labels.pdf [--csv F]
    python -m hotmeals.admin confirm-delivery --school 4 --date 2026-12-07 [--vendor "Chef Co"]

``--school``: the school's id or its exact name. ``--reason``: storm, strike, pa_day,
emergency, power or heat (shown to parents in their language), or any text up to 120
characters. Closing handles every booked meal at once by each family's closure choice and
e-mails each family; closing the same day again handles only meals not handled yet.
Reopening makes the day bookable again; meals already handled stay as they were handled.

``production-list`` prints what each vendor cooks for the school that day (the allergy and
diet rows first, the meals and add-ons counted, the total), as text or, with ``--csv``, as
CSV; ``labels`` writes one label per meal as a PDF on Avery 5163 sheets (``--pdf FILE``) and/or
as CSV (``--csv FILE``). Both only once the day's cut-off has passed; the first read freezes the
day. ``--vendor``: the vendor's id or exact name (default: every vendor serving the school that
day); ``--lang en|fr``: the words' language (default: the school's).

Confirming a delivery (on or after the day, Toronto) moves the day's meals at that school, of
``--vendor`` (id or exact name) or of every vendor serving it that day, to delivered;
confirming again answers the first confirmation.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from hotmeals.cli import command_engine, command_parser, database_url
from hotmeals.domain.errors import DomainError
from hotmeals.services import closure_apply, closures, deliveries, kitchen, kitchen_files
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
    listing = sub.add_parser("production-list", help="a school day's production list")
    labels = sub.add_parser("labels", help="a school day's labels as PDF and/or CSV files")
    for cmd in (listing, labels):
        cmd.add_argument("--school", required=True, help="the school's id or exact name")
        cmd.add_argument("--date", required=True, help="YYYY-MM-DD")
        cmd.add_argument("--vendor", default="", help="the vendor's id or exact name")
        cmd.add_argument("--lang", choices=("en", "fr"), help="default: the school's language")
    listing.add_argument("--csv", action="store_true", help="print CSV instead of text")
    labels.add_argument("--pdf", metavar="FILE", help="write the label sheets (PDF) here")
    labels.add_argument("--csv", metavar="FILE", help="write one CSV row per label here")
    deliver.add_argument(
        "--vendor", default="", help="the vendor's id or exact name (default: every vendor)"
    )
    args = parser.parse_args(argv)
    if args.command == "labels" and not (args.pdf or args.csv):
        parser.error("labels: give --pdf FILE, --csv FILE or both")
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
                    f"{_n(result.meals, 'meal')} of "
                    f"{_n(result.families, 'family', 'families')} handled, "
                    f"{_n(result.made_up, 'make-up meal')}, "
                    f"{result.refunded_cents / 100:.2f} $ refunded to cards, "
                    f"{result.credited_cents / 100:.2f} $ to family credit"
                    + (f", {_n(retry, 'refund')} left to the refund retries" if retry else "")
                )
            elif args.command in ("production-list", "labels"):
                _kitchen(args, runtime)
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


def _kitchen(args: argparse.Namespace, runtime: Runtime) -> None:
    """``production-list`` and ``labels``: the day read (frozen on its first read after the
    cut-off) and printed or written in the asked language, else the school's."""
    day = {"school": args.school, "day": args.date, "vendor": args.vendor, "runtime": runtime}
    if args.command == "production-list":
        listed = asyncio.run(kitchen.production(**day))
        lang = args.lang or listed.lang
        text = kitchen_files.production_csv if args.csv else kitchen_files.production_text
        sys.stdout.write(text(listed, lang))
        return
    found = asyncio.run(kitchen.labels(**day))
    lang = args.lang or found.lang
    if args.pdf:
        Path(args.pdf).write_bytes(kitchen_files.labels_pdf(found, lang))
    if args.csv:
        Path(args.csv).write_text(kitchen_files.labels_csv(found, lang), encoding="utf-8")
    written = " and ".join(x for x in (args.pdf, args.csv) if x)
    count = len(found.labels)
    plural = "" if count == 1 else "s"
    print(f"{found.school}, {found.meal_date}: {count} label{plural} written to {written}.")


def _n(count: int, word: str, words: str = "") -> str:
    """``count`` and its English noun (the operator's console is English): 1 meal, 2 meals."""
    return f"{count} {word if count == 1 else (words or word + 's')}"


def delivered_text(done: deliveries.DayDelivered) -> str:
    """The command's answer: the day, then one line per vendor (as first confirmed)."""
    head = (
        f"{done.school} on {done.day.isoformat()}: {_n(done.meals, 'meal')} delivered, "
        f"{_n(done.orders_delivered, 'order')} now delivered"
    )
    rows = [
        f"  {v.vendor}: {_n(v.meals, 'meal')}, confirmed {v.confirmed_at.isoformat()} "
        f"by {v.confirmed_by}" + (" (already confirmed)" if v.repeated else "")
        for v in done.vendors
    ]
    return "\n".join([head, *rows])


if __name__ == "__main__":
    sys.exit(main())
