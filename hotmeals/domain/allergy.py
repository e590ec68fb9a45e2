"""A child's allergy profile: the alert level and Canada's priority food allergens.

``AlertLevel`` values are the strings the app has always stored and shown ("Major", ...); their
labels in each language are catalog keys (``allergy_level_*``). The priority allergens are
Health Canada's list of food allergens that must be declared on prepackaged food labels
(``PRIORITY_ALLERGENS``); each has a label key (``allergen_*``).
Ingredient suggestions beyond these come from the admin's list.
"""

from __future__ import annotations

from enum import StrEnum

from hotmeals.domain.errors import DomainError


class AlertLevel(StrEnum):
    MAJOR = "Major"
    MEDIUM = "Medium"
    LOW = "Low"
    HIGH = "High"
    NON_ALLERGIC = "Non-allergic"

    @property
    def label_key(self) -> str:
        return "allergy_level_" + self.name.lower()

    def label(self, lang: str | None = "en") -> str:
        from hotmeals.i18n import t

        return t(self.label_key, lang)


# Most severe first: how the levels are offered and a child's allergies are listed (issue 12).
BY_SEVERITY: tuple[AlertLevel, ...] = (
    AlertLevel.MAJOR,
    AlertLevel.HIGH,
    AlertLevel.MEDIUM,
    AlertLevel.LOW,
    AlertLevel.NON_ALLERGIC,
)


def severity_rank(value: str) -> int:
    """0 for Major ... 4 for Non-allergic; an unknown stored value last."""
    try:
        return BY_SEVERITY.index(AlertLevel(value))
    except ValueError:
        return len(BY_SEVERITY)


def parse_alert_level(value: object) -> AlertLevel:
    """A stored or submitted level; ``DomainError("invalid_alert_level")`` otherwise."""
    try:
        if not isinstance(value, str):
            raise ValueError(value)
        return AlertLevel(value)
    except ValueError:
        raise DomainError("invalid_alert_level", field="alert_level") from None


class PriorityAllergen(StrEnum):
    PEANUTS = "peanuts"
    TREE_NUTS = "tree_nuts"
    MILK = "milk"
    EGGS = "eggs"
    FISH = "fish"
    CRUSTACEANS_AND_SHELLFISH = "crustaceans_and_shellfish"
    SESAME = "sesame"
    SOY = "soy"
    WHEAT_AND_TRITICALE = "wheat_and_triticale"
    MUSTARD = "mustard"
    SULPHITES = "sulphites"

    @property
    def label_key(self) -> str:
        return f"allergen_{self.value}"

    def label(self, lang: str | None = "en") -> str:
        from hotmeals.i18n import t

        return t(self.label_key, lang)


PRIORITY_ALLERGENS: tuple[PriorityAllergen, ...] = tuple(PriorityAllergen)
