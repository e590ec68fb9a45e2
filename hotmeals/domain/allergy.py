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


# --- a meal for a child (issue 9) ------------------------------------------------------------


class MealVerdict(StrEnum):
    """What a child's allergy profile says about one meal; most severe wins."""

    SAFE = "safe"  # none of the meal's allergens is one of the child's (or only Non-allergic)
    NOTICE = "notice"  # Low: shown, nothing to confirm
    ACKNOWLEDGE = "acknowledge"  # High or Medium: the parent confirms, the line keeps it
    REFUSED = "refused"  # Major: never added to a cart


_VERDICT_OF_LEVEL = {
    AlertLevel.MAJOR: MealVerdict.REFUSED,
    AlertLevel.HIGH: MealVerdict.ACKNOWLEDGE,
    AlertLevel.MEDIUM: MealVerdict.ACKNOWLEDGE,
    AlertLevel.LOW: MealVerdict.NOTICE,
    AlertLevel.NON_ALLERGIC: MealVerdict.SAFE,
}
_VERDICT_RANK = (
    MealVerdict.SAFE,
    MealVerdict.NOTICE,
    MealVerdict.ACKNOWLEDGE,
    MealVerdict.REFUSED,
)


def meal_verdict(levels) -> MealVerdict:
    """The verdict for a meal from the child's alert levels of the meal's allergens (the
    ingredients both the meal and the child's profile list). An unknown stored level counts
    as Major: a value nobody can read is not a reason to serve the meal."""
    worst = MealVerdict.SAFE
    for value in levels:
        try:
            verdict = _VERDICT_OF_LEVEL[AlertLevel(value)]
        except ValueError:
            verdict = MealVerdict.REFUSED
        if _VERDICT_RANK.index(verdict) > _VERDICT_RANK.index(worst):
            worst = verdict
    return worst


def ensure_can_add(matches, *, acknowledged: bool) -> MealVerdict:
    """The allergy rule when a meal goes into a child's cart. ``matches``: (allergen name,
    alert level) pairs of the child's allergies found in the meal. Major refuses
    (``allergy_refused``); High and Medium need ``acknowledged`` (``allergy_ack_required``);
    Low passes with a notice. The message names the allergens."""
    pairs = list(matches)
    verdict = meal_verdict(level for _, level in pairs)
    if verdict is MealVerdict.REFUSED:
        names = [n for n, level in pairs if _VERDICT_OF_LEVEL.get(level) in (None, verdict)]
        raise DomainError("allergy_refused", field="meal_id", allergens=", ".join(names))
    if verdict is MealVerdict.ACKNOWLEDGE and not acknowledged:
        names = [n for n, level in pairs if _VERDICT_OF_LEVEL.get(level) is verdict]
        raise DomainError("allergy_ack_required", field="allergy_ack", allergens=", ".join(names))
    return verdict
