"""Orders for the payments' tests: a shop (a parent with two children, a vendor whose cut-off
is the day before at 10:00, a meal with a bulk tier, an option and an add-on, served on six
Mondays at each child's school), ``paid_order`` that fills the cart and pays it through the real
checkout against the simulator, an order's paid and refunded sums, a meal's price changed,
family credit given and read; and the signed-in families of the /api/v1 tests
(``make_cart_family``, ``fill``, ``make_shop_family``). The fixtures made of them: ``shop``
(tests/integration/conftest.py), ``cart_family`` and ``shop_family`` (tests/api/conftest.py)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from sqlalchemy.engine import Engine
from sqlmodel import select

from hotmeals import clock
from hotmeals.converge.converge import ConvergeClient
from hotmeals.db.engine import get_engine, session_scope
from hotmeals.db.models import (
    AddOn,
    CancelReason,
    MealOption,
    OrderLine,
    Parent,
    Portion,
    PriceTier,
)
from hotmeals.domain.credit import CreditKind
from hotmeals.services import credit
from hotmeals.services.ordering import cart, checkout, settle
from hotmeals.services.parents import start_session
from hotmeals.services.payments.records import order_paid_cents, order_refunded_cents
from hotmeals.services.runtime import Runtime
from tests import factories as f
from tests.payments_support import VISA, SimServer, lightbox_submit

WEEKS = (2, 3, 4, 5, 6, 7)


def monday_in(weeks: int) -> date:
    today = clock.now().date()
    return today + timedelta(days=(7 - today.weekday()) % 7 + 7 * weeks)


def signed_in_again(parent_id: int) -> str:
    """A new session token at the clock's time: a test that moves the clock weeks ahead outlives
    the 7-day session it started with."""
    with session_scope() as s:
        return start_session(s, s.get(Parent, parent_id), "pytest")


def past_cutoff(day: date) -> datetime:
    """Just past the test vendor's cut-off (the day before at 10:00 Toronto, EST or EDT)."""
    return datetime(day.year, day.month, day.day, 16, 0, tzinfo=UTC) - timedelta(days=1)


def make_shop(engine: Engine) -> dict:
    with session_scope(engine) as s:
        parent = f.make_parent(s)
        first = f.make_child(s, parent, is_default=True)
        second = f.make_child(s, parent)
        vendor = f.make_vendor(s, cutoff_days_before=1, cutoff_time="10:00")
        meal = f.make_meal(s, vendor, bulk={5: 25}, meal_options={"Gluten-free bun": 75})
        addon = AddOn(vendor_id=vendor.id, name_en="Apple", name_fr="Pomme", price_cents=125)
        s.add(addon)
        days = {}
        for child in (first, second):
            school = f.child_school(s, child)
            for weeks in WEEKS:
                day = monday_in(weeks)
                if (school.id, day) not in days:
                    days[(school.id, day)] = f.make_menu_day(s, school, vendor, day, [meal]).id
        s.flush()
        option = s.exec(select(MealOption).where(MealOption.meal_id == meal.id)).one()
        if not s.exec(select(CancelReason)).first():
            s.add(CancelReason(code="plans", label_en="Plans changed", label_fr="Autres plans"))
            s.add(
                CancelReason(
                    code="other", label_en="Other", label_fr="Autre", is_other=True, sort=9
                )
            )
        s.flush()
        reasons = {r.code: r.id for r in s.exec(select(CancelReason)).all()}
        return {
            "parent_id": parent.id,
            "children": [first.id, second.id],
            "schools": [first.school_id, second.school_id],
            "meal_id": meal.id,
            "addon_id": addon.id,
            "option_id": option.id,
            "days": days,
            "reason_id": next(v for k, v in reasons.items() if k != "other"),
            "other_id": reasons.get("other"),
        }


def add(engine: Engine, shop: dict, child: int, weeks: int, **extra) -> int:
    with session_scope(engine) as s:
        line = cart.add_to_cart(
            session=s,
            parent_id=shop["parent_id"],
            child_id=shop["children"][child],
            meal_id=shop["meal_id"],
            menu_day_id=shop["days"][(shop["schools"][child], monday_in(weeks))],
            **extra,
        )
        return line.cart_id


async def pay(engine: Engine, gateway: ConvergeClient, sim: SimServer, shop: dict) -> int:
    runtime = Runtime(engine=engine, gateway=gateway)
    started = await checkout.start_checkout(parent_id=shop["parent_id"], runtime=runtime)
    assert started.hosted is not None
    answer = lightbox_submit(sim, started.hosted.token, number=VISA)
    assert answer["outcome"] == "approval"
    result = await checkout.complete_checkout(
        parent_id=shop["parent_id"],
        payment_id=started.payment_id,
        txn_id=answer["response"]["ssl_txn_id"],
        runtime=runtime,
    )
    assert result.status == settle.PLACED, result
    return result.order_id


async def paid_order(
    engine: Engine,
    gateway: ConvergeClient,
    sim: SimServer,
    shop: dict,
    lines: list[dict] | None = None,
) -> tuple[int, list[int]]:
    """Pay a cart of ``lines`` (each: child, weeks and add_to_cart's extras); returns the order
    id and its line ids in meal-date order."""
    for spec in lines or [{"child": 0, "weeks": 2, "quantity": 2}]:
        spec = dict(spec)
        add(engine, shop, spec.pop("child", 0), spec.pop("weeks", 2), **spec)
    order_id = await pay(engine, gateway, sim, shop)
    with session_scope(engine) as s:
        ids = s.exec(
            select(OrderLine.id)
            .where(OrderLine.order_id == order_id)
            .order_by(OrderLine.meal_date, OrderLine.id)
        ).all()
    return order_id, list(ids)


def twelve_lines() -> list[dict]:
    return [{"child": c, "weeks": w, "quantity": 1} for c in (0, 1) for w in WEEKS]


def order_sums(engine: Engine, order_id: int) -> tuple[int, int]:
    """What the order's payments took and what its refunds gave back, in cents."""
    with session_scope(engine) as s:
        return order_paid_cents(s, order_id), order_refunded_cents(s, order_id)


def set_meal_price(engine: Engine, shop: dict, cents: int) -> None:
    """Today's catalogue price of the shop's meal (small portion, 1+) changes."""
    with session_scope(engine) as s:
        portion = s.exec(
            select(Portion).where(Portion.meal_id == shop["meal_id"], Portion.size == "small")
        ).one()
        tier = s.exec(
            select(PriceTier).where(PriceTier.portion_id == portion.id, PriceTier.min_quantity == 1)
        ).one()
        tier.unit_price_cents = cents
        s.add(tier)


def give_credit(engine: Engine, parent_id: int, cents: int, key: str = "gift") -> None:
    """Family credit for the parent (an operator's adjustment)."""
    with session_scope(engine) as s:
        credit.record(s, parent_id, CreditKind.ADJUST, cents, key=key, reason="test credit")


def credit_balance(engine: Engine, parent_id: int) -> int:
    with session_scope(engine) as s:
        return credit.balance(s, parent_id)


# -- signed-in families in the app's database (the /api/v1 tests) -------------------------------


def make_cart_family(sim: SimServer) -> dict:
    """A signed-in parent with two children and a meal (with an add-on) served on two
    Mondays at each child's school."""
    sim.control("config", decline_by_cents="0")
    with session_scope() as s:
        parent = f.make_parent(s)
        kids = [f.make_child(s, parent, is_default=True), f.make_child(s, parent)]
        vendor = f.make_vendor(s, cutoff_days_before=1, cutoff_time="10:00")
        meal = f.make_meal(s, vendor)
        addon = AddOn(vendor_id=vendor.id, name_en="Apple", name_fr="Pomme", price_cents=125)
        s.add(addon)
        days: dict = {}
        for child in kids:
            school = f.child_school(s, child)
            for day in (monday_in(2), monday_in(3)):
                if (school.id, day) not in days:
                    days[(school.id, day)] = f.make_menu_day(s, school, vendor, day, [meal]).id
        s.flush()
        lines = [
            (child.id, days[(child.school_id, day)])
            for child in kids
            for day in (monday_in(2), monday_in(3))
        ]
        return {
            "parent_id": parent.id,
            "token": start_session(s, parent, "pytest"),
            "meal_id": meal.id,
            "addon_id": addon.id,
            "slots": lines,
        }


def fill(family: dict, count: int) -> None:
    """``count`` cart lines of a ``make_cart_family`` family, spread over both children and both
    dates."""
    with session_scope() as s:
        for n in range(count):
            child_id, day_id = family["slots"][n % len(family["slots"])]
            cart.add_to_cart(
                session=s,
                parent_id=family["parent_id"],
                child_id=child_id,
                meal_id=family["meal_id"],
                menu_day_id=day_id,
                quantity=1 + n % 3,
                addons=[family["addon_id"]] if n % 2 == 0 else [],
                special_note_text="No nuts" if n % 4 == 0 else None,
            )


def make_shop_family(sim: SimServer) -> dict:
    """``make_shop`` in the app's database, its parent signed in (``token``); the simulator
    approves every amount."""
    sim.control("config", decline_by_cents="0")
    shop = make_shop(get_engine())
    with session_scope() as s:
        shop["token"] = start_session(s, s.get(Parent, shop["parent_id"]), "pytest")
    return shop
