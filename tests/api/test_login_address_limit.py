"""A right password is never refused for its address. After 30 failures from one address, a correct
login to another account from that address was once refused. Now the address limit never refuses a
right password: over it, the parent gets a 6-digit code by e-mail and finishes signing in with it (a
school or a library shares one address among many parents), while a guesser still needs the code
from the inbox.
"""

from __future__ import annotations

from sqlmodel import select

from hotmeals.db.engine import session_scope
from hotmeals.db.models import RateLimitHit
from hotmeals.services import ratelimit
from tests.api.helpers import (
    DEMO_EMAIL,
    DEMO_PASSWORD,
    last_otp,
    mails_to,
    ok,
    post,
    refused,
)


def _fail_from_this_address(client, times: int) -> None:
    for n in range(times):
        refused(
            post(
                client,
                "/Parent/auth/Login",
                {"email": f"guess{n}@example.org", "password": "Nope-123!"},
            ),
            "Invalid email or password",
        )


def _more_failures_from_this_address(client, times: int) -> None:
    """One real failed sign-in, then ``times - 1`` more of the very hit it counted (each real
    one costs a password hash)."""
    _fail_from_this_address(client, 1)
    with session_scope() as session:
        hit = session.exec(
            select(RateLimitHit).where(RateLimitHit.bucket == ratelimit.LOGIN_ADDRESS.bucket)
        ).one()
        session.add_all(
            RateLimitHit(bucket=hit.bucket, key=hit.key, created_at=hit.created_at)
            for _ in range(times - 1)
        )


def test_a_right_password_from_an_address_over_its_limit_gets_a_code_not_a_refusal(client):
    _fail_from_this_address(client, ratelimit.LOGIN_ADDRESS.limit)
    before = len(mails_to(DEMO_EMAIL))

    answer = refused(
        post(client, "/Parent/auth/Login", {"email": DEMO_EMAIL, "password": DEMO_PASSWORD})
    )
    assert answer["message"].startswith("For your security we have sent a 6-digit sign-in code")
    assert answer["data"] == {"email": DEMO_EMAIL, "verify_email": True}
    sent = mails_to(DEMO_EMAIL)
    assert len(sent) == before + 1 and sent[-1].kind == "otp_login"

    # The code finishes the sign-in: the parent is in, not locked out for 15 minutes.
    data = ok(
        post(client, "/Parent/auth/VerifyOtp", {"email": DEMO_EMAIL, "otp": last_otp(DEMO_EMAIL)})
    )
    assert data["data"]["token"]
    assert data["data"]["email"] == DEMO_EMAIL


def test_a_wrong_password_over_the_address_limit_is_answered_as_wrong_and_sends_nothing(client):
    _more_failures_from_this_address(client, ratelimit.LOGIN_ADDRESS.limit + 5)
    before = len(mails_to(DEMO_EMAIL))
    refused(
        post(client, "/Parent/auth/Login", {"email": DEMO_EMAIL, "password": "Wrong-pass-1!"}),
        "Invalid email or password",
    )
    assert len(mails_to(DEMO_EMAIL)) == before  # no code for a wrong password


def test_under_the_address_limit_a_right_password_signs_in_at_once(client):
    _more_failures_from_this_address(client, ratelimit.LOGIN_ADDRESS.limit - 1)
    data = ok(post(client, "/Parent/auth/Login", {"email": DEMO_EMAIL, "password": DEMO_PASSWORD}))
    assert data["data"]["token"]
