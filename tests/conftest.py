"""Suite-wide settings: tests never touch the developer's data directory or database."""

from __future__ import annotations

import os
import tempfile

_tmp = tempfile.mkdtemp(prefix="hotmeals-tests-")
os.environ.setdefault("DATA_DIR", _tmp)
os.environ.setdefault("DATABASE_URL", f"sqlite:///{_tmp}/unit.db")
os.environ.setdefault("HOTMEALS_API_KEY", "hotmeals-dev-key")
for _var in ("CONVERGE_MERCHANT_ID", "CONVERGE_USER_ID", "CONVERGE_PIN", "CONVERGE_BASE_URL"):
    os.environ.pop(_var, None)
