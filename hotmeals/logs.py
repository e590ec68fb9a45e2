"""``HOTMEALS_LOG_LEVEL`` (unset: Reflex's own logging only): the level of the ``hotmeals``
loggers, written to stderr with a timestamp. INFO records every payment movement (ids,
amounts, invoice numbers, masked cards, never a card number, CVV or PIN) and every Converge
call; DEBUG adds the scrubbed Converge request fields."""

from __future__ import annotations

import logging
import os
import sys

_HANDLER_NAME = "hotmeals-stderr"


def configure_from_env() -> None:
    level_name = os.environ.get("HOTMEALS_LOG_LEVEL", "").strip().upper()
    if not level_name:
        return
    level = logging.getLevelName(level_name)
    if not isinstance(level, int):
        raise ValueError(f"HOTMEALS_LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR: {level_name}")
    logger = logging.getLogger("hotmeals")
    logger.setLevel(level)
    if not any(h.get_name() == _HANDLER_NAME for h in logger.handlers):
        handler = logging.StreamHandler(sys.stderr)
        handler.set_name(_HANDLER_NAME)
        handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s"))
        logger.addHandler(handler)
        logger.propagate = False  # one line per record, whatever the root logger does
