"""Fixtures of the UI state tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.databases import app_database


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The demo data in a SQLite database of the module's own, which the app's engine uses."""
    with app_database("sqlite", tmp_path_factory.mktemp("ui")) as folder:
        yield folder
