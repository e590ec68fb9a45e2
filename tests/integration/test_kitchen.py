"""The kitchen's day (services/kitchen.py) on SQLite and PostgreSQL: refused before the cut-off;
after it, one label per meal of the paid, active lines of that school's menu day (options,
add-ons, notes, allergies with their levels, dietary needs and whether the meal fits), sorted
by classroom then child; frozen by the first read, so a cancellation, a closure or a profile
edited later changes nothing; two schools apart; the production list from the same labels."""

from __future__ import annotations

import csv
import io
import json
from datetime import date

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import col, select

from hotmeals.db.engine import session_scope
from hotmeals.db.models import (
    ChildAllergy,
    KitchenDay,
    Meal,
    MenuDay,
    Order,
    OrderLine,
    School,
    SchoolLanguage,
)
from hotmeals.domain.errors import DomainError
from hotmeals.services import closures, kitchen, kitchen_labels, school_days
from hotmeals.services.kitchen_labels import Label, Named
from hotmeals.services.ordering import lifecycle
from hotmeals.services.runtime import Runtime
from tests import factories as f
from tests.kitchen_support import AFTER, BEFORE, CUTOFF, DAY, World, kitchen_world


@pytest.fixture
def world(engine: Engine) -> World:
    with session_scope(engine) as s:
        return kitchen_world(s)


def read(engine: Engine, school: int | str, *, vendor: str = "", now=AFTER, day: date = DAY):
    with session_scope(engine) as s:
        return kitchen.kitchen_labels(
            s, school=str(school), day=day.isoformat(), vendor=vendor, now=now
        )


def summary(labels: tuple[Label, ...]) -> list[tuple[str, str, str, str]]:
    return [(x.teacher, x.child_name, x.meal.en, f"{x.copy}/{x.copies}") for x in labels]


def test_the_day_is_refused_before_its_cut_off_in_both_languages(engine, world):
    with pytest.raises(DomainError) as refused:
        read(engine, world.school_id, now=BEFORE)
    err = refused.value
    assert err.code == "kitchen_before_cutoff"
    assert err.message("en") == (
        f"The kitchen's list and labels for {world.vendor} on 2031-03-12 are ready once its "
        "cut-off has passed (2031-03-11 10:00, Toronto time)"
    )
    assert err.message("fr").startswith(
        f"La liste de production et les étiquettes de {world.vendor} pour le 2031-03-12"
    )
    with session_scope(engine) as s:
        assert s.exec(select(KitchenDay)).all() == []  # nothing frozen
    # At the cut-off instant the day is closed: the labels are there.
    assert len(read(engine, world.school_id, now=CUTOFF).labels) == 5


def test_one_label_per_meal_sorted_by_classroom_then_child(engine, world):
    found = read(engine, world.school, vendor=world.vendor)
    assert (found.school_id, found.meal_date, found.lang) == (world.school_id, DAY, "en")
    assert summary(found.labels) == [
        ("Mme Bélanger", "Emma T.", "Pasta bake", "1/2"),
        ("Mme Bélanger", "Emma T.", "Pasta bake", "2/2"),
        ("Mme Bélanger", "Noah T.", "Veggie curry", "1/2"),  # 3 booked, 1 cancelled
        ("Mme Bélanger", "Noah T.", "Veggie curry", "2/2"),
        ("Mr. Adams", "Léa C.", "Chicken wrap", "1/1"),
    ]
    # Not there: Noah's wrap cancelled, the wrap moved to the week after, the unpaid order,
    # Zoé at the other school.
    ids = {x.order_line_id for x in found.labels}
    assert ids == {world.lines["emma"], world.lines["noah"], world.lines["lea"]}


def test_a_label_says_what_is_on_the_tray_and_who_it_is_for(engine, world):
    emma = read(engine, world.school_id).labels[0]
    assert (emma.first_name, emma.last_initial, emma.child_name) == ("Emma", "T", "Emma T.")
    assert (emma.grade_code, emma.grade.en) == ("2", "Grade 2")
    assert (emma.meal.en, emma.meal.fr, emma.size) == ("Pasta bake", "Pâtes gratinées", "large")
    assert emma.menu_option == Named("White milk", "Lait blanc")
    assert emma.meal_option == Named("Gluten-free bun", "Pain sans gluten")
    assert emma.addons == (Named("Apple", "Pomme"), Named("Cookie", "Biscuit"))
    assert emma.special_note == "Cut in small pieces, please"
    # Most severe first, Non-allergic left out; milk is in the milk and the cookie.
    assert [(a.name_en, a.level, a.in_meal, a.is_major) for a in emma.allergies] == [
        ("Peanuts", "Major", False, True),
        ("Milk", "Low", True, False),
    ]
    # Halal: the cookie is not, so the meal as composed is not.
    assert (emma.diets, emma.unmet, emma.fits) == (("halal",), ("halal",), False)
    assert emma.meal_diets == ("vegetarian", "no_pork", "no_beef")
    noah = read(engine, world.school_id).labels[2]
    assert (noah.diets, noah.fits, noah.allergies, noah.special_note) == (
        ("vegetarian",),
        True,
        (),
        "",
    )
    with session_scope(engine) as s:
        frozen = s.exec(select(KitchenDay)).one().labels
    # Minimised: the parent's names and contact details are nowhere in the frozen day.
    assert "Patricia" not in frozen and "@" not in frozen and "(613)" not in frozen
    assert "Tremblay" not in frozen


def test_after_the_first_read_nothing_changes_the_labels(engine, world):
    first = read(engine, world.school_id)
    with session_scope(engine) as s:
        order = s.get(Order, world.orders["paid"])
        assert order is not None
        lines = list(s.exec(select(OrderLine).where(OrderLine.order_id == order.id)).all())
        lifecycle.cancel_lines(
            s,
            order,
            lines,
            {world.lines["emma"]: 2},
            now=AFTER,
            actor="test",
            cancellation_id=None,
        )
        for allergy in s.exec(
            select(ChildAllergy).where(ChildAllergy.child_id == world.children["emma"])
        ).all():
            s.delete(allergy)
    # The day closed after the freezing read keeps its labels too.
    with session_scope(engine) as s:
        closures.close_school_day(
            s, school=str(world.school_id), day=DAY.isoformat(), reason="storm", actor="test"
        )
    again = read(engine, world.school_id)
    assert again.labels == first.labels and again.days[0].frozen_at == first.days[0].frozen_at
    with session_scope(engine) as s:
        assert len(s.exec(select(KitchenDay)).all()) == 1


def test_a_day_closed_before_the_first_read_has_no_labels(engine, world):
    with session_scope(engine) as s:
        closures.close_school_day(
            s, school=str(world.other_school_id), day=DAY.isoformat(), reason="storm", actor="t"
        )
    assert read(engine, world.other_school_id).labels == ()


def test_two_schools_are_kept_apart(engine, world):
    other = read(engine, world.other_school_id)
    assert summary(other.labels) == [("Ms. Zhou", "Zoé C.", "Veggie curry", "1/1")]
    assert {x.school for x in other.labels} == {world.other_school}
    assert len(read(engine, world.school_id).labels) == 5
    with session_scope(engine) as s:
        rows = s.exec(select(KitchenDay).order_by(col(KitchenDay.school_id))).all()
        assert [r.school_id for r in rows] == sorted([world.school_id, world.other_school_id])


def test_a_second_first_read_keeps_the_row_the_first_one_wrote(engine, world):
    """Two readers froze the day at once: the unique constraint refuses the second row, and the
    second reader answers the first one's labels."""
    read(engine, world.school_id)
    with session_scope(engine) as s:
        found = kitchen.find_school(s, str(world.school_id))
        vendor = school_days.find_vendor(s, str(world.vendor_id))
        row = kitchen.freeze(s, school=found, vendor=vendor, day=DAY, labels=[], now=AFTER)
        assert len(json.loads(row.labels)) == 5


def test_the_production_list_puts_allergies_and_diets_first_then_counts(engine, world):
    with session_scope(engine) as s:
        listed = kitchen.kitchen_production(
            s, school=str(world.school_id), day=DAY.isoformat(), now=AFTER
        )
    (p,) = listed.lists
    assert [(r.label.child_name, r.count) for r in p.attention] == [("Emma T.", 2), ("Noah T.", 2)]
    assert [(m.meal.en, m.size, m.menu_option, m.meal_option, m.count) for m in p.meals] == [
        (
            "Pasta bake",
            "large",
            Named("White milk", "Lait blanc"),
            Named("Gluten-free bun", "Pain sans gluten"),
            2,
        ),
        ("Veggie curry", "small", None, None, 2),
        ("Chicken wrap", "small", None, None, 1),
    ]
    assert [(a.addon.en, a.count) for a in p.addons] == [("Apple", 2), ("Cookie", 2)]
    assert p.total == 5


def test_the_asked_vendor_and_school_must_serve_that_day(engine, world):
    with session_scope(engine) as s:
        stranger = f.make_vendor(s, name="Nobody Serves Here")
    with pytest.raises(DomainError) as refused:
        read(engine, world.school_id, vendor="Nobody Serves Here")
    assert refused.value.code == "school_day_vendor_not_serving"
    assert refused.value.message("en") == (
        f"Nobody Serves Here does not serve {world.school} on 2031-03-12"
    )
    with pytest.raises(DomainError) as refused:
        read(engine, world.school_id, vendor="No Such Vendor")
    assert refused.value.message("en") == "No vendor No Such Vendor"
    with pytest.raises(DomainError) as refused:
        read(engine, world.school_id, day=date(2031, 3, 13))
    assert refused.value.code == "school_day_not_served"
    with pytest.raises(DomainError) as refused:
        read(engine, 99999999)
    assert refused.value.message("fr") == "Aucune école 99999999"
    assert stranger.id


@pytest.mark.asyncio
async def test_the_school_language_and_the_runtime_clock(engine, world):
    with session_scope(engine) as s:
        s.add(SchoolLanguage(school_id=world.school_id, lang="fr"))
    runtime = Runtime(engine=engine).at(AFTER)
    found = await kitchen.labels(school=str(world.school_id), day=DAY.isoformat(), runtime=runtime)
    assert found.lang == "fr" and len(found.labels) == 5
    other = await kitchen.production(
        school=str(world.other_school_id), day=DAY.isoformat(), runtime=runtime
    )
    assert other.lang == "en" and other.lists[0].total == 1
    with pytest.raises(DomainError):
        await kitchen.labels(
            school=str(world.school_id), day=DAY.isoformat(), runtime=runtime.at(BEFORE)
        )


def test_the_operator_commands_print_the_list_and_write_the_labels(engine, world, capsys, tmp_path):
    from pypdf import PdfReader

    from hotmeals import admin, clock

    url = ["--database-url", engine.url.render_as_string(hide_password=False)]
    day = ["--school", world.school, "--date", DAY.isoformat()]
    clock.set_now(BEFORE)
    assert admin.main([*url, "production-list", *day]) == 1
    assert "are ready once its cut-off has passed" in capsys.readouterr().err
    clock.set_now(AFTER)
    assert admin.main([*url, "production-list", *day, "--vendor", str(world.vendor_id)]) == 0
    text = capsys.readouterr().out
    assert text.startswith("Production list\n")
    assert "2 × Mme Bélanger — Emma T. — Pasta bake — 1 portion + upgrade" in text
    assert "MAJOR ALLERGY: PEANUTS" in text and text.rstrip().endswith("Total: 5 meals")
    assert admin.main([*url, "production-list", *day, "--csv", "--lang", "fr"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert rows[-1]["section"] == "total" and rows[-1]["count"] == "5"
    assert rows[0]["meal"] == "Pâtes gratinées"
    pdf, table = tmp_path / "labels.pdf", tmp_path / "labels.csv"
    assert admin.main([*url, "labels", *day, "--pdf", str(pdf), "--csv", str(table)]) == 0
    assert "5 labels written to" in capsys.readouterr().out
    page = " ".join(PdfReader(pdf).pages[0].extract_text().split())
    assert "MAJOR ALLERGY: PEANUTS" in page and "Léa C." in page
    lines = table.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 6 and lines[0].startswith("vendor,date,school,teacher")
    assert admin.main([*url, "labels", *day, "--pdf", str(pdf), "--lang", "fr"]) == 0
    capsys.readouterr()
    assert "ALLERGIE MAJEURE" in PdfReader(pdf).pages[0].extract_text()
    with pytest.raises(SystemExit):
        admin.main([*url, "labels", *day])  # neither --pdf nor --csv


def test_two_first_reads_at_once_freeze_one_row(engine, world, monkeypatch):
    """Both readers find the day unfrozen and make its labels before either writes: one row is
    kept, and both answer its labels."""
    import threading

    computed = kitchen_labels.current_labels
    both = threading.Barrier(2, timeout=30)

    def labels_then_wait(*args, **kwargs):
        made = computed(*args, **kwargs)
        both.wait()  # the other reader has made its labels too
        return made

    monkeypatch.setattr(kitchen, "current_labels", labels_then_wait)
    answers: list[kitchen.KitchenLabels] = []
    errors: list[BaseException] = []

    def reader() -> None:
        try:
            answers.append(read(engine, world.school_id))
        except BaseException as err:  # noqa: BLE001 - reported below
            errors.append(err)

    threads = [threading.Thread(target=reader) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == [] and len(answers) == 2
    assert answers[0].labels == answers[1].labels and len(answers[0].labels) == 5
    assert answers[0].days[0].frozen_at == answers[1].days[0].frozen_at
    with session_scope(engine) as s:
        assert len(s.exec(select(KitchenDay)).all()) == 1


def test_freezing_a_day_takes_the_same_statements_for_one_meal_or_many(engine, world):
    from tests.kitchen_support import line
    from tests.querycount import count_queries

    def freezing_statements(school_id: int) -> int:
        with count_queries(engine, warm=False) as queries:
            read(engine, school_id)
        return queries.count

    few = freezing_statements(world.other_school_id)  # Zoé's one meal
    with session_scope(engine) as s:
        more = kitchen_world(s)
        day = s.get(MenuDay, more.menu_day_id)
        order = s.get(Order, more.orders["paid"])
        assert day is not None and order is not None
        for n in range(6):
            child = f.make_child(s, f.make_parent(s), school=s.get(School, more.school_id))
            meal = s.get(Meal, s.get(OrderLine, more.lines["lea"]).meal_id)
            line(s, order, child, day, meal, quantity=n + 1)
    assert freezing_statements(more.school_id) == few
