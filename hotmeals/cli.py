"""The operator's commands.

    python -m hotmeals.cli migrate   # alembic upgrade head (alembic.ini at the repo root)
    python -m hotmeals.cli seed      # add the demo data; safe to run again
    python -m hotmeals.cli refunds-needing-attention   # refunds whose last try failed
    python -m hotmeals.cli refund-retry ID             # send one again at the next round
    python -m hotmeals.cli refund-resolve ID --note "refunded by e-Transfer"
    python -m hotmeals.cli school-year-due EMAIL       # demo: the start-of-year confirmation

All use DATABASE_URL (see hotmeals.settings); ``--url`` overrides it for one run.
"""

from __future__ import annotations

import argparse
import sys
from datetime import date

from sqlmodel import select

from hotmeals.db.engine import make_engine, session_scope
from hotmeals.db.migrations import migrate
from hotmeals.db.models import Parent
from hotmeals.demo.seed import load_demo_data
from hotmeals.domain.errors import DomainError
from hotmeals.services import payments, reference
from hotmeals.services.school_year import reopen_for_demo
from hotmeals.settings import get_settings, normalize_db_url

DEMO_LOGIN = "Demo login: parent@example.com / Lunch@2026"


def seed(url: str | None = None, today: date | None = None) -> str:
    """Load the demo data in one transaction; returns the printable report."""
    engine = make_engine(url or get_settings().database_url)
    try:
        with session_scope(engine) as session:
            report = load_demo_data(session, today=today)
    finally:
        engine.dispose()
    # A caller in this process (tests, an operator's script) reads the new reference data at
    # once; a running server sees it when its cached copies expire (services/reference.py).
    reference.invalidate()
    return f"{report}\n{DEMO_LOGIN}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m hotmeals.cli",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--url", help="database URL (default: DATABASE_URL)")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("migrate", help="upgrade the database to the latest schema")
    seed_cmd = sub.add_parser("seed", help="add the demo data (idempotent)")
    seed_cmd.add_argument(
        "--today", type=date.fromisoformat, help="plan meal days from this date (YYYY-MM-DD)"
    )
    sub.add_parser(
        "refunds-needing-attention",
        help="list the refunds Converge refused on every try: a person must act",
    )
    retry_cmd = sub.add_parser("refund-retry", help="send a flagged refund again")
    retry_cmd.add_argument("refund_id", type=int)
    resolve_cmd = sub.add_parser(
        "refund-resolve", help="a flagged refund was settled by other means: owed no more"
    )
    resolve_cmd.add_argument("refund_id", type=int)
    resolve_cmd.add_argument("--note", required=True, help="what was done (kept in the audit)")
    due_cmd = sub.add_parser(
        "school-year-due",
        help="demo: a parent's children as if added last school year, not confirmed for this one",
    )
    due_cmd.add_argument("email")
    args = parser.parse_args(argv)
    url = normalize_db_url(args.url) if args.url else get_settings().database_url
    if args.command == "migrate":
        migrate(url)
        print("Database is at the latest revision.")
    elif args.command == "seed":
        print(seed(url, args.today))
    elif args.command == "school-year-due":
        return school_year_due(url, args.email)
    else:
        return refunds_command(url, args)
    return 0


def school_year_due(url: str, email: str) -> int:
    """The parent's next visit shows the start-of-year confirmation."""
    engine = make_engine(url)
    try:
        with session_scope(engine) as session:
            parent = session.exec(select(Parent).where(Parent.email == email.lower())).first()
            if parent is None or parent.id is None:
                print(f"No parent with the email {email}.")
                return 1
            count = reopen_for_demo(session, parent_id=parent.id)
    finally:
        engine.dispose()
    print(f"{count} child(ren) to confirm for the new school year at the next visit.")
    return 0


def refunds_command(url: str, args: argparse.Namespace) -> int:
    """The operator's side of refunds Converge kept refusing."""
    engine = make_engine(url)
    try:
        with session_scope(engine) as session:
            if args.command == "refunds-needing-attention":
                rows = payments.refunds_needing_attention(session)
                for r in rows:
                    print(
                        f"refund {r['refund_id']}  {r['amount_cents'] / 100:.2f} $  "
                        f"{r['kind']}  payment {r['payment_id']} ({r['invoice']})  "
                        f"order {r['order_id']}  parent {r['parent_id']}  "
                        f"tries {r['tries']}  flagged {r['flagged_at']}  {r['message'] or ''}"
                    )
                print(f"{len(rows)} refund(s) need a person.")
                return 1 if rows else 0
            if args.command == "refund-retry":
                view = payments.retry_refund(session, refund_id=args.refund_id, actor="operator")
                print(f"refund {view.id}: sent again at the next round.")
            else:
                view = payments.resolve_refund(
                    session, refund_id=args.refund_id, actor="operator", note=args.note
                )
                print(f"refund {view.id}: resolved, owed no more.")
    except DomainError as err:
        print(f"refund {args.refund_id}: no such failed refund ({err.code}).", file=sys.stderr)
        return 2
    finally:
        engine.dispose()
    return 0


if __name__ == "__main__":
    sys.exit(main())
