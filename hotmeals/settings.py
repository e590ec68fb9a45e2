"""Settings, read from the environment once per process (see README "Settings")."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from hotmeals.domain.charges import ChargeRates
from hotmeals.domain.school_year import parse_start

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_API_KEY = "hotmeals-dev-key"  # published in the README: demo mode only
# Receipts and the calendar feed: demo values, published here, so demo mode only.
DEMO_HST_NUMBER = "123456789 RT0001"
DEMO_FEED_SECRET = "hotmeals-demo-calendar-feed-secret"


def normalize_db_url(url: str) -> str:
    """Accept plain ``postgresql://`` / ``postgres://`` URLs and use the psycopg 3 driver."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


@dataclass(frozen=True)
class Settings:
    port: int
    database_url: str
    data_dir: Path
    api_key: str
    cors_origins: tuple[str, ...]
    redis_url: str | None
    public_base_url: str
    smtp_host: str | None
    smtp_port: int
    smtp_user: str | None
    smtp_password: str | None = field(repr=False, default=None)
    mail_from: str = "Hot Meals <no-reply@hotmeals.example>"
    provider_email: str = "support@hotmeals.example"
    support_phone: str = "1-888-555-0142"
    school_site_url: str = "https://school.hotmeals.example/"
    vendor_site_url: str = "https://vendor.hotmeals.example/"
    # Rates applied to new orders and stored on each at payment (docs/product.md §3): Ontario
    # HST by default, no card fee unless the operator sets one.
    tax_bps: int = 1300
    card_fee_bps: int = 0
    card_fee_fixed_cents: int = 0
    # HOTMEALS_MODE: "demo" (the default: simulated payments, mail in the log, a banner on
    # every page) or "production" (refuses to start without the real thing: hotmeals/mode.py).
    mode: str = "demo"
    # HOTMEALS_SCHOOL_YEAR_START (MM-DD, default 08-01): the school year rolls over on that
    # day in Toronto; parents then confirm each child's class (domain/school_year.py).
    school_year_start: tuple[int, int] = (8, 1)
    # HOTMEALS_HST_NUMBER: the business's HST registration number, printed on receipts.
    hst_number: str = DEMO_HST_NUMBER
    # HOTMEALS_FEED_SECRET: makes the calendar feeds' tokens (services/calendar_feed.py).
    feed_secret: str = field(repr=False, default=DEMO_FEED_SECRET)
    # HOTMEALS_ADMIN_API_KEY: the operator's key for /api/v1/Admin/* (closing a school day).
    # Unset (the default), shorter than 24 characters or equal to the parents' API key: the
    # admin API is off (api/admin.py).
    admin_api_key: str = field(repr=False, default="")
    social_links: tuple[tuple[str, str, str], ...] = (
        ("facebook", "Facebook", "https://www.facebook.com/"),
        ("instagram", "Instagram", "https://www.instagram.com/"),
        ("twitter", "X", "https://x.com/"),
    )

    @property
    def production(self) -> bool:
        return self.mode == "production"

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")

    @property
    def charge_rates(self) -> ChargeRates:
        """The rates for an order paid now (``domain.charges.ChargeRates``)."""
        return ChargeRates(
            processing_fee_bps=self.card_fee_bps,
            processing_fee_fixed_cents=self.card_fee_fixed_cents,
            tax_bps=self.tax_bps,
        )


def load_settings() -> Settings:
    env = os.environ
    port = int(env.get("PORT", "1805"))
    data_dir = Path(env.get("DATA_DIR", str(ROOT / "data"))).resolve()
    default_db = f"sqlite:///{data_dir / 'hotmeals.db'}"
    public = env.get("PUBLIC_BASE_URL", f"http://localhost:{port}").rstrip("/")
    mode = _mode(env)
    origins = env.get("CORS_ORIGINS", f"http://localhost:{port},http://127.0.0.1:{port}")
    return Settings(
        port=port,
        database_url=normalize_db_url(env.get("DATABASE_URL", default_db)),
        data_dir=data_dir,
        api_key=env.get("HOTMEALS_API_KEY", DEFAULT_API_KEY),
        cors_origins=tuple(o.strip().rstrip("/") for o in origins.split(",") if o.strip()),
        redis_url=env.get("REDIS_URL") or None,
        public_base_url=public,
        smtp_host=env.get("SMTP_HOST") or None,
        smtp_port=int(env.get("SMTP_PORT", "25")),
        smtp_user=env.get("SMTP_USER") or None,
        smtp_password=env.get("SMTP_PASSWORD") or None,
        mail_from=env.get("MAIL_FROM", "Hot Meals <no-reply@hotmeals.example>"),
        provider_email=env.get("PROVIDER_EMAIL", "support@hotmeals.example"),
        support_phone=env.get("SUPPORT_PHONE", "1-888-555-0142"),
        school_site_url=env.get("SCHOOL_SITE_URL", "https://school.hotmeals.example/"),
        vendor_site_url=env.get("VENDOR_SITE_URL", "https://vendor.hotmeals.example/"),
        tax_bps=_rate(env, "HOTMEALS_TAX_BPS", 1300),
        card_fee_bps=_rate(env, "HOTMEALS_CARD_FEE_BPS", 0),
        card_fee_fixed_cents=_rate(env, "HOTMEALS_CARD_FEE_CENTS", 0),
        school_year_start=parse_start(env.get("HOTMEALS_SCHOOL_YEAR_START")),
        mode=mode,
        # Demo defaults only in demo mode: production starts only with its own (mode.py).
        hst_number=env.get("HOTMEALS_HST_NUMBER", "").strip()
        or (DEMO_HST_NUMBER if mode == "demo" else ""),
        feed_secret=env.get("HOTMEALS_FEED_SECRET", "").strip()
        or (DEMO_FEED_SECRET if mode == "demo" else ""),
        admin_api_key=env.get("HOTMEALS_ADMIN_API_KEY", "").strip(),
    )


MODES = ("demo", "production")


def _mode(env) -> str:
    raw = env.get("HOTMEALS_MODE", "").strip().lower() or "demo"
    if raw not in MODES:
        raise ValueError(f"HOTMEALS_MODE must be demo or production, not {raw!r}")
    return raw


def _rate(env, name: str, default: int) -> int:
    """A non-negative whole number (basis points or cents); anything else stops the start."""
    raw = env.get(name, "").strip()
    if not raw:
        return default
    if not raw.isdigit() or (name.endswith("_BPS") and int(raw) > 10_000):
        raise ValueError(f"{name} must be a whole number of basis points (0-10000) or cents")
    return int(raw)


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return load_settings()
