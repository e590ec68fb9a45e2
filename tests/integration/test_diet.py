"""Dietary needs against a migrated database (SQLite and PostgreSQL): a child's needs saved
and read, the menus' fit for a child (the meal as composed), the notice before a meal that
does not fit, and the skips of standing orders and repeat-a-week."""

from __future__ import annotations

import pytest

from hotmeals.db.engine import session_scope
from hotmeals.domain.diet import Diet
from hotmeals.services import children
from tests import factories as f


def _placement(session, child) -> dict:
    return {
        "first_name": child.first_name,
        "last_name": child.last_name,
        "city_id": child.city_id,
        "school_id": child.school_id,
        "teacher_id": child.teacher_id,
        "grade_id": child.grade_id,
    }


def test_a_childs_needs_are_saved_read_and_replaced(engine):
    with session_scope(engine) as session:
        parent = f.make_parent(session)
        model = f.make_child(session, parent, first_name="Emma")
        placement = {**_placement(session, model), "first_name": "Noor"}
        added = children.add_child(
            session=session,
            parent_id=parent.id,
            **placement,
            diets=frozenset({Diet.HALAL, Diet.VEGETARIAN}),
        )
        assert added.diets == (Diet.VEGETARIAN, Diet.HALAL)
        kept = children.edit_child(
            session=session, parent_id=parent.id, child_id=added.id, **placement
        )
        assert kept.diets == (Diet.VEGETARIAN, Diet.HALAL)  # not given: unchanged
        changed = children.edit_child(
            session=session,
            parent_id=parent.id,
            child_id=added.id,
            **placement,
            diets=frozenset({Diet.NO_PORK}),
        )
        assert changed.diets == (Diet.NO_PORK,)
        listed = {
            c.first_name: c.diets
            for c in children.list_children(session=session, parent_id=parent.id)
        }
        assert listed == {"Emma": (), "Noor": (Diet.NO_PORK,)}
        assert children.child_diets(session, [model.id, added.id]) == {
            added.id: frozenset({Diet.NO_PORK})
        }


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_whose_diet_reads_in_both_languages(lang):
    from hotmeals.domain import diet

    expected = {"en": ("Emma's", "Noah's"), "fr": ("d'Emma", "de Noah")}[lang]
    assert (diet.whose("Emma", lang), diet.whose("Noah", lang)) == expected
