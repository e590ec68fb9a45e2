"""A paid order of the demo parent for the order e2e tests (test_orders_cancel.py,
test_accessibility.py): the cart filled through the services (cartdata.fill_cart, the first
line at quantity 2), then paid the way the app pays it - /api/v1 getConvergeSessionToken, the
stand-in Lightbox posting the card to the running app's Converge simulator, AddOrder - and the
ledgers read back: the order's refund rows and the simulator's transactions."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing

import httpx
from sqlmodel import select

from hotmeals.converge.simulator_store import SimulatorStore, store_url_for
from hotmeals.db.engine import make_engine, session_scope
from hotmeals.db.models import CartLine, Parent
from hotmeals.services.ordering.cart import update_quantity
from tests.e2e.cartdata import DEMO, fill_cart
from tests.e2e.server import AppServer

PASSWORD = "Lunch@2026"
VISA = "4000000000000002"
API_HEADERS = {"api-key": "hotmeals-dev-key", "app": "P", "content-type": "text/plain"}


def _conn(app: AppServer) -> sqlite3.Connection:
    return sqlite3.connect(app.data_dir / "e2e.db", timeout=30)


def api(app: AppServer, token: str | None, path: str, body: dict) -> dict:
    headers = dict(API_HEADERS)
    if token:
        headers["token"] = token
    response = httpx.post(
        f"{app.base_url}/api/v1{path}", content=json.dumps(body), headers=headers, timeout=120
    )
    answer: dict = response.json()
    return answer


def api_token(app: AppServer) -> str:
    answer = api(app, None, "/Parent/auth/Login", {"email": DEMO, "password": PASSWORD})
    assert answer["code"] == 1, answer
    token: str = answer["data"]["token"]
    return token


def empty_cancel_cart(app: AppServer) -> None:
    with closing(_conn(app)) as conn, conn:
        conn.execute(
            "DELETE FROM cancelcartline WHERE parent_id = (SELECT id FROM parent WHERE email = ?)",
            (DEMO,),
        )


def paid_order(app: AppServer) -> dict:
    """Fill the demo parent's cart (4 lines, the first at quantity 2) and pay it; the order's
    id, number and total paid in cents."""
    fill_cart(app)
    engine = make_engine(app.env["DATABASE_URL"])
    try:
        with session_scope(engine) as s:
            parent = s.exec(select(Parent).where(Parent.email == DEMO)).one()
            first = s.exec(
                select(CartLine).where(CartLine.parent_id == parent.id).order_by(CartLine.id)
            ).first()
            assert first is not None
            update_quantity(session=s, parent_id=parent.id, cart_id=first.id, quantity=2)
    finally:
        engine.dispose()
    token = api_token(app)
    # By card only: the demo parent's family credit is left alone (its ledgers stay the card's).
    started = api(
        app,
        token,
        "/Parent/order/getConvergeSessionToken",
        {"purpose": "order", "use_credit": False},
    )
    assert started["code"] == 1, started
    data = started["data"]
    session_token = data["ssl_txn_auth_token"]
    info = httpx.get(
        f"{app.base_url}/converge-sim/hosted-payments/session",
        params={"ssl_txn_auth_token": session_token},
        timeout=120,
    ).json()
    assert info["ok"], info
    paid = httpx.post(
        f"{app.base_url}/converge-sim/hosted-payments/process",
        data={
            "ssl_txn_auth_token": session_token,
            "ssl_card_number": VISA,
            "ssl_exp_date": "1230",
            "ssl_cvv2cvc2": "123",
        },
        timeout=120,
    ).json()
    assert paid["outcome"] == "approval", paid
    placed = api(
        app,
        token,
        "/Parent/order/AddOrder",
        {"payment_id": data["payment_id"], "ssl_txn_id": paid["response"]["ssl_txn_id"]},
    )
    assert placed["code"] == 1, placed
    return {
        "order_id": int(placed["data"]["order_id"]),
        "number": placed["data"]["order_number"],
        "total_pay_cents": int(placed["data"]["total_pay_cents"]),
    }


def refunds_of(app: AppServer, order_id: int) -> list[tuple[str, str, int, str | None]]:
    """(kind, state, amount in cents, Converge txn id) of each refund of the order."""
    with closing(_conn(app)) as conn:
        return conn.execute(
            "SELECT r.kind, r.state, r.amount_cents, r.converge_txn_id FROM refund r "
            "JOIN payment p ON p.id = r.payment_id WHERE p.order_id = ? ORDER BY r.id",
            (order_id,),
        ).fetchall()


def sim_txn(app: AppServer, txn_id: str):
    """The simulator's own record of a transaction (its store, as Converge's back office)."""
    store = SimulatorStore(store_url_for(app.env["DATABASE_URL"], app.data_dir))
    try:
        with store.transaction() as conn:
            return SimulatorStore.get_txn(conn, txn_id)
    finally:
        store.dispose()


def cents(text: str) -> int:
    """'$12.34' / '12,34 $' -> 1234."""
    digits = "".join(ch for ch in text if ch.isdigit())
    return int(digits or "0")


def fill_cancel_cart(app: AppServer, order_id: int) -> None:
    """One meal of the order's first line in the demo parent's cancel cart (the service)."""
    from hotmeals.db.models import OrderLine
    from hotmeals.services.ordering.cancelling.cancel_cart import add_to_cancel_cart

    engine = make_engine(app.env["DATABASE_URL"])
    try:
        with session_scope(engine) as s:
            parent = s.exec(select(Parent).where(Parent.email == DEMO)).one()
            line = s.exec(
                select(OrderLine).where(OrderLine.order_id == order_id).order_by(OrderLine.id)
            ).first()
            assert line is not None
            add_to_cancel_cart(session=s, parent_id=parent.id, order_line_id=line.id, quantity=1)
    finally:
        engine.dispose()
