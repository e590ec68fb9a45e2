"""/api/v1/Parent/user/* for children, places and allergies, and the allergy suggestions.

Every call taking a ``child_id`` answers 'Child not found' for another parent's child, exactly
as for one that does not exist (the service checks ownership).
"""

from __future__ import annotations

from fastapi import Depends

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
from hotmeals.api.calls import Done, Listing, Once, ParentListing, ReadFor, declare
from hotmeals.api.deps import (
    PARENT_USER,
    Client,
    ParentWrite,
    api_router,
    client_context,
    list_of,
    parent_write,
    route,
    tags,
)
from hotmeals.services import children

router = api_router()


# --- places ---------------------------------------------------------------------------------------


declare(
    router.post,
    "/Parent/user/get_city",
    Listing("get_city", children.list_cities),
    answer=list[CityOut],
    tags=PARENT_USER,
    summary="Cities with schools",
)


declare(
    router.post,
    "/Parent/user/GetSchool",
    Listing("get_school", children.list_schools),
    body=CityIdIn,
    answer=list[SchoolOut],
    tags=PARENT_USER,
    summary="The schools of a city",
)


declare(
    router.post,
    "/Parent/user/get_teachers",
    Listing("get_teachers", children.list_teachers, lang=True),
    body=SchoolIdIn,
    answer=list[TeacherOut],
    tags=PARENT_USER,
    summary="The teachers of a school, each with their grade",
)


declare(
    router.get,
    "/Parent/user/get_grades",
    Listing("get_grades", children.list_grades, lang=True),
    answer=list[GradeOut],
    tags=PARENT_USER,
    summary="Grades JK to 8, labelled in the request's language",
)


# --- children -------------------------------------------------------------------------------------


declare(
    router.post,
    "/Parent/user/AddChild",
    Once("add_child", children.add_child, message="child_added", lang=True),
    body=ChildIn,
    answer=ChildOut,
    tags=PARENT_USER,
    summary="Add a child (the first becomes the default; sign-up moves to ALLERGY)",
)


declare(
    router.post,
    "/Parent/user/EditChild",
    Once("edit_child", children.edit_child, message="child_updated", lang=True),
    body=EditChildIn,
    answer=ChildOut,
    tags=PARENT_USER,
    summary="Edit a child's names, school, teacher and grade",
)


declare(
    router.post,
    "/Parent/user/DeleteChild",
    Done("delete_child", children.delete_child, message="child_deleted"),
    body=ChildIdIn,
    answer=None,
    tags=PARENT_USER,
    summary="Delete a child (order history is kept)",
)


declare(
    router.post,
    "/Parent/user/SetDefaultChild",
    Done("set_default_child", children.set_default_child, message="default_child_set"),
    body=ChildIdIn,
    answer=None,
    tags=PARENT_USER,
    summary="Make a child the default one",
)


declare(
    router.post,
    "/Parent/user/GetOneChildInfo",
    ReadFor("get_one_child", children.get_child),
    body=ChildIdIn,
    answer=ChildOut,
    tags=PARENT_USER,
    summary="One child with allergies",
)


declare(
    router.get,
    "/Parent/user/GetChilds",
    ParentListing("get_children", children.list_children),
    answer=list[ChildOut],
    tags=PARENT_USER,
    summary="The parent's children, the default first",
)


# --- allergies ------------------------------------------------------------------------------------


@route(
    router.post,
    "/Parent/user/Add_Child_Allergicingredients",
    body=ChildAllergiesIn,
    answer=ChildOut,
    tags=PARENT_USER,
    summary="Replace a child's allergies (may be empty; completes sign-up)",
)
async def set_child_allergies(ctx: ParentWrite = Depends(parent_write)):
    body = await ctx.body(ChildAllergiesIn)
    return await ctx.answer_once(
        "set_child_allergies",
        children.set_child_allergies,
        message="allergies_saved",
        child_id=body.child_id,
        items=[(a.ingredient_id, a.alert_level) for a in body.allergies],
        lang=ctx.lang,
    )


declare(
    router.get,
    "/Parent/user/Allergicingredients",
    Listing("allergic_ingredients", children.list_allergic_ingredients, lang=True),
    answer=list[IngredientOut],
    tags=PARENT_USER,
    summary="Every ingredient a child can be allergic to, priority allergens first",
)


@route(
    router.post,
    "/Admin/allergy_suggestions/list",
    body=SuggestionsIn,
    answer=list[IngredientOut],
    tags=tags("Admin"),
    summary="Ingredients matching a search (type-ahead), accents and case ignored",
)
async def allergy_suggestions(client: Client = Depends(client_context)):
    body = await client.body(SuggestionsIn)
    return await list_of(
        client.lang,
        children.allergy_suggestions,
        query=body.search,
        lang=client.lang,
        limit=body.limit,
    )
