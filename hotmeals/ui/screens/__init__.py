"""One package per screen of the parent app, named after its route: its page (page.py), its
state (state.py) and its view builders side by side. The routes: ``hotmeals/ui/routes.py``."""
