"""Receipts and the calendar feed through /api/v1 on SQLite and
PostgreSQL: an order with options, add-ons, a note fee, a donation and refunds, a change that
refunded, a change that charged, and a donation each have a receipt whose totals are what
was stored and charged, to the cent, in JSON and PDF, EN and FR; another parent gets nothing;
the feed's address works without a session until a new one replaces it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from icalendar import Calendar

from hotmeals.clock import now as utcnow
from hotmeals.db.models import (
    AddOn,
    Donation,
    Order,
    OrderChange,
    OrderChangeLine,
    OrderLine,
    OrderLineAddOn,
    Payment,
    Refund,
)
from tests import factories as f
from tests.api.helpers import get, ok, post, quick_token, refused

NBSP = "\u00a0"


@pytest.fixture(scope="module")
def world(database):
    from hotmeals.db.engine import session_scope

    day = (utcnow() + timedelta(days=30)).date()
    with session_scope() as s:
        school = f.make_school(s, name="Maple Public School")
        vendor = f.make_vendor(s)
        meal = f.make_meal(s, vendor, name_en="Butter chicken", name_fr="Poulet au beurre")
        addon = AddOn(vendor_id=vendor.id, name_en="Milk", name_fr="Lait", price_cents=100)
        s.add(addon)
        parent = f.make_parent(s, first_name="Nora", language="fr")
        emma = f.make_child(s, parent, school=school, first_name="Emma")
        lucas = f.make_child(s, parent, school=school, first_name="Lucas")
        menu_day = f.make_menu_day(s, school, vendor, day, [meal])
        later = f.make_menu_day(s, school, vendor, day + timedelta(days=1), [meal])
        placed = datetime(2026, 11, 20, 15, 0, tzinfo=UTC)
        order = Order(
            number=f"HM-{900000 + (parent.id or 0)}",
            parent_id=parent.id,
            status="partially_cancelled",
            tax_bps=1300,
            processing_fee_bps=0,
            processing_fee_fixed_cents=0,
            # line 1: (650 + 50 + 25 + 100) x 2 + 25 note = 1675; line 2: 700; line 3: 750
            meal_net_cents=1650 + 700 + 750,
            special_note_fees_cents=25,
            tax_cents=406,  # 13 % of 3125, half up
            school_donation_cents=300,
            total_pay_cents=3100 + 25 + 406 + 300,
            placed_at=placed,
        )
        s.add(order)
        s.flush()

        def line(child, on, quantity, unit, total, **extra):
            row = OrderLine(
                order_id=order.id,
                child_id=child.id,
                menu_day_id=on.id,
                vendor_id=vendor.id,
                meal_id=meal.id,
                portion_id=f.portion_of(s, meal, "large").id,
                meal_date=on.meal_date,
                meal_name="Butter chicken",
                size="large",
                quantity=quantity,
                price_tiers=f"1:{unit}",
                unit_price_cents=unit,
                line_total_cents=total,
                **extra,
            )
            s.add(row)
            s.flush()
            return row

        first = line(
            emma,
            menu_day,
            2,
            650,
            1675,
            menu_option_name="Apple juice",
            menu_option_cents=50,
            meal_option_name="Gluten-free bun",
            meal_option_cents=25,
            special_note="No onions please",
            special_note_fee_cents=25,
            cart_line_id=1,
        )
        s.add(
            OrderLineAddOn(order_line_id=first.id, addon_id=addon.id, name="Milk", price_cents=100)
        )
        removed = line(
            lucas, menu_day, 1, 700, 700, cancelled_quantity=1, status="cancelled", cart_line_id=2
        )
        added = line(lucas, later, 1, 750, 750)
        pay = Payment(
            parent_id=parent.id,
            order_id=order.id,
            purpose="ORDER",
            invoice_number=f"T{order.id}-1",
            amount_cents=order.total_pay_cents - 847,
            state="APPROVED",
            card_brand="VISA",
            card_masked="40**********0002",
            approval_code="A1B2C3",
            verified_at=placed,
        )
        s.add(pay)
        s.flush()
        # As confirm stores them: the refund of 700 net and its 91 HST.
        cut = OrderChange(
            order_id=order.id,
            parent_id=parent.id,
            state="applied",
            amount_cents=-791,
            tax_cents=-91,
        )
        s.add(cut)
        s.flush()
        s.add(
            OrderChangeLine(change_id=cut.id, action="remove", order_line_id=removed.id, quantity=1)
        )
        for state, cents in (("SUCCEEDED", 791), ("PENDING", 10), ("FAILED", 500)):
            s.add(
                Refund(
                    payment_id=pay.id,
                    order_id=order.id,
                    amount_cents=cents,
                    kind="RETURN",
                    state=state,
                    reason=f"order change {cut.id}",
                )
            )
        grow_pay = Payment(
            parent_id=parent.id,
            order_id=order.id,
            purpose="ORDER_CHANGE",
            invoice_number=f"T{order.id}-2",
            amount_cents=847,
            state="APPROVED",
            card_brand="VISA",
            card_masked="40**********0002",
            approval_code="D4E5F6",
            verified_at=placed + timedelta(days=1),
        )
        s.add(grow_pay)
        s.flush()
        grow = OrderChange(
            order_id=order.id,
            parent_id=parent.id,
            state="applied",
            amount_cents=847,
            tax_cents=97,
            payment_id=grow_pay.id,
        )
        s.add(grow)
        s.flush()
        s.add(
            OrderChangeLine(
                change_id=grow.id,
                action="add",
                child_id=lucas.id,
                menu_day_id=later.id,
                meal_id=meal.id,
                portion_id=added.portion_id,
                quantity=1,
            )
        )
        gift = Donation(parent_id=parent.id, school_id=school.id, amount_cents=500, status="PAID")
        s.add(gift)
        s.flush()
        s.add(
            Payment(
                parent_id=parent.id,
                donation_id=gift.id,
                purpose="DONATION",
                invoice_number=f"T{order.id}-3",
                amount_cents=500,
                state="APPROVED",
                card_brand="VISA",
                card_masked="40**********0002",
                approval_code="G7H8",
                verified_at=placed,
            )
        )
        unpaid = Order(
            number=f"HM-{800000 + (parent.id or 0)}",
            parent_id=parent.id,
            status="pending_payment",
            tax_bps=1300,
            processing_fee_bps=0,
            processing_fee_fixed_cents=0,
            total_pay_cents=700,
        )
        s.add(unpaid)
        other = f.make_parent(s)
        ids = {
            "email": parent.email,
            "other": other.email,
            "number": order.number,
            "unpaid": unpaid.number,
            "order_id": order.id,
            "cut": cut.id,
            "grow": grow.id,
            "gift": gift.id,
            "total": order.total_pay_cents,
        }
    return ids


def _receipt(client, token, lang="en", **query):
    path = "/Parent/Receipt?" + "&".join(f"{k}={v}" for k, v in query.items())
    return get(client, path, token, lang=lang)


def test_order_receipt_is_the_orders_stored_charges_to_the_cent(client, world, db):
    token = quick_token(world["email"])
    data = ok(_receipt(client, token, order=world["number"]))["data"]
    order = db.get(Order, world["order_id"])
    assert order is not None
    charges = {c["name"]: c["cents"] for c in data["charges"]}
    assert charges == {
        "meal_net_cents": order.meal_net_cents,
        "special_note_fees_cents": order.special_note_fees_cents,
        "tax_cents": order.tax_cents,
        "school_donation_cents": order.school_donation_cents,
        "total_pay_cents": order.total_pay_cents,
    }
    assert sum(v for k, v in charges.items() if k != "total_pay_cents") == order.total_pay_cents
    assert data["total_cents"] == world["total"] == sum(p["cents"] for p in data["payments"])
    # Each payment as the receipt prints it (docs/api.md): the card with its approval code.
    assert all(
        p["paid_by"].startswith(p["card"]) and p["approval_code"] in p["paid_by"]
        for p in data["payments"]
    )
    tax = next(c for c in data["charges"] if c["name"] == "tax_cents")
    assert tax["label"] == "Tax (HST 13%)"
    assert data["hst_number"] and data["hst_number"] in data["hst_label"]
    # Refunded: the succeeded refund only; the pending one is listed, the failed one not.
    assert data["refunded_cents"] == 791
    assert [r["cents"] for r in data["refunds"]] == [791, 10]
    assert data["net_cents"] == world["total"] - 791
    # Lines by child and date, as sold: options, add-on and the note fee.
    assert [g["child_name"].split()[0] for g in data["groups"]] == ["Emma", "Lucas"]
    emma = data["groups"][0]["days"][0]["lines"][0]
    assert emma["cents"] == 1675
    assert [(i["label"], i["cents"]) for i in emma["items"]] == [
        ("Meal × 2 at $6.50", 1300),
        ("Apple juice × 2", 100),
        ("Gluten-free bun × 2", 50),
        ("Add-on: Milk × 2", 200),
        ("Special note fee", 25),
    ]
    assert sum(i["cents"] for i in emma["items"]) == emma["cents"]
    # Give-back apart: 3 meals kept (Emma's 2, Lucas's added one), and the donation.
    assert {g["name"]: g["cents"] for g in data["giveback"]} == {
        "school": 150,
        "nutrition": 60,
        "donation": 300,
    }
    assert len(data["changes"]) == 2


def test_receipts_in_french_and_as_pdf(client, world):
    token = quick_token(world["email"])
    data = ok(_receipt(client, token, "fr", order=world["number"]))["data"]
    total = next(c for c in data["charges"] if c["name"] == "total_pay_cents")
    assert total["amount"] == f"{world['total'] // 100},{world['total'] % 100:02d}{NBSP}$"
    assert total["label"] == "Total payé"
    emma = data["groups"][0]["days"][0]["lines"][0]
    assert emma["meal"] == "Poulet au beurre" and "Extra : Lait × 2" in [
        i["label"] for i in emma["items"]
    ]
    for lang in ("en", "fr"):
        pdf = get(client, f"/Parent/Receipt.pdf?order={world['number']}", token, lang=lang)
        assert pdf.status_code == 200
        assert pdf.headers["content-type"] == "application/pdf"
        assert pdf.content.startswith(b"%PDF-") and pdf.content.rstrip().endswith(b"%%EOF")
        assert len(pdf.content) > 5_000  # the embedded font subset and the pages
        assert b"DejaVuSans" in pdf.content  # accents and "12,50 $" in a Unicode font


def test_change_receipts_are_what_the_change_charged_or_refunded(client, world):
    token = quick_token(world["email"])
    cut = ok(_receipt(client, token, order=world["number"], change=world["cut"]))["data"]
    assert cut["number"] == f"{world['number']}-C{world['cut']}"
    # Every charge line: net, HST at the order's stored rate, total (net + HST = total).
    assert [(c["name"], c["cents"]) for c in cut["charges"]] == [
        ("change_net_cents", 700),
        ("tax_cents", 91),
        ("refund_due_cents", 791),
    ]
    assert cut["charges"][1]["label"] == "Tax (HST 13%)"
    assert cut["refunded_cents"] == 791 and cut["payments"] == []
    line = cut["groups"][0]["days"][0]["lines"][0]
    assert line["action"] == "remove" and line["cents"] == 700
    grow = ok(_receipt(client, token, order=world["number"], change=world["grow"]))["data"]
    assert [(c["name"], c["cents"]) for c in grow["charges"]] == [
        ("change_net_cents", 750),
        ("tax_cents", 97),
        ("charged_cents", 847),
    ]
    assert grow["charges"][-1]["cents"] == grow["total_cents"] == grow["payments"][0]["cents"]
    fr = ok(_receipt(client, token, "fr", order=world["number"], change=world["grow"]))["data"]
    assert [c["label"] for c in fr["charges"]] == [
        "Différence avant TVH",
        f"Taxe (TVH 13{NBSP}%)",
        "Différence facturée",
    ]
    assert [c["amount"] for c in fr["charges"]] == [f"7,50{NBSP}$", f"0,97{NBSP}$", f"8,47{NBSP}$"]
    assert [p["cents"] for p in grow["payments"]] == [847]
    assert grow["groups"][0]["days"][0]["lines"][0]["action"] == "add"
    pdf = get(client, f"/Parent/Receipt.pdf?order={world['number']}&change={world['grow']}", token)
    assert pdf.content.startswith(b"%PDF-")


def test_donation_receipt_shows_the_gift_apart_and_no_tax(client, world):
    token = quick_token(world["email"])
    data = ok(_receipt(client, token, donation=world["gift"]))["data"]
    assert data["school"] == "Maple Public School"
    assert {c["name"]: c["cents"] for c in data["charges"]} == {
        "donation_cents": 500,
        "tax_cents": 0,
        "total_pay_cents": 500,
    }
    assert [p["cents"] for p in data["payments"]] == [500]
    assert data["giveback"][0]["cents"] == 500
    pdf = get(client, f"/Parent/Receipt.pdf?donation={world['gift']}", token, lang="fr")
    assert pdf.content.startswith(b"%PDF-")


def test_an_unpaid_order_has_no_receipt(client, world):
    token = quick_token(world["email"])
    refused(_receipt(client, token, order=world["unpaid"]), "No receipt found")


def test_another_parent_gets_no_receipt(client, world):
    token = quick_token(world["other"])
    for query in (
        {"order": world["number"]},
        {"order": world["number"], "change": world["cut"]},
        {"donation": world["gift"]},
        {"order": "HM-000000"},
        {"order": "../etc"},
    ):
        refused(_receipt(client, token, **query), "No receipt found")
    pdf = get(client, f"/Parent/Receipt.pdf?order={world['number']}", token)
    refused(pdf, "No receipt found")
    refused(_receipt(client, None, order=world["number"]), status=401)


def test_feed_address_works_without_a_session_until_replaced(client, world):
    token = quick_token(world["email"])
    first = ok(get(client, "/Parent/CalendarFeed", token, lang="fr"))["data"]
    assert first["url"].endswith(".ics?lang=fr")  # the language the request reads
    assert ok(get(client, "/Parent/CalendarFeed", token, lang="fr"))["data"]["url"] == first["url"]
    path = first["url"].split("://", 1)[1].split("/", 1)[1]
    answer = client.get(f"/{path}")  # no api-key, no token: a calendar app
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "text/calendar; charset=utf-8"
    cal = Calendar.from_ical(answer.content)
    summaries = [str(e["SUMMARY"]) for e in cal.walk("VEVENT")]
    assert (
        "Emma — Poulet au beurre (1 portion + upgrade) ×2" in summaries
    )  # the parent reads French
    new = ok(post(client, "/Parent/CalendarFeed/Rotate", {}, token))["data"]
    assert new["url"] != first["url"]
    assert client.get(f"/{path}").status_code == 404
    assert ok(post(client, "/Parent/CalendarFeed/Revoke", {}, token))["data"] == {"revoked": True}
    assert client.get("/" + new["url"].split("://", 1)[1].split("/", 1)[1]).status_code == 404
