"""The JSON request bodies of the /api/v1 calls: read whatever the content type says (the
client sends ``text/plain``), validated with the route's pydantic model so a bad body is code 0
with a clear message, never a 500; declared in the OpenAPI document with ``openapi_body``; and
the meal choice that two bodies share."""

from __future__ import annotations

import copy
import json
from typing import Any, Literal, Protocol, TypeVar

from fastapi import Request
from pydantic import BaseModel, ValidationError

from hotmeals.api.envelope import ApiError
from hotmeals.i18n import t

MAX_BODY_BYTES = 4 * 1024 * 1024  # a 2 MB picture in base64, and room to spare

M = TypeVar("M", bound=BaseModel)


async def read_json(request: Request, lang: str) -> dict:
    """The body as a JSON object, whatever its content type; an empty body is ``{}``."""
    raw = await request.body()
    if len(raw) > MAX_BODY_BYTES:
        raise ApiError(t("body_too_large", lang), status_code=413)
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise ApiError(t("api.invalid_json", lang)) from None
    if not isinstance(data, dict):
        raise ApiError(t("api.invalid_json", lang))
    bad = _bad_text(data)
    if bad is not None:
        raise ApiError(t("field_invalid", lang, field=bad), data={"field": bad})
    return data


def _bad_text(value: Any, field: str = "body") -> str | None:
    """The first field holding text no database can store (NUL, lone surrogates)."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return field
        return field if "\x00" in value else None
    if isinstance(value, dict):
        for key, item in value.items():
            inner = str(key) if field == "body" else field
            found = _bad_text(key, field) or _bad_text(item, inner)
            if found:
                return found
    if isinstance(value, list):
        for item in value:
            found = _bad_text(item, field)
            if found:
                return found
    return None


def validate_body(model: type[M], data: dict, lang: str) -> M:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        errors = exc.errors()
        loc = errors[0].get("loc", ()) if errors else ()
        field = str(loc[0]) if loc else "body"
        raise ApiError(t("field_invalid", lang, field=field), data={"field": field}) from None


async def parse_body(request: Request, model: type[M], lang: str) -> M:
    return validate_body(model, await read_json(request, lang), lang)


def openapi_body(model: type[BaseModel], *, required: bool = False) -> dict:
    """``openapi_extra`` declaring ``model`` as the JSON request body (sent as text/plain by
    the original client; both are accepted)."""
    schema = inline_schema(model)
    return {
        "requestBody": {
            "required": required,
            "content": {"application/json": {"schema": schema}},
        }
    }


def inline_schema(model: type[BaseModel]) -> dict:
    """The model's JSON schema with its ``$defs`` inlined (they would dangle in the doc)."""
    schema = model.model_json_schema()
    defs = schema.pop("$defs", {})

    def resolve(node: Any) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/"):
                target = copy.deepcopy(defs[ref.rsplit("/", 1)[-1]])
                rest = {k: v for k, v in node.items() if k != "$ref"}
                return resolve({**target, **rest})
            return {k: resolve(v) for k, v in node.items()}
        if isinstance(node, list):
            return [resolve(v) for v in node]
        return node

    return resolve(schema)


class MealChoice(Protocol):
    """A body choosing a meal for a child on a day (AddToCart, AddToMyOrder)."""

    @property
    def child_id(self) -> int | None: ...
    @property
    def meal_id(self) -> int | None: ...
    @property
    def menu_day_id(self) -> int | None: ...
    @property
    def date(self) -> str | None: ...
    @property
    def portion_id(self) -> int | None: ...
    @property
    def size(self) -> Literal["small", "large"] | None: ...
    @property
    def menu_option_id(self) -> int | None: ...
    @property
    def meal_option_id(self) -> int | None: ...
    @property
    def addons(self) -> list[int]: ...
    @property
    def special_note(self) -> str | None: ...
    @property
    def allergy_ack(self) -> bool: ...
    @property
    def diet_ack(self) -> bool: ...


def meal_choice(body: MealChoice) -> dict[str, Any]:
    """The chosen meal as the cart's and the order change's services take it
    (``ordering.lines.MealChoice``; the quantity aside: each has its own default). No child or
    no meal is 0: the services answer 'not found' for it."""
    return {
        "child_id": body.child_id or 0,
        "meal_id": body.meal_id or 0,
        "menu_day_id": body.menu_day_id,
        "date": body.date,
        "portion_id": body.portion_id,
        "size": body.size,
        "menu_option_id": body.menu_option_id,
        "meal_option_id": body.meal_option_id,
        "addons": body.addons,
        "special_note_text": body.special_note,
        "allergy_ack": body.allergy_ack,
        "diet_ack": body.diet_ack,
    }
