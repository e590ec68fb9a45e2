"""The query budget: the number of SQL statements behind each API call and each Reflex
page load is fixed - it does not grow with the parent's children, allergies, cards, donations,
alternate e-mails or notification settings - and reference data (cities, schools, teachers,
grades, allergens, CMS pages, FAQ) comes from the process cache once it is warm.

Each read is counted for a parent with one of everything and for a parent with ten (the most
the services allow where less than ten: three alternate e-mails, six notification kinds); the
two counts must be equal and within the call's budget. Runs on SQLite and on PostgreSQL, like
every API test (tests/api/conftest.py).
"""

from __future__ import annotations

import asyncio
from dataclasses import FrozenInstanceError, dataclass

import pytest
import reflex as rx
from sqlalchemy import text, update
from sqlmodel import select

from hotmeals.db.engine import session_scope
from hotmeals.db.models import (
    AllergenIngredient,
    City,
    CreditEntry,
    Donation,
    Faq,
    NotificationPreference,
    ParentAltEmail,
    Payment,
    Refund,
    School,
    StoredCard,
    Teacher,
)
from hotmeals.services import children, content, notifications, reference
from hotmeals.services.notifications import NOTIFICATION_KINDS
from hotmeals.services.reference import CityRef
from tests.api.helpers import get, ok, post, quick_token
from tests.factories import get_allergen, make_child, make_parent, make_school, make_teacher
from tests.querycount import count_queries


@dataclass(frozen=True)
class Family:
    size: int
    parent_id: int
    email: str
    token: str


def _make_family(size: int) -> Family:
    with session_scope() as session:
        parent = make_parent(
            session, first_name="Budget", last_name=f"Size{size}", phone=f"(613) 555-77{size:02d}"
        )
        allergens = session.exec(
            select(AllergenIngredient).order_by(AllergenIngredient.id).limit(size)
        ).all()
        assert len(allergens) == size
        schools = []
        for i in range(size):
            child = make_child(
                session,
                parent,
                first_name=f"Kid{i}",
                is_default=i == 0,
                allergies={a.name_en: "Major" for a in allergens},
            )
            schools.append(child.school_id)
        for i in range(size):
            session.add(
                StoredCard(
                    parent_id=parent.id,
                    converge_token=f"qb{parent.id}t{i}",
                    brand="VISA",
                    masked=f"41**********{1000 + i}",
                    exp_month=12,
                    exp_year=2030,
                )
            )
            donation = Donation(
                parent_id=parent.id, school_id=schools[i], amount_cents=500 + i, status="PAID"
            )
            session.add(donation)
            session.flush()
            payment = Payment(
                parent_id=parent.id,
                donation_id=donation.id,
                purpose="DONATION",
                invoice_number=f"QB-{parent.id}-{i}",
                amount_cents=500 + i,
                state="APPROVED",
                card_brand="VISA",
                card_masked=f"41**********{1000 + i}",
            )
            session.add(payment)
            session.flush()
            session.add_all(
                [
                    Refund(payment_id=payment.id, amount_cents=100, kind="RETURN", state=state)
                    for state in ("SUCCEEDED", "PENDING", "FAILED")
                ]
            )
            session.add(
                CreditEntry(parent_id=parent.id, kind="refund", amount_cents=100 + i, key=f"qb-{i}")
            )
        for i in range(min(size, 3)):
            session.add(ParentAltEmail(parent_id=parent.id, email=f"alt{i}.{parent.id}@ex.org"))
        for kind in NOTIFICATION_KINDS[: min(size, len(NOTIFICATION_KINDS))]:
            session.add(NotificationPreference(parent_id=parent.id, kind=kind, enabled=False))
        parent_id, email = parent.id, parent.email
    return Family(size, parent_id, email, quick_token(email))


@pytest.fixture(scope="module")
def families(database) -> tuple[Family, Family]:
    return _make_family(1), _make_family(10)


def _counted(call) -> tuple[int, str, object]:
    with count_queries() as queries:
        result = call()
    return queries.count, queries.report(), result


# (label, method, path, body, budget, how many rows the answer lists for a family of n)
PARENT_READS = [
    ("GetChilds", "GET", "/Parent/user/GetChilds", None, 3, lambda n: n),
    ("GetUserDetails", "GET", "/Parent/user/GetUserDetails", None, 3, None),
    ("GetCards", "GET", "/Parent/payment/GetCards", None, 2, lambda n: n),
    ("DonationHistory", "GET", "/Parent/payment/DonationHistory", None, 2, lambda n: n),
]


@pytest.mark.parametrize(
    ("label", "method", "path", "body", "budget", "rows"),
    PARENT_READS,
    ids=[r[0] for r in PARENT_READS],
)
def test_a_parent_read_costs_the_same_for_one_or_ten_of_everything(
    client, families, label, method, path, body, budget, rows
):
    counts = {}
    for family in families:

        def call(family=family):
            if method == "GET":
                return ok(get(client, path, family.token, lang="fr"))
            return ok(post(client, path, body, family.token, lang="fr"))

        count, report, answer = _counted(call)
        if rows is not None:
            assert len(answer["data"]) == rows(family.size), answer
        assert count <= budget, f"{label} for {family.size}: {count} statements\n{report}"
        counts[family.size] = count
    assert counts[1] == counts[10], counts


def test_children_come_with_their_places_and_allergies_in_the_callers_language(client, families):
    ten = families[1]
    kids = ok(get(client, "/Parent/user/GetChilds", ten.token, lang="fr"))["data"]
    assert kids[0]["first_name"] == "Kid0" and kids[0]["is_default"]
    assert all(k["city"] and k["school"] and k["teacher"] for k in kids)
    assert {k["grade"] for k in kids} == {"3e année"}
    assert all(len(k["allergies"]) == 10 for k in kids)
    peanuts = [a for a in kids[0]["allergies"] if a["name"] == "Arachides"]
    assert peanuts and peanuts[0]["alert_level"] == "Major"
    english = ok(get(client, "/Parent/user/GetChilds", ten.token, lang="en"))["data"]
    assert {k["grade"] for k in english} == {"Grade 3"}


def test_profile_answers_every_count_and_setting(client, families):
    one, ten = families
    for family, alts in ((one, 1), (ten, 3)):
        data = ok(get(client, "/Parent/user/GetUserDetails", family.token))["data"]
        assert data["active_child_count"] == family.size
        assert len(data["alt_emails"]) == alts
        assert data["cart_count"] == 0 and data["cancel_cart_count"] == 0
        assert data["notifications"]["order_confirmation"] is False
        assert data["notifications"]["newsletter"] is False


def test_saving_notification_settings_does_not_grow_with_stored_settings(client, families):
    counts = {}
    for family in families:
        count, report, answer = _counted(
            lambda f=family: ok(
                post(
                    client,
                    "/Parent/user/update_parent_email_noti_details",
                    {"refund": True},
                    f.token,
                )
            )
        )
        assert answer["data"]["refund"] is True
        assert count <= 5, report  # token, read, one write, read back (+ PostgreSQL's none)
        counts[family.size] = count
    assert counts[1] == counts[10], counts


# --- reference data: cached in the process -------------------------------------------------

REFERENCE_READS = [
    ("get_city", "POST", "/Parent/user/get_city", {}),
    ("GetSchool", "POST", "/Parent/user/GetSchool", "city"),
    ("get_teachers", "POST", "/Parent/user/get_teachers", "school"),
    ("get_grades", "GET", "/Parent/user/get_grades", None),
    ("Allergicingredients", "GET", "/Parent/user/Allergicingredients", None),
    ("allergy_suggestions", "POST", "/Admin/allergy_suggestions/list", {"search": "pea"}),
    ("cms_pages", "POST", "/Parent/user/cms_pages", {"slug": "about"}),
    ("faq", "POST", "/Parent/user/cms_pages", {"slug": "faq"}),
]


def _some_school(db_session) -> tuple[int, int]:
    school = db_session.exec(select(School).where(School.is_active).order_by(School.id)).first()
    return school.city_id, school.id


@pytest.mark.parametrize(
    ("label", "method", "path", "body"), REFERENCE_READS, ids=[r[0] for r in REFERENCE_READS]
)
def test_reference_data_is_read_once_then_served_from_the_cache(
    client, db, label, method, path, body
):
    city_id, school_id = _some_school(db)
    db.commit()
    if body == "city":
        body = {"city_id": city_id}
    elif body == "school":
        body = {"school_id": school_id}

    def call(lang: str):
        if method == "GET":
            return ok(get(client, path, lang=lang))
        return ok(post(client, path, body, lang=lang))

    reference.invalidate()
    cold, cold_report, first = _counted(lambda: call("en"))
    warm, warm_report, again = _counted(lambda: call("en"))
    french, _, in_french = _counted(lambda: call("fr"))
    assert cold >= 1, cold_report
    assert warm == 0, warm_report
    assert french == 0
    assert again["data"] == first["data"] and first["data"]
    if label in ("get_teachers", "get_grades", "Allergicingredients", "cms_pages", "faq"):
        assert in_french["data"] != first["data"]  # the same copy, answered in French


def test_the_cached_answer_is_in_each_callers_language(client):
    reference.invalidate()
    english = ok(get(client, "/Parent/user/get_grades", lang="en"))["data"]
    french = ok(get(client, "/Parent/user/get_grades", lang="fr"))["data"]
    assert [g["id"] for g in english] == [g["id"] for g in french]
    first_en = next(g["label"] for g in english if g["code"] == "1")
    first_fr = next(g["label"] for g in french if g["code"] == "1")
    assert (first_en, first_fr) == ("Grade 1", "1re année")
    ingredients = ok(get(client, "/Parent/user/Allergicingredients", lang="fr"))["data"]
    assert "Arachides" in {i["name"] for i in ingredients}


def test_a_commit_that_edits_reference_rows_invalidates_the_cache(client, db):
    city_id, school_id = _some_school(db)
    db.commit()
    before = ok(post(client, "/Parent/user/GetSchool", {"city_id": city_id}))["data"]
    with session_scope() as session:
        city = session.get(City, city_id)
        new_school = make_school(session, city=city.name, name="Aaa Budget Public School")
        make_teacher(session, new_school, name="Mr. Budget")
        new_id = new_school.id
    after = ok(post(client, "/Parent/user/GetSchool", {"city_id": city_id}))["data"]
    assert new_id in {s["id"] for s in after} and len(after) == len(before) + 1
    teachers = ok(post(client, "/Parent/user/get_teachers", {"school_id": new_id}))["data"]
    assert [t["name"] for t in teachers] == ["Mr. Budget"]

    # An ORM bulk update is seen too; the school disappears from the list.
    with session_scope() as session:
        session.execute(update(School).where(School.id == new_id).values(is_active=False))
    listed = ok(post(client, "/Parent/user/GetSchool", {"city_id": city_id}))["data"]
    assert new_id not in {s["id"] for s in listed}


def test_a_rolled_back_edit_never_reaches_the_cache(client, db):
    reference.invalidate()
    with pytest.raises(RuntimeError), session_scope() as session:
        get_allergen(session, "Budgetberry", name_fr="Baie-budget")
        # Read inside the edit: this transaction sees its own row, and caches nothing.
        names = {i.name("en") for i in children.list_allergic_ingredients(session=session)}
        assert "Budgetberry" in names
        raise RuntimeError("roll back")
    names = {i["name"] for i in ok(get(client, "/Parent/user/Allergicingredients"))["data"]}
    assert "Budgetberry" not in names


def test_invalidate_drops_what_raw_sql_changed_and_entries_expire(client, db, monkeypatch):
    reference.invalidate()
    faq = ok(post(client, "/Parent/user/cms_pages", {"slug": "faq"}))["data"]["items"]
    first = faq[0]
    # Raw SQL (like another process's seed) is invisible to this process's ORM hooks...
    with session_scope() as session:
        session.connection().execute(
            text("UPDATE faq SET question = :q WHERE id = :id"),
            {"q": "Budget question?", "id": first["id"]},
        )
    try:
        stale = ok(post(client, "/Parent/user/cms_pages", {"slug": "faq"}))["data"]["items"]
        assert stale[0]["question"] == first["question"]
        # ... until the entry expires,
        now = reference._clock()
        monkeypatch.setattr(reference, "_clock", lambda: now + reference.TTL_SECONDS + 1)
        fresh = ok(post(client, "/Parent/user/cms_pages", {"slug": "faq"}))["data"]["items"]
        assert fresh[0]["question"] == "Budget question?"
        monkeypatch.undo()
        # or invalidate() is called.
        with session_scope() as session:
            session.connection().execute(
                text("UPDATE faq SET question = :q WHERE id = :id"),
                {"q": "Budget again?", "id": first["id"]},
            )
        cached = ok(post(client, "/Parent/user/cms_pages", {"slug": "faq"}))["data"]["items"]
        assert cached[0]["question"] == "Budget question?"
        reference.invalidate()
        count, report, answer = _counted(
            lambda: ok(post(client, "/Parent/user/cms_pages", {"slug": "faq"}))
        )
        assert answer["data"]["items"][0]["question"] == "Budget again?"
        assert count >= 1, report
    finally:
        with session_scope() as session:
            session.execute(
                update(Faq).where(Faq.id == first["id"]).values(question=first["question"])
            )


def test_cached_copies_cannot_be_changed_by_a_caller(db):
    places = reference.places(db)
    with pytest.raises(AttributeError):
        places.cities[0].name = "Elsewhere"  # type: ignore[misc]
    with pytest.raises(TypeError):
        places.schools[1] = None  # type: ignore[index]
    rows = children.list_cities(session=db)
    with pytest.raises(FrozenInstanceError):
        rows[0].name = "Changed by a caller"  # type: ignore[misc]
    rows[0] = CityRef(id=rows[0].id, name="Changed by a caller")
    assert children.list_cities(session=db)[0].name != "Changed by a caller"
    page = content.cms_page(session=db, slug="about", lang="fr")
    with pytest.raises(FrozenInstanceError):
        page.title = "x"  # type: ignore[misc]
    assert content.cms_page(session=db, slug="about", lang="fr").title != "x"


def test_teachers_of_an_unknown_or_closed_school_are_refused(client, db):
    school = db.exec(select(School).order_by(School.id)).first()
    db.commit()
    body = ok(post(client, "/Parent/user/get_teachers", {"school_id": school.id}))
    assert body["data"]
    missing = post(client, "/Parent/user/get_teachers", {"school_id": 999_999}).json()
    assert missing["code"] == 0
    assert db.exec(select(Teacher).where(Teacher.school_id == 999_999)).first() is None


# --- Reflex page loads --------------------------------------------------------------------------


async def _events(result) -> list:
    if hasattr(result, "__aiter__"):
        return [event async for event in result]
    value = await result
    return [] if value is None else [value]


def test_the_edit_profile_page_load_costs_the_same_for_one_or_ten_children(families):
    from hotmeals.ui.shared_state.auth import AuthState
    from hotmeals.ui.shared_state.children import ChildrenState

    async def page_load(family: Family) -> tuple[int, str, list]:
        root = rx.State(_reflex_internal_init=True)
        auth = await root.get_state(AuthState)
        auth.token = family.token
        kids = await root.get_state(ChildrenState)
        with count_queries() as queries:
            await _events(auth.require_parent())  # the page's on_load
            await _events(kids.load())  # the children list
        return queries.count, queries.report(), kids.kids

    counts = {}
    for family in families:
        count, report, kids = asyncio.run(page_load(family))
        assert len(kids) == family.size
        assert kids[0]["name"].startswith("Kid0") and kids[0]["allergies"]
        # require_parent: token, parent with its counts, e-mails with settings; the list:
        # token (each handler re-checks it), children with their places, allergies
        assert count <= 6, report
        counts[family.size] = count
    assert counts[1] == counts[10], counts


def test_the_settings_and_payment_screens_load_the_same_for_one_or_ten(families):
    from hotmeals.services import cards, donations

    counts: dict[str, dict[int, int]] = {}
    for family in families:
        for label, fn, kwargs in (
            ("notifications", notifications.get_preferences, {}),
            ("cards", cards.list_cards, {}),
            ("donation schools", donations.donation_schools, {}),
            ("donations", donations.list_donations, {}),
        ):
            with session_scope() as session, count_queries() as queries:
                rows = fn(session=session, parent_id=family.parent_id, **kwargs)
            assert rows, label
            counts.setdefault(label, {})[family.size] = queries.count
    for label, by_size in counts.items():
        assert by_size[1] == by_size[10] <= 2, (label, by_size)


def test_the_seed_command_empties_the_cache_of_its_process(client):
    from hotmeals import cli
    from hotmeals.settings import get_settings

    cities = ok(post(client, "/Parent/user/get_city", {}))["data"]
    with session_scope() as session:  # raw SQL: no ORM hook sees it
        session.connection().execute(
            text("INSERT INTO city (name, province) VALUES ('Budgetville', 'ON')")
        )
    assert ok(post(client, "/Parent/user/get_city", {}))["data"] == cities  # cached
    cli.seed(get_settings().database_url)
    names = {c["name"] for c in ok(post(client, "/Parent/user/get_city", {}))["data"]}
    assert "Budgetville" in names


def test_the_payment_list_costs_the_same_for_one_or_ten_payments(families):
    from hotmeals.services import payments

    counts = {}
    for family in families:
        with session_scope() as session, count_queries() as queries:
            views = payments.list_payments(session=session, parent_id=family.parent_id)
        assert len(views) == family.size
        for view in views:
            assert view.refunded_cents == 100  # the succeeded refund only
            assert view.refundable_cents == view.amount_cents - 200  # succeeded and pending
        counts[family.size] = queries.count
    assert counts[1] == counts[10] <= 2, counts
