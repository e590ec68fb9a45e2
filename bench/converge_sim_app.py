"""The Converge simulator as a process of its own, for ``bench/lunch_rush.py``: the same app
the server mounts at ``/converge-sim`` when no Converge credentials are set, served at that
prefix by uvicorn, so the CPU it spends answering (the server's Converge calls, the Lightbox's)
is measured apart from the server's, as the real Converge does that work elsewhere.

    DATABASE_URL=... DATA_DIR=... CONVERGE_SIM_PIN=... \\
        .venv/bin/python -m uvicorn --app-dir bench converge_sim_app:app --port PORT

Its ledger is where the mounted simulator would keep it for that ``DATABASE_URL``
(``converge/simulator_store.py``); it accepts merchant ``000000``, user ``hotmeals`` and
``CONVERGE_SIM_PIN``, which the server is then given as its Converge credentials.
"""

from __future__ import annotations

from hotmeals.converge.configured import SIMULATOR_PREFIX
from hotmeals.converge.simulator import create_simulator_app

# As the server mounts it: declines by cents off, no /_sim/ controls.
app = create_simulator_app(base_path=SIMULATOR_PREFIX, decline_by_cents=False, control=False)
