"""About, terms and privacy pages, the FAQ, and the contact form (docs/product.md §2 steps
7-10, §3)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session

from hotmeals.clock import now as utcnow
from hotmeals.db.models import ContactMessage
from hotmeals.domain.errors import DomainError
from hotmeals.domain.headers import validate_one_line
from hotmeals.domain.validation import CONTACT_RULES, raise_first, validate_all
from hotmeals.i18n import normalize_lang, t
from hotmeals.services import mail, ratelimit, reference
from hotmeals.services.parents import normalize_email
from hotmeals.services.reference import FaqRef
from hotmeals.settings import get_settings

SUBJECT_MAX = 200
DESCRIPTION_MAX = 5000
SLUG_MAX = 40


@dataclass(frozen=True)
class Page:
    """A page as both doors show it: a CMS page (Markdown ``body``, no ``items``) or the FAQ
    (no body, its questions and answers in ``items``)."""

    slug: str
    language: str
    title: str
    body: str
    updated_at: str | None  # ISO, seconds; None for the FAQ
    items: tuple[FaqRef, ...] | None = None


@dataclass(frozen=True)
class PageInBoth:
    """A page in English and in French."""

    en: Page
    fr: Page


def cms_page(*, session: Session, slug: str, lang: str = "en") -> Page:
    """The page in ``lang``, or in English when it has no translation yet."""
    key = slug.strip().lower()[:SLUG_MAX]
    lang = normalize_lang(lang)
    pages = reference.pages(session)
    found = pages.get((key, lang)) or pages.get((key, "en"))
    if found is None:
        raise DomainError("page_not_found", field="slug")
    return Page(
        slug=found.slug,
        language=found.language,
        title=found.title,
        body=found.body,
        updated_at=found.updated_at,
    )


def list_faq(*, session: Session, lang: str = "en") -> list[FaqRef]:
    return list(reference.faq(session).get(normalize_lang(lang), ()))


FAQ_SLUG = "faq"


def page(*, session: Session, slug: str, lang: str = "en") -> Page:
    """A page by slug: a CMS page, or the FAQ as a page."""
    if slug.strip().lower() == FAQ_SLUG:
        lang = normalize_lang(lang)
        return Page(
            slug=FAQ_SLUG,
            language=lang,
            title=t("faq_title", lang),
            body="",
            updated_at=None,
            items=tuple(list_faq(session=session, lang=lang)),
        )
    return cms_page(session=session, slug=slug, lang=lang)


def page_in_both_languages(*, session: Session, slug: str) -> PageInBoth:
    """``page`` in English and in French (the screens switch language without a round trip)."""
    return PageInBoth(
        en=page(session=session, slug=slug, lang="en"),
        fr=page(session=session, slug=slug, lang="fr"),
    )


def contact_us(
    *,
    session: Session,
    first_name: str,
    last_name: str,
    email: str,
    phone: str,
    subject: str,
    description: str,
    parent_id: int | None = None,
    lang: str = "en",
    address: str | None = None,
) -> None:
    """Store the message and mail it to the provider (``PROVIDER_EMAIL``)."""
    values = {
        "first_name": first_name,
        "last_name": last_name,
        "email": email,
        "phone": phone,
        "subject": subject,
        "description": description,
    }
    raise_first(validate_all(values, CONTACT_RULES))
    for name in ("first_name", "last_name", "email", "phone", "subject"):
        raise_first(validate_one_line(values[name], name))  # they reach the mail's headers
    subject_text = subject.strip()
    description_text = description.strip()
    if len(subject_text) > SUBJECT_MAX:
        raise DomainError("subject_too_long", field="subject")
    if len(description_text) > DESCRIPTION_MAX:
        raise DomainError("description_too_long", field="description")
    limit_key: str | None
    if parent_id:
        limit, limit_key = ratelimit.CONTACT_ACCOUNT, f"parent:{parent_id}"
    else:
        limit, limit_key = ratelimit.CONTACT_ADDRESS, address
    ratelimit.check(session, limit, limit_key)
    message = ContactMessage(
        parent_id=parent_id,
        first_name=first_name.strip(),
        last_name=last_name.strip(),
        email=normalize_email(email),
        phone=phone.strip(),
        subject=subject_text,
        description=description_text,
        created_at=utcnow(),
    )
    session.add(message)
    session.flush()
    ratelimit.record(session, limit, limit_key)
    # Support reads English; the parent's language is stated in the mail.
    mail.send_templated(
        session=session,
        to=get_settings().provider_email,
        template="contact",
        language="en",
        first_name=message.first_name,
        last_name=message.last_name,
        email=message.email,
        phone=message.phone,
        account=f"parent {parent_id}" if parent_id else "visitor",
        parent_language=normalize_lang(lang),
        subject=subject_text,
        description=description_text,
        created_at=utcnow(),
    )
