"""Operator commands for the background work: ``python -m hotmeals.jobs --help``.

The periodic jobs themselves are ``hotmeals/services/jobs.py`` (leases, one worker at a time).
"""
