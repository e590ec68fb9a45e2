"""The unsubscribe link of the reminder e-mails: ``/api/v1/mail/unsubscribe``.

A link in an e-mail carries no api-key and no session: the random token in it (stored hashed
with the mail's ``ReminderSent`` row) is the whole authority, and it can only turn that one
switch off. ``GET`` answers a small page in the parent's language with one button (mail
scanners that open links must not unsubscribe anyone); the button ``POST``s, which turns the
switch off (repeat-safe) and says so. See docs/api.md.
"""

from __future__ import annotations

from html import escape

from fastapi import APIRouter, Form, Query
from fastapi.responses import HTMLResponse

from hotmeals.domain.errors import DomainError
from hotmeals.i18n import t
from hotmeals.services import reminders
from hotmeals.services.transaction import run_in_transaction

router = APIRouter(prefix="/api/v1", tags=["Reminders"])
PATH = reminders.UNSUBSCRIBE_PATH.removeprefix("/api/v1")


def _page(lang: str, body: str, status: int = 200) -> HTMLResponse:
    title = escape(t("unsubscribe.title", lang))
    html = (
        f'<!doctype html><html lang="{"fr-CA" if lang == "fr" else "en"}"><head>'
        f'<meta charset="utf-8"><meta name="viewport" content="width=device-width">'
        f'<meta name="robots" content="noindex"><title>{title}</title></head>'
        f"<body>"
        f"<h1>{title}</h1>{body}</body></html>"
    )
    return HTMLResponse(html, status_code=status, headers={"Cache-Control": "no-store"})


async def _lang(token: str) -> str:
    return await run_in_transaction(reminders.unsubscribe_language, token=token)


@router.get(PATH, response_class=HTMLResponse, summary="Unsubscribe page (from a reminder e-mail)")
async def unsubscribe_page(token: str = Query("")) -> HTMLResponse:
    lang = await _lang(token)
    kind = await run_in_transaction(reminders.token_kind, token=token)
    if kind is None:
        return _page(lang, f"<p>{escape(t('unsubscribe_invalid', lang))}</p>", 404)
    ask = escape(t("unsubscribe.ask", lang, kind=t(f"unsubscribe.kind.{kind}", lang)))
    button = escape(t("unsubscribe.button", lang))
    form = (
        f'<form method="post"><input type="hidden" name="token" value="{escape(token)}">'
        f'<p>{ask}</p><button type="submit">{button}</button></form>'
    )
    return _page(lang, form)


@router.post(PATH, response_class=HTMLResponse, summary="Turn that reminder's switch off")
async def unsubscribe(token: str = Form("")) -> HTMLResponse:
    lang = await _lang(token)
    try:
        kind = await run_in_transaction(reminders.unsubscribe, token=token)
    except DomainError:
        return _page(lang, f"<p>{escape(t('unsubscribe_invalid', lang))}</p>", 404)
    done = escape(t("unsubscribe.done", lang, kind=t(f"unsubscribe.kind.{kind}", lang)))
    return _page(lang, f"<p>{done}</p>")
