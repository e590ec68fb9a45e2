"""A child's allergy profile: the alert level and Canada's priority food allergens.

``AlertLevel`` values are the strings the app has always stored and shown ("Major", ...); their
labels in each language are catalog keys (``allergy_level_*``). The priority allergens are
Health Canada's list of food allergens that must be declared on prepackaged food labels
(``PRIORITY_ALLERGENS``); each has a label key (``allergen_*``).
Ingredient suggestions beyond these come from the admin's list.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from hotmeals.domain.errors import DomainError
from hotmeals.i18n import t


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
        return t(self.label_key, lang)


# Most severe first: how the levels are offered and a child's allergies are listed.
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
        return t(self.label_key, lang)


PRIORITY_ALLERGENS: tuple[PriorityAllergen, ...] = tuple(PriorityAllergen)


# --- a meal for a child ------------------------------------------------------------


class MealVerdict(StrEnum):
    """What a child's allergy profile says about one meal; most severe wins."""

    SAFE = "safe"  # none of the meal's allergens is one of the child's (or only Non-allergic)
    NOTICE = "notice"  # Low: shown, nothing to confirm
    ACKNOWLEDGE = "acknowledge"  # High or Medium: the parent confirms, the line keeps it
    REFUSED = "refused"  # Major: never added to a cart


_VERDICT_OF_LEVEL: dict[str, MealVerdict] = {
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


def meal_verdict(levels: Iterable[str]) -> MealVerdict:
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


def ensure_can_add(matches: Iterable[tuple[str, str]], *, acknowledged: bool) -> MealVerdict:
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


# --- the meal as composed ---------------------------------------------------------
#
# The rule above applies to everything on the tray: the meal and each chosen menu option, meal
# option and add-on, each with its own allergens. The most severe level of any part decides;
# a refusal names the part and the allergen ("White milk (250 mL) contains Milk").


@dataclass(frozen=True)
class Component:
    """One part of a meal as composed: the meal itself (``is_meal``) or a chosen option or
    add-on. ``matches``: (allergen name, child's alert level) of the child's allergens this part
    contains, names in the request's language. ``field``: the request field that chose it."""

    name: str
    matches: tuple[tuple[str, str], ...] = ()
    is_meal: bool = False
    field: str = "meal_id"


@dataclass(frozen=True)
class Composition:
    """What a child's allergies say about a meal as composed. ``refused``: the parts with a
    Major (or unreadable) allergen; ``acknowledge`` / ``notice``: the allergen names (an
    option's or add-on's as "Milk (Cheese string)") that need the acknowledgement / are Low."""

    verdict: MealVerdict
    refused: tuple[tuple[Component, tuple[str, ...]], ...]
    acknowledge: tuple[str, ...]
    notice: tuple[str, ...]

    @property
    def meal_refused(self) -> tuple[str, ...]:
        """The meal's own Major allergens (empty when only an option or add-on is refused)."""
        for part, names in self.refused:
            if part.is_meal:
                return names
        return ()


def _level_verdict(level: str) -> MealVerdict:
    try:
        return _VERDICT_OF_LEVEL[AlertLevel(level)]
    except ValueError:
        return MealVerdict.REFUSED


def compose(components: Iterable[Component], lang: str | None = "en") -> Composition:
    """The verdict for the meal as composed (the worst of its parts) with the names the
    messages need, each name once, in the order of the parts."""
    worst = MealVerdict.SAFE
    refused: list[tuple[Component, tuple[str, ...]]] = []
    acknowledge: list[str] = []
    notice: list[str] = []
    for part in components:
        by_verdict: dict[MealVerdict, list[str]] = {}
        for name, level in part.matches:
            names = by_verdict.setdefault(_level_verdict(level), [])
            if name not in names:
                names.append(name)
        for verdict in by_verdict:
            if _VERDICT_RANK.index(verdict) > _VERDICT_RANK.index(worst):
                worst = verdict
        if MealVerdict.REFUSED in by_verdict:
            refused.append((part, tuple(by_verdict[MealVerdict.REFUSED])))
        for verdict, target in (
            (MealVerdict.ACKNOWLEDGE, acknowledge),
            (MealVerdict.NOTICE, notice),
        ):
            found = by_verdict.get(verdict)
            if not found:
                continue
            for name in found:  # each allergen with the option or add-on it is in
                named = (
                    name
                    if part.is_meal
                    else t("allergy_in_item", lang, allergens=name, item=part.name)
                )
                if named not in target:
                    target.append(named)
    return Composition(worst, tuple(refused), tuple(acknowledge), tuple(notice))


def refused_extras_text(composition: Composition, lang: str | None = "en") -> str:
    """'White milk (250 mL) contains Milk; Cheese string contains Milk' for the refused options
    and add-ons of a composition."""
    return "; ".join(
        t("allergy_item_contains", lang, item=part.name, allergens=", ".join(names))
        for part, names in composition.refused
        if not part.is_meal
    )


def ensure_can_add_composed(
    components: Iterable[Component], *, acknowledged: bool, lang: str | None = "en"
) -> Composition:
    """The allergy rule when a meal as composed goes into a child's cart or order. The meal's
    own Major allergen refuses it (``allergy_refused``, naming the allergens); an option's or
    add-on's refuses it naming the part and the allergen (``allergy_refused_extra``: choose
    another option or leave it out); High and Medium anywhere need ``acknowledged``
    (``allergy_ack_required``, naming them); Low passes with a notice."""
    composition = compose(components, lang)
    if composition.verdict is MealVerdict.REFUSED:
        if composition.meal_refused:
            raise DomainError(
                "allergy_refused", field="meal_id", allergens=", ".join(composition.meal_refused)
            )
        first = composition.refused[0][0]
        raise DomainError(
            "allergy_refused_extra",
            field=first.field,
            items=refused_extras_text(composition, lang),
        )
    if composition.verdict is MealVerdict.ACKNOWLEDGE and not acknowledged:
        raise DomainError(
            "allergy_ack_required",
            field="allergy_ack",
            allergens=", ".join(composition.acknowledge),
        )
    return composition


def ack_covers(ack_text: str | None, needed: Iterable[Iterable[str]]) -> bool:
    """Whether a stored acknowledgement still covers what the meal as composed needs now:
    ``needed`` holds, for each allergen that needs one, its names in every language; the
    acknowledgement (written in the parent's language when given) must name each of them.
    An allergy raised to High after the meal was added is not covered by an older one."""
    text = ack_text or ""
    if not text:
        return not list(needed)
    return all(any(name and name in text for name in names) for names in needed)


def ack_needed(components: Iterable[Component]) -> list[str]:
    """The allergen names of the parts (as matched) whose level needs an acknowledgement."""
    out: list[str] = []
    for part in components:
        for name, level in part.matches:
            if _level_verdict(level) is MealVerdict.ACKNOWLEDGE and name not in out:
                out.append(name)
    return out
