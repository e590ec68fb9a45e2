"""About, terms and privacy pages, the FAQ, and the contact form (spec §2 steps 7-10, §3)."""

from __future__ import annotations

from sqlmodel import Session, select

from hotmeals.db.models import CmsPage, ContactMessage, Faq
from hotmeals.domain.errors import DomainError
from hotmeals.domain.validation import CONTACT_RULES, raise_first, validate_all
from hotmeals.i18n import normalize_lang
from hotmeals.services import mail, ratelimit
from hotmeals.services.clock import now as utcnow
from hotmeals.services.parents import normalize_email
from hotmeals.settings import get_settings

SUBJECT_MAX = 200
DESCRIPTION_MAX = 5000
SLUG_MAX = 40


def cms_page(*, session: Session, slug: object, lang: str = "en") -> dict:
    """The page in ``lang``, or in English when it has no translation yet."""
    key = str(slug or "").strip().lower()[:SLUG_MAX]
    lang = normalize_lang(lang)
    page = None
    for language in dict.fromkeys((lang, "en")):
        page = session.exec(
            select(CmsPage).where(CmsPage.slug == key).where(CmsPage.language == language)
        ).first()
        if page is not None:
            break
    if page is None:
        raise DomainError("page_not_found", field="slug")
    return {
        "slug": page.slug,
        "language": page.language,
        "title": page.title,
        "body": page.body,
        "updated_at": page.updated_at.isoformat(timespec="seconds"),
    }


def list_faq(*, session: Session, lang: str = "en") -> list[dict]:
    rows = session.exec(
        select(Faq).where(Faq.language == normalize_lang(lang)).order_by(Faq.sort, Faq.id)
    ).all()
    return [{"id": r.id, "question": r.question, "answer": r.answer} for r in rows]


def contact_us(
    *,
    session: Session,
    first_name: object,
    last_name: object,
    email: object,
    phone: object,
    subject: object,
    description: object,
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
    subject_text = str(subject).strip()
    description_text = str(description).strip()
    if len(subject_text) > SUBJECT_MAX:
        raise DomainError("subject_too_long", field="subject")
    if len(description_text) > DESCRIPTION_MAX:
        raise DomainError("description_too_long", field="description")
    ratelimit.check(session, ratelimit.CONTACT_ADDRESS, address)
    message = ContactMessage(
        parent_id=parent_id,
        first_name=str(first_name).strip(),
        last_name=str(last_name).strip(),
        email=normalize_email(email),
        phone=str(phone).strip(),
        subject=subject_text,
        description=description_text,
        created_at=utcnow(),
    )
    session.add(message)
    session.flush()
    ratelimit.record(session, ratelimit.CONTACT_ADDRESS, address)
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
