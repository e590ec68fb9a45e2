"""``HOTMEALS_MODE``: ``demo`` (the default, what ``make run`` serves) or ``production``.

Demo: payments go to the local Converge simulator, e-mails (codes included) are written to the
log when there is no SMTP server, the API key may be the published one. It says so: a warning
in the log at every start, and a banner on every page (``ui/components/layout.py``).

Production fails closed: the app refuses to start, naming every missing piece, unless real
Converge credentials are set and reached over https, an SMTP server is set, the API key is not
the published default, and the public address is https. With SMTP required, the path that
writes a mail (and its code) to the log does not run, and ``services/mail.py`` refuses to take
it anyway. docs/security.md, "Running in production".
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping

from hotmeals import clock
from hotmeals.clock import NOW_VAR
from hotmeals.converge.configured import settings_from_env
from hotmeals.converge.settings import CREDENTIAL_VARS
from hotmeals.security import HASH_COST_VAR
from hotmeals.settings import DEFAULT_API_KEY, DEMO_FEED_SECRET, Settings, get_settings

log = logging.getLogger("hotmeals.mode")

API_KEY_MIN_LENGTH = 24


class ProductionConfigError(RuntimeError):
    """Production mode without what production needs: the app does not start."""


def production_problems(settings: Settings, environ: Mapping[str, str] | None = None) -> list[str]:
    """What keeps this configuration from running in production (empty: nothing)."""
    env = os.environ if environ is None else environ
    problems: list[str] = []
    if not any(env.get(name, "").strip() for name in CREDENTIAL_VARS):
        # Asked before settings_from_env, which would open the simulator's store for its PIN.
        problems.append(
            "CONVERGE_MERCHANT_ID, CONVERGE_USER_ID and CONVERGE_PIN are not set: production "
            "never takes payments with the local simulator"
        )
    else:
        try:
            converge = settings_from_env(settings.public_base_url, env)
        except ValueError as exc:
            problems.append(str(exc))
        else:
            if not converge.base_url.startswith("https://"):
                problems.append("CONVERGE_BASE_URL must be an https address")
    if env.get(NOW_VAR, "").strip():
        problems.append(f"{NOW_VAR} must not be set: production reads the system clock")
    if env.get(HASH_COST_VAR, "").strip().lower() not in ("", "standard"):
        problems.append(f"{HASH_COST_VAR} must not be lowered: production hashes at full cost")
    if env.get("CONVERGE_SIM_CONTROL", "").strip():
        problems.append("CONVERGE_SIM_CONTROL must not be set: it exposes the simulator's controls")
    if not settings.smtp_host:
        problems.append(
            "SMTP_HOST is not set: production sends sign-up and sign-in codes by e-mail and never "
            "writes them to the log"
        )
    if settings.api_key == DEFAULT_API_KEY or len(settings.api_key) < API_KEY_MIN_LENGTH:
        problems.append(
            f"HOTMEALS_API_KEY must be set to a secret of at least {API_KEY_MIN_LENGTH} "
            "characters (the default one is published in the README)"
        )
    if not settings.hst_number.strip():
        problems.append("HOTMEALS_HST_NUMBER is not set: every receipt prints the HST number")
    if settings.feed_secret == DEMO_FEED_SECRET or len(settings.feed_secret) < API_KEY_MIN_LENGTH:
        problems.append(
            f"HOTMEALS_FEED_SECRET must be set to a secret of at least {API_KEY_MIN_LENGTH} "
            "characters (it makes the private calendar feed addresses)"
        )
    if not settings.public_base_url.startswith("https://"):
        problems.append(
            "PUBLIC_BASE_URL must be the https address parents use (session cookie, HSTS, links)"
        )
    return problems


def check_mode(settings: Settings | None = None, environ: Mapping[str, str] | None = None) -> str:
    """Refuse a production start that lacks something; announce demo mode. Returns the mode."""
    settings = settings or get_settings()
    if settings.production:
        problems = production_problems(settings, environ)
        if problems:
            raise ProductionConfigError(
                "HOTMEALS_MODE=production refuses to start:\n  - " + "\n  - ".join(problems)
            )
        log.info("production mode")
        return settings.mode
    # WARNING, so it reaches the console even when nothing configured logging.
    log.warning(
        "DEMO MODE: payments are simulated by the local Converge simulator, e-mails and their "
        "codes are written to this log when SMTP_HOST is unset, and every page shows a demo "
        "banner. Never take real orders like this: set HOTMEALS_MODE=production (README)."
    )
    if clock.is_set():
        log.warning(
            "DEMO CLOCK: %s sets now to %s (Toronto); it runs on from there",
            NOW_VAR,
            clock.now().astimezone(clock.TORONTO).isoformat(timespec="minutes"),
        )
    return settings.mode
