"""/api/v1/Admin/ProductionList and Admin/Labels: the kitchen's day of a school once its cut-off
has passed (the same as ``python -m hotmeals.admin production-list`` and ``labels``).
Documented in docs/api.md "Admin"; guarded by the operator's ``admin-key`` (``api/admin.py``).

The production list answers the envelope's JSON; the labels answer the file itself
(``application/pdf`` on the Avery 5163 sheet, or ``text/csv``), and a refusal the envelope.
Names and words are in ``lang`` (the body's, else the school's language); messages in the
caller's ``accept-language``.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends
from fastapi.responses import Response

from hotmeals.api.admin import ADMIN, admin_client
from hotmeals.api.bodies import openapi_body
from hotmeals.api.deps import Client, answer, api_router, json_body, required
from hotmeals.api.envelope import Envelope
from hotmeals.api.kitchen_schemas import KitchenDayIn, LabelsIn, ProductionListOut
from hotmeals.domain.dates import full_day
from hotmeals.domain.errors import DomainError
from hotmeals.services import kitchen, kitchen_files
from hotmeals.services.kitchen import KitchenProduction, ProductionList
from hotmeals.services.kitchen_labels import Label, Named, diet_label
from hotmeals.services.ordering.labels import size_label

router = api_router()
FORMATS = {"pdf": "application/pdf", "csv": "text/csv; charset=utf-8"}


def chosen_lang(asked: str | None, school_lang: str) -> str:
    """The body's ``lang`` (en or fr), else the school's; another value is refused."""
    text = (asked or "").strip().lower()
    if not text:
        return school_lang
    if text not in ("en", "fr"):
        raise DomainError("kitchen_lang_invalid", field="lang")
    return text


def _day(body: KitchenDayIn) -> dict[str, Any]:
    chosen_lang(body.lang, "en")  # a bad language is refused before the day is frozen
    return {
        "school": required(body.school, "closure_school_required", "school"),
        "day": required(body.date, "kitchen_date_required", "date"),
        "vendor": body.vendor or "",
    }


def _opt(value: Named | None, lang: str) -> str:
    return value.name(lang) if value is not None else ""


def attention_out(label: Label, count: int, lang: str) -> dict[str, Any]:
    return {
        "order_line_id": label.order_line_id,
        "order_number": label.order_number,
        "child": label.child_name,
        "teacher": label.teacher,
        "grade": label.grade.name(lang) or label.grade_code,
        "meal": label.meal.name(lang),
        "size": label.size,
        "size_label": size_label(label.size, lang),
        "menu_option": _opt(label.menu_option, lang),
        "meal_option": _opt(label.meal_option, lang),
        "add_ons": [a.name(lang) for a in label.addons],
        "allergies": [
            {
                "allergen": a.name(lang),
                "level": a.level,
                "level_label": a.level_label(lang),
                "major": a.is_major,
                "in_meal": a.in_meal,
            }
            for a in label.allergies
        ],
        "diets": [{"code": d, "label": diet_label(d, lang)} for d in label.diets],
        "fits": label.fits,
        "unmet": [{"code": d, "label": diet_label(d, lang)} for d in label.unmet],
        "special_note": label.special_note,
        "count": count,
    }


def vendor_list_out(p: ProductionList, lang: str) -> dict[str, Any]:
    return {
        "vendor_id": p.vendor_id,
        "vendor": p.vendor,
        "frozen_at": p.frozen_at.isoformat(),
        "attention": [attention_out(r.label, r.count, lang) for r in p.attention],
        "meals": [
            {
                "meal": m.meal.name(lang),
                "size": m.size,
                "size_label": size_label(m.size, lang),
                "menu_option": _opt(m.menu_option, lang),
                "meal_option": _opt(m.meal_option, lang),
                "count": m.count,
            }
            for m in p.meals
        ],
        "add_ons": [{"name": a.addon.name(lang), "count": a.count} for a in p.addons],
        "total": p.total,
    }


def production_out(found: KitchenProduction, lang: str) -> dict[str, Any]:
    return {
        "school_id": found.school_id,
        "school": found.school,
        "date": found.meal_date.isoformat(),
        "day": full_day(found.meal_date, lang),
        "lang": lang,
        "lists": [vendor_list_out(p, lang) for p in found.lists],
    }


@router.post(
    "/Admin/ProductionList",
    tags=ADMIN,
    summary="A school's production list for a day past its cut-off (allergies and diets first)",
    response_model=Envelope[ProductionListOut],
    openapi_extra=openapi_body(KitchenDayIn),
)
async def production_list(
    admin: Annotated[Client, Depends(admin_client)],
    body: Annotated[KitchenDayIn, Depends(json_body(KitchenDayIn))],
) -> Any:
    found = await kitchen.production(**_day(body))
    return answer(production_out(found, chosen_lang(body.lang, found.lang)), admin.lang)


@router.post(
    "/Admin/Labels",
    tags=ADMIN,
    summary="A school's labels for a day past its cut-off: a PDF label sheet or CSV",
    response_class=Response,
    openapi_extra=openapi_body(LabelsIn),
    responses={
        200: {
            "content": {"application/pdf": {}, "text/csv": {}},
            "description": "The labels: Avery 5163 sheets (PDF) or one CSV row per meal.",
        }
    },
)
async def labels(
    admin: Annotated[Client, Depends(admin_client)],
    body: Annotated[LabelsIn, Depends(json_body(LabelsIn))],
) -> Any:
    kind = (body.format or "pdf").strip().lower()
    if kind not in FORMATS:
        raise DomainError("kitchen_format_invalid", field="format")
    found = await kitchen.labels(**_day(body))
    lang = chosen_lang(body.lang, found.lang)
    name = f"labels-{found.school_id}-{found.meal_date.isoformat()}.{kind}"
    if kind == "pdf":
        content: bytes = kitchen_files.labels_pdf(found, lang)
    else:
        content = kitchen_files.labels_csv(found, lang).encode("utf-8")
    return Response(
        content,
        media_type=FORMATS[kind],
        headers={
            "Content-Disposition": f'attachment; filename="{name}"',
            "Cache-Control": "private, no-store",
        },
    )
