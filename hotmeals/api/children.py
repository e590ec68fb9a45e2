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
    required,
    tags,
)
from hotmeals.api.envelope import Envelope
from hotmeals.domain import diet
from hotmeals.services import children, submissions
from hotmeals.services.reference import CityRef, GradeRef, IngredientRef, SchoolRef
from hotmeals.services.transaction import run_in_transaction

router = api_router()
ADMIN = tags("Admin")


# --- the answers ---------------------------------------------------------------------------------


def city_out(city: CityRef) -> dict[str, Any]:
    return {"id": city.id, "name": city.name}


def school_out(school: SchoolRef) -> dict[str, Any]:
    return {"id": school.id, "name": school.name, "address": school.address}


def teacher_out(teacher: children.TeacherView, lang: str) -> dict[str, Any]:
    return {
        "id": teacher.id,
        "name": teacher.name,
        "grade_id": teacher.grade_id,
        "grade": teacher.grade.label(lang) if teacher.grade else "",
    }


def grade_out(grade: GradeRef, lang: str) -> dict[str, Any]:
    return {"id": grade.id, "code": grade.code, "label": grade.label(lang)}


def child_out(child: children.ChildView, lang: str) -> dict[str, Any]:
    """A child as /api/v1 shows it: places and allergies named in ``lang``."""
    return {
        "id": child.id,
        "first_name": child.first_name,
        "last_name": child.last_name,
        "is_default": child.is_default,
        "city_id": child.city_id,
        "city": child.city,
        "school_id": child.school_id,
        "school": child.school,
        "teacher_id": child.teacher_id,
        "teacher": child.teacher,
        "grade_id": child.grade_id,
        "grade": child.grade(lang),
        "allergies": [
            {
                "ingredient_id": allergy.ingredient_id,
                "name": allergy.name(lang),
                "alert_level": allergy.alert_level,
                "alert_level_label": allergy.alert_level_label(lang),
            }
            for allergy in child.allergies
        ],
        "diets": [need.value for need in child.diets],
    }


def ingredient_out(ingredient: IngredientRef, lang: str) -> dict[str, Any]:
    return {
        "id": ingredient.id,
        "name": ingredient.name(lang),
        "is_priority": ingredient.is_priority,
    }


@router.post(
    "/Parent/user/get_city",
    tags=PARENT_USER,
    summary="Cities with schools",
    response_model=Envelope[list[CityOut]],
)
async def get_city(who: Caller) -> Any:
    cities = await run_in_transaction(children.list_cities)
    return answer_found([city_out(city) for city in cities], who.lang)


@router.post(
    "/Parent/user/GetSchool",
    tags=PARENT_USER,
    summary="The schools of a city",
    response_model=Envelope[list[SchoolOut]],
    openapi_extra=openapi_body(CityIdIn),
)
async def get_school(who: Caller, body: Annotated[CityIdIn, Depends(json_body(CityIdIn))]) -> Any:
    city_id = required(body.city_id, "city_required", "city_id")
    schools = await run_in_transaction(children.list_schools, city_id=city_id)
    return answer_found([school_out(school) for school in schools], who.lang)


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
    school_id = required(body.school_id, "school_required", "school_id")
    teachers = await run_in_transaction(children.list_teachers, school_id=school_id)
    return answer_found([teacher_out(teacher, who.lang) for teacher in teachers], who.lang)


@router.get(
    "/Parent/user/get_grades",
    tags=PARENT_USER,
    summary="Grades JK to 8, labelled in the request's language",
    response_model=Envelope[list[GradeOut]],
)
async def get_grades(who: Caller) -> Any:
    grades = await run_in_transaction(children.list_grades)
    return answer_found([grade_out(grade, who.lang) for grade in grades], who.lang)


@router.post(
    "/Parent/user/AddChild",
    tags=PARENT_USER,
    summary="Add a child with its dietary needs (the first becomes the default; sign-up moves "
    "to ALLERGY)",
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
        present=lambda view: child_out(view, who.lang),
        first_name=body.first_name or "",
        last_name=body.last_name or "",
        city_id=body.city_id or 0,
        school_id=body.school_id or 0,
        teacher_id=body.teacher_id or 0,
        grade_id=body.grade_id or 0,
        diets=diet.needs_of(body.diets or ()),
    )
    return answered(done, who.lang, "child_added")


@router.post(
    "/Parent/user/EditChild",
    tags=PARENT_USER,
    summary="Edit a child's names, school, teacher, grade and (when given) dietary needs",
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
        present=lambda view: child_out(view, who.lang),
        child_id=body.child_id or 0,
        first_name=body.first_name or "",
        last_name=body.last_name or "",
        city_id=body.city_id or 0,
        school_id=body.school_id or 0,
        teacher_id=body.teacher_id or 0,
        grade_id=body.grade_id or 0,
        diets=None if body.diets is None else diet.needs_of(body.diets),
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
        child_id=body.child_id or 0,
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
        child_id=body.child_id or 0,
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
        children.get_child, parent_id=who.parent_id, child_id=body.child_id or 0
    )
    return answer(child_out(child, who.lang), who.lang)


@router.get(
    "/Parent/user/GetChilds",
    tags=PARENT_USER,
    summary="The parent's children, the default first",
    response_model=Envelope[list[ChildOut]],
)
async def get_children(who: SignedIn) -> Any:
    rows = await run_in_transaction(children.list_children, parent_token=who.token)
    return answer_found([child_out(child, who.lang) for child in rows], who.lang)


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
        present=lambda view: child_out(view, who.lang),
        child_id=body.child_id or 0,
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
    return answer_found([ingredient_out(row, who.lang) for row in rows], who.lang)


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
        children.allergy_suggestions, query=body.search or "", limit=body.limit, lang=who.lang
    )
    return answer_found([ingredient_out(row, who.lang) for row in rows], who.lang)
