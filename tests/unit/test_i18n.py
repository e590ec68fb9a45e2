"""The catalogs are complete: a message key used in code but missing from EN or FR fails here."""

import importlib
import pkgutil
import re
import string
from pathlib import Path

import pytest

import hotmeals
from hotmeals import i18n
from hotmeals.domain.allergy import AlertLevel, PriorityAllergen
from hotmeals.domain.money import NBSP, format_money
from hotmeals.domain.pricing import PortionSize
from hotmeals.domain.validation import REQUIRED_KEYS
from hotmeals.i18n import CATALOGS, EN, FR, catalog, normalize_lang, t
from hotmeals.i18n import tn as t_n

PACKAGE_ROOT = Path(hotmeals.__file__).parent
# DomainError("code", ...) or DomainError(code="code", ...), across line breaks.
DOMAIN_ERROR_RE = re.compile(r"DomainError\(\s*(?:code\s*=\s*)?([\"'])([^\"'\n]+)\1")
# In validation.py errors are built through a small helper: _error("code", field).
VALIDATION_ERROR_RE = re.compile(r"\b_error\(\s*([\"'])([^\"'\n]+)\1")
CATALOG_MODULES = [m.name for m in pkgutil.iter_modules(catalog.__path__)]


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def codes_in(pattern: re.Pattern[str], files: list[Path]) -> set[tuple[str, str]]:
    found = set()
    for path in files:
        for match in pattern.finditer(path.read_text(encoding="utf-8")):
            found.add((str(path.relative_to(PACKAGE_ROOT)), match.group(2)))
    return found


def source_files() -> list[Path]:
    return sorted(p for p in PACKAGE_ROOT.rglob("*.py") if "__pycache__" not in p.parts)


def test_english_and_french_have_the_same_keys():
    assert set(EN) == set(FR), {"only_en": set(EN) - set(FR), "only_fr": set(FR) - set(EN)}


@pytest.mark.parametrize("name", CATALOG_MODULES)
def test_each_catalog_module_has_the_same_keys_in_both_languages(name):
    module = importlib.import_module(f"{catalog.__name__}.{name}")
    assert set(module.EN) == set(module.FR)


def test_no_message_is_empty():
    for lang, messages in CATALOGS.items():
        empty = [key for key, text in messages.items() if not str(text).strip()]
        assert not empty, f"{lang}: {empty}"


def test_every_placeholder_is_in_both_languages():
    mismatched = {
        key: (placeholders(EN[key]), placeholders(FR[key]))
        for key in EN
        if placeholders(EN[key]) != placeholders(FR[key])
    }
    assert not mismatched


def test_every_message_formats_with_its_placeholders():
    for messages in CATALOGS.values():
        for text in messages.values():
            params = {name: "x" for name in placeholders(text)}
            text.format(**params)  # raises on a malformed brace


def test_every_domain_error_code_in_the_source_is_in_the_catalog():
    found = codes_in(DOMAIN_ERROR_RE, source_files())
    found |= codes_in(VALIDATION_ERROR_RE, [PACKAGE_ROOT / "domain" / "validation.py"])
    assert ("domain/cutoff.py", "meal_day_closed") in found  # the scan is not vacuous
    missing = sorted((path, code) for path, code in found if code not in EN)
    assert not missing


def test_keys_built_from_names_are_in_the_catalog():
    keys = set(REQUIRED_KEYS.values())
    keys |= {level.label_key for level in AlertLevel}
    keys |= {allergen.label_key for allergen in PriorityAllergen}
    keys |= {size.label_key for size in PortionSize}
    assert keys <= set(EN)


def test_t_fills_placeholders_in_each_language():
    assert t("meal_day_closed", "en", date="2026-03-09") == (
        "Orders and changes for 2026-03-09 are closed"
    )
    assert "2026-03-09" in t("meal_day_closed", "fr", date="2026-03-09")


def test_t_uses_french_for_french_variants_and_english_otherwise():
    assert t("phone_required", "fr-CA") == FR["phone_required"]
    assert t("phone_required", None) == EN["phone_required"]
    assert t("phone_required", "de") == EN["phone_required"]
    assert normalize_lang("FR") == "fr"


def test_unknown_key_is_an_error():
    with pytest.raises(KeyError):
        t("no_such_key_anywhere", "en")


def test_price_range_message_matches_the_price_constants():
    assert format_money(500) in EN["price_out_of_range"]
    assert format_money(725) in EN["price_out_of_range"]
    assert format_money(500, "fr") in FR["price_out_of_range"]
    assert format_money(725, "fr") in FR["price_out_of_range"]
    assert NBSP in FR["price_out_of_range"]


def test_portion_labels_follow_the_spec():
    assert FR["portion_small"] == "1 portion"
    assert FR["portion_large"] == "1 portion + upgrade"


def test_a_size_has_one_name_on_every_screen_mail_and_feed():
    """The meal dialog, the cart, the receipt, standing orders, the reminders and the calendar
    feed all name a size with ``labels.size_label`` (``portion_small``/``portion_large``): no
    catalogue has a second word for it."""
    sizes = {"small", "large", "petit", "grand", "petite", "grande"}
    for lang, table in (("en", EN), ("fr", FR)):
        other = [k for k, v in table.items() if k.rsplit(".", 1)[-1] in sizes or v in sizes]
        assert other == [], (lang, other)


def test_i18n_module_exposes_both_languages():
    assert i18n.LANGS == ("en", "fr")


def test_french_names_the_terms_one_way():
    """One page, one name: the footer, the steps, sign-up, the message and the CMS title all say
    "Conditions d'utilisation" (never also "Conditions générales")."""
    from hotmeals.db.seed_pages_fr import PAGES

    texts = [text for key, text in FR.items() if "terms" in key] + [PAGES["terms"][0]]
    assert texts and all("conditions générales" not in text.lower() for text in texts)
    assert all("conditions d'utilisation" in text.lower() for text in texts)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_codes_said_where_the_address_may_belong_to_nobody_promise_nothing(lang):
    """Sign-up with a taken address and a resend answer the same as a real one (privacy), so
    their words must be true either way: 'if an account can use ...', never 'we sent'."""
    for key in ("signup_success", "otp_on_its_way", "ui.otp.sent_to", "forgot_password_sent"):
        text = t(key, lang, email="a@b.ca").lower()
        assert text.startswith(("if ", "si ")) or " if " in text or " si " in text, key
        assert "we have sent" not in text and "nous avons envoyé" not in text, key


def test_counted_messages_take_their_cldr_plural_form_through_babel():
    """French counts 0 and 1 as singular, English only 1; a form a catalogue does not write
    (French "many", a million) reads as "other"."""
    assert i18n.plural_form(0, "fr") == "one" and i18n.plural_form(0, "en") == "other"
    assert t_n("receipt.cancelled_qty", 1, "fr") == "1 annulé"
    assert t_n("receipt.cancelled_qty", 0, "fr") == "0 annulé"
    assert t_n("receipt.cancelled_qty", 2, "fr") == "2 annulés"
    assert t_n("receipt.cancelled_qty", 1_000_000, "fr") == "1000000 annulés"
    assert t_n("ui.safe.hidden", 1, "en", name="Zoe") == "1 hidden: Zoe cannot have it."
    assert t_n("ui.safe.hidden", 3, "en", name="Zoe") == "3 hidden: Zoe cannot have them."
    assert t_n("away.done", 1, "en", refund="") == "Done: 1 meal cancelled. "
    assert t_n("away.done", 2, "fr", refund="").startswith("C'est fait : 2 repas annulés.")


def test_the_screens_count_rule_is_babels_for_whole_counts():
    """``ui.shared_state.i18n.t_count`` picks "one" for 1 alone in English and for 0 and 1 in French
    (the header's "Panier, 0 article"): the rule Babel gives for every whole count."""
    for count in range(0, 2001):
        assert (i18n.plural_form(count, "en") == "one") == (count == 1), count
        assert (i18n.plural_form(count, "fr") == "one") == (count <= 1), count
    assert i18n.EN["ui.header.items.one"] == "item" and i18n.FR["ui.header.items.one"] == "article"


def test_no_message_hedges_a_plural_or_a_gender_with_brackets():
    """Never "commandé(s)" or "absent(e)": a counted message has its plural forms (``tn``); a
    child's state is said without a gender (no pronoun is recorded)."""
    hedged = re.compile(r"\w\((s|e|es|x)\)")
    for lang, table in (("en", EN), ("fr", FR)):
        found = {k: v for k, v in table.items() if hedged.search(v)}
        assert found == {}, (lang, found)
        for key in table:
            if key.endswith(".one"):
                assert key.removesuffix(".one") + ".other" in table, key


def test_french_asks_the_parent_without_a_gender():
    """No pronoun of the parent is recorded: "Voulez-vous vraiment continuer?", never "Êtes-vous
    sûr?" (or "sûre")."""
    gendered = re.compile(r"\b(Êtes-vous|êtes-vous) (sûr|sûre|certain|certaine)\b")
    assert {k: v for k, v in FR.items() if gendered.search(v)} == {}
