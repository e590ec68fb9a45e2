"""Operator commands for the background work: ``python -m hotmeals.jobs --help``.

The periodic jobs themselves are ``jobs/periodic.py`` (leases, one worker at a time; the job
queue on PostgreSQL, ``jobs/queue.py``); the payments' round is ``jobs/payment_round.py``.
"""
