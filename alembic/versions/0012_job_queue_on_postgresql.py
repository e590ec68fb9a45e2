"""the job queue on PostgreSQL: procrastinate's tables, types and functions

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-25 19:10:00

PostgreSQL only (the scale-out profile): the schema of the pinned procrastinate release
(requirements.txt), as the library ships it (``procrastinate/sql/schema.sql``). The embedded
SQLite default runs its periodic jobs in lease loops and gets nothing here. A later
procrastinate release brings its own SQL migrations: apply them in a new revision.
"""
from pathlib import Path
from typing import Sequence, Union

from alembic import op


# revision identifiers, used by Alembic.
revision: str = '0012'
down_revision: Union[str, Sequence[str], None] = '0011'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def _schema_sql() -> str:
    import procrastinate

    return (Path(procrastinate.__file__).parent / "sql" / "schema.sql").read_text()


def upgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name != "postgresql":
        return
    exists = bind.exec_driver_sql(
        "SELECT 1 FROM pg_tables WHERE tablename = 'procrastinate_jobs'"
    ).first()
    if exists is None:
        # psycopg's own execute with no parameters: the library's SQL has '%' in it (format()
        # calls) that a parameterised execute would read as placeholders.
        bind.connection.driver_connection.execute(_schema_sql())


def downgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name != "postgresql":
        return
    bind.exec_driver_sql(
        "DROP TABLE IF EXISTS procrastinate_events, procrastinate_periodic_defers, "
        "procrastinate_jobs, procrastinate_workers CASCADE"
    )
    for (name, args) in bind.exec_driver_sql(
        "SELECT p.proname, pg_get_function_identity_arguments(p.oid) FROM pg_proc p "
        "JOIN pg_namespace n ON n.oid = p.pronamespace "
        "WHERE n.nspname = current_schema() AND starts_with(p.proname, 'procrastinate')"
    ).all():
        bind.exec_driver_sql(f'DROP FUNCTION IF EXISTS "{name}"({args}) CASCADE')
    bind.exec_driver_sql(
        "DROP TYPE IF EXISTS procrastinate_job_to_defer_v1, procrastinate_job_event_type, "
        "procrastinate_job_status CASCADE"
    )
