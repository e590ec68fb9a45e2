"""/api/v1/Parent/cart/AddManyToCart and /api/v1/Parent/cart/RepeatWeek ('Book several days'), on
SQLite and PostgreSQL: good lines added and refused ones listed with their day and reason (EN
and FR), another parent's child refused, a repeated Idempotency-Key adds nothing, 'Repeat'
twice adds nothing more, and a fixed number of statements for 1 and 10 lines."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

import pytest
from sqlmodel import select

from hotmeals import clock
from hotmeals.db.engine import session_scope
from hotmeals.db.models import CartLine, School
from hotmeals.domain.dates import long_day
from hotmeals.services.ordering.days import week_start
from tests.api.helpers import ok, post, quick_token, refused
from tests.factories import make_child, make_meal, make_menu_day, make_parent, make_school
from tests.factories import make_vendor as vendor_of
from tests.querycount import count_queries


@dataclass
class Week:
    school_id: int
    source: date  # Monday of a week with every day served
    target: date  # the next Monday: Wednesday closed, Thursday another meal only
    plain: int
    peanut: int
    soup: int


@pytest.fixture(scope="module")
def week(database) -> Week:
    source = week_start(clock.today() + timedelta(days=21))
    target = source + timedelta(days=7)
    with session_scope() as s:
        school = make_school(s)
        vendor = vendor_of(s, cutoff_days_before=2, cutoff_time="17:00")
        plain = make_meal(s, vendor, name_en="Rice bowl", name_fr="Bol de riz")
        peanut = make_meal(s, vendor, name_en="Satay", allergens=["Peanuts"])
        soup = make_meal(s, vendor, name_en="Soup")
        for n in range(5):
            make_menu_day(s, school, vendor, source + timedelta(days=n), [plain, peanut])
            day = target + timedelta(days=n)
            if n == 2:
                make_menu_day(s, school, vendor, day, closed=True)
            else:
                make_menu_day(s, school, vendor, day, [soup] if n == 3 else [plain, peanut])
        s.flush()
        return Week(school.id, source, target, plain.id, peanut.id, soup.id)


@dataclass
class Family:
    token: str
    parent_id: int
    ava: int  # Major peanuts


def _family(week: Week) -> Family:
    with session_scope() as s:
        school = s.get(School, week.school_id)
        parent = make_parent(s)
        ava = make_child(s, parent, school=school, first_name="Ava", allergies={"Peanuts": "Major"})
        found = (parent.email, parent.id, ava.id)
    return Family(quick_token(found[0]), found[1], found[2])


def _day(monday: date, n: int) -> str:
    return (monday + timedelta(days=n)).isoformat()


def _add_many(client, family: Family, items: list[dict], *, lang="en", key=None):
    extra = {"Idempotency-Key": key} if key else {}
    return post(
        client, "/Parent/cart/AddManyToCart", {"items": items}, family.token, lang=lang, **extra
    )


def _cart(family: Family) -> list[CartLine]:
    with session_scope() as s:
        return list(s.exec(select(CartLine).where(CartLine.parent_id == family.parent_id)).all())


def test_add_many_adds_the_good_lines_and_says_why_not_for_the_others(client, week):
    family = _family(week)
    items = [
        {"child_id": family.ava, "date": _day(week.target, n), "meal_id": week.plain}
        for n in range(5)
    ]
    items.append({"child_id": family.ava, "date": _day(week.target, 0), "meal_id": week.peanut})
    body = ok(_add_many(client, family, items))
    assert body["message"] == "Meals added to cart: 3. Not added: 3."
    assert [a["date"] for a in body["data"]["added"]] == [_day(week.target, n) for n in (0, 1, 4)]
    reasons = [(r["date"], r["reason"]) for r in body["data"]["refused"]]
    assert reasons == [
        (
            _day(week.target, 2),
            f"No meals on {long_day(week.target + timedelta(days=2))}: PA Day – no school",
        ),
        (_day(week.target, 3), "This meal is not on the menu of that day"),
        (
            _day(week.target, 0),
            "This meal contains Peanuts, a Major allergy of this child: it cannot be added",
        ),
    ]
    assert body["data"]["cart_count"] == 3 and len(_cart(family)) == 3
    fr = ok(_add_many(client, family, items[2:3], lang="fr"))
    assert fr["message"] == "Repas ajoutés au panier : 0. Non ajoutés : 1."
    assert fr["data"]["refused"][0]["reason"].startswith("Aucun repas le ")


def test_a_line_with_a_long_special_note_refuses_only_itself(client, week):
    """One line's overlong note once refused the whole batch with 'Please check
    the value of special_note'; now that line alone is refused, with the documented
    message, and the others are added."""
    family = _family(week)
    items = [
        {"child_id": family.ava, "date": _day(week.target, 0), "meal_id": week.plain},
        {
            "child_id": family.ava,
            "date": _day(week.target, 1),
            "meal_id": week.plain,
            "special_note": "x" * 20_000,
        },
        {"child_id": family.ava, "date": _day(week.target, 4), "meal_id": week.plain},
    ]
    body = ok(_add_many(client, family, items))
    assert [a["date"] for a in body["data"]["added"]] == [_day(week.target, n) for n in (0, 4)]
    assert [(r["index"], r["reason"]) for r in body["data"]["refused"]] == [
        (1, "Special note should not exceed 120 characters")
    ]
    assert len(_cart(family)) == 2


def test_another_parents_child_refuses_the_request(client, week):
    family, stranger = _family(week), _family(week)
    items = [
        {"child_id": family.ava, "date": _day(week.target, 0), "meal_id": week.plain},
        {"child_id": stranger.ava, "date": _day(week.target, 1), "meal_id": week.plain},
    ]
    refused(_add_many(client, family, items), "Child not found")
    refused(_add_many(client, family, items, lang="fr"), "Enfant introuvable")
    assert _cart(family) == [] and _cart(stranger) == []
    refused(
        post(
            client,
            "/Parent/cart/RepeatWeek",
            {
                "child_id": stranger.ava,
                "source_week_start": str(week.source),
                "target_week_start": str(week.target),
            },
            family.token,
        ),
        "Child not found",
    )
    refused(_add_many(client, family, []), "Please choose at least one day and a meal")


def test_a_repeated_idempotency_key_adds_once(client, week):
    family = _family(week)
    items = [{"child_id": family.ava, "date": _day(week.target, 1), "meal_id": week.plain}]
    first = ok(_add_many(client, family, items, key="week-1"))
    again = ok(_add_many(client, family, items, key="week-1"))
    assert first["data"] == again["data"] and len(_cart(family)) == 1


def test_repeat_week_copies_what_it_can_and_twice_adds_nothing_more(client, week):
    family = _family(week)
    source_items = [
        {"child_id": family.ava, "date": _day(week.source, n), "meal_id": week.plain}
        for n in range(5)
    ]
    ok(_add_many(client, family, source_items))
    payload = {
        "child_id": family.ava,
        "source_week_start": _day(week.source, 3),  # any day of the week
        "target_week_start": str(week.target),
    }
    first = ok(post(client, "/Parent/cart/RepeatWeek", payload, family.token))
    data = first["data"]
    assert first["message"] == "Meals copied to your cart: 3. Not copied: 2."
    assert [(a["source_date"], a["date"]) for a in data["added"]] == [
        (_day(week.source, n), _day(week.target, n)) for n in (0, 1, 4)
    ]
    assert [(r["date"], r["code"]) for r in data["refused"]] == [
        (_day(week.target, 2), "menu_day_closed"),
        (_day(week.target, 3), "meal_not_on_menu"),
    ]
    second = ok(post(client, "/Parent/cart/RepeatWeek", payload, family.token, lang="fr"))
    assert second["data"]["added_count"] == 0 and second["data"]["skipped_count"] == 3
    assert {s["reason"] for s in second["data"]["skipped"]} == {"Déjà dans votre panier"}
    assert len(_cart(family)) == 8
    same = dict(payload, target_week_start=_day(week.source, 4))
    refused(
        post(client, "/Parent/cart/RepeatWeek", same, family.token),
        "Please choose another week to copy to",
    )


def test_add_many_runs_a_fixed_number_of_statements(client, week):
    counts = []
    for n in (1, 10):
        family = _family(week)
        items = [
            {
                "child_id": family.ava,
                "date": _day(week.source, i % 5),
                "meal_id": week.plain,
                "size": ("small", "large")[i % 2],
                "special_note": f"note {i}" if i % 3 else None,
            }
            for i in range(n)
        ]
        with count_queries() as queries:
            body = ok(_add_many(client, family, items))
        assert body["data"]["added_count"] == n
        counts.append((queries.count, queries.report()))
    assert counts[0][0] == counts[1][0], counts[1][1]


def test_the_same_week_sent_in_parallel_is_added_once(client, week):
    """A double tap answered by two workers at once: one submission, one set of lines."""
    from concurrent.futures import ThreadPoolExecutor

    family = _family(week)
    items = [
        {"child_id": family.ava, "date": _day(week.target, n), "meal_id": week.plain}
        for n in (0, 1, 4)
    ]

    def send(_):
        return _add_many(client, family, items, key="parallel-week").json()

    with ThreadPoolExecutor(max_workers=4) as pool:
        answers = list(pool.map(send, range(4)))
    assert all(a["code"] == 1 for a in answers), answers
    assert len({tuple(x["cart_id"] for x in a["data"]["added"]) for a in answers}) == 1
    assert len(_cart(family)) == 3
