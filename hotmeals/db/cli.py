"""Database commands.

    python -m hotmeals.db.cli migrate   # alembic upgrade head (alembic.ini at the repo root)
    python -m hotmeals.db.cli seed      # add the demo data; safe to run again

Both use DATABASE_URL (see hotmeals.settings); ``--url`` overrides it for one run.
"""

from __future__ import annotations

import argparse
import sys
from datetime import date

from alembic.command import upgrade
from alembic.config import Config

from hotmeals.settings import ROOT, _normalize_db_url, get_settings

DEMO_LOGIN = "Demo login: parent@example.com / Lunch@2026"


def alembic_config(url: str | None = None) -> Config:
    """The repository's Alembic configuration, pointed at ``url`` when given."""
    config = Config(str(ROOT / "alembic.ini"))
    if url:
        # ConfigParser interpolates '%': escape it (it appears in encoded passwords).
        config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def migrate(url: str | None = None) -> None:
    """``alembic upgrade head``."""
    upgrade(alembic_config(url), "head")


def seed(url: str | None = None, today: date | None = None) -> str:
    """Load the demo data in one transaction; returns the printable report."""
    from hotmeals.db.engine import make_engine, session_scope
    from hotmeals.db.seed import load_demo_data

    engine = make_engine(url or get_settings().database_url)
    try:
        with session_scope(engine) as session:
            report = load_demo_data(session, today=today)
    finally:
        engine.dispose()
    # A caller in this process (tests, an operator's script) reads the new reference data at
    # once; a running server sees it when its cached copies expire (services/reference.py).
    from hotmeals.services import reference

    reference.invalidate()
    return f"{report}\n{DEMO_LOGIN}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m hotmeals.db.cli",
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
    args = parser.parse_args(argv)
    url = _normalize_db_url(args.url) if args.url else get_settings().database_url
    if args.command == "migrate":
        migrate(url)
        print("Database is at the latest revision.")
    else:
        print(seed(url, args.today))
    return 0


if __name__ == "__main__":
    sys.exit(main())
