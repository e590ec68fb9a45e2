"""State that several screens and the shared components use: the session (auth), the
language, toasts, the forms helpers, the screens' base classes, the page-load event, ids, the
account's steps (the header opens them) and the dialogs several screens show. Imports nothing
of ui/screens or ui/components."""
