"""Reflex configuration. Everything variable comes from hotmeals.settings (environment)."""

import os

import reflex as rx

from hotmeals.settings import get_settings
from hotmeals.ui.theme import theme_plugin

os.environ.setdefault("REFLEX_USE_NPM", "1")
os.environ.setdefault("REFLEX_CHECK_LATEST_VERSION", "false")

_s = get_settings()

config = rx.Config(
    app_name="hotmeals",
    frontend_path="/parent",
    frontend_port=_s.port,
    backend_port=_s.port,
    api_url=os.environ.get("REFLEX_API_URL", f"http://localhost:{_s.port}"),
    deploy_url=_s.public_base_url,
    redis_url=_s.redis_url,
    state_manager_mode="redis" if _s.redis_url else "memory",
    telemetry_enabled=False,
    show_built_with_reflex=False,
    default_color_mode="light",
    cors_allowed_origins=list(_s.cors_origins),
    frontend_compression_formats=["gzip"],
    plugins=[theme_plugin()],
    disable_plugins=[rx.plugins.SitemapPlugin],
)
