"""Which Converge the app talks to: the real one when its credentials are set
(``ConvergeSettings.from_credentials_in``), else its own simulator, mounted at
``{public_base_url}/converge-sim`` as merchant ``000000``, user ``hotmeals`` and the PIN of
``simulator_credentials()`` (the app mounts the simulator only then).

The only module that knows both: the gateway's settings (``settings.py``) know nothing of the
simulator, and the simulator nothing of them.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from hotmeals.converge.settings import ConvergeSettings
from hotmeals.converge.simulator_identity import SIM_MERCHANT_ID, SIM_PIN_VAR, SIM_USER_ID
from hotmeals.converge.simulator_store import default_store

SIMULATOR_PREFIX = "/converge-sim"


def simulator_credentials() -> tuple[str, str, str]:
    """(merchant id, user id, PIN) the simulator accepts and the app sends in demo mode.

    The PIN is ``CONVERGE_SIM_PIN`` when set; otherwise the one generated when the simulator's
    store was created and kept there (``simulator_store.py``), so every worker, every host
    sharing the database and every restart agree on it, and it is written nowhere in the source.
    The simulator checks it on every merchant call: without it, ``/converge-sim`` gives away no
    transaction, payer's name or stored card."""
    pin = os.environ.get(SIM_PIN_VAR, "").strip()
    if pin:
        return SIM_MERCHANT_ID, SIM_USER_ID, pin
    return default_store().merchant_credentials()


def simulator_pin() -> str:
    return simulator_credentials()[2]


def simulator_settings(public_base_url: str) -> ConvergeSettings:
    """The settings of the simulator the app mounts under ``public_base_url``."""
    merchant_id, user_id, pin = simulator_credentials()
    return ConvergeSettings(
        base_url=public_base_url.rstrip("/") + SIMULATOR_PREFIX,
        merchant_id=merchant_id,
        user_id=user_id,
        pin=pin,
        simulated=True,
    )


def settings_from_env(
    public_base_url: str, environ: Mapping[str, str] | None = None
) -> ConvergeSettings:
    """The real Converge when its credentials are set (``ValueError`` when only some are),
    else the app's simulator."""
    real = ConvergeSettings.from_credentials_in(environ)
    return real if real is not None else simulator_settings(public_base_url)
