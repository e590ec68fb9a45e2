"""/api/v1/Parent/user/* for children, places and allergies, and the allergy suggestions.

Every call taking a ``child_id`` answers 'Child not found' for another parent's child, exactly
as for one that does not exist (the service checks ownership).
"""

from __future__ import annotations

from typing import Annotated, Any

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
from hotmeals.api.bodies import openapi_body
from hotmeals.api.deps import (
    PARENT_USER,
    Caller,
    CurrentParent,
    ParentWriting,
    SignedIn,
    answer,
    answer_found,
    answered,
    api_router,
    json_body,
    tags,
)
from hotmeals.api.envelope import Envelope
from hotmeals.services import children, submissions
from hotmeals.services.transaction import run_in_transaction

router = api_router()
ADMIN = tags("Admin")


@router.post(
    "/Parent/user/get_city",
    tags=PARENT_USER,
    summary="Cities with schools",
    response_model=Envelope[list[CityOut]],
)
async def get_city(who: Caller) -> Any:
    return answer_found(await run_in_transaction(children.list_cities), who.lang)


@router.post(
    "/Parent/user/GetSchool",
    tags=PARENT_USER,
    summary="The schools of a city",
    response_model=Envelope[list[SchoolOut]],
    openapi_extra=openapi_body(CityIdIn),
)
async def get_school(who: Caller, body: Annotated[CityIdIn, Depends(json_body(CityIdIn))]) -> Any:
    schools = await run_in_transaction(children.list_schools, city_id=body.city_id)
    return answer_found(schools, who.lang)


@router.post(
    "/Parent/user/get_teachers",
    tags=PARENT_USER,
    summary="The teachers of a school, each with their grade",
    response_model=Envelope[list[TeacherOut]],
    openapi_extra=openapi_body(SchoolIdIn),
)
async def get_teachers(
    who: Caller, body: Annotated[SchoolIdIn, Depends(json_body(SchoolIdIn))]
) -> Any:
    teachers = await run_in_transaction(
        children.list_teachers, school_id=body.school_id, lang=who.lang
    )
    return answer_found(teachers, who.lang)


@router.get(
    "/Parent/user/get_grades",
    tags=PARENT_USER,
    summary="Grades JK to 8, labelled in the request's language",
    response_model=Envelope[list[GradeOut]],
)
async def get_grades(who: Caller) -> Any:
    return answer_found(await run_in_transaction(children.list_grades, lang=who.lang), who.lang)


@router.post(
    "/Parent/user/AddChild",
    tags=PARENT_USER,
    summary="Add a child (the first becomes the default; sign-up moves to ALLERGY)",
    response_model=Envelope[ChildOut],
    openapi_extra=openapi_body(ChildIn),
)
async def add_child(
    who: ParentWriting, body: Annotated[ChildIn, Depends(json_body(ChildIn))]
) -> Any:
    done = await run_in_transaction(
        submissions.submit_once,
        parent_id=who.parent_id,
        key=who.key,
        action="add_child",
        fn=children.add_child,
        lang=who.lang,
        **body.model_dump(),
    )
    return answered(done, who.lang, "child_added")


@router.post(
    "/Parent/user/EditChild",
    tags=PARENT_USER,
    summary="Edit a child's names, school, teacher and grade",
    response_model=Envelope[ChildOut],
    openapi_extra=openapi_body(EditChildIn),
)
async def edit_child(
    who: ParentWriting, body: Annotated[EditChildIn, Depends(json_body(EditChildIn))]
) -> Any:
    done = await run_in_transaction(
        submissions.submit_once,
        parent_id=who.parent_id,
        key=who.key,
        action="edit_child",
        fn=children.edit_child,
        lang=who.lang,
        **body.model_dump(),
    )
    return answered(done, who.lang, "child_updated")


@router.post(
    "/Parent/user/DeleteChild",
    tags=PARENT_USER,
    summary="Delete a child (order history is kept)",
    response_model=Envelope[None],
    openapi_extra=openapi_body(ChildIdIn),
)
async def delete_child(
    who: ParentWriting, body: Annotated[ChildIdIn, Depends(json_body(ChildIdIn))]
) -> Any:
    await run_in_transaction(
        submissions.submit_once,
        parent_id=who.parent_id,
        key=who.key,
        action="delete_child",
        fn=children.delete_child,
        child_id=body.child_id,
    )
    return answer(None, who.lang, "child_deleted")


@router.post(
    "/Parent/user/SetDefaultChild",
    tags=PARENT_USER,
    summary="Make a child the default one",
    response_model=Envelope[None],
    openapi_extra=openapi_body(ChildIdIn),
)
async def set_default_child(
    who: ParentWriting, body: Annotated[ChildIdIn, Depends(json_body(ChildIdIn))]
) -> Any:
    await run_in_transaction(
        submissions.submit_once,
        parent_id=who.parent_id,
        key=who.key,
        action="set_default_child",
        fn=children.set_default_child,
        child_id=body.child_id,
    )
    return answer(None, who.lang, "default_child_set")


@router.post(
    "/Parent/user/GetOneChildInfo",
    tags=PARENT_USER,
    summary="One child with allergies",
    response_model=Envelope[ChildOut],
    openapi_extra=openapi_body(ChildIdIn),
)
async def get_one_child(
    who: CurrentParent, body: Annotated[ChildIdIn, Depends(json_body(ChildIdIn))]
) -> Any:
    child = await run_in_transaction(
        children.get_child, parent_id=who.parent_id, lang=who.lang, child_id=body.child_id
    )
    return answer(child, who.lang)


@router.get(
    "/Parent/user/GetChilds",
    tags=PARENT_USER,
    summary="The parent's children, the default first",
    response_model=Envelope[list[ChildOut]],
)
async def get_children(who: SignedIn) -> Any:
    rows = await run_in_transaction(children.list_children, parent_token=who.token, lang=who.lang)
    return answer_found(rows, who.lang)


@router.post(
    "/Parent/user/Add_Child_Allergicingredients",
    tags=PARENT_USER,
    summary="Replace a child's allergies (may be empty; completes sign-up)",
    response_model=Envelope[ChildOut],
    openapi_extra=openapi_body(ChildAllergiesIn),
)
async def set_child_allergies(
    who: ParentWriting, body: Annotated[ChildAllergiesIn, Depends(json_body(ChildAllergiesIn))]
) -> Any:
    done = await run_in_transaction(
        submissions.submit_once,
        parent_id=who.parent_id,
        key=who.key,
        action="set_child_allergies",
        fn=children.set_child_allergies,
        lang=who.lang,
        child_id=body.child_id,
        items=[(a.ingredient_id, a.alert_level) for a in body.allergies],
    )
    return answered(done, who.lang, "allergies_saved")


@router.get(
    "/Parent/user/Allergicingredients",
    tags=PARENT_USER,
    summary="Every ingredient a child can be allergic to, priority allergens first",
    response_model=Envelope[list[IngredientOut]],
)
async def allergic_ingredients(who: Caller) -> Any:
    rows = await run_in_transaction(children.list_allergic_ingredients, lang=who.lang)
    return answer_found(rows, who.lang)


@router.post(
    "/Admin/allergy_suggestions/list",
    tags=ADMIN,
    summary="Ingredients matching a search (type-ahead), accents and case ignored",
    response_model=Envelope[list[IngredientOut]],
    openapi_extra=openapi_body(SuggestionsIn),
)
async def allergy_suggestions(
    who: Caller, body: Annotated[SuggestionsIn, Depends(json_body(SuggestionsIn))]
) -> Any:
    rows = await run_in_transaction(
        children.allergy_suggestions, query=body.search, limit=body.limit, lang=who.lang
    )
    return answer_found(rows, who.lang)
