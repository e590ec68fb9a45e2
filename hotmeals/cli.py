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
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date

from sqlalchemy.engine import Engine
from sqlmodel import select

from hotmeals.db.engine import make_engine, session_scope
from hotmeals.db.migrations import migrate
from hotmeals.db.models import Parent
from hotmeals.demo.seed import load_demo_data
from hotmeals.domain.errors import DomainError
from hotmeals.services import payments, reference
from hotmeals.services.school_year import reopen_for_demo
from hotmeals.services.startup import register_payment_purposes
from hotmeals.settings import get_settings, normalize_db_url

DEMO_LOGIN = "Demo login: parent@example.com / Lunch@2026"
URL_HELP = "database URL (default: DATABASE_URL)"


def command_parser(
    module: str, doc: str | None, *, url_flag: str = "--url", url_help: str = URL_HELP
) -> tuple[argparse.ArgumentParser, argparse._SubParsersAction[argparse.ArgumentParser]]:
    """An operator command's parser (this module's, ``hotmeals.admin``'s, ``hotmeals.jobs``'):
    ``python -m <module>`` with its docstring as the help, the database URL option, and the
    sub-commands (one required, in ``args.command``) for the caller to add."""
    parser = argparse.ArgumentParser(
        prog=f"python -m {module}",
        description=doc,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(url_flag, help=url_help)
    return parser, parser.add_subparsers(dest="command", required=True)


@contextmanager
def command_engine(url: str) -> Iterator[Engine]:
    """The engine of one command's run, disposed of when it is over."""
    engine = make_engine(url)
    try:
        yield engine
    finally:
        engine.dispose()


def database_url(given: str | None) -> str:
    """The URL a command was given (``postgres://`` accepted), else the settings' one."""
    return normalize_db_url(given) if given else get_settings().database_url


def seed(url: str | None = None, today: date | None = None) -> str:
    """Load the demo data in one transaction; returns the printable report."""
    with (
        command_engine(url or get_settings().database_url) as engine,
        session_scope(engine) as session,
    ):
        report = load_demo_data(session, today=today)
    # A caller in this process (tests, an operator's script) reads the new reference data at
    # once; a running server sees it when its cached copies expire (services/reference.py).
    reference.invalidate()
    return f"{report}\n{DEMO_LOGIN}"


def main(argv: list[str] | None = None) -> int:
    register_payment_purposes()
    parser, sub = command_parser("hotmeals.cli", __doc__)
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
    url = database_url(args.url)
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
    with command_engine(url) as engine, session_scope(engine) as session:
        parent = session.exec(select(Parent).where(Parent.email == email.lower())).first()
        if parent is None or parent.id is None:
            print(f"No parent with the email {email}.")
            return 1
        count = reopen_for_demo(session, parent_id=parent.id)
    print(f"{count} child(ren) to confirm for the new school year at the next visit.")
    return 0


def refunds_command(url: str, args: argparse.Namespace) -> int:
    """The operator's side of refunds Converge kept refusing."""
    try:
        with command_engine(url) as engine, session_scope(engine) as session:
            if args.command == "refunds-needing-attention":
                rows = payments.refunds_needing_attention(session)
                for r in rows:
                    flagged = r.flagged_at.isoformat() if r.flagged_at else None
                    print(
                        f"refund {r.refund_id}  {r.amount_cents / 100:.2f} $  "
                        f"{r.kind}  payment {r.payment_id} ({r.invoice})  "
                        f"order {r.order_id}  parent {r.parent_id}  "
                        f"tries {r.tries}  flagged {flagged}  {r.message or ''}"
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
