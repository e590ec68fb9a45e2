"""The Alembic chain builds exactly the schema the models describe, on both backends, and the
database commands work on an empty database."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.command import check
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect
from sqlmodel import SQLModel

import hotmeals.db.models  # noqa: F401  (registers every table)
from hotmeals.db import cli
from hotmeals.db.engine import make_engine
from tests.integration.conftest import migrate


def test_upgrade_head_creates_every_table(engine):
    tables = set(inspect(engine).get_table_names())
    assert set(SQLModel.metadata.tables) <= tables
    assert "alembic_version" in tables


def test_migrated_schema_matches_the_models(migrated_url, engine):
    with engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        diffs = compare_metadata(context, SQLModel.metadata)
    assert diffs == []
    config = cli.alembic_config(migrated_url)
    config.attributes["configure_logger"] = False
    check(config)  # raises when autogenerate would write a new migration


def test_upgrade_is_a_no_op_when_already_at_head(migrated_url):
    migrate(migrated_url)
    eng = make_engine(migrated_url)
    try:
        with eng.connect() as conn:
            heads = MigrationContext.configure(conn).get_current_heads()
    finally:
        eng.dispose()
    assert set(heads) == set(ScriptDirectory.from_config(cli.alembic_config()).get_heads())


def test_cli_migrates_and_seeds_an_empty_database(empty_url, capsys, monkeypatch):
    # The CLI configures logging from alembic.ini; keep it off pytest's handlers.
    monkeypatch.setattr("logging.config.fileConfig", lambda *a, **k: None)
    assert cli.main(["--url", empty_url, "migrate"]) == 0
    assert cli.main(["--url", empty_url, "seed", "--today", "2026-03-04"]) == 0
    out = capsys.readouterr().out
    assert "Demo login: parent@example.com / Lunch@2026" in out
    assert "meal " in out
    assert cli.main(["--url", empty_url, "seed", "--today", "2026-03-04"]) == 0
    again = capsys.readouterr().out
    assert again.splitlines()[-2].split() == ["total", "0"]
