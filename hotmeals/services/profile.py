"""The parent's profile: details, alternate e-mails, picture and language (docs/product.md §3)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Boolean,
    CompoundSelect,
    ScalarSelect,
    String,
    bindparam,
    cast,
    delete,
    func,
    literal,
    union_all,
)
from sqlalchemy import select as select_columns
from sqlmodel import Session, SQLModel, col, select

from hotmeals.clock import now as utcnow
from hotmeals.db.models import (
    CancelCartLine,
    CartLine,
    Child,
    NotificationPreference,
    Parent,
    ParentAltEmail,
)
from hotmeals.domain.errors import DomainError
from hotmeals.domain.validation import (
    normalize_name,
    raise_first,
    validate_email,
    validate_name,
    validate_phone,
)
from hotmeals.i18n import LANGS
from hotmeals.services import mail, otp, pictures
from hotmeals.services.accounts import OtpSent
from hotmeals.services.ids import saved_id
from hotmeals.services.notifications import Preferences, preferences_of
from hotmeals.services.otp import Purpose
from hotmeals.services.parents import (
    AltEmail,
    SessionData,
    check_phone_free,
    get_parent,
    lock_parent,
    normalize_email,
    parent_by_email,
    phone_digits,
)
from hotmeals.settings import get_settings

ALT_EMAIL_MAX = 3
IMAGE_MAX_BYTES = 2 * 1024 * 1024
IMAGE_URL_PREFIX = "/api/v1/uploads/profile/"


def uploads_dir() -> Path:
    return get_settings().data_dir / "uploads" / "profile"


def image_path(file_name: str) -> str:
    """The URL path of a stored profile picture."""
    return f"{IMAGE_URL_PREFIX}{file_name}"


def image_url(file_name: str | None) -> str | None:
    return image_path(file_name) if file_name else None


def _count(model: type[SQLModel], *where: Any) -> ScalarSelect[int]:
    return select(func.count()).select_from(model).where(*where).scalar_subquery()


# GetUserDetails runs on every screen: the parent's row with the header's three counts in one
# statement, built once and read as columns.
_PROFILE = select_columns(
    col(Parent.email),
    col(Parent.first_name),
    col(Parent.last_name),
    col(Parent.signup_step),
    col(Parent.profile_image),
    col(Parent.phone),
    col(Parent.language),
    _count(CartLine, CartLine.parent_id == bindparam("parent_id")),
    _count(CancelCartLine, CancelCartLine.parent_id == bindparam("parent_id")),
    _count(Child, Child.parent_id == bindparam("parent_id"), Child.is_active),
).where(col(Parent.id) == bindparam("parent_id"), col(Parent.is_active))


# ... and the alternate e-mails with the notification settings in a second one (UNION ALL).
_ALT_EMAILS_AND_SETTINGS: CompoundSelect[str, int, str, bool] = union_all(
    select_columns(
        literal("alt", String).label("row_kind"),
        col(ParentAltEmail.id).label("ordinal"),
        col(ParentAltEmail.email).label("name"),
        col(ParentAltEmail.verified_at).is_not(None).label("flag"),
    ).where(col(ParentAltEmail.parent_id) == bindparam("parent_id")),
    select_columns(
        literal("setting", String),
        col(NotificationPreference.id),
        col(NotificationPreference.kind),
        cast(col(NotificationPreference.enabled), Boolean),
    ).where(col(NotificationPreference.parent_id) == bindparam("parent_id")),
)


def _alt_emails_and_settings(
    session: Session, parent_id: int
) -> tuple[tuple[AltEmail, ...], Preferences]:
    """What ``parents.alt_emails_of`` and ``notifications.get_preferences`` answer, read in
    one statement."""
    alts: list[tuple[int, AltEmail]] = []
    settings: dict[str, bool] = {}
    for kind, ordinal, name, flag in session.execute(
        _ALT_EMAILS_AND_SETTINGS, {"parent_id": parent_id}
    ).all():
        if kind == "alt":
            alts.append((ordinal, AltEmail(email=name, verified=bool(flag))))
        else:
            settings[name] = bool(flag)
    ordered = tuple(alt for _, alt in sorted(alts, key=lambda item: item[0]))
    return ordered, preferences_of(settings)


@dataclass(frozen=True)
class Profile(SessionData):
    """docs/product.md §3 parent profile: the session data, the picture's URL path (None: no
    picture), the counts the header shows, the phone, the language and the e-mail settings."""

    profile_image: str | None
    cart_count: int
    cancel_cart_count: int
    active_child_count: int
    phone: str
    language: str
    notifications: Preferences


def get_profile(*, session: Session, parent_id: int) -> Profile:
    """docs/product.md §3 parent profile, with the counts the header shows: two statements."""
    row = session.execute(_PROFILE, {"parent_id": parent_id}).first()
    if row is None:
        raise DomainError("parent_not_found")
    (email, first, last, step, image, phone, language, carts, cancel_carts, children) = row
    alt_emails, settings = _alt_emails_and_settings(session, parent_id)
    return Profile(
        id=parent_id,
        first_name=first,
        last_name=last,
        email=email,
        alt_emails=alt_emails,
        signup_step=step,
        profile_image=image_url(image),
        cart_count=carts,
        cancel_cart_count=cancel_carts,
        active_child_count=children,
        phone=phone,
        language=language,
        notifications=settings,
    )


def edit_profile(
    *,
    session: Session,
    parent_id: int,
    first_name: str,
    last_name: str,
    phone: str,
    alt_emails: list[str] | None = None,
) -> Profile:
    """Names and phone; ``alt_emails`` (when given) replaces the set of alternate addresses."""
    raise_first(validate_name(first_name, "first_name"))
    raise_first(validate_name(last_name, "last_name"))
    parent = lock_parent(session, parent_id)  # the alternate e-mails are counted below
    # A number already on file is kept as it is, even if typed before today's rules (a
    # '+1 (613) 555-0142' from an older client): saving a name must not fail on it.
    if phone.strip() != parent.phone:
        raise_first(validate_phone(phone))
        check_phone_free(session, phone, parent_id=parent.id)
    wanted: list[str] | None = None
    if alt_emails is not None:
        wanted = []
        for value in alt_emails:
            if not value.strip():
                continue
            raise_first(validate_email(value, "alt_emails"))
            address = normalize_email(value)
            if address == parent.email:
                raise DomainError("alt_email_is_primary", field="alt_emails")
            if parent_by_email(session, address) is not None:
                raise DomainError("alt_email_taken", field="alt_emails")
            if address not in wanted:
                wanted.append(address)
        if len(wanted) > ALT_EMAIL_MAX:
            raise DomainError("alt_email_limit", field="alt_emails", max=ALT_EMAIL_MAX)
    parent.first_name = normalize_name(first_name)
    parent.last_name = normalize_name(last_name)
    parent.phone = phone.strip()
    parent.phone_digits = phone_digits(parent.phone)
    parent.updated_at = utcnow()
    session.add(parent)
    if wanted is not None:
        existing = {row.email: row for row in _alt_rows(session, saved_id(parent))}
        for address, row in existing.items():
            if address not in wanted:
                session.delete(row)
        for address in wanted:
            if address not in existing:
                session.add(
                    ParentAltEmail(parent_id=saved_id(parent), email=address, created_at=utcnow())
                )
                session.flush()
                _send_alt_code(session, parent, address, strict=False)
    session.flush()
    return get_profile(session=session, parent_id=saved_id(parent))


def _alt_rows(session: Session, parent_id: int) -> list[ParentAltEmail]:
    return list(
        session.exec(select(ParentAltEmail).where(ParentAltEmail.parent_id == parent_id)).all()
    )


def _send_alt_code(session: Session, parent: Parent, address: str, *, strict: bool) -> None:
    try:
        otp.ensure_can_send(session, email=address, address=None, purpose=Purpose.ALT_EMAIL)
    except DomainError:
        if strict:
            raise
        return  # saved unverified; "verify" sends a code later
    code = otp.issue(session, email=address, purpose=Purpose.ALT_EMAIL, parent_id=parent.id)
    mail.send_templated(
        session=session,
        to=address,
        template="otp_alt_email",
        language=parent.language,
        otp=code,
        first_name=parent.first_name,
    )
    otp.note_sent(session, email=address, address=None, purpose=Purpose.ALT_EMAIL)


def add_alt_email(*, session: Session, parent_id: int, email: str) -> OtpSent:
    """Add an alternate address (unverified) and send it a code; for an address already added
    and not yet verified, send a new code."""
    raise_first(validate_email(email))
    address = normalize_email(email)
    parent = lock_parent(session, parent_id)  # before counting: parallel adds take turns
    if address == parent.email:
        raise DomainError("alt_email_is_primary", field="email")
    if parent_by_email(session, address) is not None:
        # Another account's sign-in address: never mail it a code on this parent's behalf.
        raise DomainError("alt_email_taken", field="email")
    rows = {row.email: row for row in _alt_rows(session, saved_id(parent))}
    row = rows.get(address)
    if row is not None and row.verified_at is not None:
        raise DomainError("alt_email_exists", field="email")
    if row is None:
        if len(rows) >= ALT_EMAIL_MAX:
            raise DomainError("alt_email_limit", field="email", max=ALT_EMAIL_MAX)
        otp.ensure_can_send(session, email=address, address=None, purpose=Purpose.ALT_EMAIL)
        session.add(ParentAltEmail(parent_id=saved_id(parent), email=address, created_at=utcnow()))
        session.flush()
    _send_alt_code(session, parent, address, strict=True)
    return OtpSent(email=address)


def verify_alt_email(*, session: Session, parent_id: int, email: str, otp: str) -> Profile:
    raise_first(validate_email(email))
    address = normalize_email(email)
    parent = get_parent(session, parent_id)
    row = next((r for r in _alt_rows(session, saved_id(parent)) if r.email == address), None)
    if row is None:
        raise DomainError("alt_email_not_found", field="email")
    code_row = _check_code(session, address, otp)
    if code_row.parent_id != parent.id:
        raise DomainError("otp_invalid", field="otp")
    row.verified_at = utcnow()
    session.add(row)
    session.flush()
    return get_profile(session=session, parent_id=saved_id(parent))


def _check_code(session: Session, address: str, code: str) -> Any:
    return otp.check(
        session, email=address, purpose=Purpose.ALT_EMAIL, code=code, address=None, consume=True
    )


def remove_alt_email(*, session: Session, parent_id: int, email: str) -> Profile:
    address = normalize_email(email)
    parent = get_parent(session, parent_id)
    result = session.exec(
        delete(ParentAltEmail)
        .where(col(ParentAltEmail.parent_id) == parent.id)
        .where(col(ParentAltEmail.email) == address)
    )
    if not result.rowcount:
        raise DomainError("alt_email_not_found", field="email")
    return get_profile(session=session, parent_id=saved_id(parent))


# --- picture ---------------------------------------------------------------------------------


def image_kind(data: bytes) -> str | None:
    """'png', 'jpg' or 'webp' from the file's first bytes (never from its name)."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if data.startswith(b"\xff\xd8\xff"):
        return "jpg"
    if len(data) >= 12 and data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    return None


def save_profile_image(*, session: Session, parent_id: int, filename: str, data: bytes) -> str:
    """Store the picture under ``DATA_DIR/uploads/profile`` with a random name; returns its
    URL path. ``filename`` is only informative: the type comes from the content."""
    if len(data) > IMAGE_MAX_BYTES:
        raise DomainError("image_too_large", field="profile_image")
    if image_kind(data) is None:
        raise DomainError("image_type_invalid", field="profile_image")
    data, kind = pictures.reencode(data)  # decoded, pixel budget checked, metadata dropped
    parent = get_parent(session, parent_id)
    folder = uploads_dir()
    folder.mkdir(parents=True, exist_ok=True)
    name = f"p{parent.id}-{secrets.token_hex(8)}.{kind}"
    (folder / name).write_bytes(data)
    old = parent.profile_image
    parent.profile_image = name
    parent.updated_at = utcnow()
    session.add(parent)
    session.flush()
    if old and old != name:
        old_path = folder / Path(old).name
        try:
            old_path.unlink(missing_ok=True)
        except OSError:
            pass  # a stale file is harmless; the row points at the new one
    return image_path(name)


def profile_image_path(file_name: str) -> Path | None:
    """The stored picture for a URL's file name, or None (no path tricks)."""
    name = Path(file_name).name
    if name != file_name or not name.startswith("p") or image_kind_from_name(name) is None:
        return None
    path = uploads_dir() / name
    return path if path.is_file() else None


def image_kind_from_name(name: str) -> str | None:
    suffix = name.rsplit(".", 1)[-1].lower() if "." in name else ""
    return suffix if suffix in ("png", "jpg", "webp") else None


# --- language ----------------------------------------------------------------------------------


def set_language(*, session: Session, parent_id: int, language: str) -> None:
    lang = language.strip().lower()
    if lang not in LANGS:
        raise DomainError("language_invalid", field="language")
    parent = get_parent(session, parent_id)
    parent.language = lang
    parent.updated_at = utcnow()
    session.add(parent)
