"""/api/v1/Parent/cart/*: AddToCart, GetPriceTiersByPortionId, DeleteCart, OrderSummary,
on SQLite and PostgreSQL: prices from the database, the allergy rule, cut-offs,
ownership, one line per submission, the cart grouped by child and date with its charges, and
a fixed number of statements for a cart of 1 and of 12 lines."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

import pytest
from sqlmodel import select

from hotmeals import clock
from hotmeals.db.engine import session_scope
from hotmeals.db.models import AddOn, CartLine, ChildAllergy, MenuOption, Parent
from tests.api.helpers import login, ok, post, quick_token, refused
from tests.factories import (
    get_allergen,
    make_child,
    make_meal,
    make_menu_day,
    make_parent,
    make_school,
    make_vendor,
    portion_of,
)
from tests.querycount import count_queries


def _weekday_after(days: int) -> date:
    day = clock.today() + timedelta(days=days)
    while day.weekday() >= 5:
        day += timedelta(days=1)
    return day


@dataclass
class Shop:
    school_id: int
    day: date
    day2: date
    closed_day: date
    past_day: date
    menu_day_id: int
    day2_id: int
    past_day_id: int
    plain: int
    peanut: int
    milk: int
    sesame: int
    elsewhere: int  # a meal of the vendor not served on ``day``
    juice: int
    gluten_free: int
    apple: int
    other_vendor_addon: int
    other_meal_option: int
    small: int
    large: int


@pytest.fixture(scope="module")
def shop(database) -> Shop:
    day, day2, closed_day = _weekday_after(21), _weekday_after(24), _weekday_after(27)
    past_day = clock.today() + timedelta(days=1)
    with session_scope() as s:
        school = make_school(s)
        vendor = make_vendor(s, cutoff_days_before=2, cutoff_time="17:00")
        other = make_vendor(s)
        apple = AddOn(vendor_id=vendor.id, name_en="Apple", name_fr="Pomme", price_cents=125)
        cookie = AddOn(vendor_id=other.id, name_en="Cookie", name_fr="Biscuit", price_cents=100)
        s.add_all([apple, cookie])
        plain = make_meal(
            s,
            vendor,
            name_en="Rice and beans",
            small_cents=550,
            large_cents=700,
            bulk={10: 25},
            menu_options={"Juice": 50},
            meal_options={"Gluten-free": 75},
        )
        peanut = make_meal(s, vendor, name_en="Satay bowl", allergens=["Peanuts"])
        milk = make_meal(s, vendor, name_en="Mac and cheese", allergens=["Milk"])
        sesame = make_meal(s, vendor, name_en="Sesame noodles", allergens=["Sesame"])
        elsewhere = make_meal(s, vendor, name_en="Not today")
        third = make_meal(s, other, meal_options={"Extra": 25})
        meals = [plain, peanut, milk, sesame]
        first = make_menu_day(s, school, vendor, day, meals)
        second = make_menu_day(s, school, vendor, day2, meals)
        make_menu_day(s, school, vendor, closed_day, closed=True)
        past = make_menu_day(s, school, vendor, past_day, meals)
        s.flush()
        juice = s.exec(select(MenuOption).where(MenuOption.meal_id == plain.id)).one()
        from hotmeals.db.models import MealOption

        gluten_free = s.exec(select(MealOption).where(MealOption.meal_id == plain.id)).one()
        third_option = s.exec(select(MealOption).where(MealOption.meal_id == third.id)).one()
        return Shop(
            school_id=school.id,
            day=day,
            day2=day2,
            closed_day=closed_day,
            past_day=past_day,
            menu_day_id=first.id,
            day2_id=second.id,
            past_day_id=past.id,
            plain=plain.id,
            peanut=peanut.id,
            milk=milk.id,
            sesame=sesame.id,
            elsewhere=elsewhere.id,
            juice=juice.id,
            gluten_free=gluten_free.id,
            apple=apple.id,
            other_vendor_addon=cookie.id,
            other_meal_option=third_option.id,
            small=portion_of(s, plain, "small").id,
            large=portion_of(s, plain, "large").id,
        )


@dataclass
class Family:
    token: str
    parent_id: int
    ava: int  # Major peanuts, Medium milk, Low sesame
    ben: int  # no allergies


def _family(shop: Shop) -> Family:
    from hotmeals.db.models import School

    with session_scope() as s:
        school = s.get(School, shop.school_id)
        parent = make_parent(s, first_name="Cart", last_name="Tester")
        ava = make_child(
            s,
            parent,
            school=school,
            first_name="Ava",
            is_default=True,
            allergies={"Peanuts": "Major", "Milk": "Medium", "Sesame": "Low"},
        )
        ben = make_child(s, parent, school=school, first_name="Ben")
        ids = (parent.email, parent.id, ava.id, ben.id)
    return Family(quick_token(ids[0]), ids[1], ids[2], ids[3])


def _add(client, family: Family, shop: Shop, *, lang="en", key=None, **body):
    payload = {"child_id": family.ben, "meal_id": shop.plain, "menu_day_id": shop.menu_day_id}
    payload.update(body)
    extra = {"Idempotency-Key": key} if key else {}
    return post(client, "/Parent/cart/AddToCart", payload, family.token, lang=lang, **extra)


def _summary(client, family: Family, lang="en") -> dict:
    return ok(post(client, "/Parent/cart/OrderSummary", {}, family.token, lang=lang))


# --- AddToCart ----------------------------------------------------------------------------------


def test_a_line_is_priced_from_the_database_never_the_body(client, shop):
    family = _family(shop)
    body = ok(
        _add(
            client,
            family,
            shop,
            portion_id=shop.small,
            quantity=2,
            menu_option_id=shop.juice,
            meal_option_id=shop.gluten_free,
            addons=[shop.apple],
            special_note="No onions please",
            price=1,
            unit_price_cents=1,
            line_total_cents=1,
        )
    )
    assert body["message"] == "Added to cart Successfully"
    line = body["data"]
    # (5.50 + 0.50 juice + 0.75 gluten-free + 1.25 apple) x 2 + $1 note
    assert line["unit_price_cents"] == 550 and line["line_total_cents"] == 1700
    assert line["line_total"] == "$17.00" and line["cart_count"] == 1
    with session_scope() as s:
        row = s.get(CartLine, line["cart_id"])
        assert (row.quantity, row.special_note, row.parent_id) == (
            2,
            "No onions please",
            family.parent_id,
        )
    fr = ok(
        _add(client, family, shop, size="large", date=str(shop.day), menu_day_id=None, lang="fr")
    )
    assert fr["message"] == "Ajouté au panier avec succès"
    assert fr["data"]["unit_price_cents"] == 700 and fr["data"]["cart_count"] == 2


def test_the_tier_price_follows_the_quantity(client, shop):
    family = _family(shop)
    assert ok(_add(client, family, shop, quantity=10))["data"]["unit_price_cents"] == 525


def test_a_major_allergen_is_refused_with_the_reason(client, shop):
    family = _family(shop)
    for ack in (False, True):
        refused(
            _add(client, family, shop, child_id=family.ava, meal_id=shop.peanut, allergy_ack=ack),
            "This meal contains Peanuts, a Major allergy of this child: it cannot be added",
        )
    refused(
        _add(client, family, shop, child_id=family.ava, meal_id=shop.peanut, lang="fr"),
        "Ce repas contient : Arachides, une allergie majeure de cet enfant : il ne peut pas "
        "être ajouté",
    )
    # the sibling has no allergy: the same meal is fine for him
    ok(_add(client, family, shop, child_id=family.ben, meal_id=shop.peanut))


def test_a_medium_allergen_needs_the_acknowledgement_kept_on_the_line(client, shop):
    family = _family(shop)
    refused(
        _add(client, family, shop, child_id=family.ava, meal_id=shop.milk),
        "This meal contains Milk. Please confirm that you understand before adding it",
    )
    line = ok(_add(client, family, shop, child_id=family.ava, meal_id=shop.milk, allergy_ack=True))[
        "data"
    ]
    assert line["allergy_ack"] == "I understand this meal contains Milk"
    with session_scope() as s:
        row = s.get(CartLine, line["cart_id"])
        assert row.allergy_ack == "I understand this meal contains Milk"
        assert row.allergy_ack_at is not None
    low = ok(_add(client, family, shop, child_id=family.ava, meal_id=shop.sesame))["data"]
    assert low["allergy_notice"] == "Contains Sesame (low alert level)"
    assert low["allergy_ack"] is None


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"quantity": 0}, "Please choose a quantity from 1 to 50"),
        ({"quantity": 51}, "Please choose a quantity from 1 to 50"),
        ({"special_note": "x" * 121}, "Special note should not exceed 120 characters"),
        ({"special_note": "x" * 201}, "Special note should not exceed 120 characters"),
        ({"special_note": "x" * 20_000}, "Special note should not exceed 120 characters"),
        ({"meal_id": None}, "Meal not found"),
        ({"portion_id": 999999}, "Please choose a size"),
        ({"menu_option_id": 999999}, "Please choose an option from the list"),
        ({"meal_option_id": "other"}, "Please choose an option from the list"),
        ({"addons": ["other"]}, "Please choose add-ons from the list"),
        ({"meal_id": "elsewhere"}, "This meal is not on the menu of that day"),
        ({"menu_day_id": 999999}, "This meal is not on the menu of that day"),
        ({"menu_day_id": None, "date": None}, "Please choose a date"),
        ({"menu_day_id": None, "date": "2026-02-30"}, "Please enter a valid date"),
        ({"child_id": None}, "Child not found"),
    ],
)
def test_add_to_cart_refuses_bad_choices(client, shop, changes, message):
    family = _family(shop)
    resolved = {
        key: {
            "other": shop.other_meal_option if key == "meal_option_id" else None,
            "elsewhere": shop.elsewhere,
        }.get(value, value)
        if isinstance(value, str) and key != "special_note"
        else value
        for key, value in changes.items()
    }
    if changes.get("addons") == ["other"]:
        resolved["addons"] = [shop.other_vendor_addon]
    refused(_add(client, family, shop, **resolved), message)
    assert _summary(client, family)["data"]["cart_count"] == 0


def test_closed_unserved_and_past_cutoff_days_are_refused(client, shop):
    family = _family(shop)
    refused(
        _add(client, family, shop, menu_day_id=None, date=str(shop.closed_day)),
        f"No meals on {shop.closed_day}: PA Day – no school",
    )
    unserved = shop.day + timedelta(days=90)
    refused(
        _add(client, family, shop, menu_day_id=None, date=str(unserved)),
        f"Your child's school has no meals on {unserved}",
    )
    refused(
        _add(client, family, shop, menu_day_id=shop.past_day_id),
        f"Orders and changes for {shop.past_day} are closed",
    )


def test_another_parents_child_and_line_are_not_found(client, shop):
    family = _family(shop)
    line = ok(_add(client, family, shop))["data"]
    stranger = login(client)  # the demo parent
    refused(
        post(
            client,
            "/Parent/cart/AddToCart",
            {"child_id": family.ben, "meal_id": shop.plain, "menu_day_id": shop.menu_day_id},
            stranger,
        ),
        "Child not found",
    )
    refused(
        post(client, "/Parent/cart/DeleteCart", {"cart_id": line["cart_id"]}, stranger),
        "Cart item not found",
    )
    assert _summary(client, family)["data"]["cart_count"] == 1
    refused(post(client, "/Parent/cart/AddToCart", {}, None), status=401)


def test_a_repeated_submission_adds_one_line(client, shop):
    family = _family(shop)
    first = ok(_add(client, family, shop, key="add-1"))
    again = ok(_add(client, family, shop, key="add-1"))
    assert again["data"] == first["data"]
    assert _summary(client, family)["data"]["cart_count"] == 1
    ok(_add(client, family, shop, key="add-2"))
    assert _summary(client, family)["data"]["cart_count"] == 2


# --- GetPriceTiersByPortionId and DeleteCart ---------------------------------------------------


def test_price_tiers_of_a_portion(client, shop):
    family = _family(shop)
    body = ok(
        post(
            client,
            "/Parent/cart/GetPriceTiersByPortionId",
            {"portion_id": shop.small},
            family.token,
        )
    )["data"]
    assert body["meal_id"] == shop.plain and body["label"] == "1 portion"
    assert [(t["min_quantity"], t["unit_price_cents"]) for t in body["tiers"]] == [
        (1, 550),
        (10, 525),
    ]
    refused(
        post(client, "/Parent/cart/GetPriceTiersByPortionId", {"portion_id": 999999}, family.token),
        "Please choose a size",
    )


def test_delete_cart_removes_the_line(client, shop):
    family = _family(shop)
    first = ok(_add(client, family, shop, addons=[shop.apple]))["data"]
    ok(_add(client, family, shop))
    gone = ok(post(client, "/Parent/cart/DeleteCart", {"cart_id": first["cart_id"]}, family.token))
    assert gone["message"] == "Item removed from cart" and gone["data"] == {"cart_count": 1}
    refused(
        post(client, "/Parent/cart/DeleteCart", {"cart_id": first["cart_id"]}, family.token),
        "Cart item not found",
    )


# --- OrderSummary: the cart by child and date, flags, charges -----------------------------------


def test_the_summary_groups_by_child_and_date_and_flags_what_cannot_be_paid(client, shop):
    family = _family(shop)
    ok(_add(client, family, shop, child_id=family.ava, meal_id=shop.plain, special_note="Hi"))
    ok(_add(client, family, shop, child_id=family.ben, menu_day_id=shop.day2_id, quantity=2))
    ok(_add(client, family, shop, child_id=family.ben))
    # a line whose cut-off has passed since it was added (written directly: AddToCart refuses)
    with session_scope() as s:
        s.add(
            CartLine(
                parent_id=family.parent_id,
                child_id=family.ben,
                menu_day_id=shop.past_day_id,
                meal_id=shop.plain,
                portion_id=shop.small,
                quantity=1,
            )
        )
    data = _summary(client, family)["data"]
    keys = [(g["child_id"], g["date"], len(g["lines"])) for g in data["groups"]]
    assert keys == [
        (family.ava, str(shop.day), 1),
        (family.ben, str(shop.past_day), 1),
        (family.ben, str(shop.day), 1),
        (family.ben, str(shop.day2), 1),
    ]
    past = data["groups"][1]["lines"][0]
    assert past["payable"] is False
    assert past["problems"] == ["The ordering deadline for this day has passed"]
    assert data["cart_count"] == 4 and data["payable_count"] == 3 and data["meal_count"] == 4
    charges = data["charges"]
    # 5.50 + 2 x 5.50 + 5.50 meals, $1 note; HST 13 % on 23.00
    assert charges["meal_net_cents"] == 2200 and charges["special_note_fees_cents"] == 100
    assert charges["tax_cents"] == 299 and charges["total_pay_cents"] == 2599
    assert data["total_pay"] == "$25.99"
    assert data["giveback"]["school_cents"] == 200 and data["giveback"]["nutrition_cents"] == 80
    assert data["giveback"]["message"] == (
        "This order gives $2.00 to the school community and $0.80 to local nutrition programs"
    )


def test_a_changed_allergy_flags_the_childs_lines(client, shop):
    family = _family(shop)
    ok(_add(client, family, shop, child_id=family.ben, meal_id=shop.milk))
    with session_scope() as s:
        milk = get_allergen(s, "Milk")
        s.add(ChildAllergy(child_id=family.ben, ingredient_id=milk.id, alert_level="High"))
    line = _summary(client, family)["data"]["groups"][0]["lines"][0]
    assert line["payable"] is False
    assert line["problems"] == [
        "This meal contains Milk. Please confirm that you understand before adding it"
    ]
    assert _summary(client, family)["data"]["charges"]["total_pay_cents"] == 0


def test_an_empty_cart_says_no_data_found(client, shop):
    family = _family(shop)
    body = _summary(client, family, lang="fr")
    assert body["message"] == "Aucune donnée trouvée" and body["data"]["groups"] == []


# --- statements: the same for a cart of 1 and of 12 lines --------------------------------------


def _counted(call) -> tuple[int, str]:
    with count_queries() as queries:
        ok(call())
    return queries.count, queries.report()


def test_cart_calls_run_a_fixed_number_of_statements(client, shop):
    small, big = _family(shop), _family(shop)
    ok(_add(client, small, shop, addons=[shop.apple], menu_option_id=shop.juice))
    for n in range(12):
        ok(
            _add(
                client,
                big,
                shop,
                child_id=big.ava if n % 2 else big.ben,
                meal_id=shop.sesame if n % 2 else shop.plain,
                menu_day_id=shop.day2_id if n % 3 else shop.menu_day_id,
                addons=[shop.apple],
                special_note=f"note {n}",
            )
        )
    adds = [
        _counted(lambda f=f: _add(client, f, shop, addons=[shop.apple], menu_option_id=shop.juice))
        for f in (small, big)
    ]
    assert adds[0][0] == adds[1][0], adds[1][1]
    # The token, the children with their school year, the menus' version, the allergies, the
    # cart's size, the dietary needs, the days away, the line and its add-ons.
    assert adds[0][0] <= 9, adds[0][1]
    summaries = [
        _counted(lambda f=f: post(client, "/Parent/cart/OrderSummary", {}, f.token))
        for f in (small, big)
    ]
    # With the children's dietary needs: one batched query (was 6).
    assert summaries[0][0] == summaries[1][0] <= 7, summaries[1][1]
    with session_scope() as s:
        assert s.get(Parent, big.parent_id) is not None


# --- promo codes and CheckOrderSummary ----------------------------------------------------------


def _promo(code: str, **fields) -> None:
    from hotmeals.db.models import PromoCode

    with session_scope() as s:
        s.add(PromoCode(code=code, **fields))


def test_list_promocodes_shows_the_codes_a_parent_can_use(client, shop):
    demo = ok(post(client, "/Parent/auth/ListPromocodesByParent", {}, login(client)))["data"]
    codes = {p["code"]: p for p in demo}
    assert {"WELCOME10", "LUNCH2", "TREMBLAY5"} <= set(codes) and "SUMMER25" not in codes
    assert codes["TREMBLAY5"]["personal"] is True and codes["LUNCH2"]["min_order"] == "$10.00"
    assert codes["LUNCH2"]["description"] == "$2 off orders of $10 or more"
    assert codes["LUNCH2"]["kind"] == "fixed" and codes["WELCOME10"]["kind"] == "percent"
    french = ok(post(client, "/Parent/auth/ListPromocodesByParent", {}, login(client), lang="fr"))
    lunch = {p["code"]: p for p in french["data"]}["LUNCH2"]
    assert lunch["description"] == "2 $ de rabais sur les commandes de 10 $ ou plus"
    assert lunch["min_order"] == "10,00\xa0$"
    family = _family(shop)
    theirs = ok(post(client, "/Parent/auth/ListPromocodesByParent", {}, family.token))["data"]
    assert "TREMBLAY5" not in {p["code"] for p in theirs}
    refused(post(client, "/Parent/auth/ListPromocodesByParent", {}), status=401)


def test_check_promocode_applies_the_discount_to_the_meal_net(client, shop):
    family = _family(shop)
    ok(_add(client, family, shop, quantity=2))
    body = ok(
        post(
            client,
            "/Promocode/promocode_management/check_promocode",
            {"promo_code": " welcome10 "},
            family.token,
        )
    )
    assert body["message"] == "Promo code applied" and body["data"]["promo_code"] == "WELCOME10"
    charges = body["data"]["charges"]
    # 2 x 5.50 = 11.00, 10 % off = 1.10, HST 13 % of 9.90 = 1.29 (1.287 rounded half up)
    assert (charges["discount_cents"], charges["tax_cents"], charges["total_pay_cents"]) == (
        110,
        129,
        1119,
    )
    lunch = ok(
        post(
            client,
            "/Promocode/promocode_management/check_promocode",
            {"promo_code": "LUNCH2"},
            family.token,
        )
    )
    assert lunch["data"]["charges"]["discount_cents"] == 200


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("", "Please enter a promo code"),
        ("NOPE", "This promo code does not exist"),
        ("TREMBLAY5", "This promo code does not exist"),  # another parent's code
        ("SUMMER25", "This promo code expired on 2025-08-31"),
        ("LATER", None),
        ("USEDUP", "This promo code has already been used"),
        ("LUNCH2", "This promo code needs a minimum order of $10.00"),
    ],
)
def test_check_promocode_says_why_a_code_is_refused(client, shop, code, message):
    from hotmeals.db.models import Order

    if code == "LATER":
        _promo("LATER", percent_bps=500, valid_from=clock.today() + timedelta(days=3))
        message = f"This promo code can be used from {clock.today() + timedelta(days=3)}"
    if code == "USEDUP":
        _promo("USEDUP", amount_off_cents=100, max_uses=1)
        demo_token = login(client)
        with session_scope() as s:
            from hotmeals.db.models import PromoCode

            promo = s.exec(select(PromoCode).where(PromoCode.code == "USEDUP")).one()
            parent = s.exec(select(Parent).where(Parent.email == "parent@example.com")).one()
            for n, status in enumerate(("pending_payment", "payment_failed", "placed")):
                s.add(
                    Order(
                        number=f"HM-T{promo.id}{n}",
                        parent_id=parent.id,
                        status=status,
                        promo_code_id=promo.id,
                        tax_bps=1300,
                        processing_fee_bps=0,
                        processing_fee_fixed_cents=0,
                    )
                )
        assert demo_token
    family = _family(shop)
    ok(_add(client, family, shop))
    refused(
        post(
            client,
            "/Promocode/promocode_management/check_promocode",
            {"promo_code": code},
            family.token,
        ),
        message,
    )


def test_unpaid_orders_do_not_use_up_a_code(client, shop):
    from hotmeals.db.models import Order, PromoCode

    _promo("ONCEONLY", amount_off_cents=100, max_uses=1)
    family = _family(shop)
    ok(_add(client, family, shop))
    with session_scope() as s:
        promo = s.exec(select(PromoCode).where(PromoCode.code == "ONCEONLY")).one()
        s.add(
            Order(
                number=f"HM-U{promo.id}",
                parent_id=family.parent_id,
                status="payment_failed",
                promo_code_id=promo.id,
                tax_bps=1300,
                processing_fee_bps=0,
                processing_fee_fixed_cents=0,
            )
        )
    ok(
        post(
            client,
            "/Promocode/promocode_management/check_promocode",
            {"promo_code": "ONCEONLY"},
            family.token,
        )
    )


def test_check_order_summary_needs_something_payable_and_adds_the_donation(client, shop):
    family = _family(shop)
    refused(
        post(client, "/Parent/cart/CheckOrderSummary", {}, family.token),
        "Your cart has no meal that can be paid",
    )
    ok(_add(client, family, shop))
    body = ok(
        post(
            client,
            "/Parent/cart/CheckOrderSummary",
            {"donation_cents": 500, "promo_code": "WELCOME10"},
            family.token,
        )
    )["data"]["charges"]
    # 5.50 - 0.55 = 4.95, HST 0.64 (0.6435), the $5 gift untaxed
    assert (body["discount_cents"], body["tax_cents"], body["school_donation_cents"]) == (
        55,
        64,
        500,
    )
    assert body["total_pay_cents"] == 495 + 64 + 500
    refused(post(client, "/Parent/cart/CheckOrderSummary", {"donation_cents": 50}, family.token))


def test_update_cart_quantity_reprices_the_line(client, shop):
    family = _family(shop)
    line = ok(_add(client, family, shop))["data"]
    body = ok(
        post(
            client,
            "/Parent/cart/UpdateCartQuantity",
            {"cart_id": line["cart_id"], "quantity": 10},
            family.token,
        )
    )
    assert body["message"] == "Quantity updated"
    updated = body["data"]["groups"][0]["lines"][0]
    assert (updated["quantity"], updated["unit_price_cents"]) == (10, 525)  # the 10+ tier
    assert body["data"]["charges"]["meal_net_cents"] == 5250
    for quantity in (0, 51, None):
        refused(
            post(
                client,
                "/Parent/cart/UpdateCartQuantity",
                {"cart_id": line["cart_id"], "quantity": quantity},
                family.token,
            ),
            "Please choose a quantity from 1 to 50",
        )
    refused(
        post(
            client,
            "/Parent/cart/UpdateCartQuantity",
            {"cart_id": line["cart_id"], "quantity": 2},
            login(client),
        ),
        "Cart item not found",
    )
    # a line whose cut-off passed cannot be changed
    with session_scope() as s:
        past = CartLine(
            parent_id=family.parent_id,
            child_id=family.ben,
            menu_day_id=shop.past_day_id,
            meal_id=shop.plain,
            portion_id=shop.small,
            quantity=1,
        )
        s.add(past)
        s.flush()
        past_id = past.id
    refused(
        post(
            client,
            "/Parent/cart/UpdateCartQuantity",
            {"cart_id": past_id, "quantity": 2},
            family.token,
        ),
        f"Orders and changes for {shop.past_day} are closed",
    )


def test_the_same_add_sent_in_parallel_adds_one_line(client, shop):
    """A double tap answered by two workers at once: the parent's row is locked first
    (services.submissions.submit_once), so the repeat waits and answers the first line."""
    from concurrent.futures import ThreadPoolExecutor

    family = _family(shop)

    def send(_):
        return _add(client, family, shop, key="parallel-add", addons=[shop.apple]).json()

    with ThreadPoolExecutor(max_workers=4) as pool:
        answers = list(pool.map(send, range(4)))
    assert all(a["code"] == 1 for a in answers), answers
    assert len({a["data"]["cart_id"] for a in answers}) == 1
    assert _summary(client, family)["data"]["cart_count"] == 1


def test_a_line_of_a_school_the_child_has_left_is_flagged(client, shop):
    from hotmeals.db.models import Child

    family = _family(shop)
    ok(_add(client, family, shop, child_id=family.ben))
    with session_scope() as s:
        child = s.get(Child, family.ben)
        child.school_id = make_school(s).id
        s.add(child)
    line = _summary(client, family)["data"]["groups"][0]["lines"][0]
    assert line["payable"] is False
    assert line["problems"] == ["This meal is no longer available on this day"]
