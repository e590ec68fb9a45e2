"""The Converge simulator's ledger lives in its own database (``simulator_store.py``), shared by
every worker and kept across restarts, on SQLite and on PostgreSQL:

- its rules hold when separate processes answer at once (one use per hosted session, no double
  void, no return beyond the sale, a fault's count), because each process only shares the
  database with the others: these tests fork real processes, each with its own connections;
- everything it knows (sales and their settlement, returns, stored cards, sessions, faults, the
  clock) is found again through a new store object that carries nothing over in memory (what a
  restart sees; tests/e2e/test_simulator_ledger.py restarts the app for real);
- its merchant API refuses a caller without the merchant's credentials, whose PIN is generated
  with the store and written nowhere in the source."""

from __future__ import annotations

import gc
import multiprocessing
import secrets
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hotmeals.converge.configured import settings_from_env, simulator_credentials
from hotmeals.converge.simulator import parse_xmldata, render_txn
from hotmeals.converge.simulator_cards import SimError
from hotmeals.converge.simulator_controls import SimulatorControls
from hotmeals.converge.simulator_engine import SimulatorEngine
from hotmeals.converge.simulator_store import SimulatorStore, store_url_for
from hotmeals.settings import get_settings
from tests.databases import BACKENDS, fresh_database
from tests.payments_support import CVV, EXP, VISA

CREDS = ("000000", "hotmeals", "store-test-" + secrets.token_hex(8))
RACERS = 6


@pytest.fixture(params=BACKENDS)
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A new, empty simulator store: a SQLite file, or a PostgreSQL database of its own (the
    store makes its ``converge_sim`` schema there)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'sim.db'}"
        return
    with fresh_database("postgres", tmp_path, "empty", prefix="hm_sim") as url:
        yield url


def engine_for(url: str, credentials: tuple[str, str, str] | None = CREDS) -> SimulatorEngine:
    return SimulatorEngine(SimulatorStore(url), credentials, decline_by_cents=False)


def xml(kind: str, **fields: str) -> dict[str, str]:
    return {
        "ssl_merchant_id": CREDS[0],
        "ssl_user_id": CREDS[1],
        "ssl_pin": CREDS[2],
        "ssl_transaction_type": kind,
        **fields,
    }


def card(number: str = VISA) -> dict[str, str]:
    return {"ssl_card_number": number, "ssl_exp_date": EXP, "ssl_cvv2cvc2": CVV}


def sale(engine: SimulatorEngine, amount: str = "10.00", **extra: str) -> dict[str, str]:
    answer = engine.process_xml(
        xml("ccsale", ssl_amount=amount, ssl_invoice_number="INV-1", **card(), **extra)
    )
    assert isinstance(answer, dict) and answer["ssl_result"] == "0", answer
    return answer


# -- the race: separate processes, one database ---------------------------------------------------


def _racer(url: str, index: int, op: str, args: Any, barrier: Any, results: Any) -> None:
    engine = engine_for(url)
    try:
        engine.now()  # connect (and find the tables) before the start line
        barrier.wait(timeout=120)
        if op == "xml":
            outcome: Any = engine.process_xml(args)
        elif op == "pay":
            outcome = engine.process_hosted(args, card())
        elif op == "fault":
            outcome = SimulatorControls(engine).take_fault("xml")
        else:
            raise ValueError(op)
        results.put((index, "ok", outcome))
    except SimError as error:
        results.put((index, "error", error.code))
    except BaseException as error:  # noqa: BLE001 - reported to the test, which fails on it
        results.put((index, "crash", repr(error)))
    finally:
        engine.store.dispose()


def race(url: str, calls: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
    """Run every call in a process of its own, all released at once; (status, result) each.

    No open SQLite connection may cross the fork (SQLite forbids it: a child that closes one
    drops the locks of its own transaction). The engines made inline above (``engine_for(url)``
    in an argument) sit in reference cycles until a collection closes their pooled connections,
    so one runs first. A CI run hung here on SQLite before."""
    gc.collect()
    context = multiprocessing.get_context("fork")
    barrier = context.Barrier(len(calls))
    results = context.Queue()
    processes = [
        context.Process(target=_racer, args=(url, i, op, args, barrier, results))
        for i, (op, args) in enumerate(calls)
    ]
    for process in processes:
        process.start()
    try:
        answers = dict(
            (index, (status, value))
            for index, status, value in (results.get(timeout=180) for _ in processes)
        )
    finally:
        for process in processes:
            process.join(timeout=60)
            if process.is_alive():  # its answer is in (or the test fails): do not wait on
                process.kill()
    crashes = [value for status, value in answers.values() if status == "crash"]
    assert not crashes, crashes
    return [answers[i] for i in range(len(calls))]


def txns(url: str, kind: str | None = None) -> list[Any]:
    store = SimulatorStore(url)
    try:
        with store.transaction() as conn:
            found = store.find_txns(conn)
    finally:
        store.dispose()
    return [t for t in found if kind is None or t.kind == kind]


def test_a_hosted_session_is_used_once_by_racing_processes(store_url: str) -> None:
    engine = engine_for(store_url)
    token = engine.create_session(
        xml("ccsale", ssl_amount="12.00", ssl_invoice_number="INV-HOSTED")
    )
    results = race(store_url, [("pay", token)] * RACERS)
    approved = [value for status, value in results if status == "ok"]
    refused = [value for status, value in results if status == "error"]
    assert len(approved) == 1 and approved[0][0] == "approval"
    assert refused == ["4004"] * (RACERS - 1)
    sales = txns(store_url, "SALE")
    assert [(t.invoice_number, t.amount_cents) for t in sales] == [("INV-HOSTED", 1200)]
    assert sales[0].txn_id == approved[0][1]["ssl_txn_id"]


def test_a_sale_is_voided_once_by_racing_processes(store_url: str) -> None:
    txn_id = sale(engine_for(store_url))["ssl_txn_id"]
    results = race(store_url, [("xml", xml("ccvoid", ssl_txn_id=txn_id))] * RACERS)
    assert [status for status, _ in results].count("ok") == 1
    assert sorted(value for status, value in results if status == "error") == ["5040"] * (
        RACERS - 1
    )
    assert len(txns(store_url, "VOID")) == 1


def test_racing_returns_never_exceed_the_sale(store_url: str) -> None:
    txn_id = sale(engine_for(store_url), "10.00")["ssl_txn_id"]
    call = xml("ccreturn", ssl_txn_id=txn_id, ssl_amount="3.00")
    results = race(store_url, [("xml", call)] * RACERS)
    assert [status for status, _ in results].count("ok") == 3  # 3 x $3.00 fit in $10.00
    assert sorted(value for status, value in results if status == "error") == ["5091"] * (
        RACERS - 3
    )
    returns = txns(store_url, "RETURN")
    assert sum(t.amount_cents for t in returns) == 900
    (sold,) = txns(store_url, "SALE")
    assert sold.refunded_cents == 900


def test_a_void_racing_returns_leaves_one_consistent_story(store_url: str) -> None:
    txn_id = sale(engine_for(store_url), "10.00")["ssl_txn_id"]
    back = xml("ccreturn", ssl_txn_id=txn_id, ssl_amount="4.00")
    void = xml("ccvoid", ssl_txn_id=txn_id)
    results = race(store_url, [("xml", back), ("xml", void)] * 3)
    returned = [r for i, r in enumerate(results) if i % 2 == 0 and r[0] == "ok"]
    voided = [r for i, r in enumerate(results) if i % 2 == 1 and r[0] == "ok"]
    (sold,) = txns(store_url, "SALE")
    # Either the void came first (nothing returned after it), or returns did (no void after).
    assert (len(voided), len(returned)) in ((1, 0), (0, 1), (0, 2))
    assert sold.voided == bool(voided)
    assert (
        sold.refunded_cents
        == 400 * len(returned)
        == sum(t.amount_cents for t in txns(store_url, "RETURN"))
    )


def test_a_fault_count_is_shared_by_racing_processes(store_url: str) -> None:
    SimulatorControls(engine_for(store_url)).set_fault("http_500", 2, "xml")
    results = race(store_url, [("fault", None)] * RACERS)
    assert sorted(str(value) for _, value in results) == ["None"] * (RACERS - 2) + ["http_500"] * 2


# -- a restart finds everything ------------------------------------------------------------------


def test_a_new_store_finds_the_whole_ledger(store_url: str) -> None:
    before = engine_for(store_url)
    sold = sale(before, "20.00", ssl_first_name="Ada", ssl_last_name="Payer")
    stored = before.process_xml(xml("ccgettoken", **card(), ssl_first_name="Ada"))
    assert isinstance(stored, dict) and stored["ssl_result"] == "0"
    session = before.create_session(xml("ccsale", ssl_amount="3.00"))
    controls = SimulatorControls(before)
    assert before.settle() == 1
    controls.move_clock(advance_seconds=600, reset=False)  # within the session's 15 minutes
    controls.set_fault("lost_answer", 2, "token")
    before.store.dispose()

    after = engine_for(store_url)  # a new store object: nothing carried over in memory
    found = after.process_xml(xml("txnquery", ssl_txn_id=sold["ssl_txn_id"]))
    assert isinstance(found, list) and len(found) == 1
    assert (found[0]["ssl_trans_status"], found[0]["ssl_first_name"]) == ("STL", "Ada")
    assert "ssl_settle_time" in found[0]
    by_token = after.process_xml(
        xml("ccsale", ssl_amount="4.00", ssl_token=stored["ssl_token"], ssl_cvv2cvc2=CVV)
    )
    assert isinstance(by_token, dict) and by_token["ssl_result"] == "0", by_token
    back = after.process_xml(xml("ccreturn", ssl_txn_id=sold["ssl_txn_id"], ssl_amount="5.00"))
    assert isinstance(back, dict) and back["ssl_result"] == "0"
    assert after.session_fields(session)["ssl_amount"] == "3.00"
    after_controls = SimulatorControls(after)
    fault = after_controls.fault()
    assert fault is not None and (fault.kind, fault.remaining, fault.scope) == (
        "lost_answer",
        2,
        "token",
    )
    assert after.now() - datetime.now(UTC) > timedelta(seconds=590)  # the clock moved on
    after.store.dispose()


# -- credentials ---------------------------------------------------------------------------------


def test_each_store_generates_its_own_pin_and_every_worker_reads_the_same(
    store_url: str, tmp_path: Path
) -> None:
    first, second = SimulatorStore(store_url), SimulatorStore(store_url)  # two workers
    try:
        merchant, user, pin = first.merchant_credentials()
        assert (merchant, user) == ("000000", "hotmeals")
        assert len(pin) == 64 and pin != "DEMO-PIN"
        assert second.merchant_credentials() == (merchant, user, pin)
    finally:
        first.dispose()
        second.dispose()
    other = SimulatorStore(f"sqlite:///{tmp_path / 'other.db'}")
    try:
        assert other.merchant_credentials()[2] != pin
    finally:
        other.dispose()
    source = Path(__file__).resolve().parents[2] / "hotmeals"
    assert not any(pin in path.read_text() for path in source.rglob("*.py"))


def _post_xml(client: TestClient, fields: dict[str, str]) -> str:
    body = "<txn>" + "".join(f"<{k}>{v}</{k}>" for k, v in fields.items()) + "</txn>"
    response = client.post(
        "/converge-sim/VirtualMerchantDemo/processxml.do", data={"xmldata": body}
    )
    assert response.status_code == 200
    return response.text


def test_anonymous_merchant_calls_are_refused_by_the_mounted_simulator(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from hotmeals.api.app import create_api

    for name in ("CONVERGE_MERCHANT_ID", "CONVERGE_USER_ID", "CONVERGE_PIN", "CONVERGE_SIM_PIN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'app.db'}")
    get_settings.cache_clear()
    try:
        merchant, user, pin = simulator_credentials()
        # The app's own Converge client sends the PIN kept in the simulator's store.
        app_settings = settings_from_env(get_settings().public_base_url)
        assert (app_settings.simulated, app_settings.pin) == (True, pin)
        assert store_url_for(get_settings().database_url, tmp_path).endswith("app.converge-sim.db")
        creds = {"ssl_merchant_id": merchant, "ssl_user_id": user, "ssl_pin": pin}
        with TestClient(create_api()) as client:
            saved = parse_xmldata(
                _post_xml(
                    client,
                    {
                        **creds,
                        "ssl_transaction_type": "ccgettoken",
                        **card(),
                        "ssl_first_name": "Victim",
                    },
                )
            )
            assert saved["ssl_result"] == "0", saved
            sold = parse_xmldata(
                _post_xml(
                    client,
                    {
                        **creds,
                        "ssl_transaction_type": "ccsale",
                        "ssl_amount": "9.00",
                        "ssl_token": saved["ssl_token"],
                        "ssl_cvv2cvc2": CVV,
                    },
                )
            )
            assert sold["ssl_result"] == "0", sold
            assert "Victim" in _post_xml(
                client,
                {**creds, "ssl_transaction_type": "txnquery", "ssl_txn_id": sold["ssl_txn_id"]},
            )

            attempts = {
                "anonymous": {},
                "no PIN": {"ssl_merchant_id": merchant, "ssl_user_id": user},
                "the PIN the README used to print": {**creds, "ssl_pin": "DEMO-PIN"},
                "another store's PIN": {**creds, "ssl_pin": CREDS[2]},
            }
            expected = {
                "anonymous": "4000",
                "no PIN": "4013",
                "the PIN the README used to print": "4025",
                "another store's PIN": "4025",
            }
            for label, given in attempts.items():
                for call in (
                    {"ssl_transaction_type": "txnquery", "ssl_search_start_date": "01/01/2000"},
                    {"ssl_transaction_type": "txnquery", "ssl_txn_id": sold["ssl_txn_id"]},
                    {"ssl_transaction_type": "ccquerytoken", "ssl_token": saved["ssl_token"]},
                ):
                    body = _post_xml(client, {**given, **call})
                    assert parse_xmldata(body).get("errorCode") == expected[label], (label, body)
                    assert "Victim" not in body and saved["ssl_token"] not in body
                    assert "********" not in body, (label, body)
                # The query-string door and the hosted-session door ask the same.
                query = render_txn(
                    {
                        **given,
                        "ssl_transaction_type": "ccquerytoken",
                        "ssl_token": saved["ssl_token"],
                    }
                )
                answer = client.get(
                    "/converge-sim/VirtualMerchant/processxml.do", params={"xmldata": query}
                ).text
                assert parse_xmldata(answer).get("errorCode") == expected[label], (label, answer)
                session = client.post(
                    "/converge-sim/hosted-payments/transaction_token",
                    data={**given, "ssl_transaction_type": "ccsale", "ssl_amount": "1.00"},
                )
                assert parse_xmldata(session.text).get("errorCode") == expected[label]
    finally:
        get_settings.cache_clear()


def test_no_app_module_reads_the_simulators_records() -> None:
    """The app reaches the simulator only over Converge's HTTP/XML interface, as it would reach
    Elavon: outside the simulator's own modules, only ``configured.py`` opens its store, and
    only for the merchant's credentials (what an operator copies from the back office)."""
    package = Path(__file__).resolve().parents[2] / "hotmeals"
    names = ("simulator_store", "simulator_engine", "simulator_records", "simulator_controls")
    readers = {
        str(path.relative_to(package))
        for path in package.rglob("*.py")
        if not path.name.startswith("simulator")
        and any(name in path.read_text(encoding="utf-8") for name in names)
    }
    assert readers == {"converge/configured.py"}
    settings_source = (package / "converge" / "configured.py").read_text(encoding="utf-8")
    assert "default_store().merchant_credentials()" in settings_source
    for table in ("sim_txn", "sim_card", "sim_session"):
        assert table not in settings_source
