"""The tax and card-fee rates new orders are charged (docs/product.md §9): Ontario HST and no
fee unless the operator says otherwise; a malformed rate stops the start."""

from __future__ import annotations

import pytest

from hotmeals.domain.charges import ChargeRates
from hotmeals.settings import load_settings

RATE_VARIABLES = ("HOTMEALS_TAX_BPS", "HOTMEALS_CARD_FEE_BPS", "HOTMEALS_CARD_FEE_CENTS")


@pytest.fixture
def env(monkeypatch):
    for name in RATE_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def test_the_default_is_thirteen_percent_hst_and_no_card_fee(env):
    rates = load_settings().charge_rates
    assert rates == ChargeRates(tax_bps=1300, processing_fee_bps=0, processing_fee_fixed_cents=0)


def test_the_operator_sets_the_rates_in_the_environment(env):
    env.setenv("HOTMEALS_TAX_BPS", "500")
    env.setenv("HOTMEALS_CARD_FEE_BPS", "290")
    env.setenv("HOTMEALS_CARD_FEE_CENTS", "30")
    rates = load_settings().charge_rates
    assert rates == ChargeRates(tax_bps=500, processing_fee_bps=290, processing_fee_fixed_cents=30)


@pytest.mark.parametrize(
    "name, value",
    [
        ("HOTMEALS_TAX_BPS", "13%"),
        ("HOTMEALS_TAX_BPS", "-1"),
        ("HOTMEALS_TAX_BPS", "10001"),
        ("HOTMEALS_CARD_FEE_BPS", "2.9"),
        ("HOTMEALS_CARD_FEE_CENTS", "0.30"),
    ],
)
def test_a_malformed_rate_stops_the_start(env, name, value):
    env.setenv(name, value)
    with pytest.raises(ValueError, match=name):
        load_settings()
