"""Reflex configuration. Everything variable comes from hotmeals.settings (environment)."""

import os

import reflex as rx

from hotmeals.settings import get_settings

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
    plugins=[
        rx.plugins.RadixThemesPlugin(
            theme=rx.theme(
                appearance="light",
                accent_color="tomato",
                gray_color="sand",
                radius="large",
                scaling="100%",
            )
        ),
    ],
    disable_plugins=[rx.plugins.SitemapPlugin],
)
