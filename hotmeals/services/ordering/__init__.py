"""Ordering: from the menu to a placed order and its after-sale life."""
