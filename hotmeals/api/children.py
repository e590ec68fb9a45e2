"""/api/v1/Parent/user/* for children, places and allergies, and the allergy suggestions.

Every call taking a ``child_id`` answers 'Child not found' for another parent's child, exactly
as for one that does not exist (the service checks ownership).
"""

from __future__ import annotations

from fastapi import Depends, Request

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
    Client,
    ParentClient,
    answer_once,
    api_router,
    client_context,
    idempotency_key,
    openapi_body,
    parent_context,
    parse_body,
    route,
    run,
    run_as_parent,
    run_once,
    tags,
)
from hotmeals.api.envelope import Envelope, ok
from hotmeals.i18n import t
from hotmeals.services import children

router = api_router()
USER = tags("Parent user")


def _listed(rows: list, lang: str):
    return ok(rows, t("success" if rows else "no_data_found", lang))


# --- places ---------------------------------------------------------------------------------------


@route(
    router.post,
    "/Parent/user/get_city",
    answer=list[CityOut],
    tags=USER,
    summary="Cities with schools",
)
async def get_city(client: Client = Depends(client_context)):
    return _listed(await run(children.list_cities), client.lang)


@route(
    router.post,
    "/Parent/user/GetSchool",
    body=CityIdIn,
    answer=list[SchoolOut],
    tags=USER,
    summary="The schools of a city",
)
async def get_school(request: Request, client: Client = Depends(client_context)):
    body = await parse_body(request, CityIdIn, client.lang)
    return _listed(await run(children.list_schools, city_id=body.city_id), client.lang)


@route(
    router.post,
    "/Parent/user/get_teachers",
    body=SchoolIdIn,
    answer=list[TeacherOut],
    tags=USER,
    summary="The teachers of a school, each with their grade",
)
async def get_teachers(request: Request, client: Client = Depends(client_context)):
    body = await parse_body(request, SchoolIdIn, client.lang)
    rows = await run(children.list_teachers, school_id=body.school_id, lang=client.lang)
    return _listed(rows, client.lang)


@route(
    router.get,
    "/Parent/user/get_grades",
    answer=list[GradeOut],
    tags=USER,
    summary="Grades JK to 8, labelled in the request's language",
)
async def get_grades(client: Client = Depends(client_context)):
    return _listed(await run(children.list_grades, lang=client.lang), client.lang)


# --- children -------------------------------------------------------------------------------------


@route(
    router.post,
    "/Parent/user/AddChild",
    body=ChildIn,
    answer=ChildOut,
    tags=USER,
    summary="Add a child (the first becomes the default; sign-up moves to ALLERGY)",
)
async def add_child(
    request: Request,
    ctx: ParentClient = Depends(parent_context),
    key: str | None = Depends(idempotency_key),
):
    body = await parse_body(request, ChildIn, ctx.lang)
    return await answer_once(
        ctx,
        key,
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
    tags=USER,
    summary="Edit a child's names, school, teacher and grade",
)
async def edit_child(
    request: Request,
    ctx: ParentClient = Depends(parent_context),
    key: str | None = Depends(idempotency_key),
):
    body = await parse_body(request, EditChildIn, ctx.lang)
    return await answer_once(
        ctx,
        key,
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
    tags=USER,
    summary="Delete a child (order history is kept)",
)
async def delete_child(
    request: Request,
    ctx: ParentClient = Depends(parent_context),
    key: str | None = Depends(idempotency_key),
):
    body = await parse_body(request, ChildIdIn, ctx.lang)
    await run_once(
        ctx.parent_id,
        key,
        "delete_child",
        children.delete_child,
        child_id=body.child_id,
    )
    return ok(None, t("child_deleted", ctx.lang))


@route(
    router.post,
    "/Parent/user/SetDefaultChild",
    body=ChildIdIn,
    answer=None,
    tags=USER,
    summary="Make a child the default one",
)
async def set_default_child(
    request: Request,
    ctx: ParentClient = Depends(parent_context),
    key: str | None = Depends(idempotency_key),
):
    body = await parse_body(request, ChildIdIn, ctx.lang)
    await run_once(
        ctx.parent_id,
        key,
        "set_default_child",
        children.set_default_child,
        child_id=body.child_id,
    )
    return ok(None, t("default_child_set", ctx.lang))


@route(
    router.post,
    "/Parent/user/GetOneChildInfo",
    body=ChildIdIn,
    answer=ChildOut,
    tags=USER,
    summary="One child with allergies",
)
async def get_one_child(request: Request, ctx: ParentClient = Depends(parent_context)):
    body = await parse_body(request, ChildIdIn, ctx.lang)
    child = await run(
        children.get_child, parent_id=ctx.parent_id, child_id=body.child_id, lang=ctx.lang
    )
    return ok(child, t("success", ctx.lang))


@route(
    router.get,
    "/Parent/user/GetChilds",
    answer=list[ChildOut],
    tags=USER,
    summary="The parent's children, the default first",
)
async def get_children(client: Client = Depends(client_context)):
    rows = await run_as_parent(client, children.list_children, lang=client.lang)
    return _listed(rows, client.lang)


# --- allergies ------------------------------------------------------------------------------------


@route(
    router.post,
    "/Parent/user/Add_Child_Allergicingredients",
    body=ChildAllergiesIn,
    answer=ChildOut,
    tags=USER,
    summary="Replace a child's allergies (may be empty; completes sign-up)",
)
async def set_child_allergies(
    request: Request,
    ctx: ParentClient = Depends(parent_context),
    key: str | None = Depends(idempotency_key),
):
    body = await parse_body(request, ChildAllergiesIn, ctx.lang)
    return await answer_once(
        ctx,
        key,
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
    tags=USER,
    summary="Every ingredient a child can be allergic to, priority allergens first",
)
async def allergic_ingredients(client: Client = Depends(client_context)):
    return _listed(await run(children.list_allergic_ingredients, lang=client.lang), client.lang)


@router.post(
    "/Admin/allergy_suggestions/list",
    tags=["Admin"],
    summary="Ingredients matching a search (type-ahead), accents and case ignored",
    openapi_extra=openapi_body(SuggestionsIn),
    response_model=Envelope[list[IngredientOut]],
)
async def allergy_suggestions(request: Request, client: Client = Depends(client_context)):
    body = await parse_body(request, SuggestionsIn, client.lang)
    rows = await run(
        children.allergy_suggestions, query=body.search, lang=client.lang, limit=body.limit
    )
    return _listed(rows, client.lang)
