"""One package per screen of the parent app, named after its route: its page (page.py), its
own state when it has one (state.py), and its view builders side by side. A screen whose
state others share finds it in ui/shared_state. The routes: ``hotmeals/ui/routes.py``."""
