"""The one exception the domain and service layers raise for a rule a parent broke.

``code`` is a message key of ``hotmeals.i18n``; the UI and the API turn it into text in the
parent's language with ``hotmeals.i18n.t(err.code, lang, **err.params)``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from hotmeals.i18n import t


class DomainError(Exception):
    def __init__(self, code: str, *, field: str | None = None, **params: object) -> None:
        super().__init__(code)
        self.code = code
        self.field = field
        self.params = params

    def message(self, lang: str | None = "en") -> str:
        return t(self.code, lang, **self.params)

    def __repr__(self) -> str:
        return f"DomainError({self.code!r}, field={self.field!r}, params={self.params!r})"


@contextmanager
def suppress_refusal(code: str) -> Iterator[None]:
    """``contextlib.suppress`` for one refusal: a ``DomainError`` of ``code`` in the block is
    an expected answer, and the caller carries on after the block; any other propagates."""
    try:
        yield
    except DomainError as err:
        if err.code != code:
            raise
