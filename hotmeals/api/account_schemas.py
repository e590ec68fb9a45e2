"""Request and answer payloads of the account, profile, content and children calls.

Request fields are optional in the schema on purpose: a missing field is answered by the
service with the form's own message ('Please enter email address', ...), as the screens do,
rather than by a generic 'field required'. Numbers are accepted where text is expected
(``"phone": 6135550142``), and ids as numbers or digit strings.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AliasChoices, BaseModel, ConfigDict, Field

from hotmeals.api.deps import Id

Text = Annotated[str, Field(max_length=10_000)]
AlertLevelName = Literal["Major", "Medium", "Low", "High", "Non-allergic"]


class In(BaseModel):
    model_config = ConfigDict(extra="ignore", coerce_numbers_to_str=True)


# --- requests: auth -------------------------------------------------------------------------


class SignupIn(In):
    first_name: Text | None = None
    last_name: Text | None = None
    email: Text | None = None
    phone: Text | None = None
    password: Text | None = None
    confirm_password: Text | None = None
    terms: bool | None = Field(default=None, description="Must be true.")


class LoginIn(In):
    email: Text | None = Field(default=None, description="E-mail, or give phone instead.")
    phone: Text | None = None
    password: Text | None = None


OtpPurpose = Literal["VERIFY_EMAIL", "RESET_PASSWORD"]


class ResendOtpIn(In):
    email: Text | None = None
    purpose: OtpPurpose | None = Field(
        default=None,
        validation_alias=AliasChoices("purpose", "type"),
        description="VERIFY_EMAIL (default, sign-up) or RESET_PASSWORD (forgot password).",
    )


class VerifyOtpIn(In):
    email: Text | None = None
    otp: Text | None = Field(default=None, description="The 6-digit code from the e-mail.")
    purpose: OtpPurpose | None = Field(
        default=None,
        validation_alias=AliasChoices("purpose", "type"),
        description="VERIFY_EMAIL (default: verifies and signs in) or RESET_PASSWORD (checks "
        "the reset code without using it).",
    )


class EmailIn(In):
    email: Text | None = None


class NewPasswordIn(In):
    email: Text | None = None
    otp: Text | None = None
    password: Text | None = None
    confirm_password: Text | None = None


class ChangePasswordIn(In):
    current_password: Text | None = Field(
        default=None, validation_alias=AliasChoices("current_password", "old_password")
    )
    new_password: Text | None = None
    confirm_password: Text | None = None


class EditProfileIn(In):
    first_name: Text | None = None
    last_name: Text | None = None
    phone: Text | None = None
    alt_emails: list[Text] | None = Field(
        default=None, max_length=20, description="Replaces the alternate e-mails when given."
    )
    profile_image: Annotated[str, Field(max_length=4_000_000)] | None = Field(
        default=None,
        description="A PNG, JPEG or WebP picture of at most 2 MB, base64 or a data: URL.",
    )
    language: Literal["en", "fr"] | None = None


class AltEmailVerifyIn(In):
    email: Text | None = None
    otp: Text | None = None


# --- requests: user ---------------------------------------------------------------------------


class CmsPageIn(In):
    slug: Text | None = Field(
        default=None,
        validation_alias=AliasChoices("slug", "type", "page"),
        description="about, terms, privacy, or faq.",
    )


class ContactIn(In):
    first_name: Text | None = None
    last_name: Text | None = None
    email: Text | None = None
    phone: Text | None = None
    subject: Text | None = None
    description: Text | None = None


class ChildIn(In):
    first_name: Text | None = None
    last_name: Text | None = None
    city_id: Id | None = None
    school_id: Id | None = None
    teacher_id: Id | None = None
    grade_id: Id | None = None
    diets: list[Annotated[str, Field(max_length=40)]] | None = Field(
        default=None,
        max_length=20,
        description="The child's dietary needs, as codes (vegetarian, vegan, halal, no_pork, "
        "no_beef, gluten_free); left out: none when adding, unchanged when editing; an "
        "unknown code is refused.",
        examples=[["vegetarian", "halal"]],
    )


class EditChildIn(ChildIn):
    child_id: Id | None = None


class ChildIdIn(In):
    child_id: Id | None = None


class CityIdIn(In):
    city_id: Id | None = None


class SchoolIdIn(In):
    school_id: Id | None = None


class AllergyItemIn(In):
    ingredient_id: Id
    alert_level: AlertLevelName


class ChildAllergiesIn(In):
    child_id: Id | None = None
    allergies: list[AllergyItemIn] = Field(
        default_factory=list, max_length=100, description="Replaces the list; may be empty."
    )


class NotificationsIn(In):
    order_confirmation: bool | None = None
    order_reminder: bool | None = None
    cutoff_reminder: bool | None = None
    refund: bool | None = None
    menu_updates: bool | None = None
    newsletter: bool | None = None


class SuggestionsIn(In):
    search: Text | None = Field(
        default=None, validation_alias=AliasChoices("search", "query", "name")
    )
    limit: Annotated[int, Field(ge=1, le=50)] = 10


# --- answers ------------------------------------------------------------------------------------


class FieldOut(BaseModel):
    field: str | None = Field(default=None, description="The form field the message is about.")


class OtpSentOut(BaseModel):
    email: str
    expires_in: int = Field(description="Seconds the code stays valid.")
    resend_after: int = Field(description="Seconds before another code can be requested.")


class OtpValidOut(BaseModel):
    """VerifyOtp with purpose RESET_PASSWORD: the code is right (nothing is consumed yet)."""

    email: str
    otp_valid: bool


class AltEmailOut(BaseModel):
    email: str
    verified: bool


class SessionDataOut(BaseModel):
    id: int
    token: str | None
    first_name: str
    last_name: str
    email: str
    alt_emails: list[AltEmailOut]
    signup_step: Literal["ADD_CHILD", "ALLERGY", "COMPLETE"]
    isLoginData: bool = Field(description="True once sign-up is complete: go to edit-profile.")


class VerifyEmailOut(BaseModel):
    email: str
    verify_email: bool = True


class ResetCodeOut(BaseModel):
    email: str
    otp_valid: bool = True


class NotificationsOut(BaseModel):
    order_confirmation: bool
    order_reminder: bool
    cutoff_reminder: bool
    refund: bool
    menu_updates: bool
    newsletter: bool


class ProfileOut(SessionDataOut):
    profile_image: str | None = Field(description="URL path of the picture, or null.")
    cart_count: int
    cancel_cart_count: int
    active_child_count: int
    phone: str
    language: Literal["en", "fr"]
    notifications: NotificationsOut


class CityOut(BaseModel):
    id: int
    name: str


class SchoolOut(BaseModel):
    id: int
    name: str
    address: str


class TeacherOut(BaseModel):
    id: int
    name: str
    grade_id: int | None
    grade: str


class GradeOut(BaseModel):
    id: int
    code: str
    label: str


class IngredientOut(BaseModel):
    id: int
    name: str
    is_priority: bool


class ChildAllergyOut(BaseModel):
    ingredient_id: int
    name: str
    alert_level: AlertLevelName
    alert_level_label: str


class ChildOut(BaseModel):
    id: int
    first_name: str
    last_name: str
    is_default: bool
    city_id: int
    city: str
    school_id: int
    school: str
    teacher_id: int
    teacher: str
    grade_id: int
    grade: str
    allergies: list[ChildAllergyOut]
    diets: list[str] = Field(description="The child's dietary needs, as codes (may be empty).")


class FaqOut(BaseModel):
    id: int
    question: str
    answer: str


class CmsPageOut(BaseModel):
    slug: str
    language: Literal["en", "fr"]
    title: str
    body: str = Field(description="Markdown.")
    updated_at: str | None = None
    items: list[FaqOut] | None = Field(default=None, description="The questions (slug faq).")
