"""Every table, importable from one place (Alembic reads ``SQLModel.metadata`` after this)."""

from hotmeals.db.models._base import utcnow
from hotmeals.db.models.accounts import (
    Child,
    ChildAllergy,
    NotificationPreference,
    OtpCode,
    Parent,
    ParentAltEmail,
    RateLimitHit,
    SessionToken,
)
from hotmeals.db.models.catalog import (
    AddOn,
    AllergenIngredient,
    City,
    Grade,
    Meal,
    MealAllergen,
    MealOption,
    MenuDay,
    MenuDayMeal,
    MenuOption,
    Portion,
    PriceTier,
    School,
    Teacher,
    Vendor,
)
from hotmeals.db.models.content import AuditEvent, CmsPage, ContactMessage, EmailOutbox, Faq
from hotmeals.db.models.jobs import JobLease
from hotmeals.db.models.orders import (
    CancelCartLine,
    CancelReason,
    CartLine,
    CartLineAddOn,
    Donation,
    Order,
    OrderCancellation,
    OrderCancellationLine,
    OrderLine,
    OrderLineAddOn,
    Payment,
    PromoCode,
    Refund,
    StoredCard,
)
from hotmeals.db.models.submissions import FormSubmission

__all__ = [
    "AddOn", "AllergenIngredient", "AuditEvent", "CancelCartLine", "CancelReason", "CartLine",
    "CartLineAddOn", "Child", "ChildAllergy", "City", "CmsPage", "ContactMessage", "Donation",
    "EmailOutbox", "Faq", "FormSubmission", "Grade", "JobLease", "Meal", "MealAllergen",
    "MealOption", "MenuDay",
    "MenuDayMeal", "MenuOption", "NotificationPreference", "Order", "OrderCancellation",
    "OrderCancellationLine", "OrderLine",
    "OrderLineAddOn", "OtpCode", "Parent", "ParentAltEmail", "Payment", "Portion", "PriceTier",
    "PromoCode", "RateLimitHit", "Refund", "School", "SessionToken", "StoredCard", "Teacher",
    "Vendor", "utcnow",
]
