"""Every page's component tree builds, as the frontend build does first (``reflex export``
evaluates each page before it compiles): a Var used as a child it cannot be (a field named like
one of ObjectVar's methods, ``row.items``), a wrong prop, a missing catalog key in ``t()``
fails here in seconds instead of in the e2e build."""

from __future__ import annotations

import pytest


def test_every_page_component_builds() -> None:
    from hotmeals import hotmeals as entry

    pages = dict(entry.app._unevaluated_pages)
    assert len(pages) >= 30, sorted(pages)
    failures = []
    for route, page in pages.items():
        try:
            component = page.component() if callable(page.component) else page.component
            component.render()
        except Exception as err:  # noqa: BLE001 - each page's failure is listed
            failures.append(f"{route}: {type(err).__name__}: {str(err)[:200]}")
    if failures:
        pytest.fail("\n".join(failures))
