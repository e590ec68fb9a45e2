"""Paying in Converge's Lightbox from a screen: the handshake every paying state shares
(checkout, modify order, move a meal, donate, add a card).

The card never touches our server: ``rx.call_script`` loads Converge's Lightbox script (the
simulator's stand-in when no credentials are set) and opens it with the session token; the
script's promise resolves when the Lightbox closes, with only the outcome, the transaction id,
the decline message and (for a saved card) Converge's token; the callback event hands that to
the server, which verifies it with Converge before anything counts as paid.

Both handlers wait on Converge (up to 30 s a call), so they run as background events: the
parent's state lock is taken only to read and write the state, never while Converge answers.
The payment id stays in a backend-only var; the session token is only ever in the script sent
to the browser.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any, TypedDict

import reflex as rx

from hotmeals.domain.errors import DomainError
from hotmeals.ui.shared_state.auth import ActingParent, acting_parent, session_expired
from hotmeals.ui.shared_state.forms import message
from hotmeals.ui.shared_state.i18n import I18nState

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


def lightbox_result(value: Any) -> dict[str, str]:
    """What the browser says the Lightbox answered, as bounded strings: a hint only (the
    services ask Converge before anything counts)."""
    data = value if isinstance(value, dict) else {}
    return {key: str(data.get(key) or "")[:200] for key in RESULT_FIELDS}


class CardOutcome(TypedDict):
    outcome: str
    card_token: str
    message: str


def card_outcome(outcome: dict[str, str]) -> CardOutcome:
    """What the donation's and the card's settle services take from the Lightbox's answer
    (``lightbox_result``): its outcome, the card token Converge issued and its message (a
    hint; the services check)."""
    return CardOutcome(
        outcome=outcome["outcome"], card_token=outcome["token"], message=outcome["message"]
    )


@dataclass(frozen=True)
class Started:
    """What a state's ``_start`` answers: a Lightbox to open (its script, its session token
    and the payment it pays, 0 when it pays nothing: adding a card), or a result already
    known (paid with a saved card, nothing to pay, refused by the gateway)."""

    lightbox_url: str = ""
    token: str = ""
    payment_id: int = 0
    result: Any = None

    @classmethod
    def lightbox(cls, hosted: Any, payment_id: int = 0, result: Any = None) -> Started:
        """``hosted``: the service's Lightbox session (``lightbox_url``, ``token``)."""
        return cls(hosted.lightbox_url, hosted.token, payment_id, result)

    @classmethod
    def done(cls, result: Any) -> Started:
        return cls(result=result)


class LightboxPayment(rx.State, mixin=True):
    """The Lightbox handshake: ``pay`` starts (the state's ``_start`` calls its service; a
    Lightbox opens, or the result is known at once) and ``lightbox_closed`` settles what the
    Lightbox said (``_settle``); ``_finish`` shows either result.

    ``busy`` is set while a payment runs (a second ``pay`` does nothing); ``turn`` is bumped
    whenever a handler ends without a Lightbox left open (``components.forms.once_attrs``
    enables the button again). Only the Lightbox this tab opened is settled, once: a repeated
    or forged callback finds nothing to settle.

    A mixin: each state gets its own copy of these vars and handlers (``pay`` and
    ``lightbox_closed`` are in each state's allow-list) and writes the hooks below."""

    busy: bool = False
    turn: int = 0
    status: str = ""
    message: str = ""

    _payment_id: int = 0
    _lightbox_open: bool = False  # a Lightbox this tab opened has not answered yet
    _settling: bool = False  # its answer is being settled

    # ---- hooks ------------------------------------------------------------------------------
    def _ready(self) -> bool:
        """Whether the screen shows something to pay (else ``pay`` does nothing)."""
        return True

    async def _payer(self) -> ActingParent | None:
        """Who pays: the acting parent (None: the session is gone)."""
        return await acting_parent(self)

    async def _begin(self, who: ActingParent, lang: str) -> Any:
        """Inside the lock: read the form into what ``_start`` needs and say the payment
        runs (status, message); None: nothing to start."""
        raise NotImplementedError

    async def _start(self, who: ActingParent, ticket: Any, lang: str) -> Started:
        """Outside the lock: the service that opens the payment (a DomainError: refused)."""
        raise NotImplementedError

    def _opened(self, started: Started, lang: str) -> None:
        """Inside the lock: the Lightbox is about to open."""

    def _confirming(self, lang: str) -> None:
        """Inside the lock: the Lightbox approved; the server now confirms with Converge."""

    async def _settle(
        self, who: ActingParent, payment_id: int, outcome: dict[str, str], lang: str
    ) -> Any:
        """Outside the lock: what the Lightbox said, checked and recorded by the services."""
        raise NotImplementedError

    async def _finish(self, who: ActingParent, result: Any, lang: str) -> list:
        """Inside the lock: show the result; answers the events to send (toasts, address)."""
        raise NotImplementedError

    async def _refused(self, who: ActingParent, err: DomainError, lang: str) -> None:
        """Inside the lock: ``_start`` was refused."""
        self.status, self.message = "error", message(err, lang)

    async def _failed(self, who: ActingParent, err: DomainError, lang: str) -> None:
        """Inside the lock: ``_settle`` was refused."""
        self.status, self.message = "error", message(err, lang)

    def _release(self) -> None:
        """The payment ended: the button may be tapped again."""
        self.busy = False
        self.turn += 1

    # ---- handlers ---------------------------------------------------------------------------
    @rx.event(background=True)
    async def pay(self, form_data: dict | None = None) -> AsyncIterator[Any]:
        """The Pay (or Confirm, Donate, Add card) button; a form's fields are in the state
        already (no card data is in it)."""
        async with self:
            lang = (await self.get_state(I18nState)).lang
            if self.busy or not self._ready():
                self.turn += 1
                return
            who = await self._payer()
            ticket = None if who is None else await self._begin(who, lang)
            if ticket is None:
                self.turn += 1
            else:
                self.busy = True
        if who is None:
            yield session_expired(lang)
            return
        if ticket is None:
            return
        try:
            started = await self._start(who, ticket, lang)
        except DomainError as err:
            async with self:
                self._release()
                await self._refused(who, err, lang)
            return
        if started.token:
            async with self:
                self._payment_id = started.payment_id
                self._lightbox_open = True
                self._opened(started, lang)
            yield rx.call_script(
                lightbox_script(started.lightbox_url, started.token, lang),
                callback=self.__class__.lightbox_closed,
            )
            return
        async with self:
            self._release()
            events = await self._finish(who, started.result, lang)
        for event in events:
            yield event

    @rx.event(background=True)
    async def lightbox_closed(self, value: Any) -> AsyncIterator[Any]:
        outcome = lightbox_result(value)
        async with self:
            lang = (await self.get_state(I18nState)).lang
            who = await acting_parent(self)
            opened, payment_id = self._lightbox_open, self._payment_id
            # Taken: a repeated callback finds nothing to settle.
            self._lightbox_open, self._payment_id = False, 0
            if opened:
                self._settling = True
            elif self._settling:
                return  # a repeat while the first settles: it answers
            if who is None or not opened:
                # Signed out meanwhile (or no Lightbox open here): nothing is recorded from
                # this browser; an approval is settled by the reconciliation with Converge.
                self._settling = False
                self._release()
            elif outcome["outcome"] == "approval":
                self._confirming(lang)
        if who is None:
            yield session_expired(lang)
            return
        if not opened:
            return
        try:
            result = await self._settle(who, payment_id, outcome, lang)
        except DomainError as err:
            async with self:
                self._settling = False
                self._release()
                await self._failed(who, err, lang)
            return
        async with self:
            self._settling = False
            self._release()
            events = await self._finish(who, result, lang)
        for event in events:
            yield event
