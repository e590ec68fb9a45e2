"""The query budget for every Reflex page load that lists rows: the page's own on_load
chain (as hotmeals/ui/routes.py lists it), run on the
states the browser would get, counted for a parent with one of everything and for one with ten
(children, allergies per child, stored cards, donations). The two counts must be equal and
within the page's budget, and the page must really show the ten rows.

Runs on SQLite and PostgreSQL like every API test (tests/api/conftest.py). The families are
made by tests/api/test_query_budget.py's factory.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass

import pytest
import reflex as rx
from sqlmodel import select

# Reflex registers a State class in the context it is imported in: import every state here, in
# the main thread, before any asyncio.run (each run copies this context).
import hotmeals.ui.screens.allergy_profile.state
import hotmeals.ui.screens.donate_payment.state
import hotmeals.ui.screens.family_credit.state
import hotmeals.ui.screens.parent_edit_profile.state
import hotmeals.ui.screens.payment_methods.state
import hotmeals.ui.shared_state.auth
import hotmeals.ui.shared_state.children
import hotmeals.ui.shared_state.edit_profile
import hotmeals.ui.shared_state.otp
import hotmeals.ui.shared_state.settings
import hotmeals.ui.shared_state.steps  # noqa: F401
from hotmeals.db.engine import session_scope
from hotmeals.db.models import Child
from tests.api.helpers import ok, post
from tests.api.test_query_budget import Family, _make_family
from tests.querycount import count_queries


@pytest.fixture(scope="module")
def families(database) -> tuple[Family, Family]:
    return _make_family(1), _make_family(10)


def _default_child(family: Family) -> int:
    with session_scope() as session:
        return session.exec(
            select(Child.id).where(Child.parent_id == family.parent_id, Child.is_default)
        ).one()


async def _run(result) -> None:
    if hasattr(result, "__aiter__"):
        async for _ in result:
            pass
    elif hasattr(result, "__await__"):
        await result


@dataclass(frozen=True)
class PageLoad:
    route: str
    on_load: Callable[[], list]  # [(State class, handler name, args)], imported lazily
    budget: int
    rows: Callable[[rx.State], object]  # async: what the page lists, read from the states
    steps: tuple[str, str] | None = None  # /edit-profile's stored (step, settings step)
    chosen: bool = False  # the browser holds a chosen child (its default child)


def _auth():
    from hotmeals.ui.shared_state.auth import AuthState

    return AuthState


async def _state(root: rx.State, name: str, cls_name: str) -> rx.State:
    module = __import__(f"hotmeals.ui.{name}", fromlist=[cls_name])
    return await root.get_state(getattr(module, cls_name))


def _chain(*handlers: tuple[str, str, str, tuple]) -> Callable[[], list]:
    def build() -> list:
        import importlib

        out = []
        for module, cls_name, handler, args in handlers:
            cls = getattr(importlib.import_module(f"hotmeals.ui.{module}"), cls_name)
            out.append((cls, handler, args))
        return out

    return build


GUARD = ("shared_state.auth", "AuthState", "require_parent", ())


async def _kids(root):
    return (await _state(root, "shared_state.children", "ChildrenState")).kids


async def _allergy_items(root):
    return (await _state(root, "screens.allergy_profile.state", "AllergyState")).items


async def _child_form(root):
    form = await _state(root, "shared_state.children", "ChildFormState")
    return form.cities if form.first_name == "Kid0" else []


async def _alt_emails(root):
    return (await _state(root, "screens.parent_edit_profile.state", "ParentEditState")).alt_emails


async def _donations(root):
    return (await _state(root, "screens.donate_payment.state", "DonateState")).history


async def _cards(root):
    return (await _state(root, "screens.payment_methods.state", "CardsState")).cards


async def _credit_moves(root):
    return (await _state(root, "screens.family_credit.state", "FamilyCreditState")).history


async def _prefs(root):
    return (await _state(root, "shared_state.settings", "NotificationState")).prefs


async def _cities(root):
    return (await _state(root, "shared_state.children", "ChildFormState")).cities


PAGES = [
    PageLoad(
        "/edit-profile",
        _chain(GUARD, ("shared_state.edit_profile", "EditProfileState", "enter", ())),
        6,
        _kids,
    ),
    PageLoad(
        "/edit-profile (notification settings)",
        _chain(GUARD, ("shared_state.edit_profile", "EditProfileState", "enter", ())),
        5,
        _prefs,
        steps=("6", "2"),
    ),
    PageLoad(
        "/allergy-profile",
        _chain(
            ("shared_state.auth", "AuthState", "require_session", ()),
            ("screens.allergy_profile.state", "AllergyState", "start", ()),
        ),
        6,
        _allergy_items,
    ),
    PageLoad(
        "/allergy-profile (a chosen child)",
        _chain(
            ("shared_state.auth", "AuthState", "require_session", ()),
            ("screens.allergy_profile.state", "AllergyState", "start", ()),
        ),
        6,
        _allergy_items,
        chosen=True,
    ),
    PageLoad(
        "/edit-profile/edit-child",
        _chain(GUARD, ("shared_state.children", "ChildFormState", "start_edit", ())),
        6,
        _child_form,
    ),
    PageLoad(
        "/edit-profile/edit-child (a chosen child)",
        _chain(GUARD, ("shared_state.children", "ChildFormState", "start_edit", ())),
        6,
        _child_form,
        chosen=True,
    ),
    PageLoad(
        "/add-another-child",
        _chain(GUARD, ("shared_state.children", "ChildFormState", "start_add", ())),
        4,
        _cities,
    ),
    PageLoad(
        "/edit-profile/parent-edit-profile",
        _chain(
            GUARD,
            ("screens.parent_edit_profile.state", "ParentEditState", "load", ()),
            ("shared_state.otp", "OtpState", "cancel", ()),
        ),
        6,  # the guard's profile, then the form's own
        _alt_emails,
    ),
    PageLoad(
        "/edit-profile/donate-payment",
        _chain(GUARD, ("screens.donate_payment.state", "DonateState", "load", ())),
        7,
        _donations,
    ),
    PageLoad(
        "/edit-profile/payment-methods",
        _chain(GUARD, ("screens.payment_methods.state", "CardsState", "load", ())),
        5,
        _cards,
    ),
    PageLoad(
        "/edit-profile/family-credit",
        _chain(GUARD, ("screens.family_credit.state", "FamilyCreditState", "load", ())),
        7,  # the guard (3), the acting parent, the balance, the movements, the refund choice
        _credit_moves,
    ),
]


async def _page_load(page: PageLoad, family: Family) -> tuple[int, str, object]:
    from hotmeals.services import reference

    on_load = page.on_load()
    root = rx.State(_reflex_internal_init=True)
    auth = await root.get_state(_auth())
    auth.token = family.token
    if page.steps:
        steps = await _state(root, "shared_state.steps", "ProfileStepState")
        steps.step, steps.settings_step = page.steps
    if page.chosen:
        choice = await _state(root, "shared_state.children", "ChildChoiceState")
        choice.child_id = str(_default_child(family))
    # Reference data is warm in a running server; the count is the page's own work.
    with session_scope() as session:
        for read in (reference.places, reference.allergens, reference.pages, reference.faq):
            read(session)
    handlers = [(await root.get_state(cls), name, args) for cls, name, args in on_load]
    with count_queries() as queries:
        for state, name, args in handlers:
            await _run(getattr(state, name)(*args))
    return queries.count, queries.report(), await page.rows(root)


@pytest.mark.parametrize("page", PAGES, ids=[p.route for p in PAGES])
def test_a_page_load_costs_the_same_for_one_or_ten_of_everything(families, page):
    counts = {}
    shown = {}
    for family in families:
        count, report, rows = asyncio.run(_page_load(page, family))
        assert rows, f"{page.route} shows nothing for {family.size}"
        assert count <= page.budget, f"{page.route} for {family.size}: {count}\n{report}"
        counts[family.size] = count
        shown[family.size] = rows
    assert counts[1] == counts[10], (page.route, counts)
    if page.rows in (_kids, _donations, _cards, _allergy_items, _credit_moves):
        assert len(shown[10]) == 10 and len(shown[1]) == 1, (page.route, shown)


def test_one_childs_details_cost_the_same_for_one_or_ten_allergies(client, families):
    counts = {}
    for family in families:
        child_id = _default_child(family)
        with count_queries() as queries:
            child = ok(
                post(
                    client,
                    "/Parent/user/GetOneChildInfo",
                    {"child_id": child_id},
                    family.token,
                    lang="fr",
                )
            )["data"]
        assert child["id"] == child_id and len(child["allergies"]) == family.size
        # the token, the child with its places, its allergies
        assert queries.count <= 3, queries.report()
        counts[family.size] = queries.count
    assert counts[1] == counts[10], counts
