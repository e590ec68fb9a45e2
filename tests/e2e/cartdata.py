"""The demo parent's cart for the checkout e2e tests (test_checkout_flow.py,
test_accessibility.py): made through ``services.ordering.cart.add_to_cart`` in the running app's
database, with two promo codes of the parent's own."""

from __future__ import annotations

import sqlite3
import uuid
from contextlib import closing
from datetime import timedelta

from sqlmodel import select

from hotmeals import clock
from hotmeals.db.engine import make_engine, session_scope
from hotmeals.db.models import AddOn, Child, MenuDay, MenuDayMeal, Parent, PromoCode
from hotmeals.domain.credit import CreditKind
from hotmeals.domain.errors import DomainError
from hotmeals.services import credit
from hotmeals.services.ordering.cart import add_to_cart
from tests.e2e.server import AppServer

DEMO = "parent@example.com"
PROMO = "E2ECART10"
BIG_PROMO = "E2EBIGONLY"


def _db(app: AppServer) -> sqlite3.Connection:
    return sqlite3.connect(app.data_dir / "e2e.db", timeout=30)


def set_credit(app: AppServer, cents: int, email: str = DEMO) -> None:
    """The parent's family credit made ``cents`` (an operator's adjustment that says so): a
    checkout spends credit first, so a test of the card's amounts starts from a known balance
    whatever the tests before it gave back or spent."""
    engine = make_engine(app.env["DATABASE_URL"])
    try:
        with session_scope(engine) as session:
            parent = session.exec(select(Parent).where(Parent.email == email)).one()
            pid = int(parent.id or 0)
            change = cents - credit.balance(session, pid)
            if change:
                credit.record(
                    session,
                    pid,
                    CreditKind.ADJUST,
                    change,
                    key=f"e2e-{uuid.uuid4().hex}",
                    reason="e2e: the test's starting credit",
                )
    finally:
        engine.dispose()


def rows(app: AppServer, sql: str, *params) -> list[tuple]:
    with closing(_db(app)) as conn:
        return conn.execute(sql, params).fetchall()


def execute(app: AppServer, sql: str, *params) -> None:
    """One write to the app's database, committed."""
    with closing(_db(app)) as conn, conn:
        conn.execute(sql, params)


def fill_cart(app: AppServer) -> dict:
    """Empty the demo parent's cart, then add: child 1 on day 1 (a large meal with an add-on and
    a special note) and another meal; two meals for child 2 on day 2. Two promo codes."""
    with closing(_db(app)) as conn, conn:
        parent_id = conn.execute("SELECT id FROM parent WHERE email = ?", (DEMO,)).fetchone()[0]
        conn.execute(
            "DELETE FROM cartlineaddon WHERE cart_line_id IN "
            "(SELECT id FROM cartline WHERE parent_id = ?)",
            (parent_id,),
        )
        conn.execute("DELETE FROM cartline WHERE parent_id = ?", (parent_id,))
    engine = make_engine(f"sqlite:///{app.data_dir}/e2e.db")
    try:
        with session_scope(engine) as s:
            parent = s.exec(select(Parent).where(Parent.email == DEMO)).one()
            for code, bps, minimum in ((PROMO, 1000, 0), (BIG_PROMO, 1000, 1_000_000)):
                if s.exec(select(PromoCode).where(PromoCode.code == code)).first() is None:
                    s.add(
                        PromoCode(
                            code=code,
                            description_en="E2E promo",
                            description_fr="Promo E2E",
                            percent_bps=bps,
                            min_order_cents=minimum,
                            parent_id=parent.id,
                        )
                    )
            children = s.exec(
                select(Child)
                .where(Child.parent_id == parent.id, Child.is_active)
                .order_by(Child.is_default.desc(), Child.id)
            ).all()[:2]
            assert len(children) == 2, "the demo parent has two children"
            added = []
            first_day = clock.today() + timedelta(days=7)
            used_days: list = []
            for index, child in enumerate(children):
                wanted = 2
                days = s.exec(
                    select(MenuDay)
                    .where(
                        MenuDay.school_id == child.school_id,
                        MenuDay.meal_date >= first_day,
                        MenuDay.is_closed.is_(False),
                    )
                    .order_by(MenuDay.meal_date)
                ).all()
                for day in days:
                    if day.meal_date in used_days or len(added) >= 4 or wanted == 0:
                        continue
                    meals = s.exec(
                        select(MenuDayMeal.meal_id)
                        .where(MenuDayMeal.menu_day_id == day.id)
                        .order_by(MenuDayMeal.meal_id)
                    ).all()
                    addon = s.exec(
                        select(AddOn).where(AddOn.vendor_id == day.vendor_id, AddOn.is_active)
                    ).first()
                    for meal_id in meals:
                        if wanted == 0:
                            break
                        extra = {}
                        if index == 0 and wanted == 2:
                            extra = {
                                "size": "large",
                                "addons": [addon.id] if addon else None,
                                "special_note_text": "No onions please",
                            }
                        try:
                            line = add_to_cart(
                                session=s,
                                parent_id=parent.id,
                                child_id=child.id,
                                meal_id=meal_id,
                                menu_day_id=day.id,
                                allergy_ack=True,
                                **extra,
                            )
                        except DomainError:
                            continue  # an allergy of this child, or a size the meal lacks
                        added.append((child.first_name, day.meal_date, line.cart_id))
                        wanted -= 1
                    if any(a[1] == day.meal_date for a in added):
                        used_days.append(day.meal_date)
                    if wanted == 0:
                        break
            assert len(added) == 4, added
            return {
                "parent_id": parent.id,
                "children": [c.first_name for c in children],
                "lines": added,
            }
    finally:
        engine.dispose()
