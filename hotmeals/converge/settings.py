"""Where Converge lives and who we are to it: ``ConvergeSettings``, and the real Converge's
settings from the environment.

Environment:
    CONVERGE_MERCHANT_ID, CONVERGE_USER_ID, CONVERGE_PIN   the three credentials (all or none)
    CONVERGE_BASE_URL   default ``https://api.demo.convergepay.com``; production is
                        ``https://api.convergepay.com``. Only read when credentials are set.

Some but not all credentials: a configuration error, raised at start-up rather than silently
falling back to fake payments. None at all: the app talks to its own simulator, whose settings
are made by ``configured.py`` (this module knows nothing of the simulator; ``simulated`` only
says the address is a stand-in, so plain http is allowed).

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

CREDENTIAL_VARS = ("CONVERGE_MERCHANT_ID", "CONVERGE_USER_ID", "CONVERGE_PIN")
_LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "::1"})


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
    def from_credentials_in(
        cls, environ: Mapping[str, str] | None = None
    ) -> ConvergeSettings | None:
        """The real Converge's settings from the environment; None when no credential is set
        (raises ``ValueError`` when only some are)."""
        env = os.environ if environ is None else environ
        values = {name: env.get(name, "").strip() for name in CREDENTIAL_VARS}
        present = [name for name, value in values.items() if value]
        if not present:
            return None
        missing = [name for name in CREDENTIAL_VARS if name not in present]
        if missing:
            raise ValueError(f"Converge credentials incomplete; missing {', '.join(missing)}")
        return cls(
            base_url=env.get("CONVERGE_BASE_URL", "").strip() or DEMO_BASE_URL,
            merchant_id=values["CONVERGE_MERCHANT_ID"],
            user_id=values["CONVERGE_USER_ID"],
            pin=values["CONVERGE_PIN"],
            simulated=False,
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
