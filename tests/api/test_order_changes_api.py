"""The /api/v1 calls that change a paid order (GetMealsList, MealOrderDetail,
GetDatesForModifyMeal, ModifyMeal, ModifyOrderInfo, AddToMyOrder, DeleteFromModifyOrder,
ModifyConfirmOrder, ModifyChangePaid, ModifyChangeDeclined) through HTTP (TestClient on
``create_api()``) on migrated SQLite and PostgreSQL with the simulator standing in for Converge:
401, bad bodies answer code 0, ownership, a decrease refunded exactly, an increase paid through
the Lightbox, a decline that keeps the order, a move, after-cut-off refusals in EN and FR,
repeats, and the same number of statements for an order of 1 and of 12 lines."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient
from sqlmodel import select

from hotmeals import clock
from hotmeals.db.engine import get_engine, session_scope
from hotmeals.db.models import OrderLine, Parent
from hotmeals.services.parents import start_session
from hotmeals.services.payments.records import order_paid_cents, order_refunded_cents
from tests.api.helpers import API_KEY
from tests.orders_support import add, make_shop, monday_in, past_cutoff, signed_in_again
from tests.payments_support import DECLINED_CARD, VISA, SimServer, lightbox_submit, sim_txns
from tests.querycount import count_queries

ROUTES = [
    "/Parent/order/GetMealsList",
    "/Parent/order/MealOrderDetail",
    "/Parent/order/GetDatesForModifyMeal",
    "/Parent/order/ModifyMeal",
    "/Parent/order/ModifyOrderInfo",
    "/Parent/order/AddToMyOrder",
    "/Parent/order/DeleteFromModifyOrder",
    "/Parent/order/ModifyConfirmOrder",
    "/Parent/order/ModifyChangePaid",
    "/Parent/order/ModifyChangeDeclined",
]


def call(api: TestClient, path: str, body=None, token=None, lang="en", key=None):
    headers = {"api-key": API_KEY, "app": "P", "accept-language": lang}
    if token:
        headers["token"] = token
    if key:
        headers["Idempotency-Key"] = key
    content = body if isinstance(body, str) else json.dumps(body or {})
    return api.post(f"/api/v1{path}", content=content, headers=headers)


def ok(answer) -> dict:
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["code"] == 1, body
    return body["data"]


def refused(answer) -> str:
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["code"] == 0, body
    return body["message"]


def pay_api(api: TestClient, sim: SimServer, fam: dict, lines: list[dict]) -> int:
    for spec in lines:
        spec = dict(spec)
        add(get_engine(), fam, spec.pop("child", 0), spec.pop("weeks", 2), **spec)
    data = ok(
        call(api, "/Parent/order/getConvergeSessionToken", {"purpose": "order"}, fam["token"])
    )
    txn = lightbox_submit(sim, data["ssl_txn_auth_token"], number=VISA)["response"]
    placed = ok(
        call(
            api,
            "/Parent/order/AddOrder",
            {"payment_id": data["payment_id"], "ssl_txn_id": txn["ssl_txn_id"]},
            fam["token"],
        )
    )
    return placed["order_id"]


def sums(order_id: int) -> tuple[int, int]:
    with session_scope() as s:
        return order_paid_cents(s, order_id), order_refunded_cents(s, order_id)


def line_ids(order_id: int) -> list[int]:
    with session_scope() as s:
        return list(
            s.exec(
                select(OrderLine.id)
                .where(OrderLine.order_id == order_id)
                .order_by(OrderLine.meal_date, OrderLine.id)
            ).all()
        )


def test_every_call_needs_a_parent_token_and_bad_bodies_answer_code_0(
    api: TestClient, shop_family: dict
) -> None:
    for path in ROUTES:
        answer = call(api, path, {"order_id": 1, "order_line_id": 1})
        assert answer.status_code == 401 and answer.json()["code"] == 0, path
    tok = shop_family["token"]
    for path in ROUTES[1:]:
        for body in ("not json", "[]", {"order_id": "x", "order_line_id": -1}, {}):
            answer = call(api, path, body, tok, "fr")
            assert answer.status_code == 200 and answer.json()["code"] == 0, (path, body)
    assert ok(call(api, "/Parent/order/GetMealsList", {}, tok)) == []


def test_remove_a_meal_then_add_one_paid_through_the_lightbox(
    api: TestClient, shop_family: dict, sim: SimServer
) -> None:
    tok = shop_family["token"]
    order_id = pay_api(
        api,
        sim,
        shop_family,
        [{"child": 0, "weeks": 2, "quantity": 1}, {"child": 1, "weeks": 3, "quantity": 1}],
    )
    first, second = line_ids(order_id)
    paid, _ = sums(order_id)
    # another parent sees nothing of it
    other = make_shop(get_engine())
    with session_scope() as s:
        other_tok = start_session(s, s.get(Parent, other["parent_id"]), "pytest")
    for path, body in (
        ("/Parent/order/ModifyOrderInfo", {"order_id": order_id}),
        ("/Parent/order/DeleteFromModifyOrder", {"order_id": order_id, "order_line_id": first}),
        ("/Parent/order/ModifyConfirmOrder", {"order_id": order_id}),
        ("/Parent/order/MealOrderDetail", {"order_line_id": first}),
        ("/Parent/order/GetDatesForModifyMeal", {"order_line_id": first}),
        ("/Parent/order/ModifyMeal", {"order_line_id": first, "date": str(monday_in(4))}),
    ):
        assert "not found" in refused(call(api, path, body, other_tok)).lower(), path

    info = ok(
        call(
            api,
            "/Parent/order/DeleteFromModifyOrder",
            {"order_id": order_id, "order_line_id": second},
            tok,
            key="del-1",
        )
    )
    again = ok(
        call(
            api,
            "/Parent/order/DeleteFromModifyOrder",
            {"order_id": order_id, "order_line_id": second},
            tok,
            key="del-1",
        )
    )
    assert again["to_refund_cents"] == info["to_refund_cents"] > 0  # the repeat added nothing
    back = info["to_refund_cents"]
    done = ok(
        call(api, "/Parent/order/ModifyConfirmOrder", {"order_id": order_id}, tok, "fr", "conf-1")
    )
    assert done["status"] == "applied" and done["refund_cents"] == back
    assert (
        "remboursement"
        in call(
            api, "/Parent/order/ModifyConfirmOrder", {"order_id": order_id}, tok, "fr", "conf-1"
        ).json()["message"]
    )
    assert sums(order_id) == (paid, back)

    # a note over 200 characters gets the documented message (before, "Please check the
    # value of special_note")
    long_note = call(
        api,
        "/Parent/order/AddToMyOrder",
        {
            "order_id": order_id,
            "child_id": shop_family["children"][1],
            "meal_id": shop_family["meal_id"],
            "date": str(monday_in(4)),
            "special_note": "x" * 201,
        },
        tok,
    ).json()
    assert long_note["code"] == 0, long_note
    assert long_note["message"] == "Special note should not exceed 120 characters"
    # add a meal: paid through the Lightbox; a decline first changes nothing
    info = ok(
        call(
            api,
            "/Parent/order/AddToMyOrder",
            {
                "order_id": order_id,
                "child_id": shop_family["children"][1],
                "meal_id": shop_family["meal_id"],
                "date": str(monday_in(4)),
                "quantity": 2,
            },
            tok,
            key="add-1",
        )
    )
    due = info["to_pay_cents"]
    assert due > 0 and info["message"] == f"You will pay ${due / 100:.2f} more."
    pay = ok(call(api, "/Parent/order/ModifyConfirmOrder", {"order_id": order_id}, tok))
    assert pay["status"] == "pay" and pay["hosted"]["amount_cents"] == due
    declined = lightbox_submit(sim, pay["hosted"]["token"], number=DECLINED_CARD)
    no = ok(
        call(
            api,
            "/Parent/order/ModifyChangeDeclined",
            {
                "payment_id": pay["payment_id"],
                "ssl_result_message": declined["response"].get("ssl_result_message", "DECLINED"),
            },
            tok,
        )
    )
    assert no["status"] == "declined" and len(line_ids(order_id)) == 2
    # The parent closes the Lightbox (onCancelled): not "your card was declined (CANCELLED)"
    closed = ok(call(api, "/Parent/order/ModifyConfirmOrder", {"order_id": order_id}, tok))
    shut = call(
        api,
        "/Parent/order/ModifyChangeDeclined",
        {"payment_id": closed["payment_id"], "ssl_result_message": "CANCELLED"},
        tok,
    ).json()
    assert shut["message"] == (
        "The payment was not completed. Nothing was charged and your order is unchanged."
    ), shut
    retry = ok(call(api, "/Parent/order/ModifyConfirmOrder", {"order_id": order_id}, tok))
    assert retry["status"] == "pay" and retry["payment_id"] != pay["payment_id"]
    txn = lightbox_submit(sim, retry["hosted"]["token"], number=VISA)["response"]
    applied = ok(
        call(
            api,
            "/Parent/order/ModifyChangePaid",
            {"payment_id": retry["payment_id"], "ssl_txn_id": txn["ssl_txn_id"]},
            tok,
        )
    )
    assert applied["status"] == "applied" and applied["difference_cents"] == due
    assert sums(order_id) == (paid + due, back) and len(line_ids(order_id)) == 3
    sales = sim_txns(sim, retry["hosted"]["invoice_number"], "SALE")
    assert [t["amount_cents"] for t in sales] == [due]


def test_move_a_meal_and_the_after_cutoff_refusal_in_both_languages(
    api: TestClient, shop_family: dict, sim: SimServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    tok = shop_family["token"]
    order_id = pay_api(api, sim, shop_family, [{"child": 0, "weeks": 2, "quantity": 1}])
    (line_id,) = line_ids(order_id)
    # A child of this parent: its meals; another parent's child: not found (before, it
    # answered an empty list).
    mine = ok(
        call(api, "/Parent/order/GetMealsList", {"child_id": shop_family["children"][0]}, tok)
    )
    assert mine and all(m["child_id"] == shop_family["children"][0] for m in mine)
    stranger = make_shop(get_engine())
    other = call(
        api, "/Parent/order/GetMealsList", {"child_id": stranger["children"][0]}, tok
    ).json()
    assert other["code"] == 0 and other["message"] == "Child not found", other
    meals = ok(call(api, "/Parent/order/GetMealsList", {}, tok, "fr"))
    assert [m["order_line_id"] for m in meals] == [line_id] and meals[0]["size_label"]
    detail = ok(call(api, "/Parent/order/MealOrderDetail", {"order_line_id": line_id}, tok))
    assert detail["can_change"] and detail["status"] == "active"
    dates = ok(call(api, "/Parent/order/GetDatesForModifyMeal", {"order_line_id": line_id}, tok))
    target = dates["dates"][0]["date"]
    assert target == str(monday_in(3)) and dates["dates"][0]["meal_served"]
    same = refused(
        call(
            api,
            "/Parent/order/ModifyMeal",
            {"order_line_id": line_id, "date": str(monday_in(2))},
            tok,
        )
    )
    assert same == "The meal is already on that date."
    moved = ok(
        call(
            api,
            "/Parent/order/ModifyMeal",
            {"order_line_id": line_id, "date": target},
            tok,
            key="mv-1",
        )
    )
    assert moved["status"] == "applied" and moved["difference_cents"] == 0
    repeat = ok(
        call(
            api,
            "/Parent/order/ModifyMeal",
            {"order_line_id": line_id, "date": target},
            tok,
            key="mv-1",
        )
    )
    assert repeat["change_id"] == moved["change_id"]
    detail = ok(call(api, "/Parent/order/MealOrderDetail", {"order_line_id": line_id}, tok))
    assert (detail["status"], detail["date"], detail["moved_from_date"]) == (
        "moved",
        target,
        str(monday_in(2)),
    )
    body = {"order_line_id": line_id, "date": str(monday_in(5))}
    clock.set_now(past_cutoff(monday_in(3)))
    tok = signed_in_again(shop_family["parent_id"])
    en = refused(call(api, "/Parent/order/ModifyMeal", body, tok, "en"))
    fr = refused(call(api, "/Parent/order/ModifyMeal", body, tok, "fr"))
    assert "deadline" in en and "can no longer be changed" in en
    assert "date limite" in fr and "ne peut plus être modifié" in fr
    fr = refused(
        call(
            api,
            "/Parent/order/DeleteFromModifyOrder",
            {"order_id": order_id, "order_line_id": line_id},
            tok,
            "fr",
        )
    )
    assert "date limite" in fr


@pytest.mark.parametrize("size", [1, 12])
def test_the_same_statements_for_1_and_12_lines(
    api: TestClient, shop_family: dict, sim: SimServer, size: int
) -> None:
    from tests.orders_support import twelve_lines

    tok = shop_family["token"]
    # 1 line of 2 meals or 12 lines: removing one meal leaves the order partly active either way
    lines = [{"child": 0, "weeks": 2, "quantity": 2}] if size == 1 else twelve_lines()
    order_id = pay_api(api, sim, shop_family, lines)
    first = line_ids(order_id)[0]
    counts = {}
    for name, path, body in (
        ("meals", "/Parent/order/GetMealsList", {}),
        ("detail", "/Parent/order/MealOrderDetail", {"order_line_id": first}),
        ("dates", "/Parent/order/GetDatesForModifyMeal", {"order_line_id": first}),
        (
            "delete",
            "/Parent/order/DeleteFromModifyOrder",
            {"order_id": order_id, "order_line_id": first, "quantity": 1},
        ),
        ("info", "/Parent/order/ModifyOrderInfo", {"order_id": order_id}),
        ("confirm", "/Parent/order/ModifyConfirmOrder", {"order_id": order_id}),
    ):
        with count_queries(get_engine()) as q:
            ok(call(api, path, body, tok))
        counts[name] = q.count
    expected = _BUDGET.setdefault(get_engine().dialect.name, counts)
    assert counts == expected, f"{size}: {counts} != {expected}"


_BUDGET: dict[str, dict[str, int]] = {}
