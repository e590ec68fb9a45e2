"""Persistence: SQLModel tables (``models``), the engine and sessions (``engine``), demo data
(``seed``). Services are the only callers."""
