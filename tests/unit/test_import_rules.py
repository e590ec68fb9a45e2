"""The import rules (scripts/import_rules.py) hold for the package, and the checker finds what
it is meant to find."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def load_checker() -> ModuleType:
    spec = importlib.util.spec_from_file_location("import_rules", ROOT / "scripts/import_rules.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


rules = load_checker()


@pytest.fixture(scope="module")
def report():
    return rules.check(ROOT / "hotmeals")


def test_layers(report):
    assert report.layers == [], "\n" + "\n".join(report.layers)


def test_no_import_circles(report):
    assert report.circles == [], "\n" + "\n".join(report.circles)


def test_function_local_imports_say_why(report):
    assert report.local_without_why == [], "\n" + "\n".join(report.local_without_why)


def write(root: Path, files: dict[str, str]) -> Path:
    package = root / "hotmeals"
    for name, text in files.items():
        path = package / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    for folder in [package, *package.rglob("*")]:
        if folder.is_dir() and not (folder / "__init__.py").exists():
            (folder / "__init__.py").write_text("")
    return package


def test_the_checker_finds_each_kind_of_fault(tmp_path):
    package = write(
        tmp_path,
        {
            "db/seed.py": "from hotmeals.services import accounts\n",
            "db/engine.py": "",
            "services/accounts.py": "from hotmeals.services.cart import x\n",
            "services/cart.py": "def f():\n    from hotmeals.services import accounts\n",
            "services/orders.py": (
                "def f():\n    # services.accounts imports this module\n"
                "    from hotmeals.services import accounts\n"
            ),
            "api/routes.py": "from hotmeals.db.engine import get_session\n",
            "api/types.py": "from hotmeals.db.models import Parent\n",
            "db/models.py": "",
            "domain/rules.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
            "    from hotmeals.settings import Settings\n",
            "settings.py": "",
            "stray.py": "",
        },
    )
    found = rules.check(package)
    assert found.layers == [
        "hotmeals/api/routes.py:1: api imports db (hotmeals.db.engine)",
        "hotmeals/db/seed.py:1: db imports services (hotmeals.services.accounts)",
        "hotmeals/domain/rules.py:3: domain imports config (hotmeals.settings) (TYPE_CHECKING)",
        "hotmeals/stray.py: hotmeals.stray has no layer (add it to LAYERS)",
    ]
    assert len(found.circles) == 1
    assert found.circles[0].startswith(
        "2 modules: hotmeals.services.accounts, hotmeals.services.cart"
    )
    assert found.local_without_why == [
        "hotmeals/services/cart.py:2: from hotmeals.services import accounts"
    ]
    assert not found.clean
    assert rules.main(["--root", str(package)]) == 1


def test_the_checker_keeps_the_ui_parts_in_their_order(tmp_path):
    """Shared state under the components, the components under the screens, the route table
    over them all."""
    package = write(
        tmp_path,
        {
            "ui/shared_state/auth.py": "from hotmeals.ui.components import header\n",
            "ui/components/header.py": "from hotmeals.ui.screens.cart import page\n",
            "ui/screens/cart/page.py": "from hotmeals.ui import routes\n",
            "ui/screens/cart/state.py": "from hotmeals.ui.shared_state import auth\n",
            "ui/routes.py": "from hotmeals.ui.screens.cart import state\n",
        },
    )
    found = rules.check(package)
    assert found.layers == [
        "hotmeals/ui/components/header.py:1: ui.components imports ui.screens "
        "(hotmeals.ui.screens.cart.page)",
        "hotmeals/ui/screens/cart/page.py:1: ui.screens imports ui (hotmeals.ui.routes)",
        "hotmeals/ui/shared_state/auth.py:1: ui.shared_state imports ui.components "
        "(hotmeals.ui.components.header)",
    ]
