"""The repository's Alembic migrations: their configuration, the upgrade, and their head."""

from __future__ import annotations

from functools import lru_cache

from alembic.command import upgrade
from alembic.config import Config
from alembic.script import ScriptDirectory

from hotmeals.settings import ROOT


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


@lru_cache(maxsize=1)
def migrations_head() -> str | None:
    """The head revision of the repository's migrations (read once per process)."""
    return ScriptDirectory.from_config(alembic_config()).get_current_head()
