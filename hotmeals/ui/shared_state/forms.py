"""Turning a service's or validator's ``DomainError`` into text at a field or in a toast.

No rule lives here: the codes come from ``hotmeals.domain.validation`` or a service, and the
text from the catalog in the parent's language.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol, TypeVar, cast

import reflex as rx
from reflex.event import EventSpec

from hotmeals.domain.errors import DomainError
from hotmeals.i18n import t as tr
from hotmeals.services.submissions import Submitted, submit_once
from hotmeals.services.submissions import submission_key as next_key
from hotmeals.services.transaction import run_in_transaction
from hotmeals.ui.shared_state.auth import (
    ActingParent,
    acting_parent,
    after_login_path,
    session_expired,
    signed_up_parent,
)
from hotmeals.ui.shared_state.i18n import I18nState
from hotmeals.ui.shared_state.toasts import failed, succeeded

R = TypeVar("R")


def message(err: DomainError, lang: str) -> str:
    return tr(err.code, lang, **err.params)


def field_messages(
    errors: Mapping[str, DomainError], lang: str, only: Iterable[str] | None = None
) -> dict[str, str]:
    """``{field: text}`` for the fields in ``only`` (every field when ``None``)."""
    keep = None if only is None else set(only)
    return {f: message(e, lang) for f, e in errors.items() if keep is None or f in keep}


def place_error(
    err: DomainError,
    lang: str,
    fields: Iterable[str],
    errors: dict[str, str],
    prefix: str = "",
) -> EventSpec:
    """Show ``err`` at its field when the form has that field, otherwise as an error toast
    (docs/product.md §8: a refusal's message in an error toast). Returns the focus or toast event;
    field ids on the page are ``prefix + field``."""
    if err.field and err.field in set(fields):
        errors[err.field] = message(err, lang)
        return focus_field(prefix + err.field)
    return failed(message(err, lang))


class OnceKey(rx.State, mixin=True):
    """A state that submits once per payload: the backend vars of its submission key
    (``submission_key``, ``forget_submission``)."""

    _once_key: str = ""
    _once_digest: str = ""


class OnceForm(OnceKey, mixin=True):
    """A form with a one-tap button that submits once per payload: ``busy`` while its call
    runs (``form_call``), ``turn`` bumped when it ends (``one_turn``;
    ``components.forms.once_attrs`` enables the button again)."""

    busy: bool = False
    turn: int = 0


def submission_key(state: Any, payload: Any) -> str:
    """The idempotency key of submitting ``payload`` from ``state`` (which declares the
    backend vars ``_once_key`` and ``_once_digest``): unchanged for the same payload, so the
    service answers a double tap as a repeat (``services.submissions``)."""
    state._once_key, state._once_digest = next_key((state._once_key, state._once_digest), payload)
    return state._once_key


async def submit(
    state: Any,
    who: ActingParent,
    payload: Any,
    action: str,
    fn: Callable[..., Any],
    **arguments: Any,
) -> Submitted:
    """``fn`` for the acting parent, once per ``payload`` from ``state`` (``submit_once`` with
    ``submission_key``): the same payload again - a double tap - runs nothing and answers the
    first call's result (``repeated``)."""
    return await run_in_transaction(
        submit_once,
        parent_id=who.parent_id,
        key=submission_key(state, payload),
        action=action,
        fn=fn,
        **arguments,
    )


async def one_turn(
    state: Any, events: AsyncIterator[Any], counter: str = "turn"
) -> AsyncIterator[Any]:
    """A handler's events, then the state's ``counter`` bumped however the handler ended:
    ``components.forms.once_attrs`` enables the one-tap button again. For a handler to yield
    from: ``async for event in one_turn(self, self._save(form)): yield event``."""
    try:
        async for event in events:
            yield event
    finally:
        setattr(state, counter, getattr(state, counter) + 1)


class BusyForm(Protocol):
    """A form whose ``busy`` var marks its one write while it runs (``OnceForm``)."""

    busy: bool


FormFields = tuple[Iterable[str], str]  # a form's fields and the prefix of their ids on the page


class _NoParent(Exception):
    """No parent signed in by the token on this call: the form's call ends unrun."""


class _Refused(Exception):
    """The service refused the form's call (``err``)."""

    def __init__(self, err: DomainError) -> None:
        super().__init__(err.code)
        self.err = err


class _Repeated(Exception):
    """The same submission again (a double tap): the first call already answered."""


class FormCall:
    """One form's write under way (``form_call``): the acting parent (``who``) and the
    service call (``run``, or ``submit`` once per payload). The busy mark is cleared and
    the dialog closed as soon as the service answers; a refusal, or no parent, ends the
    ``async with`` block and waits in ``refusal`` for the handler to yield."""

    def __init__(
        self, form: rx.State, parent: ActingParent | None, settle: Callable[[], None]
    ) -> None:
        self.form = form
        self._parent = parent
        self._settle = settle
        # What the handler yields after the block: the refusal's event(s); None when the
        # service answered or the call was a repeat.
        self.refusal: Any = None

    @property
    def who(self) -> ActingParent:
        """The parent the token names on this call; none ends the block (session expired)."""
        if self._parent is None:
            raise _NoParent
        return self._parent

    async def run(self, fn: Callable[..., R], **arguments: Any) -> R:
        """``fn(parent_id=who, **arguments)`` in one transaction; a ``DomainError`` ends the
        block as the form's refusal."""
        parent_id = self.who.parent_id
        try:
            result: R = await run_in_transaction(fn, parent_id=parent_id, **arguments)
        except DomainError as err:
            raise _Refused(err) from err
        finally:
            self._settle()
        return result

    async def answer(self, call: Awaitable[R]) -> R:
        """A service call the handler made itself for ``who`` (the same ending as ``run``)."""
        try:
            return await call
        except DomainError as err:
            raise _Refused(err) from err
        finally:
            self._settle()

    async def submit(
        self, payload: Any, action: str, fn: Callable[..., Any], **arguments: Any
    ) -> Any:
        """``fn`` for ``who``, once per ``payload`` from the form (``submit``): its result, or
        for the same payload again - a double tap - the end of the block with nothing to say
        (the first call already said it)."""
        submitted = await self.answer(submit(self.form, self.who, payload, action, fn, **arguments))
        if submitted.repeated:
            raise _Repeated
        return submitted.result


@asynccontextmanager
async def form_call(
    form: rx.State,
    lang: str,
    *,
    busy: bool | Callable[[bool], None] = True,
    closes: Callable[[], None] | None = None,
    fields: FormFields | None = None,
    refused: Callable[[DomainError], Any] | None = None,
) -> AsyncIterator[FormCall]:
    """A form's one write, for a handler::

        async with form_call(self, lang) as call:
            yield  # the busy mark reaches the browser
            kept = await call.submit(payload, "action", service.fn, **arguments)
            yield succeeded(...)
        if call.refusal is not None:
            yield call.refusal

    The form's busy mark is set first: its ``busy`` var (``busy=False``: none; a function
    ``mark(on)``: the form's other busy var, for a state with more than one form). The parent
    is ``acting_parent(form)`` on this call; with none, the block ends at its first use of
    ``who`` and ``refusal`` is the session-expired toast. A ``DomainError`` of the service
    ends the block with ``refusal`` being ``refused(err)``, or with ``fields=(fields,
    prefix)`` the refusal at its field of the form (``refused_in_form``), else its message in
    an error toast. However it ends, the busy mark is cleared and ``closes`` called (a dialog
    closed)."""

    def mark(on: bool) -> None:
        if busy is True:
            cast(BusyForm, form).busy = on
        elif callable(busy):
            busy(on)

    def settle() -> None:
        mark(False)
        if closes is not None:
            closes()

    def refusal(err: DomainError) -> Any:
        if refused is not None:
            return refused(err)
        if fields is not None:
            return refused_in_form(form, err, lang, *fields)
        return failed(message(err, lang))

    mark(True)
    try:
        call = FormCall(form, await acting_parent(form), settle)
        yield call
    except _NoParent:
        call.refusal = session_expired(lang)
    except _Refused as refusal_of:
        call.refusal = refusal(refusal_of.err)
    except _Repeated:
        pass
    finally:
        settle()


def refused_in_form(
    state: Any,
    err: DomainError,
    lang: str,
    fields: Iterable[str],
    prefix: str,
    errors: dict[str, str] | None = None,
) -> EventSpec:
    """A service's refusal of a form (``state.errors``): at its field, the form's errors then
    being ``errors`` (none by default) with it, or in an error toast (``place_error``)."""
    errors = {} if errors is None else errors
    event = place_error(err, lang, fields, errors, prefix)
    state.errors = errors
    return event


async def checked_field(state: Any, field: str, err: DomainError | None) -> None:
    """A field's check on leaving it: ``state.errors`` with that field's text replaced by
    ``err``'s (none: cleared)."""
    errors = {k: v for k, v in state.errors.items() if k != field}
    if err is not None:
        errors[field] = message(err, (await state.get_state(I18nState)).lang)
    state.errors = errors


@dataclass(frozen=True)
class FamilyChoice:
    """A screen's one standing choice of the family (e.g. where refunds go), kept in the state's
    var ``name`` among ``allowed``: ``view`` answers the screen's view for the acting parent,
    ``chosen`` says the choice in it, ``save_fn`` keeps a new one (it takes ``name`` and answers
    the choice kept, a ``StrEnum``), ``saved`` is the toast's catalog key. The state has
    ``busy``, ``turn``, ``_once_key`` and ``_once_digest``."""

    name: str
    allowed: tuple[str, ...]
    action: str
    view: Callable[..., Any]
    chosen: Callable[[Any], str]
    save_fn: Callable[..., StrEnum]
    saved: str

    async def load(self, state: Any) -> tuple[Any, str] | None:
        """The screen opened anew: not busy, the next save gets a new key, the choice as
        ``view`` answers it for the acting parent, and the whole view with the parent's
        language (None: no parent whose sign-up is complete on this call)."""
        state.busy = False
        who = await signed_up_parent(state)
        if who is None:
            return None
        view = await run_in_transaction(self.view, parent_id=who.parent_id)
        setattr(state, self.name, self.chosen(view))
        forget_submission(state)
        return view, who.lang

    def set(self, state: Any, value: Any) -> None:
        """The choice on screen; anything else from the browser is ignored."""
        if value in self.allowed:
            setattr(state, self.name, value)

    def save(self, state: Any) -> AsyncIterator[Any]:
        """The choice on screen saved for the acting parent with the busy button, once per
        value (``submit``): the value kept replaces the state's and the ``saved`` toast says
        so; a refusal is the one failure toast; ``state.turn`` is bumped at the end
        (``one_turn``). For a handler: ``async for event in CHOICE.save(self): yield event``."""
        return one_turn(state, self._save(state))

    async def _save(self, state: Any) -> AsyncIterator[Any]:
        lang = (await state.get_state(I18nState)).lang
        value = {self.name: getattr(state, self.name)}
        async with form_call(state, lang) as call:
            yield  # the busy mark reaches the browser
            kept = await call.submit(
                value, self.action, self.save_fn, present=_choice_value, **value
            )
            setattr(state, self.name, kept)
            yield succeeded(tr(self.saved, lang))
        if call.refusal is not None:
            yield call.refusal


def _choice_value(kept: StrEnum) -> str:
    return kept.value


class NameForm(OnceForm, mixin=True):
    """A form with a person's first and last name (a parent's, a child's), typed in.

    A mixin: ``set_first_name`` and ``set_last_name`` are copied onto each state that uses it
    and are listed in its allow-list."""

    first_name: str = ""
    last_name: str = ""

    @rx.event
    def set_first_name(self, value: str) -> None:
        self.first_name = value

    @rx.event
    def set_last_name(self, value: str) -> None:
        self.last_name = value


class RemoveDialog(rx.State, mixin=True):
    """A list whose item is removed after "Remove this?" (``components.order_parts.
    remove_dialog``): the item asked about (``delete_id``), the dialog, and ``deleting`` while
    the removal runs, when the dialog stays open. The state writes ``ask_delete`` and
    ``confirm_delete``.

    A mixin: ``set_delete_open`` is copied onto each state that uses it and is listed in its
    allow-list."""

    delete_open: bool = False
    delete_id: str = ""
    deleting: bool = False

    @rx.event
    def set_delete_open(self, value: bool) -> None:
        if not self.deleting:
            self.delete_open = bool(value)


class FamilyChoiceForm(OnceForm, mixin=True):
    """A screen of one ``FamilyChoice`` (the state's ``_choice``): ``load`` shows it, ``save``
    keeps the one on screen. The state writes its ``set_<name>`` (``FamilyChoice.set``) and
    may show more of the view (``_shown``).

    A mixin: ``load`` and ``save`` are copied onto each state that uses it and are listed in
    its allow-list."""

    def _choice(self) -> FamilyChoice:
        raise NotImplementedError

    def _shown(self, view: tuple[Any, str] | None) -> None:
        """The view ``load`` got and the parent's language (None: no parent whose sign-up is
        complete on this call)."""

    @rx.event
    async def load(self) -> None:
        self._shown(await self._choice().load(self))

    @rx.event
    async def save(self) -> AsyncIterator[Any]:
        async for event in self._choice().save(self):
            yield event


def focus_field(field_id: str) -> EventSpec:
    """Put the cursor in the element ``field_id`` (the field a refusal names, the field a new
    panel starts with), unless the parent went to another field since sending the form
    (assets/forms.js, 1c: a late answer never takes the cursor out of the field being typed in).
    Without forms.js, the field is focused."""
    target = json.dumps(field_id)
    return rx.call_script(
        f"(window.hmFocus || function (id) {{ var f = document.getElementById(id); "
        f"if (f) f.focus(); }})({target})"
    )


def refused_at(state: Any, field_id: str, counter: str = "turn") -> EventSpec:
    """A form refused at its field inside ``one_turn``: the one-tap button is live again with
    the errors (the counter bumped now, not with the handler's last answer, which a loaded
    server sends later: a parent who fixed the field at once would tap a dead button), and the
    focus goes to the field."""
    setattr(state, counter, getattr(state, counter) + 1)
    return focus_field(field_id)


def forget_submission(state: Any) -> None:
    """A form opened anew: its next submission gets a new key."""
    state._once_key = ""
    state._once_digest = ""


def signed_in_elsewhere(auth: Any, next_path: str | None) -> EventSpec | None:
    """A signed-in parent who opens /sign-in or /sign-up goes where ``?next=`` asks, else to
    the parent home (/, the landing docs/product.md §2 shows them there), with that page's
    title; a sign-up in progress goes to its step; a visitor stays. ``auth`` is
    the ``AuthState`` just refreshed from the token."""
    if auth.status not in ("parent", "signup"):
        return None
    return rx.redirect(after_login_path(auth.signup_step, False, next_path), replace=True)


def _now_value(value: Any) -> Any:
    """``ready`` and ``once`` may be given as callables, read under the state's lock."""
    return value() if callable(value) else value


@asynccontextmanager
async def _locked(state: Any, background: bool) -> AsyncIterator[None]:
    """A background handler's state is changed only inside ``async with state`` (its lock is
    not held meanwhile); a foreground handler holds it already."""
    if background:
        async with state:
            yield
    else:
        yield


async def confirm_once(
    state: Any,
    *,
    busy: str,
    act: Callable[[int, str, str], Awaitable[R]],
    done: Callable[[int, R, str], Awaitable[Any]],
    ready: Any = True,
    busy_as: Any = True,
    dialog: str = "",
    once: Any = None,
    refused: Callable[[DomainError, str], Any] | None = None,
    background: bool = False,
) -> AsyncIterator[Any]:
    """The busy, repeat-safe run of a confirm (a dialog's 'Yes', a quantity step), for a
    handler to yield from: ``async for event in confirm_once(self, ...): yield event``.

    One at a time: while the state's ``busy`` var holds ``busy_as`` (True, or the id of the
    line that changes), or when the handler is not ``ready``, nothing runs. The parent is
    ``acting_parent(state)`` on this call (none: the session-expired toast). The busy mark
    and the closed ``dialog`` reach the browser before the service runs. ``act(parent_id,
    key, lang)`` calls the service, ``key`` being ``submission_key(state, once)`` (the same
    for the same payload, so a double tap is answered as a repeat; "" when ``once`` is
    None). A ``DomainError`` shows as ``refused(err, lang)`` (default: its message in an
    error toast); otherwise ``done(parent_id, result, lang)`` refreshes the screen and
    returns the success toast, and the key is forgotten. Every end bumps ``state.turn``,
    which re-arms the page's one-tap buttons.

    ``background=True`` for a ``@rx.event(background=True)`` handler (one that waits
    on Converge must not hold the parent's state lock meanwhile): the checks, the
    busy mark and ``done`` run under ``async with state``; ``act`` runs with the lock free,
    so the parent's other events go on while Converge answers. ``ready`` and ``once`` may
    then be callables (read under the lock), and ``act`` must only read the state."""
    who = None
    key = ""
    skip = False
    async with _locked(state, background):
        lang = (await state.get_state(I18nState)).lang
        if getattr(state, busy) or not _now_value(ready):
            state.turn += 1
            skip = True
        else:
            setattr(state, busy, busy_as)  # before any await: a second tap finds it busy
            who = await acting_parent(state)
            if who is None:
                setattr(state, busy, type(busy_as)())
                if dialog:
                    setattr(state, dialog, False)
                state.turn += 1
            else:
                payload = _now_value(once)
                key = "" if payload is None else submission_key(state, payload)
    if skip:
        return
    if who is None:
        yield session_expired(lang)
        return
    if not background:
        yield  # the busy mark reaches the browser (a background handler's already has)

    def _settle() -> None:
        setattr(state, busy, type(busy_as)())
        if dialog:
            setattr(state, dialog, False)
        state.turn += 1

    try:
        result = await act(who.parent_id, key, lang)
    except DomainError as err:
        async with _locked(state, background):
            _settle()
            event = refused(err, lang) if refused is not None else failed(message(err, lang))
        yield event
        return
    async with _locked(state, background):
        _settle()
        if once is not None:
            forget_submission(state)
        event = await done(who.parent_id, result, lang)
    yield event
