"""The demo: data that only the services' own code can write (hotmeals/demo/seed.py)."""
