"""/api/v1/Parent/user/* for children, places and allergies, and the allergy suggestions.

Every call taking a ``child_id`` answers 'Child not found' for another parent's child, exactly
as for one that does not exist (the service checks ownership).
"""

from __future__ import annotations

from typing import Any

from hotmeals.api.account_schemas import (
    ChildAllergiesIn,
    ChildIdIn,
    ChildIn,
    ChildOut,
    CityIdIn,
    CityOut,
    EditChildIn,
    GradeOut,
    IngredientOut,
    SchoolIdIn,
    SchoolOut,
    SuggestionsIn,
    TeacherOut,
)
from hotmeals.api.calls import Done, Get, Listing, Once, ParentListing, Post, ReadFor, declare_all
from hotmeals.api.deps import PARENT_USER, api_router, tags
from hotmeals.services import children

router = api_router()


def _allergies(body: ChildAllergiesIn) -> dict[str, Any]:
    """Add_Child_Allergicingredients' body as the service takes it: the child and its
    ``(ingredient_id, alert_level)`` pairs."""
    return {
        "child_id": body.child_id,
        "items": [(a.ingredient_id, a.alert_level) for a in body.allergies],
    }


def _search(body: SuggestionsIn) -> dict[str, Any]:
    return {"query": body.search, "limit": body.limit}


declare_all(
    router,
    PARENT_USER,
    [
        # --- places ---------------------------------------------------------------------------
        Post(
            "/Parent/user/get_city",
            Listing("get_city", children.list_cities),
            answer=list[CityOut],
            summary="Cities with schools",
        ),
        Post(
            "/Parent/user/GetSchool",
            Listing("get_school", children.list_schools),
            body=CityIdIn,
            answer=list[SchoolOut],
            summary="The schools of a city",
        ),
        Post(
            "/Parent/user/get_teachers",
            Listing("get_teachers", children.list_teachers, lang=True),
            body=SchoolIdIn,
            answer=list[TeacherOut],
            summary="The teachers of a school, each with their grade",
        ),
        Get(
            "/Parent/user/get_grades",
            Listing("get_grades", children.list_grades, lang=True),
            answer=list[GradeOut],
            summary="Grades JK to 8, labelled in the request's language",
        ),
        # --- children -------------------------------------------------------------------------
        Post(
            "/Parent/user/AddChild",
            Once("add_child", children.add_child, message="child_added", lang=True),
            body=ChildIn,
            answer=ChildOut,
            summary="Add a child (the first becomes the default; sign-up moves to ALLERGY)",
        ),
        Post(
            "/Parent/user/EditChild",
            Once("edit_child", children.edit_child, message="child_updated", lang=True),
            body=EditChildIn,
            answer=ChildOut,
            summary="Edit a child's names, school, teacher and grade",
        ),
        Post(
            "/Parent/user/DeleteChild",
            Done("delete_child", children.delete_child, message="child_deleted"),
            body=ChildIdIn,
            answer=None,
            summary="Delete a child (order history is kept)",
        ),
        Post(
            "/Parent/user/SetDefaultChild",
            Done("set_default_child", children.set_default_child, message="default_child_set"),
            body=ChildIdIn,
            answer=None,
            summary="Make a child the default one",
        ),
        Post(
            "/Parent/user/GetOneChildInfo",
            ReadFor("get_one_child", children.get_child),
            body=ChildIdIn,
            answer=ChildOut,
            summary="One child with allergies",
        ),
        Get(
            "/Parent/user/GetChilds",
            ParentListing("get_children", children.list_children),
            answer=list[ChildOut],
            summary="The parent's children, the default first",
        ),
        # --- allergies ------------------------------------------------------------------------
        Post(
            "/Parent/user/Add_Child_Allergicingredients",
            Once(
                "set_child_allergies",
                children.set_child_allergies,
                message="allergies_saved",
                lang=True,
                fields=_allergies,
            ),
            body=ChildAllergiesIn,
            answer=ChildOut,
            summary="Replace a child's allergies (may be empty; completes sign-up)",
        ),
        Get(
            "/Parent/user/Allergicingredients",
            Listing("allergic_ingredients", children.list_allergic_ingredients, lang=True),
            answer=list[IngredientOut],
            summary="Every ingredient a child can be allergic to, priority allergens first",
        ),
    ],
)


declare_all(
    router,
    tags("Admin"),
    [
        Post(
            "/Admin/allergy_suggestions/list",
            Listing("allergy_suggestions", children.allergy_suggestions, lang=True, fields=_search),
            body=SuggestionsIn,
            answer=list[IngredientOut],
            summary="Ingredients matching a search (type-ahead), accents and case ignored",
        )
    ],
)
