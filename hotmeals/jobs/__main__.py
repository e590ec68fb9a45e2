"""What the background work is doing, and what waits for a person.

    python -m hotmeals.jobs list        # each periodic job: who holds it, until when; mail queue
    python -m hotmeals.jobs failed      # mail every retry failed (an operator looks)
    python -m hotmeals.jobs retry ID    # send a FAILED mail again, with a fresh set of tries

``DATABASE_URL`` as for the app; ``--url`` overrides it for one run.
"""

from __future__ import annotations

import argparse
import sys

from sqlalchemy import func
from sqlmodel import Session, select

from hotmeals.db.engine import make_engine
from hotmeals.db.models import EmailOutbox, JobLease
from hotmeals.services import mail
from hotmeals.services.clock import now as utcnow
from hotmeals.settings import _normalize_db_url, get_settings


def _list(session: Session) -> list[str]:
    now = utcnow()
    lines = ["job           holder                                          lease"]
    for lease in session.exec(select(JobLease).order_by(JobLease.name)).all():
        held = lease.expires_at > now and lease.holder
        state = f"until {lease.expires_at:%Y-%m-%d %H:%M:%S} UTC" if held else "free"
        lines.append(f"{lease.name:<13} {(lease.holder if held else '-'):<47} {state}")
    counts = dict(
        session.exec(select(EmailOutbox.status, func.count()).group_by(EmailOutbox.status)).all()
    )
    due = len(mail.due(session, now=now))
    lines.append(
        "mail          "
        + ", ".join(f"{status} {counts[status]}" for status in sorted(counts))
        + f"; due now {due}"
    )
    return lines


def _failed(session: Session) -> list[str]:
    rows = mail.failed_mail(session)
    if not rows:
        return ["No failed mail."]
    return [
        f"{r.id:>8}  {r.created_at:%Y-%m-%d %H:%M}  {r.kind:<20} {r.to_address:<40} "
        f"tries {r.attempts}: {r.error or ''}"
        for r in rows
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m hotmeals.jobs",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--url", help="database URL (default: DATABASE_URL)")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="periodic jobs and the mail queue")
    sub.add_parser("failed", help="mail every retry failed")
    retry = sub.add_parser("retry", help="send a FAILED mail again")
    retry.add_argument("id", type=int)
    args = parser.parse_args(argv)
    url = _normalize_db_url(args.url) if args.url else get_settings().database_url
    engine = make_engine(url)
    try:
        with Session(engine) as session:
            if args.command == "list":
                print("\n".join(_list(session)))
            elif args.command == "failed":
                print("\n".join(_failed(session)))
            else:
                if not mail.retry_failed(session, outbox_id=args.id):
                    print(f"Mail {args.id} is not a FAILED mail.", file=sys.stderr)
                    return 1
                session.commit()
                print(f"Mail {args.id} is due again; the mail job sends it within a minute.")
    finally:
        engine.dispose()
    return 0


if __name__ == "__main__":
    sys.exit(main())
