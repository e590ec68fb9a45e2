"""A kitchen's day to label, for the kitchen's tests (services, files, API, commands): a vendor
whose cut-off is the day before at 10:00 serving two schools on a Wednesday, meals with menu
options, meal options and add-ons (their allergens and dietary marks), children with allergies
and dietary needs in two classrooms, and paid orders written as rows (the checkout is tested
elsewhere: what matters here is which lines the kitchen sees)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from datetime import date, datetime, time

from sqlmodel import Session

from hotmeals.db.models import (
    AddOn,
    AddOnAllergen,
    AddOnDiet,
    Child,
    ChildDiet,
    Meal,
    MealDiet,
    MealOption,
    MealOptionDiet,
    MenuDay,
    MenuOption,
    MenuOptionAllergen,
    MenuOptionDiet,
    Order,
    OrderLine,
    OrderLineAddOn,
    School,
    SchoolLanguage,
    Teacher,
    Vendor,
)
from hotmeals.domain.cutoff import TORONTO
from tests import factories as f

DAY = date(2031, 3, 12)  # a Wednesday
BEFORE = datetime.combine(date(2031, 3, 11), time(9, 59), tzinfo=TORONTO)
CUTOFF = datetime.combine(date(2031, 3, 11), time(10, 0), tzinfo=TORONTO)
AFTER = datetime.combine(date(2031, 3, 11), time(10, 30), tzinfo=TORONTO)
_numbers = itertools.count(1)


@dataclass
class World:
    vendor_id: int
    vendor: str
    school_id: int
    school: str
    other_school_id: int
    other_school: str
    menu_day_id: int
    other_day_id: int
    later_day_id: int
    children: dict[str, int] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)
    orders: dict[str, int] = field(default_factory=dict)


def _order(s: Session, parent_id: int, status: str = "placed") -> Order:
    order = Order(
        number=f"HM-K{next(_numbers):05d}{parent_id}",
        parent_id=parent_id,
        status=status,
        tax_bps=1300,
        processing_fee_bps=0,
        processing_fee_fixed_cents=0,
    )
    s.add(order)
    s.flush()
    return order


def line(
    s: Session,
    order: Order,
    child: Child,
    day: MenuDay,
    meal: Meal,
    *,
    size: str = "small",
    quantity: int = 1,
    cancelled: int = 0,
    status: str = "active",
    menu_option: MenuOption | None = None,
    meal_option: MealOption | None = None,
    addons: tuple[AddOn, ...] = (),
    note: str | None = None,
) -> OrderLine:
    row = OrderLine(
        order_id=order.id,
        child_id=child.id,
        menu_day_id=day.id,
        vendor_id=day.vendor_id,
        meal_id=meal.id,
        portion_id=f.portion_of(s, meal, size).id,
        menu_option_id=menu_option.id if menu_option else None,
        meal_option_id=meal_option.id if meal_option else None,
        meal_date=day.meal_date,
        meal_name=meal.name_en,
        size=size,
        menu_option_name=menu_option.name_en if menu_option else "",
        meal_option_name=meal_option.name_en if meal_option else "",
        quantity=quantity,
        cancelled_quantity=cancelled,
        price_tiers="1:550",
        unit_price_cents=550,
        special_note=note,
        line_total_cents=550 * quantity,
        status=status,
    )
    s.add(row)
    s.flush()
    for addon in addons:
        s.add(
            OrderLineAddOn(
                order_line_id=row.id, addon_id=addon.id, name=addon.name_en, price_cents=75
            )
        )
    s.flush()
    return row


def kitchen_world(s: Session, *, french_school: bool = False) -> World:
    """The day (see the module): orders at ``school`` for Emma (peanuts Major, milk Low, halal;
    two pasta meals with milk, a gluten-free bun, an apple and a note), Noah (vegetarian;
    curry; both in Mme Bélanger's class), Léa (no allergy, no diet, in Mr. Adams's class: a
    chicken wrap), a line moved
    away, a line cancelled, an unpaid order, and Zoé at the other school."""
    vendor: Vendor = f.make_vendor(s, cutoff_days_before=1, cutoff_time="10:00")
    school: School = f.make_school(s, name=f"Maple Grove PS {next(_numbers)}")
    other: School = f.make_school(s, name=f"Cedar Hill PS {next(_numbers)}")
    if french_school:
        s.add(SchoolLanguage(school_id=school.id, lang="fr"))
    pasta = f.make_meal(
        s, vendor, name_en="Pasta bake", name_fr="Pâtes gratinées", allergens=["Wheat"]
    )
    curry = f.make_meal(s, vendor, name_en="Veggie curry", name_fr="Cari de légumes")
    wrap = f.make_meal(s, vendor, name_en="Chicken wrap", name_fr="Roulé au poulet")
    milk = MenuOption(meal_id=pasta.id, name_en="White milk", name_fr="Lait blanc", price_cents=50)
    bun = MealOption(
        meal_id=pasta.id, name_en="Gluten-free bun", name_fr="Pain sans gluten", price_cents=25
    )
    apple = AddOn(vendor_id=vendor.id, name_en="Apple", name_fr="Pomme", price_cents=75)
    cookie = AddOn(vendor_id=vendor.id, name_en="Cookie", name_fr="Biscuit", price_cents=75)
    s.add_all([milk, bun, apple, cookie])
    s.flush()
    s.add(MenuOptionAllergen(menu_option_id=milk.id, ingredient_id=f.get_allergen(s, "Milk").id))
    s.add(AddOnAllergen(addon_id=cookie.id, ingredient_id=f.get_allergen(s, "Milk").id))
    for model, key, owner, marks in (
        (MealDiet, "meal_id", pasta.id, ("halal", "vegetarian")),
        (MealDiet, "meal_id", curry.id, ("vegan",)),
        (MenuOptionDiet, "menu_option_id", milk.id, ("vegetarian", "halal")),
        (MealOptionDiet, "meal_option_id", bun.id, ("vegan", "halal", "gluten_free")),
        (AddOnDiet, "addon_id", apple.id, ("vegan", "halal")),
        (AddOnDiet, "addon_id", cookie.id, ("vegetarian",)),
    ):
        for mark in marks:
            s.add(model(**{key: owner, "diet": mark}))
    day = f.make_menu_day(s, school, vendor, DAY, [pasta, curry, wrap])
    later = f.make_menu_day(s, school, vendor, date(2031, 3, 19), [pasta, curry, wrap])
    other_day = f.make_menu_day(s, other, vendor, DAY, [pasta, curry, wrap])
    parent = f.make_parent(s, first_name="Patricia", last_name="Tremblay")
    emma = f.make_child(
        s,
        parent,
        school=school,
        grade_code="2",
        first_name="Emma",
        last_name="Tremblay",
        allergies={"Peanuts": "Major", "Milk": "Low", "Sesame": "Non-allergic"},
    )
    noah = f.make_child(
        s, parent, school=school, grade_code="2", first_name="Noah", last_name="Tremblay"
    )
    lea_parent = f.make_parent(s, first_name="Marc", last_name="Côté")
    lea = f.make_child(
        s, lea_parent, school=school, grade_code="5", first_name="Léa", last_name="Côté"
    )
    zoe = f.make_child(s, lea_parent, school=other, grade_code="5", first_name="Zoé")
    for child, name in ((emma, "Mme Bélanger"), (lea, "Mr. Adams"), (zoe, "Ms. Zhou")):
        teacher = s.get(Teacher, child.teacher_id)
        assert teacher is not None
        teacher.name = name
        s.add(teacher)
    s.add(ChildDiet(child_id=emma.id, diet="halal"))
    s.add(ChildDiet(child_id=noah.id, diet="vegetarian"))
    s.flush()
    world = World(
        vendor_id=vendor.id or 0,
        vendor=vendor.name,
        school_id=school.id or 0,
        school=school.name,
        other_school_id=other.id or 0,
        other_school=other.name,
        menu_day_id=day.id or 0,
        other_day_id=other_day.id or 0,
        later_day_id=later.id or 0,
        children={"emma": emma.id or 0, "noah": noah.id or 0, "lea": lea.id or 0},
    )
    paid = _order(s, parent.id or 0)
    world.orders["paid"] = paid.id or 0
    world.lines["emma"] = (
        line(
            s,
            paid,
            emma,
            day,
            pasta,
            size="large",
            quantity=2,
            menu_option=milk,
            meal_option=bun,
            addons=(apple, cookie),
            note="Cut in small pieces, please",
        ).id
        or 0
    )
    world.lines["noah"] = line(s, paid, noah, day, curry, quantity=3, cancelled=1).id or 0
    # Cancelled in full before the cut-off: not on the labels.
    world.lines["noah_cancelled"] = (
        line(s, paid, noah, day, wrap, quantity=1, cancelled=1, status="cancelled").id or 0
    )
    # Moved to the week after before the cut-off: on that day, not this one.
    moved = line(s, paid, noah, later, wrap)
    moved.moved_from_date = DAY
    s.add(moved)
    world.lines["moved"] = moved.id or 0
    other_order = _order(s, lea_parent.id or 0, status="partially_cancelled")
    world.orders["other"] = other_order.id or 0
    world.lines["lea"] = line(s, other_order, lea, day, wrap).id or 0
    world.lines["zoe"] = line(s, other_order, zoe, other_day, curry).id or 0
    unpaid = _order(s, lea_parent.id or 0, status="pending_payment")
    world.lines["unpaid"] = line(s, unpaid, lea, day, curry).id or 0
    s.flush()
    return world
