"""hotmeals: hot school meals for Ontario parents (Reflex app, service layer, /api/v1)."""
