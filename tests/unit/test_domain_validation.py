import pytest

from hotmeals.domain.errors import DomainError
from hotmeals.domain.validation import (
    CHILD_RULES,
    CONTACT_RULES,
    PROFILE_RULES,
    REQUIRED_KEYS,
    is_strong_password,
    normalize_name,
    raise_first,
    validate_all,
    validate_change_password,
    validate_confirm_password,
    validate_email,
    validate_name,
    validate_password,
    validate_phone,
    validate_required,
    validate_terms,
)
from hotmeals.i18n import EN, FR, t

GOOD_PASSWORD = "Secret#2026"

# The messages of docs/product.md §5, verbatim.
SPEC_MESSAGES = {
    "phone_required": "Please enter phone number",
    "phone_invalid": "Please enter valid phone number",
    "phone_too_long": "Phone number should not exceed 13 characters",
    "phone_too_short": "Please enter atleast 8 digits for phone number",
    "email_required": "Please enter email address",
    "email_invalid": "Please enter valid email address",
    "password_required": "Please enter password",
    "password_weak": "Password must contain at least 8 characters, one uppercase, one number "
    "and one special case character",
    "confirm_password_required": "Please enter confirm password",
    "password_mismatch": "Password do not match",
    "current_password_required": "Current password is required",
    "new_password_required": "New password is required",
    "confirm_new_password_required": "Confirm password is required",
    "passwords_do_not_match": "Passwords do not match",
    "name_letters_only": "Please enter only letters (A-Z, a-z) with no special characters or "
    "numbers",
    "name_too_long": "Name should not exceed 15 characters",
    "first_name_required": "Please enter first name",
    "last_name_required": "Please enter last name",
    "city_required": "Please enter city",
    "school_required": "Please Select School",
    "teacher_required": "Please enter teacher name",
    "grade_required": "Please enter grade",
    "subject_required": "Please enter subject",
    "description_required": "Please tell us how we can help",  # the field's label
    "terms_required": "Terms & condition is required",
}


def code(error: DomainError | None) -> str | None:
    return None if error is None else error.code


@pytest.mark.parametrize(("key", "text"), sorted(SPEC_MESSAGES.items()))
def test_english_messages_are_the_spec_verbatim(key, text):
    assert EN[key] == text


@pytest.mark.parametrize("key", sorted(SPEC_MESSAGES))
def test_every_message_has_a_different_french_text(key):
    assert FR[key] and FR[key] != EN[key]


def test_french_phone_required_is_real_french():
    assert t("phone_required", "fr") == "Veuillez saisir le numéro de téléphone"


# Phone


@pytest.mark.parametrize(
    "phone",
    [
        "41655512",
        "4165551234",
        "+14165551234",
        "416-555-1234",
        "416 555 1234",
        "(416)5551234",
        "+1 416 555 12",
        " 4165551234 ",
    ],
)
def test_valid_phone_numbers_pass(phone):
    assert validate_phone(phone) is None


@pytest.mark.parametrize("phone", [None, "", "   "])
def test_missing_phone_is_required(phone):
    assert code(validate_phone(phone)) == "phone_required"


@pytest.mark.parametrize(
    "phone",
    [
        "416.555.1234",
        "416555123a",
        "1+4165551234",
        "++4165551234",
        "416/5551234",
        "４１６５５５１２３４",
        "phone",
    ],
)
def test_phone_with_other_characters_is_invalid(phone):
    assert code(validate_phone(phone)) == "phone_invalid"


def test_phone_of_13_digits_passes_and_14_is_too_long():
    assert validate_phone("+1-416-555-12") is None
    assert validate_phone("1234567890123") is None
    assert code(validate_phone("12345678901234")) == "phone_too_long"
    assert code(validate_phone("+1 (234) 567-890-1234")) == "phone_too_long"


@pytest.mark.parametrize("phone", ["+1 (613) 555-0142", "(416) 555-1234", "+1 416 555 1234"])
def test_formatting_characters_are_not_counted(phone):
    """Sign-in and sign-up count the same way: digits, not the spaces and brackets around them."""
    assert validate_phone(phone) is None


@pytest.mark.parametrize("phone", ["1234567", "+1234567", "(123) 45-67", "()()--"])
def test_phone_with_fewer_than_8_digits_is_too_short(phone):
    assert code(validate_phone(phone)) == "phone_too_short"


def test_phone_rules_run_in_spec_order():
    # Both too long and invalid: the pattern is checked first.
    assert code(validate_phone("416.555.1234.567")) == "phone_invalid"
    # Too many digits is said before anything about the count being low.
    assert code(validate_phone("1 2 3 4 5 6 7 8 9 0 1 2 3 4")) == "phone_too_long"


def test_phone_error_names_its_field():
    assert validate_phone("").field == "phone"
    assert validate_phone("", field="mobile").field == "mobile"


# Email


@pytest.mark.parametrize(
    "email",
    [
        "parent@example.com",
        "a.b+kids@school.on.ca",
        "o'neil@example.org",
        "x@sub-domain.example.io",
        "  parent@example.com  ",
        "UPPER@EXAMPLE.COM",
    ],
)
def test_valid_emails_pass(email):
    assert validate_email(email) is None


@pytest.mark.parametrize("email", [None, "", "  "])
def test_missing_email_is_required(email):
    assert code(validate_email(email)) == "email_required"


@pytest.mark.parametrize(
    "email",
    [
        "parent",
        "parent@",
        "@example.com",
        "parent@example",
        "parent@@example.com",
        "par ent@example.com",
        ".parent@example.com",
        "parent.@example.com",
        "pa..rent@example.com",
        "parent@-example.com",
        "parent@example-.com",
        "parent@example.c",
        "parent@exa_mple.com",
        "parent@example..com",
        "pärent@example.com",
        "a@b.com\nc@d.com",
        "a" * 250 + "@x.com",
    ],
)
def test_malformed_emails_are_invalid(email):
    assert code(validate_email(email)) == "email_invalid"


# Password


@pytest.mark.parametrize("password", [GOOD_PASSWORD, "Aa1!aaaa", "Zz9?Zz9?", "pass WORD 1$"])
def test_strong_passwords_pass(password):
    assert validate_password(password) is None
    assert is_strong_password(password)


@pytest.mark.parametrize("password", [None, ""])
def test_missing_password_is_required(password):
    assert code(validate_password(password)) == "password_required"


@pytest.mark.parametrize(
    "password",
    [
        "Aa1!aaa",
        "aa1!aaaa",
        "AA1!AAAA",
        "Aa!aaaaa",
        "Aa1aaaaa",
        "Aa1 aaaa",
        "        ",
        "Éa1!aaaa".replace("a", "é"),
    ],
)
def test_weak_passwords_are_rejected(password):
    assert code(validate_password(password)) == "password_weak"


def test_password_surrounding_spaces_are_kept():
    # A space is not a special character, and passwords are not stripped.
    assert code(validate_password(" Aa1aaaa ")) == "password_weak"


def test_confirm_password_must_be_given_strong_and_equal():
    assert validate_confirm_password(GOOD_PASSWORD, GOOD_PASSWORD) is None
    assert code(validate_confirm_password(GOOD_PASSWORD, "")) == "confirm_password_required"
    assert code(validate_confirm_password(GOOD_PASSWORD, None)) == "confirm_password_required"
    assert code(validate_confirm_password(GOOD_PASSWORD, "weak")) == "password_weak"
    assert code(validate_confirm_password(GOOD_PASSWORD, "Other#2026")) == "password_mismatch"
    assert validate_confirm_password(GOOD_PASSWORD, "x").field == "confirm_password"


def test_confirm_password_mismatch_says_password_do_not_match():
    error = validate_confirm_password(GOOD_PASSWORD, GOOD_PASSWORD + "x")
    assert error.message("en") == "Password do not match"


def test_change_password_with_valid_input_has_no_errors():
    assert validate_change_password("old", GOOD_PASSWORD, GOOD_PASSWORD) == {}


def test_change_password_reports_every_missing_field_at_once():
    errors = validate_change_password("", "", "")
    assert {field: e.code for field, e in errors.items()} == {
        "current_password": "current_password_required",
        "new_password": "new_password_required",
        "confirm_password": "confirm_new_password_required",
    }
    assert [t(e.code) for e in errors.values()] == [
        "Current password is required",
        "New password is required",
        "Confirm password is required",
    ]


def test_change_password_new_password_must_be_strong():
    errors = validate_change_password("old", "weakpass", "weakpass")
    assert {field: e.code for field, e in errors.items()} == {"new_password": "password_weak"}


def test_change_password_confirm_must_match():
    errors = validate_change_password("old", GOOD_PASSWORD, "Other#2026")
    assert errors["confirm_password"].code == "passwords_do_not_match"
    assert errors["confirm_password"].message() == "Passwords do not match"


# Names


@pytest.mark.parametrize(
    "name",
    [
        "Ann",
        "a",
        "McDonald",
        "ABCDEFGHIJKLMNO",
        "  Ann  ",
        # Names as Canadians write them (bilingual, printed on meal labels).
        "Zoë",
        "Dubé",
        "Émilie",
        "Jean-Luc",
        "O'Neil",
        "O\u2019Neil",
        "Mary Ann",
        "Héloïse",
        "Nguyễn",
        "Łukasz",
        "Ольга",
        "Zoe\u0308",  # e + combining diaeresis: NFC makes it one letter
    ],
)
def test_valid_names_pass(name):
    assert validate_name(name, "first_name") is None


@pytest.mark.parametrize(
    ("field", "key"), [("first_name", "first_name_required"), ("last_name", "last_name_required")]
)
def test_missing_name_has_its_own_message(field, key):
    assert code(validate_name("  ", field)) == key
    assert validate_name(None, field).field == field


@pytest.mark.parametrize(
    "name",
    [
        "Ann2",
        "Ann!",
        "Ann_Lee",
        "-Ann",
        "Ann-",
        "Jean--Luc",
        "O''Neil",
        "Ann.",
        "Ann@",
        "😀Ann",
        "Ann٣",  # an Arabic-Indic digit is still a digit
    ],
)
def test_names_refuse_digits_symbols_and_outer_separators(name):
    assert code(validate_name(name, "last_name")) == "name_letters_only"


def test_name_length_counts_letters_after_normalisation():
    assert validate_name("Zoe\u0308" + "a" * 12, "first_name") is None  # 15 after NFC
    assert code(validate_name("Émilie-Charlotte", "first_name")) == "name_too_long"


def test_stored_name_is_nfc_with_single_inner_spaces():
    assert normalize_name("  Mary   Ann ") == "Mary Ann"
    assert normalize_name("Zoe\u0308") == "Zoë"


def test_name_of_16_letters_is_too_long():
    assert code(validate_name("A" * 16, "first_name")) == "name_too_long"
    assert t("name_too_long") == "Name should not exceed 15 characters"


def test_validate_name_is_only_for_first_and_last_names():
    with pytest.raises(ValueError):
        validate_name("Ann", "city")


# Required fields and terms


@pytest.mark.parametrize(("field", "key"), sorted(REQUIRED_KEYS.items()))
def test_required_fields_have_their_message(field, key):
    error = validate_required("", field)
    assert (error.code, error.field) == (key, field)
    assert validate_required("x", field) is None
    assert key in EN


@pytest.mark.parametrize("value", [None, "", " \t\n"])
def test_blank_values_are_missing(value):
    assert code(validate_required(value, "city")) == "city_required"


def test_non_string_values_count_when_present():
    assert validate_required(42, "school") is None
    assert validate_required(0, "grade") is None


def test_school_message_is_please_select_school():
    assert validate_required(None, "school").message() == "Please Select School"


def test_unknown_required_field_is_a_programming_error():
    with pytest.raises(ValueError):
        validate_required("", "favourite_colour")


def test_terms_must_be_accepted():
    assert validate_terms(True) is None
    for value in (False, None, "true", 1, "on"):
        assert code(validate_terms(value)) == "terms_required"
    assert validate_terms(False).message() == "Terms & condition is required"


# Whole forms


def test_validate_all_reports_every_error_of_a_child_form():
    errors = validate_all({"first_name": "Ann2", "last_name": "Lee", "city": ""}, CHILD_RULES)
    assert {field: e.code for field, e in errors.items()} == {
        "first_name": "name_letters_only",
        "city": "city_required",
        "school": "school_required",
        "teacher": "teacher_required",
        "grade": "grade_required",
    }
    assert all(e.field == field for field, e in errors.items())


def test_validate_all_passes_a_valid_contact_form():
    values = {
        "first_name": "Ann",
        "last_name": "Lee",
        "email": "ann@example.com",
        "phone": "4165551234",
        "subject": "Lunch",
        "description": "Where is my order?",
    }
    assert validate_all(values, CONTACT_RULES) == {}
    assert validate_all(values, PROFILE_RULES) == {}


def test_validate_all_supports_cross_field_rules_and_sets_missing_fields():
    values = {"password": GOOD_PASSWORD, "confirm_password": "Other#2026"}
    rules = {
        "password": validate_password,
        "confirm_password": lambda v: validate_confirm_password(values.get("password"), v),
        "nickname": lambda v: DomainError("name_letters_only"),
    }
    errors = validate_all(values, rules)
    assert errors["confirm_password"].code == "password_mismatch"
    assert errors["nickname"].field == "nickname"
    assert "password" not in errors


def test_raise_first_raises_the_first_error_or_nothing():
    raise_first(None)
    raise_first({})
    error = DomainError("phone_required", field="phone")
    with pytest.raises(DomainError) as info:
        raise_first(error)
    assert info.value is error
    with pytest.raises(DomainError) as info:
        raise_first(validate_change_password("", "", ""))
    assert info.value.code == "current_password_required"


def test_change_password_refuses_the_current_password_as_the_new_one():
    errors = validate_change_password("Lunch@2026", "Lunch@2026", "Lunch@2026")
    assert code(errors["new_password"]) == "new_password_same"
    assert t("new_password_same", "fr").startswith("Le nouveau mot de passe")
    assert validate_change_password("Lunch@2026", "Lunch@2027", "Lunch@2027") == {}
