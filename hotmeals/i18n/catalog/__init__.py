"""One module per area; each defines EN and FR dicts with identical keys."""
