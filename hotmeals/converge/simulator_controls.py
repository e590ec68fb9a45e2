"""The simulator's test controls (faults, clock, declines by cents, reset, hung requests), kept
in the simulator's store like its ledger: a fault set through one worker is taken by whichever
worker answers next, and a reset releases requests held open by any worker."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from hotmeals.converge.simulator_engine import SimulatorEngine
from hotmeals.converge.simulator_store import control_table

FAULT_KINDS = ("no_answer", "lost_answer", "http_500")
FAULT_SCOPES = ("any", "xml", "token", "process")
MAX_DELAY_SECONDS = 30.0


@dataclass
class Fault:
    kind: str
    remaining: int
    scope: str


class SimulatorControls:
    def __init__(self, engine: SimulatorEngine) -> None:
        self.engine = engine
        self.store = engine.store

    # -- faults ---------------------------------------------------------------------------------

    def fault(self) -> Fault | None:
        with self.store.transaction() as conn:
            return _fault(self.store.control(conn))

    def take_fault(self, scope: str) -> str | None:
        """Use up one request of the pending fault if it applies to ``scope``."""
        with self.store.transaction() as conn:
            fault = _fault(self.store.control(conn))
            if fault is None or fault.scope not in ("any", scope):
                return None  # the usual case, without taking a row lock
            # Locked re-read: of two workers racing for the last count, one gets it.
            fault = _fault(self.store.control(conn, for_update=True))
            if fault is None or fault.scope not in ("any", scope):
                return None
            fault.remaining -= 1
            if fault.remaining <= 0:
                self.store.update_control(conn, fault_kind=None, fault_remaining=0)
            else:
                self.store.update_control(conn, fault_remaining=fault.remaining)
            return fault.kind

    def set_fault(self, kind: str, count: int, scope: str) -> None:
        """``kind`` "none" clears the fault. Validation is the caller's."""
        with self.store.transaction() as conn:
            if kind == "none":
                self.store.update_control(conn, fault_kind=None, fault_remaining=0)
            else:
                self.store.update_control(
                    conn, fault_kind=kind, fault_remaining=count, fault_scope=scope
                )

    # -- clock and configuration ----------------------------------------------------------------

    def move_clock(self, *, advance_seconds: float, reset: bool) -> datetime:
        with self.store.transaction() as conn:
            if reset:
                self.store.update_control(conn, clock_offset_seconds=0.0)
            if advance_seconds:
                offset = control_table.c.clock_offset_seconds + advance_seconds
                self.store.update_control(conn, clock_offset_seconds=offset)
        return self.engine.now()

    def set_decline_by_cents(self, value: bool) -> None:
        with self.store.transaction() as conn:
            self.store.update_control(conn, decline_by_cents=value)

    def decline_by_cents(self) -> bool:
        with self.engine.call() as call:
            return call.decline_by_cents

    # -- hung requests and reset ----------------------------------------------------------------

    def generation(self) -> int:
        with self.store.transaction() as conn:
            return int(self.store.control(conn)["generation"])

    def start_hang(self, hang_id: str) -> None:
        with self.store.transaction() as conn:
            self.store.add_hang(conn, hang_id, datetime.now(UTC))

    def end_hang(self, hang_id: str) -> None:
        with self.store.transaction() as conn:
            self.store.remove_hang(conn, hang_id)

    def hanging(self) -> int:
        # Wall-clock time (not the simulator's clock): a hang never outlives the longest delay.
        since = datetime.now(UTC) - timedelta(seconds=MAX_DELAY_SECONDS + 5)
        with self.store.transaction() as conn:
            return self.store.count_hangs(conn, since)

    def reset(self) -> None:
        """Forget every session, transaction and stored card; clear the fault, the clock offset
        and the cents setting; bump the generation so that hung requests are released."""
        with self.store.transaction() as conn:
            self.store.forget_everything(conn)
            self.store.update_control(
                conn,
                clock_offset_seconds=0.0,
                decline_by_cents=None,
                fault_kind=None,
                fault_remaining=0,
                fault_scope="any",
                generation=control_table.c.generation + 1,
            )

    def state(self) -> dict[str, Any]:
        snapshot: dict[str, Any] = dict(self.engine.snapshot())
        fault = self.fault()
        snapshot["fault"] = None if fault is None else fault.__dict__
        snapshot["hanging"] = self.hanging()
        return snapshot


def _fault(control: Any) -> Fault | None:
    if not control["fault_kind"] or control["fault_remaining"] <= 0:
        return None
    return Fault(control["fault_kind"], control["fault_remaining"], control["fault_scope"])
