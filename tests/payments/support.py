"""Test cards, timeouts, a fake clock and a handle on the running simulator, shared by the
payments tests (the fixtures are in conftest.py)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
from starlette.applications import Starlette

from hotmeals.converge.settings import ConvergeSettings

START = datetime(2025, 9, 2, 12, 0, tzinfo=UTC)
# Tests that assert a rule (sums of refunds, one charge per payment) must not depend on how
# fast the machine is: a call to a healthy simulator takes milliseconds, but on a busy machine
# a 3-second limit turned a stored-card charge into UNKNOWN. They get PATIENT.
# Only the tests about time-outs use SHORT, against a simulator told not to answer.
PATIENT = httpx.Timeout(30.0, connect=10.0)
SHORT = httpx.Timeout(0.4, connect=0.4)

VISA = "4000000000000002"
VISA_2 = "4124939999999990"
MASTERCARD = "5121212121212124"
AMEX = "370000000000002"
DISCOVER = "6011000000000004"
DECLINED_CARD = "4000000000000069"
NOT_LUHN = "4000000000000001"
EXP = "1230"
CVV = "123"


@dataclass
class FakeClock:
    now: datetime = START

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


@dataclass
class SimServer:
    url: str
    app: Starlette
    clock: FakeClock
    http: httpx.Client = field(repr=False)

    def control(self, path: str, **params: Any) -> Any:
        response = self.http.post(f"{self.url}/_sim/{path}", params=params)
        response.raise_for_status()
        return response.json()

    def get(self, path: str) -> Any:
        response = self.http.get(f"{self.url}/_sim/{path}")
        response.raise_for_status()
        return response.json()

    @property
    def settings(self) -> ConvergeSettings:
        # The credentials this simulator was started with, whatever DATABASE_URL a test has
        # switched to since (the default demo PIN is kept per simulator store).
        merchant_id, user_id, pin = self.app.state.simulator.engine.credentials
        return ConvergeSettings(
            base_url=self.url.removesuffix("/converge-sim") + "/converge-sim",
            merchant_id=merchant_id,
            user_id=user_id,
            pin=pin,
            simulated=True,
        )
