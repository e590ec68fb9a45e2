"""Alembic environment: the URL comes from hotmeals.settings (DATABASE_URL) unless the caller
set ``sqlalchemy.url`` (tests do); SQLite uses batch mode so ALTERs work."""

from logging.config import fileConfig

from alembic import context
from sqlmodel import SQLModel

import hotmeals.db.models  # noqa: F401  (registers every table on SQLModel.metadata)
from hotmeals.db.engine import make_engine
from hotmeals.db.schema_filter import include_name
from hotmeals.settings import get_settings

config = context.config
if config.config_file_name is not None and config.attributes.get("configure_logger", True):
    fileConfig(config.config_file_name, disable_existing_loggers=False)

target_metadata = SQLModel.metadata


def _url() -> str:
    return config.get_main_option("sqlalchemy.url") or get_settings().database_url


def run_migrations_offline() -> None:
    url = _url()
    context.configure(
        url=url,
        target_metadata=target_metadata,
        literal_binds=True,
        dialect_opts={"paramstyle": "named"},
        render_as_batch=url.startswith("sqlite"),
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    url = _url()
    sqlite = url.startswith("sqlite")
    engine = make_engine(url)
    with engine.connect() as connection:
        if sqlite:
            # Batch mode copies a table and drops the old one; with foreign keys on, dropping
            # a parent table cascade-deletes (or refuses for) the rows that point at it. The
            # pragma only takes effect outside a transaction, hence before it begins.
            connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
            connection.commit()
        context.configure(
            connection=connection,
            target_metadata=target_metadata,
            render_as_batch=sqlite,
            compare_type=True,
            include_name=include_name,  # the job queue's tables are not the app's models
        )
        with context.begin_transaction():
            context.run_migrations()
            if sqlite:
                broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                if broken:
                    raise RuntimeError(f"foreign keys broken by the migration: {broken[:5]}")
        if sqlite:
            connection.exec_driver_sql("PRAGMA foreign_keys=ON")
    engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
