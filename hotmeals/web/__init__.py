"""The ASGI middlewares around the whole backend (pages, /api/v1, Reflex's /_event and /_upload,
the simulator), installed as ``api_transformer`` in ``hotmeals/hotmeals.py``."""
