"""Persistence: SQLModel tables (``models``), the engine and sessions (``engine``), the
migrations (``migrations``) and the seed data (``seed``). Imports no service; ui, api and web
reach it through the services (scripts/import_rules.py)."""
