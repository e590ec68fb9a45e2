"""The form rules of docs/product.md §5. Each validator returns ``None`` or a ``DomainError``
whose ``field`` is set and whose ``code`` is a key of ``hotmeals/i18n/catalog/validation.py``
(the English text is the one docs/product.md §5 quotes, verbatim). Validators return rather
than raise so that a form can show every error at once (``validate_all``); ``raise_first``
turns a result into an exception for services.

Choices docs/product.md §5 leaves to this module:

- Surrounding whitespace is ignored everywhere except in passwords, and a value of only
  whitespace counts as missing.
- Names are written as Canadians write them and as they are printed on meal labels: letters of
  any alphabet, accents included (Zoë, Dubé, Émilie), joined by single inner hyphens, apostrophes
  or spaces (Jean-Luc, O'Neil, Mary Ann); no digits or other symbols (the message
  "Please enter only letters ..." is kept for those). At most 15 characters, counted after
  Unicode NFC normalisation so that "e" + a combining accent counts as one.
- Phone checks run in the order of docs/product.md §5: required, pattern (digits, one
  optional leading ``+``, spaces, parentheses, hyphens), at most 13 **digits**, at least 8
  digits. Spaces, parentheses, hyphens and the plus sign are formatting and are not counted,
  so "+1 (613) 555-0142" (11 digits) passes on every screen, sign-in and sign-up alike; the
  "should not exceed 13 characters" message is kept for a number of more than 13 digits.
- Password: at least 8 characters, with an ASCII lowercase letter, an ASCII uppercase letter,
  an ASCII digit and a special character (anything else that is not whitespace).
- Email: one ``@``; a local part of letters, digits and ``!#$%&'*+/=?^_`{|}~.-`` without
  leading, trailing or doubled dots; a domain of dot-separated labels ending in a TLD of 2+
  letters; at most 254 characters.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping

from hotmeals.domain.errors import DomainError

PHONE_MAX_DIGITS = 13
PHONE_MIN_DIGITS = 8
NAME_MAX_CHARS = 15
PASSWORD_MIN_CHARS = 8
EMAIL_MAX_CHARS = 254

Rule = Callable[[object], DomainError | None]

_PHONE_RE = re.compile(r"\+?[0-9 ()\-]+", re.ASCII)
# A run of letters of any script ([^\W\d_] is "a word character that is not a digit or _"),
# then runs joined by one hyphen, apostrophe (straight or typographic) or space.
_NAME_RE = re.compile(r"[^\W\d_]+(?:[-'\u2019 ][^\W\d_]+)*")
_EMAIL_RE = re.compile(
    r"(?!\.)(?!.*\.\.)[A-Za-z0-9!#$%&'*+/=?^_`{|}~.\-]+(?<!\.)"
    r"@(?:[A-Za-z0-9](?:[A-Za-z0-9\-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}",
    re.ASCII,
)
_LOWER_RE = re.compile(r"[a-z]")
_UPPER_RE = re.compile(r"[A-Z]")
_DIGIT_RE = re.compile(r"[0-9]")
_SPECIAL_RE = re.compile(r"[^A-Za-z0-9\s]")

REQUIRED_KEYS: Mapping[str, str] = {
    "first_name": "first_name_required",
    "last_name": "last_name_required",
    "city": "city_required",
    "school": "school_required",
    "teacher": "teacher_required",
    "grade": "grade_required",
    "subject": "subject_required",
    "description": "description_required",
}
"""Field -> message key for 'Please enter ...' / 'Please Select School'."""


def _text(value: object) -> str:
    """The value as stripped text; ``None`` is the empty string."""
    if value is None:
        return ""
    return str(value).strip()


def is_blank(value: object) -> bool:
    return _text(value) == ""


def _error(code: str, field: str) -> DomainError:
    return DomainError(code, field=field)


def validate_required(value: object, field: str) -> DomainError | None:
    """The 'Please enter ...' rule for a field of ``REQUIRED_KEYS``."""
    if field not in REQUIRED_KEYS:
        raise ValueError(f"no required-message for field {field!r}")
    return _error(REQUIRED_KEYS[field], field) if is_blank(value) else None


def phone_digit_count(phone: str) -> int:
    return sum(char.isdigit() for char in phone)


def normalize_name(value: object) -> str:
    """A name as stored and printed: stripped, NFC, inner spaces folded to one."""
    return " ".join(unicodedata.normalize("NFC", _text(value)).split())


def validate_phone(value: object, field: str = "phone") -> DomainError | None:
    phone = _text(value)
    if not phone:
        return _error("phone_required", field)
    if not _PHONE_RE.fullmatch(phone):
        return _error("phone_invalid", field)
    digits = phone_digit_count(phone)
    if digits > PHONE_MAX_DIGITS:
        return _error("phone_too_long", field)
    if digits < PHONE_MIN_DIGITS:
        return _error("phone_too_short", field)
    return None


def validate_email(value: object, field: str = "email") -> DomainError | None:
    email = _text(value)
    if not email:
        return _error("email_required", field)
    if len(email) > EMAIL_MAX_CHARS or not _EMAIL_RE.fullmatch(email):
        return _error("email_invalid", field)
    return None


def is_strong_password(password: str) -> bool:
    return (
        len(password) >= PASSWORD_MIN_CHARS
        and bool(_LOWER_RE.search(password))
        and bool(_UPPER_RE.search(password))
        and bool(_DIGIT_RE.search(password))
        and bool(_SPECIAL_RE.search(password))
    )


def _password_text(value: object) -> str:
    return "" if value is None else str(value)


def validate_password(value: object, field: str = "password") -> DomainError | None:
    password = _password_text(value)
    if not password:
        return _error("password_required", field)
    if not is_strong_password(password):
        return _error("password_weak", field)
    return None


def validate_confirm_password(
    password: object, confirm: object, field: str = "confirm_password"
) -> DomainError | None:
    """Sign-up and reset: required, the password pattern, then equal to ``password``."""
    confirm_text = _password_text(confirm)
    if not confirm_text:
        return _error("confirm_password_required", field)
    if not is_strong_password(confirm_text):
        return _error("password_weak", field)
    if confirm_text != _password_text(password):
        return _error("password_mismatch", field)
    return None


def validate_change_password(
    current: object, new: object, confirm: object
) -> dict[str, DomainError]:
    """The change-password screen: every error at once, keyed by field."""
    errors: dict[str, DomainError] = {}
    if not _password_text(current):
        errors["current_password"] = _error("current_password_required", "current_password")
    new_text = _password_text(new)
    if not new_text:
        errors["new_password"] = _error("new_password_required", "new_password")
    elif not is_strong_password(new_text):
        errors["new_password"] = _error("password_weak", "new_password")
    elif new_text == _password_text(current):
        # Changing to the same password changes nothing, yet would sign out every other device.
        errors["new_password"] = _error("new_password_same", "new_password")
    confirm_text = _password_text(confirm)
    if not confirm_text:
        errors["confirm_password"] = _error("confirm_new_password_required", "confirm_password")
    elif confirm_text != new_text:
        errors["confirm_password"] = _error("passwords_do_not_match", "confirm_password")
    return errors


def validate_name(value: object, field: str) -> DomainError | None:
    """First or last name: required, letters of any alphabet with inner hyphens, apostrophes
    or spaces, at most 15 characters."""
    if field not in ("first_name", "last_name"):
        raise ValueError("validate_name is for first_name or last_name")
    name = normalize_name(value)
    if not name:
        return _error(REQUIRED_KEYS[field], field)
    if not _NAME_RE.fullmatch(name):
        return _error("name_letters_only", field)
    if len(name) > NAME_MAX_CHARS:
        return _error("name_too_long", field)
    return None


def validate_terms(accepted: object, field: str = "terms") -> DomainError | None:
    """Only ``True`` accepts; a truthy string from a careless form does not."""
    return None if accepted is True else _error("terms_required", field)


def _required(field: str) -> Rule:
    return lambda value: validate_required(value, field)


def _name(field: str) -> Rule:
    return lambda value: validate_name(value, field)


CHILD_RULES: Mapping[str, Rule] = {
    "first_name": _name("first_name"),
    "last_name": _name("last_name"),
    "city": _required("city"),
    "school": _required("school"),
    "teacher": _required("teacher"),
    "grade": _required("grade"),
}

CONTACT_RULES: Mapping[str, Rule] = {
    "first_name": _name("first_name"),
    "last_name": _name("last_name"),
    "email": validate_email,
    "phone": validate_phone,
    "subject": _required("subject"),
    "description": _required("description"),
}

PROFILE_RULES: Mapping[str, Rule] = {
    "first_name": _name("first_name"),
    "last_name": _name("last_name"),
    "email": validate_email,
    "phone": validate_phone,
}


def validate_all(values: Mapping[str, object], rules: Mapping[str, Rule]) -> dict[str, DomainError]:
    """Run each field's rule (a missing field is ``None``); ``{field: error}`` for failures.

    For a rule across fields, close over the other value:
    ``{"confirm_password": lambda v: validate_confirm_password(values.get("password"), v)}``.
    """
    errors: dict[str, DomainError] = {}
    for field, rule in rules.items():
        error = rule(values.get(field))
        if error is not None:
            if error.field is None:
                error.field = field
            errors[field] = error
    return errors


def raise_first(result: DomainError | Mapping[str, DomainError] | None) -> None:
    """Raise the error, or the first of a ``{field: error}`` mapping; do nothing on ``None``/{}."""
    if isinstance(result, DomainError):
        raise result
    if result:
        raise next(iter(result.values()))
