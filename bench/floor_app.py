"""A yardstick for ``bench/api_bench.py``, never mounted in the app: GetMenu written by hand.

A plain ASGI app (no FastAPI, no Reflex, no ORM session, no menu cache) that answers
``POST /api/v1/Parent/menu/GetMenu`` with the same JSON as the real route for the same request
and database: the same headers checked (``api-key``, ``app``, ``token``, ``accept-language``),
the same body, the same envelope and the same refusals (a bad token, another parent's child, a
day not served, a closed day). It reads the database the app's settings name
(``DATABASE_URL``) with six SQLAlchemy Core statements built once below, each call:

1. the token's session and parent, with the child asked for (one join);
2. the school's menu days on the date, with their vendors;
3. the open days' active meals with their portions and price tiers;
4. the allergens of those meals, of their options and of the vendors' add-ons, each with the
   child's level (one ``UNION ALL``);
5. how many of each meal the parent's cart holds for the child those days;
6. the child's dietary needs and the meals' dietary marks (one ``UNION ALL``).

The rules that are not database reads come from the app itself, so none is written twice: the
body's parsing (``api.bodies``), the date, the refusals and the cut-off (``ordering.days``),
the allergy marks (``ordering.allergens``), the portions and the extras (``ordering.menu``),
the dietary fit (``domain.diet``, ``ordering.diets``),
the messages (``i18n``). The work runs on the event loop: no worker thread, as a bare endpoint
would. ``tests/bench/test_floor.py`` checks that both answer alike.

    granian --interface asgi --workers 1 bench.floor_app:app
"""

from __future__ import annotations

import hmac
import json
from itertools import groupby
from typing import Any

from sqlalchemy import and_, bindparam, func, literal_column, select, union_all

from hotmeals import clock
from hotmeals.api.bodies import read_json, validate_body
from hotmeals.api.envelope import ApiError
from hotmeals.api.menu_present import allergy_mark_out, codes, diet_fit_out, extra_out, portion_out
from hotmeals.api.menu_schemas import MenuIn
from hotmeals.db import models as m
from hotmeals.db.engine import get_engine
from hotmeals.domain import diet
from hotmeals.domain.allergy import MealVerdict
from hotmeals.domain.errors import DomainError
from hotmeals.domain.money import format_money
from hotmeals.domain.pricing import PortionSize
from hotmeals.domain.pricing import PriceTier as TierRule
from hotmeals.i18n import normalize_lang, t
from hotmeals.security import token_digest
from hotmeals.services.menu_cache import PortionPrices
from hotmeals.services.ordering.allergens import (
    ADDON,
    MEAL,
    MEAL_OPTION,
    MENU_OPTION,
    ItemAllergy,
    empty_item,
)
from hotmeals.services.ordering.days import cutoff_state, meal_date, open_or_refuse
from hotmeals.services.ordering.diets import fit, shown
from hotmeals.services.ordering.menu import _extras_by_owner
from hotmeals.services.parents import TOKEN_MAX_CHARS
from hotmeals.settings import get_settings

PATH = "/api/v1/Parent/menu/GetMenu"

_token, _parent, _child = m.SessionToken.__table__, m.Parent.__table__, m.Child.__table__
_day, _vendor, _served = m.MenuDay.__table__, m.Vendor.__table__, m.MenuDayMeal.__table__
_meal, _portion, _tier = m.Meal.__table__, m.Portion.__table__, m.PriceTier.__table__
_ingredient, _level = m.AllergenIngredient.__table__, m.ChildAllergy.__table__
_cart = m.CartLine.__table__
_needs, _marks = m.ChildDiet.__table__, m.MealDiet.__table__

# 1. The session and its parent; the child when it is this parent's (else NULLs).
_WHO = (
    select(
        *_token.c["revoked_at", "expires_at"],
        _parent.c.id.label("parent_id"),
        _parent.c.is_active.label("parent_active"),
        _child.c.id.label("child_id"),
        _child.c.school_id,
        _child.c.is_active.label("child_active"),
    )
    .select_from(
        _token.join(_parent, _parent.c.id == _token.c.parent_id).outerjoin(
            _child, and_(_child.c.id == bindparam("child_id"), _child.c.parent_id == _parent.c.id)
        )
    )
    .where(_token.c.token_hash == bindparam("token_hash"))
)
# 2. The school's menu days on the date with their vendors, by vendor name (as the app's).
_DAYS = (
    select(
        *_day.c["id", "is_closed", "closed_reason_en", "closed_reason_fr"],
        _vendor.c.id.label("vendor_id"),
        _vendor.c.name.label("vendor"),
        *_vendor.c["is_active", "cutoff_days_before", "cutoff_time", "cutoff_skip_weekends"],
    )
    .select_from(_day.join(_vendor, _vendor.c.id == _day.c.vendor_id))
    .where(_day.c.school_id == bindparam("school_id"), _day.c.meal_date == bindparam("day"))
    .order_by(_vendor.c.name, _day.c.id)
)
# 3. The days' active meals, each priced portion (small first) and its tiers.
_MEALS = (
    select(
        _served.c.menu_day_id,
        *_meal.c["id", "name_en", "name_fr", "description_en", "description_fr", "image"],
        _portion.c.id.label("portion_id"),
        _portion.c.size,
        *_tier.c["min_quantity", "unit_price_cents"],
    )
    .select_from(
        _served.join(_meal, _meal.c.id == _served.c.meal_id)
        .join(_portion, _portion.c.meal_id == _meal.c.id)
        .join(_tier, _tier.c.portion_id == _portion.c.id)
    )
    .where(_served.c.menu_day_id.in_(bindparam("days", expanding=True)), _meal.c.is_active)
    .order_by(
        _served.c.menu_day_id,
        _meal.c.name_en,
        _meal.c.id,
        _portion.c.size != PortionSize.SMALL.value,
        _portion.c.id,
        _tier.c.min_quantity,
    )
)


def _items_of(kind: str, model: Any, link_model: Any, owner: str, ids: str) -> Any:
    """The allergens of one kind of item whose ``owner`` is in ``ids``, each with the child's
    level (NULL: none)."""
    item, link = model.__table__, link_model.__table__
    where = item.c[owner].in_(bindparam(ids, expanding=True))
    return (
        select(
            literal_column(f"'{kind}'").label("kind"),
            item.c.id.label("item_id"),
            item.c[owner].label("owner_id"),
            *item.c["name_en", "name_fr"],
            _ingredient.c.id.label("ingredient_id"),
            _ingredient.c.name_en.label("allergen_en"),
            _ingredient.c.name_fr.label("allergen_fr"),
            _level.c.alert_level,
        )
        .select_from(
            item.join(link, link.c[f"{kind}_id"] == item.c.id)
            .join(_ingredient, _ingredient.c.id == link.c.ingredient_id)
            .outerjoin(
                _level,
                and_(
                    _level.c.ingredient_id == _ingredient.c.id,
                    _level.c.child_id == bindparam("child_id"),
                ),
            )
        )
        .where(and_(where, item.c.is_active) if kind == ADDON else where)
    )


# 4. The allergens of the meals, of their menu and meal options, of the vendors' active add-ons.
_ALLERGENS = union_all(
    _items_of(MEAL, m.Meal, m.MealAllergen, "id", "meals"),
    _items_of(MENU_OPTION, m.MenuOption, m.MenuOptionAllergen, "meal_id", "meals"),
    _items_of(MEAL_OPTION, m.MealOption, m.MealOptionAllergen, "meal_id", "meals"),
    _items_of(ADDON, m.AddOn, m.AddOnAllergen, "vendor_id", "vendors"),
)
# 5. How many of each meal the parent's cart holds for the child on the days.
_IN_CART = (
    select(*_cart.c["menu_day_id", "meal_id"], func.sum(_cart.c.quantity))
    .where(
        _cart.c.parent_id == bindparam("parent_id"),
        _cart.c.child_id == bindparam("child_id"),
        _cart.c.menu_day_id.in_(bindparam("days", expanding=True)),
    )
    .group_by(*_cart.c["menu_day_id", "meal_id"])
)

# 6. The child's dietary needs (owner 0) and the meals' dietary marks.
_DIETS = union_all(
    select(literal_column("0").label("meal_id"), _needs.c.diet).where(
        _needs.c.child_id == bindparam("child_id")
    ),
    select(_marks.c.meal_id, _marks.c.diet).where(
        _marks.c.meal_id.in_(bindparam("meals", expanding=True))
    ),
)


class _Raw:  # what ``read_json`` reads of a request
    def __init__(self, raw: bytes) -> None:
        self.raw = raw

    async def body(self) -> bytes:
        return self.raw


def _envelope(code: int, message: str, data: Any = None) -> dict:
    return {"code": code, "message": message, "data": data}


def _items(rows: Any, child_id: int, lang: str) -> dict[tuple[str, int], ItemAllergy]:
    """The rows of statement 4 as ``item_allergies`` answers them."""
    french = lang == "fr"
    found: dict[tuple[str, int], list[Any]] = {}
    for row in rows:
        found.setdefault((row.kind, row.item_id), []).append(row)
    out = {}
    for key in sorted(found):
        first = found[key][0]
        item = out[key] = empty_item(
            first.kind, first.item_id, first.owner_id, first.name_fr if french else first.name_en
        )
        for row in sorted(found[key], key=lambda r: (r.allergen_en, r.ingredient_id)):
            name = row.allergen_fr if french else row.allergen_en
            if name not in item.allergens:
                item.allergens.append(name)
                item.both[name] = (row.allergen_en, row.allergen_fr)
            if row.alert_level is not None:
                item.matches.setdefault(child_id, []).append((name, row.alert_level))
    return out


def get_menu(token: str | None, child_id: int | None, date: str, lang: str) -> tuple[int, dict]:
    """The status and the envelope of GetMenu, the body already read."""
    text = (token or "").strip()
    if not text or len(text) > TOKEN_MAX_CHARS:
        return 401, _envelope(0, t("unauthorized", lang))
    with get_engine().connect() as db:
        who = db.execute(_WHO, {"token_hash": token_digest(text), "child_id": child_id}).first()
        now = clock.now()
        live = who is not None and who.revoked_at is None and who.expires_at > now
        if not live or not who.parent_active:
            return 401, _envelope(0, t("unauthorized", lang))
        try:
            if who.child_id is None or not who.child_active:
                raise DomainError("child_not_found", field="child_id")
            day = meal_date(date)
            served = [(r, r) for r in db.execute(_DAYS, {"school_id": who.school_id, "day": day})]
            open_days = [d for d, _ in open_or_refuse(served, day=day, lang=lang)]
        except DomainError as err:
            return 200, _envelope(0, err.message(lang), {"field": err.field} if err.field else None)
        days = [d.id for d in open_days]
        rows = db.execute(_MEALS, {"days": days}).all()
        meal_ids = sorted({r.id for r in rows})
        items: dict[tuple[str, int], ItemAllergy] = {}
        in_cart: dict[tuple[int, int], int] = {}
        if rows:
            vendors = sorted({d.vendor_id for d in open_days})
            asked = {"child_id": who.child_id, "meals": meal_ids, "vendors": vendors}
            items = _items(db.execute(_ALLERGENS, asked), who.child_id, lang)
            asked = {"parent_id": who.parent_id, "child_id": who.child_id, "days": days}
            for menu_day_id, meal_id, quantity in db.execute(_IN_CART, asked):
                in_cart[(menu_day_id, meal_id)] = int(quantity or 0)
        marks: dict[int, set[diet.Diet]] = {}
        for owner, code in db.execute(_DIETS, {"child_id": who.child_id, "meals": meal_ids}):
            marks.setdefault(owner, set()).update(diet.parse(code))
    needs = frozenset(marks.pop(0, ()))
    by_day = {d.id: d for d in open_days}
    extras_of = _extras_by_owner(items, who.child_id)
    french = lang == "fr"
    meals: list[dict] = []
    for (menu_day_id, meal_id), group in groupby(rows, key=lambda r: (r.menu_day_id, r.id)):
        tiers: dict[tuple[int, str], list[TierRule]] = {}  # (portion id, size) -> its tiers
        for meal in group:
            price = TierRule(meal.min_quantity, meal.unit_price_cents)
            tiers.setdefault((meal.portion_id, meal.size), []).append(price)
        sizes = [
            PortionPrices(key, meal_id, size, tuple(found)) for (key, size), found in tiers.items()
        ]
        vendor = by_day[menu_day_id]
        closes, before_cutoff = cutoff_state(vendor, day, now)
        cheapest = min(p.tiers[0].unit_price_cents for p in sizes)
        own = items.get((MEAL, meal_id)) or empty_item(MEAL, meal_id, meal_id, "")
        extras = extras_of.get((MEAL, meal_id), ()) + extras_of.get((ADDON, vendor.vendor_id), ())
        mark = own.mark(who.child_id, lang)
        own_marks = diet.composed(marks.get(meal_id, ()))
        fitted = fit(needs, own_marks)
        meals.append(
            {
                "menu_day_id": menu_day_id,
                "vendor_id": vendor.vendor_id,
                "vendor": vendor.vendor,
                "meal_id": meal_id,
                "name": meal.name_fr if french else meal.name_en,
                "description": meal.description_fr if french else meal.description_en,
                "image": meal.image,
                "price_from_cents": cheapest,
                "price_from": format_money(cheapest, lang),
                "portions": [portion_out(p, lang) for p in sizes],
                "allergens": list(own.allergens),
                "allergy": allergy_mark_out(mark),
                "extras": [extra_out(e) for e in extras],
                "extras_allergens": sorted({a for e in extras for a in e.allergens}),
                "in_cart_quantity": in_cart.get((menu_day_id, meal_id), 0),
                "cutoff_at": closes.isoformat(),
                "is_open": before_cutoff,
                "diets": codes(shown(own_marks)),
                "diet": diet_fit_out(fitted, lang),
                "safe_for_child": (fitted is None or fitted.fits)
                and mark.verdict is not MealVerdict.REFUSED,
            }
        )
    shown_needs = tuple(d for d in diet.DIETS if d in needs)
    data = {
        "child_id": who.child_id,
        "date": day.isoformat(),
        "meals": meals,
        "needs": codes(shown_needs),
    }
    return 200, _envelope(1, t("success" if meals else "no_data_found", lang), data)


async def answer(headers: dict[bytes, bytes], raw: bytes) -> tuple[int, dict]:
    """The status and the envelope for a request's headers and body."""
    lang = normalize_lang(headers.get(b"accept-language", b"").decode("latin-1") or None)
    api_key = headers.get(b"api-key", b"").decode("latin-1")
    expected = get_settings().api_key
    if not api_key or not hmac.compare_digest(api_key.encode(), expected.encode()):
        return 403, _envelope(0, t("api.bad_api_key", lang))
    app = headers.get(b"app")
    app_name = None if app is None else app.decode("latin-1").strip()
    if app_name and app_name.upper() != "P":
        return 403, _envelope(0, t("api_app_invalid", lang))
    try:
        body = validate_body(MenuIn, await read_json(_Raw(raw), lang), lang)
    except ApiError as err:
        return err.status_code, _envelope(0, err.message, err.data)
    token = headers.get(b"token", b"").decode("latin-1") or None
    return get_menu(token, body.child_id, body.date or "", lang)


async def app(scope: dict, receive: Any, send: Any) -> None:
    """The ASGI entry point: GetMenu, and 404 for anything else."""
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
    if scope["type"] != "http":
        return
    raw = b""
    more = True
    while more:
        message = await receive()
        raw += message.get("body", b"")
        more = message.get("more_body", False)
    if scope["path"] == PATH and scope["method"] == "POST":
        headers: dict[bytes, bytes] = {}
        for name, value in scope["headers"]:
            headers.setdefault(name.lower(), value)
        status, payload = await answer(headers, raw)
    else:
        status, payload = 404, _envelope(0, "Not Found")
    content = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(content)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": content})
