"""/api/v1/Parent/user/* for children, places and allergies, and the allergy suggestions.

Every call taking a ``child_id`` answers 'Child not found' for another parent's child, exactly
as for one that does not exist (the service checks ownership).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import Depends
from fastapi.responses import JSONResponse

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
from hotmeals.api.deps import (
    PARENT_USER,
    Client,
    ParentClient,
    ParentWrite,
    answer,
    api_router,
    client_context,
    list_as_parent,
    list_of,
    parent_context,
    parent_write,
    read_for,
    route,
    tags,
)
from hotmeals.services import children

router = api_router()


# --- places ---------------------------------------------------------------------------------------


@route(
    router.post,
    "/Parent/user/get_city",
    answer=list[CityOut],
    tags=PARENT_USER,
    summary="Cities with schools",
)
async def get_city(client: Client = Depends(client_context)):
    return await list_of(client.lang, children.list_cities)


@route(
    router.post,
    "/Parent/user/GetSchool",
    body=CityIdIn,
    answer=list[SchoolOut],
    tags=PARENT_USER,
    summary="The schools of a city",
)
async def get_school(client: Client = Depends(client_context)):
    body = await client.body(CityIdIn)
    return await list_of(client.lang, children.list_schools, city_id=body.city_id)


@route(
    router.post,
    "/Parent/user/get_teachers",
    body=SchoolIdIn,
    answer=list[TeacherOut],
    tags=PARENT_USER,
    summary="The teachers of a school, each with their grade",
)
async def get_teachers(client: Client = Depends(client_context)):
    body = await client.body(SchoolIdIn)
    return await list_of(
        client.lang, children.list_teachers, school_id=body.school_id, lang=client.lang
    )


@route(
    router.get,
    "/Parent/user/get_grades",
    answer=list[GradeOut],
    tags=PARENT_USER,
    summary="Grades JK to 8, labelled in the request's language",
)
async def get_grades(client: Client = Depends(client_context)):
    return await list_of(client.lang, children.list_grades, lang=client.lang)


# --- children -------------------------------------------------------------------------------------


@route(
    router.post,
    "/Parent/user/AddChild",
    body=ChildIn,
    answer=ChildOut,
    tags=PARENT_USER,
    summary="Add a child (the first becomes the default; sign-up moves to ALLERGY)",
)
async def add_child(ctx: ParentWrite = Depends(parent_write)):
    body = await ctx.body(ChildIn)
    return await ctx.answer_once(
        "add_child",
        children.add_child,
        message="child_added",
        **body.model_dump(),
        lang=ctx.lang,
    )


@route(
    router.post,
    "/Parent/user/EditChild",
    body=EditChildIn,
    answer=ChildOut,
    tags=PARENT_USER,
    summary="Edit a child's names, school, teacher and grade",
)
async def edit_child(ctx: ParentWrite = Depends(parent_write)):
    body = await ctx.body(EditChildIn)
    return await ctx.answer_once(
        "edit_child",
        children.edit_child,
        message="child_updated",
        **body.model_dump(),
        lang=ctx.lang,
    )


@route(
    router.post,
    "/Parent/user/DeleteChild",
    body=ChildIdIn,
    answer=None,
    tags=PARENT_USER,
    summary="Delete a child (order history is kept)",
)
async def delete_child(ctx: ParentWrite = Depends(parent_write)):
    return await _on_child(ctx, "delete_child", children.delete_child, "child_deleted")


@route(
    router.post,
    "/Parent/user/SetDefaultChild",
    body=ChildIdIn,
    answer=None,
    tags=PARENT_USER,
    summary="Make a child the default one",
)
async def set_default_child(ctx: ParentWrite = Depends(parent_write)):
    return await _on_child(
        ctx, "set_default_child", children.set_default_child, "default_child_set"
    )


async def _on_child(
    ctx: ParentWrite, action: str, fn: Callable[..., Any], message: str
) -> JSONResponse:
    """A repeat-safe change of the body's child that answers only the catalog's ``message``."""
    body = await ctx.body(ChildIdIn)
    await ctx.run_once(action, fn, child_id=body.child_id)
    return answer(None, ctx.lang, message)


@route(
    router.post,
    "/Parent/user/GetOneChildInfo",
    body=ChildIdIn,
    answer=ChildOut,
    tags=PARENT_USER,
    summary="One child with allergies",
)
async def get_one_child(ctx: ParentClient = Depends(parent_context)):
    body = await ctx.body(ChildIdIn)
    return await read_for(ctx, children.get_child, child_id=body.child_id)


@route(
    router.get,
    "/Parent/user/GetChilds",
    answer=list[ChildOut],
    tags=PARENT_USER,
    summary="The parent's children, the default first",
)
async def get_children(client: Client = Depends(client_context)):
    return await list_as_parent(client, children.list_children)


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


@route(
    router.get,
    "/Parent/user/Allergicingredients",
    answer=list[IngredientOut],
    tags=PARENT_USER,
    summary="Every ingredient a child can be allergic to, priority allergens first",
)
async def allergic_ingredients(client: Client = Depends(client_context)):
    return await list_of(client.lang, children.list_allergic_ingredients, lang=client.lang)


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
