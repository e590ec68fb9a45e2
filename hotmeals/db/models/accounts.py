"""Parents, their sessions, OTP codes, alternate e-mails, preferences and children."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Index, UniqueConstraint
from sqlmodel import Field, SQLModel

from hotmeals.db.models._base import created_at_field, fk, partial_unique, utcnow


class Parent(SQLModel, table=True):
    __table_args__ = (
        # A phone number identifies one account: unique among active accounts.
        partial_unique(
            "uq_parent_phone_digits_active",
            "phone_digits",
            where="is_active AND phone_digits <> ''",
        ),
    )
    id: int | None = Field(default=None, primary_key=True)
    email: str = Field(max_length=254, unique=True, index=True)  # stored lower-cased
    phone: str = Field(max_length=20, index=True)  # as typed, validated (8-13 characters)
    # digits only, a leading North American 1 dropped (services.parents.phone_digits): the
    # number's identity, for sign-in by phone and the uniqueness above
    phone_digits: str = Field(max_length=20, index=True)
    password_hash: str = Field(max_length=255)
    first_name: str = Field(max_length=15)
    last_name: str = Field(max_length=15)
    language: str = Field(default="en", max_length=2)
    terms_accepted_at: datetime | None = None
    email_verified_at: datetime | None = None
    # ADD_CHILD -> ALLERGY -> COMPLETE (docs/product.md §4)
    signup_step: str = Field(default="ADD_CHILD", max_length=16)
    profile_image: str | None = Field(default=None, max_length=255)  # file name under DATA_DIR
    is_active: bool = True
    created_at: datetime = created_at_field()
    updated_at: datetime = created_at_field()


class ParentAltEmail(SQLModel, table=True):
    __table_args__ = (UniqueConstraint("parent_id", "email"),)
    id: int | None = Field(default=None, primary_key=True)
    parent_id: int = fk("parent.id", ondelete="CASCADE")
    email: str = Field(max_length=254)
    verified_at: datetime | None = None
    created_at: datetime = created_at_field()


# kind -> on by default: a parent without a row for a kind has its default
# (services/notifications.py); the demo family's rows are these (db/seed.py).
NOTIFICATION_DEFAULTS: dict[str, bool] = {
    "order_confirmation": True,
    "order_reminder": True,
    "cutoff_reminder": True,
    "refund": True,
    "menu_updates": True,
    "newsletter": False,
}


class NotificationPreference(SQLModel, table=True):
    __table_args__ = (UniqueConstraint("parent_id", "kind"),)
    id: int | None = Field(default=None, primary_key=True)
    parent_id: int = fk("parent.id", ondelete="CASCADE")
    kind: str = Field(max_length=32)  # order_confirmation, order_reminder, refund, newsletter, ...
    enabled: bool = True


class SessionToken(SQLModel, table=True):
    """A login session. Only the SHA-256 of the random token is stored."""

    id: int | None = Field(default=None, primary_key=True)
    parent_id: int = fk("parent.id", ondelete="CASCADE")
    token_hash: str = Field(max_length=64, unique=True, index=True)
    created_at: datetime = created_at_field()
    expires_at: datetime = Field(index=True)  # housekeeping purges expired sessions
    revoked_at: datetime | None = None
    user_agent: str | None = Field(default=None, max_length=255)


class OtpCode(SQLModel, table=True):
    """A 6-digit one-time code sent by e-mail; stored hashed, with an attempt counter."""

    id: int | None = Field(default=None, primary_key=True)
    parent_id: int | None = fk("parent.id", nullable=True, ondelete="CASCADE")
    email: str = Field(max_length=254, index=True)
    purpose: str = Field(max_length=16)  # VERIFY_EMAIL, RESET_PASSWORD, ALT_EMAIL
    code_hash: str = Field(max_length=64)
    attempts: int = 0
    expires_at: datetime = Field(index=True)  # housekeeping purges expired codes
    consumed_at: datetime | None = None
    created_at: datetime = created_at_field()


class RateLimitHit(SQLModel, table=True):
    """One counted attempt (login, OTP, reset) in a bucket keyed by account or address."""

    __table_args__ = (
        # Every check counts one (bucket, key) over a window of created_at.
        Index("ix_ratelimithit_bucket_key_created_at", "bucket", "key", "created_at"),
    )
    id: int | None = Field(default=None, primary_key=True)
    bucket: str = Field(max_length=32)
    key: str = Field(max_length=254)
    created_at: datetime = Field(default_factory=utcnow, nullable=False, index=True)  # purge


class Child(SQLModel, table=True):
    __table_args__ = (
        # One default child per parent (a partial unique index, on SQLite and PostgreSQL).
        partial_unique("uq_child_default_per_parent", "parent_id", where="is_default"),
    )
    id: int | None = Field(default=None, primary_key=True)
    parent_id: int = fk("parent.id", ondelete="CASCADE")
    first_name: str = Field(max_length=15)
    last_name: str = Field(max_length=15)
    city_id: int = fk("city.id")
    school_id: int = fk("school.id")
    teacher_id: int = fk("teacher.id")
    grade_id: int = fk("grade.id")
    is_default: bool = False
    is_active: bool = True  # deleting a child keeps its order history
    created_at: datetime = created_at_field()


class ChildDiet(SQLModel, table=True):
    """One dietary need of a child (``domain.diet.Diet``): a preference the menus are matched
    against, never a safety rule (that is ``ChildAllergy``)."""

    child_id: int = Field(foreign_key="child.id", primary_key=True, ondelete="CASCADE")
    diet: str = Field(max_length=16, primary_key=True)


class ChildAllergy(SQLModel, table=True):
    __table_args__ = (UniqueConstraint("child_id", "ingredient_id"),)
    id: int | None = Field(default=None, primary_key=True)
    child_id: int = fk("child.id", ondelete="CASCADE")
    ingredient_id: int = fk("allergeningredient.id")
    alert_level: str = Field(max_length=16)  # Major, Medium, Low, High, Non-allergic
