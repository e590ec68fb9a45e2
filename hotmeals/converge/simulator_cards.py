"""Card and field rules of the Converge simulator: validation, test cards and test amounts.

Approve (converge.md §6), and so does any other Luhn-valid number with a future expiry:
    Visa 4000000000000002, Visa 4124939999999990, MC 5121212121212124,
    Amex 370000000000002, Discover 6011000000000004

Decline by card number (all pass Luhn; declines are ``ssl_result=1``):
    4000000000000069  DECLINED
    4000000000000119  PICK UP CARD
    4000000000000127  DECLINE CVV2
    any card whose MMYY expiry is in the past: EXPIRED CARD

Decline by cents of ``ssl_amount`` on a sale (Elavon test-host convention; switchable):
    .51 INSUFFICIENT FUNDS   .54 EXPIRED CARD   .59 DECLINED   .78 INVALID CARD
    .91 CALL AUTH CENTER     .96 errorCode 3000 (system error, nothing charged)
    $22.22 exactly: the processor never answers (see simulator.py for how long it hangs)

Errors (``<errorCode>``): 4009 required field missing, 5000 card number fails Luhn or is not
13-19 digits, 5001 expiry not MMYY, 5002 amount not a positive "12.50", 5021 CVV not 3-4 digits.
5001/5002/5021 are the simulator's choice of code (UNCONFIRMED for Converge).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from hotmeals.converge.gateway import amount_to_cents

TEST_CARDS = {
    "4000000000000002": "VISA",
    "4124939999999990": "VISA",
    "5121212121212124": "MC",
    "370000000000002": "AMEX",
    "6011000000000004": "DISC",
}
DECLINE_CARDS = {
    "4000000000000069": "DECLINED",
    "4000000000000119": "PICK UP CARD",
    "4000000000000127": "DECLINE CVV2",
}
DECLINE_CENTS = {
    51: "INSUFFICIENT FUNDS",
    54: "EXPIRED CARD",
    59: "DECLINED",
    78: "INVALID CARD",
    91: "CALL AUTH CENTER",
}
SYSTEM_ERROR_CENTS = 96
NO_ANSWER_CENTS = 2222


class SimError(Exception):
    """An ``errorCode`` answer."""

    def __init__(self, code: str, name: str, message: str) -> None:
        super().__init__(f"{code} {name}")
        self.code = code
        self.name = name
        self.message = message

    def fields(self) -> dict[str, str]:
        return {"errorCode": self.code, "errorName": self.name, "errorMessage": self.message}


class InvalidInput(SimError):
    """A card field the payer can correct in the Lightbox; the session stays usable."""


def require(
    fields: Mapping[str, str],
    key: str,
    *,
    code: str = "4009",
    name: str = "Required Field Not Supplied",
) -> str:
    value = fields.get(key, "").strip()
    if not value:
        raise SimError(code, name, f"The field {key} is required.")
    return value


def parse_amount(fields: Mapping[str, str]) -> int:
    text = require(fields, "ssl_amount")
    try:
        cents = amount_to_cents(text)
    except ValueError:
        cents = 0
    if cents <= 0:
        raise SimError("5002", "Amount Invalid", "The amount supplied is invalid.")
    return cents


def luhn_valid(number: str) -> bool:
    total = 0
    for position, char in enumerate(reversed(number)):
        digit = int(char)
        if position % 2 == 1:
            digit = digit * 2 - 9 if digit > 4 else digit * 2
        total += digit
    return total % 10 == 0


def check_card_number(fields: Mapping[str, str]) -> str:
    number = require(fields, "ssl_card_number").replace(" ", "")
    if not (number.isdigit() and 13 <= len(number) <= 19 and luhn_valid(number)):
        raise SimError(
            "5000",
            "Credit Card Number Invalid",
            "The Credit Card Number supplied in the authorization request appears to be invalid.",
        )
    return number


def check_exp_date(fields: Mapping[str, str]) -> str:
    """MMYY well-formed (5001 otherwise). Whether it has passed is a decline, not an error."""
    exp = require(fields, "ssl_exp_date").replace("/", "")
    if not (len(exp) == 4 and exp.isdigit() and 1 <= int(exp[:2]) <= 12):
        raise SimError("5001", "Exp Date Invalid", "The expiration date supplied is invalid.")
    return exp


def check_cvv(fields: Mapping[str, str]) -> str:
    cvv = fields.get("ssl_cvv2cvc2", "").strip()
    if cvv and not (cvv.isdigit() and len(cvv) in (3, 4)):
        raise SimError("5021", "Invalid CVV2 Value", "The CVV2 value supplied is invalid.")
    return cvv


def is_expired(exp_date: str, now: datetime) -> bool:
    month, year = int(exp_date[:2]), 2000 + int(exp_date[2:])
    return (year, month) < (now.year, now.month)


def standing_decline(number: str) -> str | None:
    """What the issuer always answers for this card (a decline test card), else None. Kept
    with a stored card instead of its number."""
    return DECLINE_CARDS.get(number)


def decline_reason(
    standing: str | None, exp_date: str, now: datetime, *, cvv: str | None, cents: int | None
) -> str | None:
    """The decline message for a card (its ``standing_decline``) and amount, or None to
    approve. Raises SimError(3000) for the system-error cents."""
    if standing:
        return standing
    if is_expired(exp_date, now):
        return "EXPIRED CARD"
    if cents is not None:
        if cents % 100 == SYSTEM_ERROR_CENTS:
            raise SimError("3000", "System Error", "A system error occurred; nothing was charged.")
        if cents % 100 in DECLINE_CENTS:
            return DECLINE_CENTS[cents % 100]
    return None


def card_brand(number: str) -> str:
    if number in TEST_CARDS:
        return TEST_CARDS[number]
    if number.startswith("4"):
        return "VISA"
    if number[:2] in ("34", "37"):
        return "AMEX"
    if number[:2] in {"51", "52", "53", "54", "55"} or 2221 <= int(number[:4]) <= 2720:
        return "MC"
    if number.startswith(("6011", "65")) or 644 <= int(number[:3]) <= 649:
        return "DISC"
    return "CARD"


_SEARCH_FORMATS = ("%m/%d/%Y %I:%M:%S %p", "%m/%d/%Y %H:%M:%S", "%m/%d/%Y")


def parse_search_time(text: str, *, end: bool) -> datetime:
    """txnquery search bounds; a bare date covers its whole day."""
    for fmt in _SEARCH_FORMATS:
        try:
            moment = datetime.strptime(text.strip(), fmt)
        except ValueError:
            continue
        if fmt == "%m/%d/%Y" and end:
            moment = moment.replace(hour=23, minute=59, second=59, microsecond=999999)
        return moment
    raise SimError("4009", "Required Field Not Supplied", "The search date is not MM/DD/YYYY.")
