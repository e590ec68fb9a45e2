"""Where Converge lives and who we are to it.

Environment:
    CONVERGE_MERCHANT_ID, CONVERGE_USER_ID, CONVERGE_PIN   the three credentials (all or none)
    CONVERGE_BASE_URL   default ``https://api.demo.convergepay.com``; production is
                        ``https://api.convergepay.com``. Only read when credentials are set.

No credentials at all: the app runs against its own simulator, mounted at
``{public_base_url}/converge-sim`` as merchant ``000000``, user ``hotmeals`` and the PIN of
``simulator_credentials()``, and ``simulated`` is True (the app mounts the simulator only
then). Some but not all credentials: a configuration error, raised at start-up rather than
silently falling back to fake payments.

The XML API path follows the host: ``/VirtualMerchant/processxml.do`` on the production host
``api.convergepay.com``, ``/VirtualMerchantDemo/processxml.do`` everywhere else (the demo host
and the simulator, which also answers the production path).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import urlsplit

DEMO_BASE_URL = "https://api.demo.convergepay.com"
PRODUCTION_HOST = "api.convergepay.com"
SIMULATOR_PREFIX = "/converge-sim"

# The simulator's merchant and user; its PIN is not in the source (see ``simulator_pin``).
SIM_MERCHANT_ID = "000000"
SIM_USER_ID = "hotmeals"
SIM_PIN_VAR = "CONVERGE_SIM_PIN"  # optional; see simulator_credentials

CREDENTIAL_VARS = ("CONVERGE_MERCHANT_ID", "CONVERGE_USER_ID", "CONVERGE_PIN")
_CREDENTIAL_VARS = CREDENTIAL_VARS
_LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "::1"})


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
    from hotmeals.payments.simulator_store import default_store

    return default_store().merchant_credentials()


def simulator_pin() -> str:
    return simulator_credentials()[2]


@dataclass(frozen=True, slots=True)
class ConvergeSettings:
    base_url: str
    merchant_id: str
    user_id: str
    pin: str = field(repr=False)  # never in repr, logs or exception text
    simulated: bool = False

    def __post_init__(self) -> None:
        parts = urlsplit(self.base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError("CONVERGE_BASE_URL must be an http(s) URL")
        if parts.scheme == "http" and parts.hostname not in _LOCAL_HOSTS and not self.simulated:
            raise ValueError("real Converge credentials are only sent over https")
        object.__setattr__(self, "base_url", self.base_url.rstrip("/"))

    @classmethod
    def from_env(
        cls, public_base_url: str, environ: Mapping[str, str] | None = None
    ) -> ConvergeSettings:
        env = os.environ if environ is None else environ
        values = {name: env.get(name, "").strip() for name in _CREDENTIAL_VARS}
        present = [name for name, value in values.items() if value]
        if not present:
            return cls.simulator(public_base_url)
        missing = [name for name in _CREDENTIAL_VARS if name not in present]
        if missing:
            raise ValueError(f"Converge credentials incomplete; missing {', '.join(missing)}")
        return cls(
            base_url=env.get("CONVERGE_BASE_URL", "").strip() or DEMO_BASE_URL,
            merchant_id=values["CONVERGE_MERCHANT_ID"],
            user_id=values["CONVERGE_USER_ID"],
            pin=values["CONVERGE_PIN"],
            simulated=False,
        )

    @classmethod
    def simulator(cls, public_base_url: str) -> ConvergeSettings:
        merchant_id, user_id, pin = simulator_credentials()
        return cls(
            base_url=public_base_url.rstrip("/") + SIMULATOR_PREFIX,
            merchant_id=merchant_id,
            user_id=user_id,
            pin=pin,
            simulated=True,
        )

    @property
    def is_production(self) -> bool:
        return urlsplit(self.base_url).hostname == PRODUCTION_HOST

    @property
    def xml_path(self) -> str:
        if self.is_production:
            return "/VirtualMerchant/processxml.do"
        return "/VirtualMerchantDemo/processxml.do"

    @property
    def xml_url(self) -> str:
        return self.base_url + self.xml_path

    @property
    def session_token_url(self) -> str:
        return self.base_url + "/hosted-payments/transaction_token"

    @property
    def lightbox_script_url(self) -> str:
        """The ``<script src>`` the checkout page loads (PayWithConverge.js)."""
        return self.base_url + "/hosted-payments/PayWithConverge.js"
