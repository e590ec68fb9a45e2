"""States of the donate screen and the payment methods screen. Thin: every rule is in
``hotmeals.services.payments`` / ``cards`` / ``donations``.

The card never touches our server: ``rx.call_script`` loads Converge's Lightbox script (the
simulator's stand-in when no credentials are set) and opens it with the session token; the
script's promise resolves when the Lightbox closes, with only the outcome, the transaction id,
the decline message and (for a saved card) Converge's token; the callback event hands that to
the server, which verifies it with Converge before anything counts as paid.

Handlers that talk to Converge run as background events (up to 30 s), so neither the event
loop nor this client's state lock waits on the network. The payment id stays in a backend-only
var; the session token is only ever in the script sent to the browser.
"""

from __future__ import annotations

import json
from typing import Any

import reflex as rx

from hotmeals.domain.errors import DomainError
from hotmeals.domain.money import format_money
from hotmeals.i18n import t as tr
from hotmeals.services import cards, donations
from hotmeals.services.payment_outcome import settle_card_lightbox, settle_lightbox
from hotmeals.ui.state.auth import ActingParent, acting_parent, session_expired
from hotmeals.ui.state.base import call_service
from hotmeals.ui.state.i18n import I18nState

# The service's preset amounts, in whole dollars as the radio values ("5", "10", "20").
PRESETS = tuple(str(cents // 100) for cents in donations.PRESET_CENTS)
DEFAULT_PRESET = PRESETS[len(PRESETS) // 2]
OTHER = "other"
RESULT_FIELDS = ("outcome", "txn_id", "token", "message")


def lightbox_script(script_url: str, token: str, lang: str) -> str:
    """JavaScript (an expression) that loads PayWithConverge.js once, opens the Lightbox and
    evaluates to a promise of ``{outcome, txn_id, token, message}``; never card data."""
    params = json.dumps({"ssl_txn_auth_token": token, "lang": lang})
    return f"""(async () => {{
  const src = {json.dumps(script_url)};
  if (!window.PayWithConverge || window.__hmLightboxSrc !== src) {{
    await new Promise((resolve, reject) => {{
      const el = document.createElement("script");
      el.src = src;
      el.async = true;
      el.onload = resolve;
      el.onerror = () => reject(new Error("lightbox script"));
      document.head.appendChild(el);
    }});
    window.__hmLightboxSrc = src;
  }}
  return await new Promise((resolve) => {{
    const done = (outcome, r) => resolve({{
      outcome: outcome,
      txn_id: String((r && r.ssl_txn_id) || ""),
      token: String((r && r.ssl_token) || ""),
      message: String((r && (r.ssl_result_message || r.errorMessage || r.errorName)) || ""),
    }});
    window.PayWithConverge.open({params}, {{
      onApproval: (r) => done("approval", r),
      onDeclined: (r) => done("declined", r),
      onCancelled: () => done("cancelled", null),
      onError: (e) => done("error", e),
    }});
  }});
}})().catch((e) => ({{outcome: "error", txn_id: "", token: "", message: String(e)}}))"""


def _result(value: Any) -> dict[str, str]:
    data = value if isinstance(value, dict) else {}
    return {key: str(data.get(key) or "")[:200] for key in RESULT_FIELDS}


def _history_row(row: dict) -> dict[str, str]:
    return {
        "id": str(row["id"]),
        "date": row["date"],
        "school": row["school"],
        "amount": row["amount_display"],
        "card": row["card"],
    }


def _card_row(card: cards.CardView) -> dict[str, str]:
    return {
        "id": str(card.id),
        "brand": card.brand or "CARD",
        "last4": card.last4,
        "expiry": card.expiry,
    }


class DonateState(rx.State):
    """/edit-profile/donate-payment."""

    choice: str = DEFAULT_PRESET
    other_amount: str = ""
    school_id: str = ""
    schools: list[dict[str, str]] = []
    history: list[dict[str, str]] = []
    loaded: bool = False
    busy: bool = False
    amount_error: str = ""
    school_error: str = ""
    status: str = ""  # "", success, declined, cancelled, error, pending
    message: str = ""

    _payment_id: int = 0
    _amount_cents: int = 0
    _school_name: str = ""

    @rx.var
    def is_other(self) -> bool:
        return self.choice == OTHER

    @rx.event
    async def load(self):
        who = await acting_parent(self)
        self.status = self.message = self.amount_error = self.school_error = ""
        self.busy = False
        if who is None or not who.complete:
            self.schools, self.history, self.school_id = [], [], ""
            return
        schools = await call_service(donations.donation_schools, parent_id=who.parent_id)
        self.schools = [{"id": str(s["id"]), "name": s["name"]} for s in schools]
        if self.school_id not in {s["id"] for s in self.schools}:
            self.school_id = self.schools[0]["id"] if self.schools else ""
        await self._load_history(who)
        self.loaded = True

    async def _load_history(self, who: ActingParent) -> None:
        rows = await call_service(donations.list_donations, parent_id=who.parent_id, lang=who.lang)
        self.history = [_history_row(r) for r in rows]

    @rx.event
    def set_choice(self, value: str):
        self.choice = value if value in (*PRESETS, OTHER) else DEFAULT_PRESET
        self.amount_error = ""

    @rx.event
    def set_other_amount(self, value: str):
        self.other_amount = str(value)[:12]
        self.amount_error = ""

    @rx.event
    def set_school(self, value: str):
        self.school_id = str(value)
        self.school_error = ""

    @rx.event(background=True)
    async def donate(self, form_data: dict | None = None):
        """The form's submit (its fields are in state already; no card data is in it)."""
        async with self:
            if self.busy:
                return
            who = await acting_parent(self)
            lang = (await self.get_state(I18nState)).lang
            if who is None or not who.complete:
                self.schools, self.history = [], []
            else:
                amount = self.other_amount if self.choice == OTHER else self.choice
                # A school id from the browser: the service takes only a school of who's
                # children.
                school = int(self.school_id) if self.school_id.isdigit() else None
                names = {s["id"]: s["name"] for s in self.schools}
                self._school_name = names.get(self.school_id, "")
                self.busy = True
                self.status = self.message = self.amount_error = self.school_error = ""
        if who is None or not who.complete:
            yield session_expired(lang)
            return
        try:
            session = await donations.start_donation(
                parent_id=who.parent_id, amount=amount, school_id=school
            )
        except DomainError as err:
            async with self:
                self.busy = False
                if err.field == "amount":
                    self.amount_error = err.message(lang)
                elif err.field == "school":
                    self.school_error = err.message(lang)
                else:
                    self.status, self.message = "error", err.message(lang)
            return
        async with self:
            self._payment_id = session.payment_id
            self._amount_cents = session.amount_cents
        yield rx.call_script(
            lightbox_script(session.lightbox_url, session.token, lang),
            callback=DonateState.lightbox_closed,
        )

    @rx.event(background=True)
    async def lightbox_closed(self, value: Any):
        result = _result(value)
        async with self:
            who = await acting_parent(self)
            lang = (await self.get_state(I18nState)).lang
            payment_id, amount_cents = self._payment_id, self._amount_cents
            school = self._school_name
            if who is None:
                # Signed out meanwhile: nothing is recorded from this browser; a payment the
                # Lightbox approved is settled by the reconciliation with Converge.
                self.busy = False
                self._payment_id = 0
            elif result["outcome"] == "approval":
                self.status, self.message = "confirming", tr("donate.confirming", lang)
        if who is None:
            yield session_expired(lang)
            return
        status, message = await _settle(who.parent_id, payment_id, result, lang)
        if status == "success":
            message = tr(
                "pay.donation_thanks", lang, amount=format_money(amount_cents, lang), school=school
            )
        async with self:
            self.status, self.message, self.busy = status, message, False
            self._payment_id = 0
            if status == "success":
                await self._load_history(who)


async def _settle(parent_id: int, payment_id: int, result: dict[str, str], lang: str):
    """What the Lightbox said, checked and recorded by the server -> (status, message)."""
    settled = await settle_lightbox(
        parent_id=parent_id,
        payment_id=payment_id,
        outcome=result["outcome"],
        txn_id=result["txn_id"],
        card_token=result["token"],
        message=result["message"],
        lang=lang,
    )
    return settled.status, settled.message


class CardsState(rx.State):
    """/edit-profile/payment-methods."""

    cards: list[dict[str, str]] = []
    loaded: bool = False
    busy: bool = False
    delete_open: bool = False
    delete_id: str = ""
    delete_label: str = ""
    deleting: bool = False
    status: str = ""
    message: str = ""

    @rx.event
    async def load(self):
        self.status = self.message = ""
        self.busy = self.deleting = self.delete_open = False
        who = await acting_parent(self)
        if who is None or not who.complete:
            self.cards = []
            return
        await self._reload(who)
        self.loaded = True

    async def _reload(self, who: ActingParent) -> None:
        rows = await call_service(cards.list_cards, parent_id=who.parent_id)
        self.cards = [_card_row(c) for c in rows]

    @rx.event(background=True)
    async def add_card(self):
        async with self:
            if self.busy:
                return
            who = await acting_parent(self)
            lang = (await self.get_state(I18nState)).lang
            if who is not None and who.complete:
                self.busy = True
                self.status = self.message = ""
        if who is None or not who.complete:
            yield session_expired(lang)
            return
        try:
            session = await cards.start_add_card(parent_id=who.parent_id)
        except DomainError as err:
            async with self:
                self.busy = False
                self.status, self.message = "error", err.message(lang)
            return
        yield rx.call_script(
            lightbox_script(session.lightbox_url, session.token, lang),
            callback=CardsState.lightbox_closed,
        )

    @rx.event(background=True)
    async def lightbox_closed(self, value: Any):
        result = _result(value)
        async with self:
            who = await acting_parent(self)
            lang = (await self.get_state(I18nState)).lang
            if who is None:
                self.busy = False
        if who is None:
            yield session_expired(lang)
            return
        settled = await settle_card_lightbox(
            parent_id=who.parent_id,
            outcome=result["outcome"],
            card_token=result["token"],
            message=result["message"],
            lang=lang,
        )
        status, message = settled.status, settled.message
        async with self:
            self.busy = False
            self.status, self.message = status, message
            await self._reload(who)

    @rx.event
    def ask_delete(self, card_id: str, label: str):
        self.delete_id, self.delete_label = str(card_id), str(label)
        self.delete_open = True

    @rx.event
    def set_delete_open(self, value: bool):
        if not self.deleting:
            self.delete_open = bool(value)

    @rx.event(background=True)
    async def confirm_delete(self):
        async with self:
            if self.deleting or not self.delete_id.isdigit():
                return
            who = await acting_parent(self)
            lang = (await self.get_state(I18nState)).lang
            card_id = int(self.delete_id)
            if who is None:
                self.delete_open = False
            else:
                self.deleting = True
        if who is None:
            yield session_expired(lang)
            return
        try:
            # The service deletes only a card of who's (another parent's id: card_not_found).
            await cards.delete_card(parent_id=who.parent_id, card_id=card_id)
            status, message = "success", tr("pay.card_deleted", lang)
        except DomainError as err:
            status, message = "error", err.message(lang)
        async with self:
            self.deleting = False
            self.delete_open = False
            self.status, self.message = status, message
            await self._reload(who)
