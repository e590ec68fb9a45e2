"""The Alembic chain builds exactly the schema the models describe, on both backends, and the
database commands work on an empty database."""

from __future__ import annotations

from datetime import UTC, datetime

from alembic.autogenerate import compare_metadata
from alembic.command import check, upgrade
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import MetaData, inspect, select, text
from sqlmodel import Session, SQLModel

import hotmeals.db.models  # noqa: F401  (registers every table)
from hotmeals import cli
from hotmeals.db.engine import make_engine
from hotmeals.db.migrations import alembic_config
from hotmeals.db.schema_filter import include_name
from hotmeals.demo.seed import load_demo_data
from hotmeals.domain.charges import PromoKind
from hotmeals.domain.orders import LineStatus, OrderStatus
from hotmeals.domain.pricing import tiers_from_text
from tests.databases import SEED_TODAY, migrate


def test_upgrade_head_creates_every_table(engine):
    tables = set(inspect(engine).get_table_names())
    assert set(SQLModel.metadata.tables) <= tables
    assert "alembic_version" in tables


def test_migrated_schema_matches_the_models(migrated_url, engine):
    with engine.connect() as conn:
        context = MigrationContext.configure(
            conn, opts={"compare_type": True, "include_name": include_name}
        )
        diffs = compare_metadata(context, SQLModel.metadata)
    assert diffs == []
    config = alembic_config(migrated_url)
    config.attributes["configure_logger"] = False
    check(config)  # raises when autogenerate would write a new migration


def test_upgrade_is_a_no_op_when_already_at_head(migrated_url):
    migrate(migrated_url)
    eng = make_engine(migrated_url)
    try:
        with eng.connect() as conn:
            heads = MigrationContext.configure(conn).get_current_heads()
    finally:
        eng.dispose()
    assert set(heads) == set(ScriptDirectory.from_config(alembic_config()).get_heads())


def test_cli_migrates_and_seeds_an_empty_database(empty_url, capsys, monkeypatch):
    # The CLI configures logging from alembic.ini; keep it off pytest's handlers.
    monkeypatch.setattr("logging.config.fileConfig", lambda *a, **k: None)
    assert cli.main(["--url", empty_url, "migrate"]) == 0
    assert cli.main(["--url", empty_url, "seed", "--today", "2026-03-04"]) == 0
    out = capsys.readouterr().out
    assert "Demo login: parent@example.com / Lunch@2026" in out
    assert "meal " in out
    assert cli.main(["--url", empty_url, "seed", "--today", "2026-03-04"]) == 0
    again = capsys.readouterr().out
    assert again.splitlines()[-2].split() == ["total", "0"]


# -- 0001 -> head keeps what a running 0001 database holds ---------------------------------------


def _migrate_to(url: str, revision: str) -> None:
    config = alembic_config(url)
    config.attributes["configure_logger"] = False
    upgrade(config, revision)


def _snapshot(eng) -> dict[str, list[tuple]]:
    """Every row of every table, by column name, sorted (comparable across revisions)."""
    metadata = MetaData()
    metadata.reflect(eng)
    out: dict[str, list[tuple]] = {}
    with eng.connect() as conn:
        for name, table in metadata.tables.items():
            if name == "alembic_version":
                continue
            rows = conn.execute(select(table)).mappings().all()
            out[name] = sorted(
                (tuple(sorted((k, str(v)) for k, v in row.items())) for row in rows), key=str
            )
    return out


def _paid_donation_and_an_order_at_0001(eng) -> None:
    """What 0001 could hold besides the demo data: a paid donation, and a placed order with a
    line, an add-on, a promo, an approved payment, a cancellation and a succeeded refund
    (written with 0001's columns and upper-case statuses)."""
    now = datetime(2026, 3, 4, 15, 0, tzinfo=UTC)
    with eng.begin() as conn:
        q = lambda sql, **kw: conn.execute(text(sql), kw)  # noqa: E731
        parent = q("SELECT id FROM parent WHERE email = 'parent@example.com'").scalar_one()
        child = q(
            "SELECT id, school_id FROM child WHERE parent_id = :p ORDER BY id", p=parent
        ).first()
        day = q(
            "SELECT id, vendor_id, meal_date FROM menuday WHERE school_id = :s ORDER BY meal_date",
            s=child.school_id,
        ).first()
        meal = q("SELECT meal_id FROM menudaymeal WHERE menu_day_id = :d", d=day.id).first().meal_id
        portion = q("SELECT id FROM portion WHERE meal_id = :m ORDER BY id", m=meal).first().id
        promo = q("SELECT id FROM promocode ORDER BY id").first().id
        reason = q("SELECT id FROM cancelreason ORDER BY id").first().id
        addon = q("SELECT id FROM addon ORDER BY id").first().id
        q(
            "INSERT INTO donation (parent_id, school_id, amount_cents, status, created_at) "
            "VALUES (:p, :s, 1000, 'PAID', :t)",
            p=parent,
            s=child.school_id,
            t=now,
        )
        donation = q("SELECT max(id) FROM donation").scalar_one()
        q(
            "INSERT INTO payment (parent_id, donation_id, purpose, invoice_number, amount_cents, "
            "state, converge_txn_id, approval_code, card_brand, card_masked, result_message, "
            "settled, verified_at, created_at, updated_at) VALUES (:p, :d, 'DONATION', "
            "'HMD-260304-AAAAAAAAAA', 1000, 'APPROVED', 'TXN-D', '123456', 'VISA', "
            "'40**********0002', 'APPROVAL', false, :t, :t, :t)",
            p=parent,
            d=donation,
            t=now,
        )
        q(
            'INSERT INTO "order" (number, parent_id, status, promo_code_id, meal_net_cents, '
            "special_note_fees_cents, processing_fee_cents, tax_cents, discount_cents, "
            "school_donation_cents, additional_charge_cents, total_pay_cents, total_refund_cents, "
            "created_at, placed_at, updated_at) VALUES ('HM-000001', :p, 'PARTIALLY_CANCELLED', "
            ":promo, 1300, 100, 0, 182, 0, 0, 0, 1582, 650, :t, :t, :t)",
            p=parent,
            promo=promo,
            t=now,
        )
        order = q('SELECT max(id) FROM "order"').scalar_one()
        q(
            "INSERT INTO orderline (order_id, child_id, menu_day_id, vendor_id, meal_id, "
            "portion_id, meal_date, meal_name, size, menu_option_name, meal_option_name, quantity, "
            "cancelled_quantity, unit_price_cents, options_cents, addons_cents, special_note, "
            "special_note_fee_cents, line_total_cents, status) VALUES (:o, :c, :d, :v, :m, :po, "
            ":date, 'Pasta', 'small', '', '', 2, 1, 600, 25, 25, 'Happy birthday', 100, 1400, "
            "'ACTIVE')",
            o=order,
            c=child.id,
            d=day.id,
            v=day.vendor_id,
            m=meal,
            po=portion,
            date=day.meal_date,
        )
        line = q("SELECT max(id) FROM orderline").scalar_one()
        q(
            "INSERT INTO orderlineaddon (order_line_id, addon_id, name, price_cents) "
            "VALUES (:l, :a, 'Apple', 25)",
            l=line,
            a=addon,
        )
        q(
            "INSERT INTO payment (parent_id, order_id, purpose, invoice_number, amount_cents, "
            "state, converge_txn_id, settled, created_at, updated_at) VALUES (:p, :o, 'ORDER', "
            "'HMO-260304-BBBBBBBBBB', 1582, 'APPROVED', 'TXN-O', true, :t, :t)",
            p=parent,
            o=order,
            t=now,
        )
        payment = q("SELECT max(id) FROM payment").scalar_one()
        q(
            "INSERT INTO ordercancellation (order_id, reason_id, other_text, created_at) "
            "VALUES (:o, :r, NULL, :t)",
            o=order,
            r=reason,
            t=now,
        )
        q(
            "INSERT INTO refund (payment_id, order_id, amount_cents, kind, state, converge_txn_id, "
            "reason, created_at, updated_at) VALUES (:pay, :o, 650, 'RETURN', 'SUCCEEDED', "
            "'TXN-R', 'cancel', :t, :t)",
            pay=payment,
            o=order,
            t=now,
        )
        q(
            "INSERT INTO cartline (parent_id, child_id, menu_day_id, meal_id, portion_id, "
            "quantity, created_at) VALUES (:p, :c, :d, :m, :po, 2, :t)",
            p=parent,
            c=child.id,
            d=day.id,
            m=meal,
            po=portion,
            t=now,
        )


# Columns 0002 changes on purpose, and how each old value reads after it.
_CHANGED = {
    "order": {"total_refund_cents", "status"},
    "orderline": {"options_cents", "addons_cents", "status"},
}


def test_upgrade_from_0001_keeps_demo_data_a_paid_donation_and_orders(empty_url, monkeypatch):
    _migrate_to(empty_url, "0001")
    eng = make_engine(empty_url)
    try:
        # The demo data of a 0001 database: the options' and add-ons' own allergens (0007's
        # tables) came later; they are added by the seed run after the upgrade, below.
        with monkeypatch.context() as patch:
            patch.setattr("hotmeals.db.seed._extras_allergens", lambda *a, **k: None)
            # The schools' languages (0025's table).
            patch.setattr("hotmeals.db.seed._school_languages", lambda *a, **k: None)
            # And the dietary marks (0024's tables).
            patch.setattr("hotmeals.db.seed._diet_marks", lambda *a, **k: None)
            patch.setattr("hotmeals.demo.seed._confirm_school_year", lambda *a, **k: None)  # 0016
            # Likewise the demo standing order (0014's table).
            patch.setattr("hotmeals.demo.seed._demo_standing_order", lambda *a, **k: None)
            # And the demo paid order (columns of later revisions): written by the checkout.
            patch.setattr("hotmeals.demo.seed._demo_paid_order", lambda *a, **k: None)
            # And the demo family credit (0018's table).
            patch.setattr("hotmeals.demo.seed._demo_credit", lambda *a, **k: None)
            # And the menus' version, bumped by a commit that writes them (0021's table).
            patch.setattr("hotmeals.services.menu_cache._WRITES.take", lambda session: False)
            # And the demo closed day (0020's tables: the closure, the family's choice).
            patch.setattr("hotmeals.demo.seed.demo_closure", lambda *a, **k: None)
            with Session(eng) as session:
                load_demo_data(session, today=SEED_TODAY)
                session.commit()
        _paid_donation_and_an_order_at_0001(eng)
        before = _snapshot(eng)
        eng.dispose()

        migrate(empty_url)
        after = _snapshot(eng)

        for table, rows in before.items():
            assert len(after[table]) == len(rows), table
            # Every column 0001 had, except those 0002 changes on purpose, reads the same.
            old_columns = {k for row in rows for k, _ in row} - _CHANGED.get(table, set())
            kept = sorted(
                (tuple(kv for kv in row if kv[0] in old_columns) for row in rows), key=str
            )
            now = sorted(
                (tuple(kv for kv in row if kv[0] in old_columns) for row in after[table]), key=str
            )
            assert now == kept, table

        with eng.connect() as conn:
            q = lambda sql: conn.execute(text(sql)).mappings().one()  # noqa: E731
            donation = q(
                "SELECT d.status, p.state, p.amount_cents FROM donation d "
                "JOIN payment p ON p.donation_id = d.id WHERE p.purpose = 'DONATION'"
            )
            assert dict(donation) == {"status": "PAID", "state": "APPROVED", "amount_cents": 1000}
            order = q(
                "SELECT o.*, p.code, p.percent_bps, p.amount_off_cents, "
                'p.min_order_cents AS promo_min FROM "order" o '
                "JOIN promocode p ON p.id = o.promo_code_id"
            )
            assert OrderStatus(order["status"]) is OrderStatus.PARTIALLY_CANCELLED
            assert order["tax_bps"] == 1300 and order["processing_fee_bps"] == 0
            assert order["promo_code"] == order["code"]
            kind = PromoKind.PERCENT if order["percent_bps"] else PromoKind.FIXED
            assert order["promo_kind"] == kind
            assert order["promo_value"] == (order["percent_bps"] or order["amount_off_cents"])
            assert order["promo_min_order_cents"] == order["promo_min"]
            line = q("SELECT * FROM orderline")
            assert LineStatus(line["status"]) is LineStatus.ACTIVE
            assert line["menu_option_cents"] == 25 and line["meal_option_cents"] == 0
            assert tiers_from_text(line["price_tiers"])  # the portion's tiers at upgrade time
            refunded = q("SELECT sum(amount_cents) AS s FROM refund WHERE state = 'SUCCEEDED'")
            assert refunded["s"] == 650  # what total_refund_cents said
            cancellation = q("SELECT kind, actor, request_key FROM ordercancellation")
            assert dict(cancellation) == {"kind": "order", "actor": "", "request_key": None}
        # At head the seed adds the extras' allergens, the dietary marks, the demo standing
        # order, the demo paid order (with last week's menu day it is on, before the seed's
        # window) and the demo closed day's order.
        with Session(eng) as session:
            report = load_demo_data(session, today=SEED_TODAY)
            session.commit()
        added = {kind for kind, n in report.created.items() if n}
        assert added == {
            "menu_option_allergen",
            "meal_option_allergen",
            "addon_allergen",
            "meal_diet",
            "menu_option_diet",
            "meal_option_diet",
            "addon_diet",
            "standing_order",
            "order",
            "menu_day",
            "menu_day_meal",
            "school_language",
        }
        # Two orders: the receipt's and the closed day's (moved to its make-up day).
        assert report.created["menu_day"] == 1 and report.created["order"] == 2
    finally:
        eng.dispose()
