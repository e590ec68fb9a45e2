"""Contact us (edit-profile step 8): the contact form (docs/product.md §3), stored and
mailed to the provider. Rules: ``validation.CONTACT_RULES`` and ``services.content.contact_us``."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import reflex as rx

from hotmeals.domain import validation
from hotmeals.i18n import t as tr
from hotmeals.services import content, profile
from hotmeals.services.transaction import run_in_transaction
from hotmeals.ui.shared_state.auth import ActingParent, AuthState
from hotmeals.ui.shared_state.forms import (
    OnceForm,
    checked_field,
    field_messages,
    forget_submission,
    form_call,
    one_turn,
    refused_at,
)
from hotmeals.ui.shared_state.i18n import I18nState
from hotmeals.ui.shared_state.toasts import succeeded

PREFIX = "contact-"
FIELDS = ("first_name", "last_name", "email", "phone", "subject", "description")


class ContactState(OnceForm, rx.State):
    errors: dict[str, str] = {}
    sent: bool = False
    # Pre-filled from the profile; the parent may change them.
    first_name: str = ""
    last_name: str = ""
    email: str = ""
    phone: str = ""
    form_key: int = 0

    async def _fill_from_profile(self, who: ActingParent) -> None:
        """Pre-fill from the profile of ``who`` (the caller checked the session)."""
        data = await run_in_transaction(profile.get_profile, parent_id=who.parent_id)
        self.first_name = data.first_name
        self.last_name = data.last_name
        self.email = data.email
        self.phone = data.phone
        self.errors = {}
        self.sent = False
        forget_submission(self)

    @rx.event
    async def blur(self, field: str, value: str) -> None:
        if field in FIELDS:
            await checked_field(self, field, validation.CONTACT_RULES[field](value))

    @rx.event
    async def submit(self, form_data: dict) -> AsyncIterator[Any]:
        async for event in one_turn(self, self._submit(form_data)):
            yield event

    async def _submit(self, form_data: dict) -> AsyncIterator[Any]:
        values = {f: str(form_data.get(f) or "") for f in FIELDS}
        lang = (await self.get_state(I18nState)).lang
        errors = validation.validate_all(values, validation.CONTACT_RULES)
        self.errors = field_messages(errors, lang)
        if errors:
            yield refused_at(self, PREFIX + next(f for f in FIELDS if f in errors))
            return
        # The form is on a signed-in screen only: a message goes out in a checked parent's
        # name or not at all.
        auth = await self.get_state(AuthState)
        async with form_call(self, lang, fields=(FIELDS, PREFIX)) as call:
            yield  # the busy mark reaches the browser
            # The same message sent twice from this form is stored once.
            await call.submit(
                values,
                "contact_us",
                content.contact_us,
                **values,
                lang=lang,
                address=auth._client_address(),
            )
            self.sent = True
            # A fresh form (same prefilled names), and the thanks in a toast.
            self.form_key += 1
            yield succeeded(tr("contact_sent", lang))
        if call.refusal is not None:
            yield call.refusal
