"""Sign-up, e-mail verification, sign-in, sessions and passwords (docs/product.md §3, §4, §5).

Every function is keyword-only with ``session`` first and returns plain data (see
``docs/services-accounts.md``). Refusals are ``DomainError``; a missing, expired or revoked
session is ``Unauthorized``.

No account enumeration: sign-up, resend and forgot-password answer the same for a known and an
unknown address (the owner of a taken address gets an e-mail instead), and sign-in answers
'Invalid email or password' for both an unknown account and a wrong password, after checking a
password hash either way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, TypedDict

from sqlalchemy import bindparam, update
from sqlalchemy import select as select_columns
from sqlmodel import Session, col, select

from hotmeals.clock import now as utcnow
from hotmeals.db.engine import release_connection
from hotmeals.db.models import OtpCode, Parent, SessionToken
from hotmeals.domain.errors import DomainError
from hotmeals.domain.passwords import is_common_password, validate_not_common
from hotmeals.domain.validation import (
    normalize_name,
    raise_first,
    validate_all,
    validate_change_password,
    validate_confirm_password,
    validate_email,
    validate_name,
    validate_password,
    validate_phone,
    validate_terms,
)
from hotmeals.i18n import normalize_lang
from hotmeals.security import hash_password, token_digest, verify_password
from hotmeals.services import mail, otp, ratelimit
from hotmeals.services.ids import saved_id
from hotmeals.services.otp import Purpose
from hotmeals.services.parents import (
    ADD_CHILD,
    PASSWORD_MAX_CHARS,
    TOKEN_MAX_CHARS,
    SessionData,
    check_password_length,
    check_phone_free,
    checked_email,
    get_parent,
    normalize_email,
    parent_by_email,
    phone_digits,
    revoke_sessions,
    session_data,
    start_session,
)

if TYPE_CHECKING:
    from typing_extensions import Unpack  # typing.Unpack from Python 3.12

_PHONE_CANDIDATES = 3  # accounts sharing a phone number that sign-in by phone tries


class Unauthorized(DomainError):
    """No valid session: the API answers HTTP 401, the UI sends the parent to sign in."""

    def __init__(self) -> None:
        super().__init__("unauthorized")


@dataclass(frozen=True)
class OtpSent:
    email: str
    expires_in: int = int(otp.OTP_TTL.total_seconds())
    resend_after: int = otp.RESEND_COOLDOWN_SECONDS


@dataclass(frozen=True)
class LoginResult:
    """``token`` is None only when ``needs_verification``: the password was right but the
    e-mail was never verified; a new code was sent to ``email``."""

    token: str | None
    session_data: SessionData | None = None
    needs_verification: bool = False
    email: str = ""
    # The password was right but the client address failed too often lately: the code sent
    # to ``email`` is a second factor (VerifyOtp signs in with it).
    second_factor: bool = False


@dataclass(frozen=True)
class ParentContext:
    parent_id: int
    email: str
    first_name: str
    last_name: str
    language: str
    signup_step: str
    session_id: int


def _send_code(
    session: Session, *, email: str, purpose: Purpose, parent: Parent, template: str
) -> None:
    code = otp.issue(session, email=email, purpose=purpose, parent_id=parent.id)
    mail.send_templated(
        session=session,
        to=email,
        template=template,
        language=parent.language,
        otp=code,
        first_name=parent.first_name,
    )


# --- sign-up and verification ------------------------------------------------------------------


class SignupForm(TypedDict):
    """The sign-up form's fields, as the browser or the API sends them ("" and False when
    left out)."""

    first_name: str
    last_name: str
    email: str
    phone: str
    password: str
    confirm_password: str
    terms: bool


def validate_signup(**form: Unpack[SignupForm]) -> dict[str, DomainError]:
    """Every field error of the sign-up form at once, keyed by field, in form order."""
    password = form["password"]
    rules = {
        "first_name": lambda v: validate_name(v, "first_name"),
        "last_name": lambda v: validate_name(v, "last_name"),
        "email": validate_email,
        "phone": validate_phone,
        "password": validate_password,
        "confirm_password": lambda v: validate_confirm_password(password, v),
        "terms": validate_terms,
    }
    errors = validate_all(form, rules)
    if "password" not in errors and len(password) > PASSWORD_MAX_CHARS:
        errors["password"] = DomainError("password_too_long", field="password")
    if "password" not in errors and is_common_password(password):
        errors["password"] = DomainError("password_common", field="password")
    errors = dict(sorted(errors.items(), key=lambda kv: list(rules).index(kv[0])))
    return errors


def validate_login(*, identifier: str, password: str, by_phone: bool) -> dict[str, DomainError]:
    """Every field error of the sign-in form at once, as sign-up shows them: the
    e-mail or phone, and the password. ``login`` runs the same rules again."""
    errors: dict[str, DomainError] = {}
    found = (
        validate_phone(identifier, "identifier")
        if by_phone
        else validate_email(identifier, "identifier")
    )
    if found is not None:
        errors["identifier"] = found
    if not password:
        errors["password"] = DomainError("password_required", field="password")
    return errors


def signup(
    *,
    session: Session,
    language: str = "en",
    address: str | None = None,
    **form: Unpack[SignupForm],
) -> OtpSent:
    raise_first(validate_signup(**form))
    address_email = normalize_email(form["email"])
    # Hash whether or not the account exists, so the answer takes the same time; before any
    # query, so that no pooled connection waits on the CPU.
    password_hash = hash_password(form["password"])
    otp.ensure_can_send(session, email=address_email, address=address, purpose=Purpose.VERIFY_EMAIL)
    parent = parent_by_email(session, address_email)
    if parent is None:
        now = utcnow()
        phone_text = form["phone"].strip()
        check_phone_free(session, phone_text)
        parent = Parent(
            email=address_email,
            phone=phone_text,
            phone_digits=phone_digits(phone_text),
            password_hash=password_hash,
            first_name=normalize_name(form["first_name"]),
            last_name=normalize_name(form["last_name"]),
            language=normalize_lang(language),
            terms_accepted_at=now,
            signup_step=ADD_CHILD,
            created_at=now,
            updated_at=now,
        )
        session.add(parent)
        session.flush()
    if parent.email_verified_at is None and parent.is_active:
        # New, or not verified yet: send a new code, but keep the details of the first
        # sign-up, so that nobody can set the password of an address they cannot read.
        _send_code(
            session,
            email=address_email,
            purpose=Purpose.VERIFY_EMAIL,
            parent=parent,
            template="otp_verify",
        )
    elif parent.is_active:
        mail.send_templated(
            session=session,
            to=address_email,
            template="account_exists",
            language=parent.language,
            first_name=parent.first_name,
        )
    otp.note_sent(session, email=address_email, address=address, purpose=Purpose.VERIFY_EMAIL)
    return OtpSent(email=address_email)


def verify_otp(
    *,
    session: Session,
    email: str,
    otp: str,
    address: str | None = None,
    user_agent: str | None = None,
) -> LoginResult:
    """Verify the sign-up address with its code, and sign the parent in."""
    address_email = checked_email(email)
    _otp_check(session, address_email, Purpose.VERIFY_EMAIL, otp, address, consume=True)
    parent = parent_by_email(session, address_email)
    if parent is None or not parent.is_active:
        raise DomainError("otp_invalid", field="otp")
    if parent.email_verified_at is None:
        parent.email_verified_at = utcnow()
        parent.updated_at = parent.email_verified_at
        session.add(parent)
    token = start_session(session, parent, user_agent)
    return LoginResult(token=token, session_data=session_data(session, parent))


def _otp_check(
    session: Session,
    email: str,
    purpose: Purpose,
    code: str,
    address: str | None,
    *,
    consume: bool,
) -> OtpCode:
    # the module ``otp`` is shadowed by the ``otp`` argument in the public functions
    return otp.check(
        session, email=email, purpose=purpose, code=code, address=address, consume=consume
    )


def resend_otp(
    *,
    session: Session,
    email: str,
    purpose: str = "VERIFY_EMAIL",
    address: str | None = None,
) -> OtpSent:
    """A new code for sign-up verification or a password reset. The same answer whether the
    account exists, is already verified, or not."""
    address_email = checked_email(email)
    kind = otp.parse_purpose(purpose, allowed=(Purpose.VERIFY_EMAIL, Purpose.RESET_PASSWORD))
    otp.ensure_can_send(session, email=address_email, address=address, purpose=kind)
    parent = parent_by_email(session, address_email)
    template = "otp_verify" if kind is Purpose.VERIFY_EMAIL else "otp_reset"
    if (
        parent is not None
        and parent.is_active
        and (kind is Purpose.RESET_PASSWORD or parent.email_verified_at is None)
    ):
        _send_code(session, email=address_email, purpose=kind, parent=parent, template=template)
    elif parent is None:
        # No account: the same work as for one (a stored code, a rendered mail), so that the
        # answer takes as long. Nobody receives the code; delivery of a real one happens after
        # the commit (docs/security.md, "Accounts cannot be told apart").
        code = otp.issue(session, email=address_email, purpose=kind, parent_id=None)
        mail.render_templated(template=template, language="en", otp=code, first_name="")
    otp.note_sent(session, email=address_email, address=address, purpose=kind)
    return OtpSent(email=address_email)


# --- sign-in and sessions -------------------------------------------------------------------


def login(
    *,
    session: Session,
    password: str,
    email: str = "",
    phone: str = "",
    address: str | None = None,
    user_agent: str | None = None,
) -> LoginResult:
    """Sign in by e-mail or phone.

    The order matters (docs/security.md, "Sign-in"): read the account, give the connection
    back, count the check against the *account* (e-mail and phone share it) before hashing,
    hash with no connection held, then write. A client address with too many failures is not
    refused: a right password from it gets a code by e-mail instead of a session.
    """
    by_phone = not normalize_email(email) and bool(phone.strip())
    if by_phone:
        _check_login_phone(phone)
        identifier = "phone:" + phone_digits(phone)
    else:
        identifier = checked_email(email)
    if not password:
        raise DomainError("password_required", field="password")
    check_password_length(password, "password")

    if by_phone:
        candidates = list(
            session.exec(
                select(Parent)
                .where(Parent.phone_digits == phone_digits(phone))
                .where(Parent.is_active)
                .order_by(col(Parent.email_verified_at).is_(None), col(Parent.id))
                .limit(_PHONE_CANDIDATES)
            ).all()
        )
    else:
        found = parent_by_email(session, identifier)
        candidates = [found] if found is not None and found.is_active else []
    suspect_address = ratelimit.over_limit(session, ratelimit.LOGIN_ADDRESS, address)
    # An unknown account is throttled by what was typed, a real one by its id: the same
    # answers and delays either way, and one bucket per account whatever the sign-in used.
    keys = [_account_key(saved_id(c)) for c in candidates] or [identifier]
    release_connection(session)
    ratelimit.reserve(session, ratelimit.LOGIN_ACCOUNT, keys)

    matched = None
    if not candidates:
        verify_password(None, password)  # the same work as for a real account
    for candidate in candidates:
        if verify_password(candidate.password_hash, password):
            matched = candidate
            break
    if matched is None:
        ratelimit.record_failure(session, (ratelimit.LOGIN_ADDRESS, address))
        raise DomainError("login_phone_invalid" if by_phone else "login_invalid")

    ratelimit.clear(session, ratelimit.LOGIN_ACCOUNT, _account_key(saved_id(matched)))
    second_factor = suspect_address and matched.email_verified_at is not None
    if matched.email_verified_at is None or second_factor:
        try:
            otp.ensure_can_send(
                session, email=matched.email, address=address, purpose=Purpose.VERIFY_EMAIL
            )
        except DomainError:
            pass  # a code was sent moments ago: the parent can use that one
        else:
            _send_code(
                session,
                email=matched.email,
                purpose=Purpose.VERIFY_EMAIL,
                parent=matched,
                template="otp_login" if second_factor else "otp_verify",
            )
            otp.note_sent(
                session, email=matched.email, address=address, purpose=Purpose.VERIFY_EMAIL
            )
        return LoginResult(
            token=None, needs_verification=True, email=matched.email, second_factor=second_factor
        )
    token = start_session(session, matched, user_agent)
    return LoginResult(token=token, session_data=session_data(session, matched))


def _account_key(parent_id: int) -> str:
    return f"parent:{parent_id}"


def _check_login_phone(phone: str) -> None:
    """The phone rules (docs/product.md §5), exactly as at sign-up: they count digits, so a
    number typed with spaces and brackets ('+1 (613) 555-0142') passes here as it does there."""
    raise_first(validate_phone(phone))


# Every signed-in call checks its token: the statement is built once and reads only the
# columns the context needs (half the cost of loading both rows as ORM objects).
_SESSION_OF_TOKEN = (
    select_columns(
        col(SessionToken.id),
        col(SessionToken.revoked_at),
        col(SessionToken.expires_at),
        col(Parent.id),
        col(Parent.email),
        col(Parent.first_name),
        col(Parent.last_name),
        col(Parent.language),
        col(Parent.signup_step),
        col(Parent.is_active),
    )
    .join(Parent, col(Parent.id) == SessionToken.parent_id)
    .where(col(SessionToken.token_hash) == bindparam("token_hash"))
)


def authenticate(*, session: Session, token: str | None) -> ParentContext:
    """The session of ``token`` (None: no token sent), or ``Unauthorized``."""
    text = "" if token is None else token.strip()
    if not text or len(text) > TOKEN_MAX_CHARS:
        raise Unauthorized()
    row = session.execute(_SESSION_OF_TOKEN, {"token_hash": token_digest(text)}).first()
    if row is None:
        raise Unauthorized()
    (session_id, revoked_at, expires_at, parent_id, email, first, last, language, step, active) = (
        row
    )
    if revoked_at is not None or expires_at <= utcnow() or not active:
        raise Unauthorized()
    return ParentContext(
        parent_id=parent_id,
        email=email,
        first_name=first,
        last_name=last,
        language=language,
        signup_step=step,
        session_id=session_id,
    )


def logout(*, session: Session, token: str | None) -> None:
    text = "" if token is None else token.strip()
    if not text or len(text) > TOKEN_MAX_CHARS:
        return
    session.execute(
        update(SessionToken)
        .where(col(SessionToken.token_hash) == token_digest(text))
        .where(col(SessionToken.revoked_at).is_(None))
        .values(revoked_at=utcnow())
    )


# --- passwords ---------------------------------------------------------------------------------


def forgot_password(*, session: Session, email: str, address: str | None = None) -> OtpSent:
    """Always the same answer; only an existing account gets a code."""
    return resend_otp(session=session, email=email, purpose=Purpose.RESET_PASSWORD, address=address)


def check_reset_otp(*, session: Session, email: str, otp: str, address: str | None = None) -> None:
    """Whether the reset code is right, without using it up (a two-screen reset flow)."""
    address_email = checked_email(email)
    _otp_check(session, address_email, Purpose.RESET_PASSWORD, otp, address, consume=False)


def _mail_password_changed(session: Session, parent: Parent) -> None:
    """The e-mail that tells the parent their password was changed."""
    mail.send_templated(
        session=session,
        to=parent.email,
        template="password_changed",
        language=parent.language,
        first_name=parent.first_name,
    )


def new_password(
    *,
    session: Session,
    email: str,
    otp: str,
    password: str,
    confirm_password: str,
    address: str | None = None,
) -> None:
    address_email = checked_email(email)
    if not otp.strip():
        raise DomainError("otp_required", field="otp")
    raise_first(validate_password(password))
    check_password_length(password, "password")
    raise_first(validate_not_common(password))
    raise_first(validate_confirm_password(password, confirm_password))
    password_hash = hash_password(password)  # before any query: no connection held
    _otp_check(session, address_email, Purpose.RESET_PASSWORD, otp, address, consume=True)
    parent = parent_by_email(session, address_email)
    if parent is None or not parent.is_active:
        raise DomainError("otp_invalid", field="otp")
    now = utcnow()
    parent.password_hash = password_hash
    parent.updated_at = now
    if parent.email_verified_at is None:
        parent.email_verified_at = now  # the code proved the address
    session.add(parent)
    revoke_sessions(session, saved_id(parent))
    ratelimit.clear(session, ratelimit.LOGIN_ACCOUNT, _account_key(saved_id(parent)))
    _mail_password_changed(session, parent)


def change_password(
    *,
    session: Session,
    parent_id: int,
    current_password: str,
    new_password: str,
    confirm_password: str,
    keep_session_id: int | None = None,
) -> None:
    raise_first(validate_change_password(current_password, new_password, confirm_password))
    check_password_length(new_password, "new_password")
    check_password_length(current_password, "current_password")
    raise_first(validate_not_common(new_password, "new_password"))
    parent = get_parent(session, parent_id)
    key = _account_key(saved_id(parent))
    stored_hash = parent.password_hash
    release_connection(session)  # no connection held while hashing (twice)
    ratelimit.reserve(session, ratelimit.PASSWORD_ACCOUNT, [key])
    if not verify_password(stored_hash, current_password):
        raise DomainError("current_password_wrong", field="current_password")
    new_hash = hash_password(new_password)
    ratelimit.clear(session, ratelimit.PASSWORD_ACCOUNT, key)
    parent.password_hash = new_hash
    parent.updated_at = utcnow()
    session.add(parent)
    revoke_sessions(session, saved_id(parent), keep_session_id=keep_session_id)
    _mail_password_changed(session, parent)
