"""The parent's session in the browser: the token cookie, the session data in localStorage,
and the profile the shell shows. Every page's on_load re-checks the token with the service, so
a revoked or expired session ends at the next navigation (docs/product.md §3 session data; §4:
a 401 clears the session and returns to the parent home).

Route sets (docs/product.md §2) are decided here by ``status``:

- ``unknown``: not checked yet (before hydration) - public pages render, guarded ones do not;
- ``visitor``: no valid token;
- ``signup``: a valid token whose sign-up is not complete (ADD_CHILD or ALLERGY) - only
  /add-child and /allergy-profile are open, like the original app's "not logged in" set;
- ``parent``: logged in (sign-up complete) - the logged-in set.

Who the browser is comes from the token cookie alone, checked by the service on every call
that reads or changes a parent's data (``acting_parent``): nothing cached in state says who the
browser is, and every method here that is not an event handler is private (``_name``), because
Reflex lets the browser call any public method of a State over the websocket.

Imports nothing app-level but the services it calls, the i18n state and the step machine.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import reflex as rx
from reflex.event import EventSpec

from hotmeals.domain.errors import DomainError
from hotmeals.i18n import t as tr
from hotmeals.services import accounts, profile
from hotmeals.services.parents import COMPLETE, SESSION_TTL, SessionData
from hotmeals.services.profile import Profile
from hotmeals.services.transaction import run_in_transaction
from hotmeals.settings import get_settings
from hotmeals.ui.shared_state.i18n import I18nState
from hotmeals.ui.shared_state.steps import ProfileStepState
from hotmeals.ui.shared_state.toasts import succeeded

# docs/product.md §9: the cookie lives as long as the server-side session it names.
SESSION_MAX_AGE = int(SESSION_TTL.total_seconds())
TOKEN_COOKIE = "hm_token"
SESSION_KEY = "hm_session"
PREFIX = "/parent"

# Where an incomplete sign-up continues (docs/product.md §2 "After sign-in").
SIGNUP_PATHS = {"ADD_CHILD": "/add-child", "ALLERGY": "/allergy-profile"}


def safe_next(path: str | None) -> str | None:
    """A same-app path to return to after login, or ``None``: never another site
    (``//evil.example``), never a sign-in screen again."""
    if not path or not path.startswith("/") or path.startswith("//") or "\\" in path:
        return None
    if path.startswith(PREFIX + "/") or path == PREFIX:
        path = path[len(PREFIX) :] or "/"
    if path.split("?")[0] in {"/sign-in", "/sign-up", "/sign-in-with-phone"}:
        return None
    return path


def after_login_path(signup_step: str, is_login_data: bool, next_path: str | None = None) -> str:
    """docs/product.md §2: ADD_CHILD -> add-child, ALLERGY -> allergy-profile, isLoginData ->
    edit-profile (or the guarded page the parent was going to), otherwise home."""
    if signup_step in SIGNUP_PATHS:
        return SIGNUP_PATHS[signup_step]
    nxt = safe_next(next_path)
    if is_login_data:
        return nxt or "/edit-profile"
    return nxt or "/"


def page_path(url_path: str) -> str:
    """The browser path without the /parent prefix ('/parent/edit-profile' -> '/edit-profile')."""
    if url_path.startswith(PREFIX):
        url_path = url_path[len(PREFIX) :]
    return url_path or "/"


def _load_session(*, session: Any, token: str) -> tuple[Any, Profile]:
    """Check the token and read the profile in one transaction."""
    ctx = accounts.authenticate(session=session, token=token)
    return ctx, profile.get_profile(session=session, parent_id=ctx.parent_id)


def initials(first: str, last: str) -> str:
    return ((first[:1] + last[:1]) or "?").upper()


class AuthState(rx.State):
    # Secure when parents use https (docs/security.md, "The session cookie"). Not HttpOnly:
    # Reflex writes and reads its cookies from JavaScript and sends them over the websocket.
    token: str = rx.Cookie(
        "",
        name=TOKEN_COOKIE,
        max_age=SESSION_MAX_AGE,
        same_site="lax",
        path="/",
        secure=get_settings().public_base_url.startswith("https://"),
    )
    # docs/product.md §3 session data (id, names, e-mails, signup_step, isLoginData). The
    # token itself stays in the cookie only: one copy to clear, and nothing secret in localStorage.
    session_data: str = rx.LocalStorage("", name=SESSION_KEY)
    cart_count_store: str = rx.LocalStorage("0", name="cartCount")
    # sync: another tab's change (the storage event) reaches this tab's header (spec §4).
    cancel_cart_count_store: str = rx.LocalStorage("0", name="cancelCartCount", sync=True)

    status: str = "unknown"
    first_name: str = ""
    last_name: str = ""
    email: str = ""
    phone: str = ""
    profile_image: str = ""
    signup_step: str = ""
    cart_count: int = 0
    cancel_cart_count: int = 0
    active_child_count: int = 0
    logout_open: bool = False
    logging_out: bool = False

    # ---- derived -------------------------------------------------------------------------
    @rx.var
    def is_parent(self) -> bool:
        return self.status == "parent"

    @rx.var
    def is_known(self) -> bool:
        return self.status != "unknown"

    @rx.var
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()

    @rx.var
    def avatar_initials(self) -> str:
        return initials(self.first_name, self.last_name)

    @rx.var
    def shown_cart_count(self) -> int:
        """docs/product.md §4: the local count is preferred if above 0, otherwise the profile's."""
        local = _int(self.cart_count_store)
        return local if local > 0 else self.cart_count

    @rx.var
    def shown_cancel_cart_count(self) -> int:
        local = _int(self.cancel_cart_count_store)
        return local if local > 0 else self.cancel_cart_count

    # ---- used by other states (private: not callable from the browser) ------------------
    def _client_address(self) -> str | None:
        return self.router.session.client_ip or None

    def _user_agent(self) -> str | None:
        return (self.router.headers.user_agent or "")[:255] or None

    def _apply_session_data(self, data: SessionData) -> None:
        """Show the session data the service returned for the checked parent (never data from
        the browser: this is not an event handler)."""
        self.first_name = data.first_name
        self.last_name = data.last_name
        self.email = data.email
        self.signup_step = data.signup_step
        self.status = "parent" if self.signup_step == COMPLETE else "signup"
        self.session_data = json.dumps(
            {
                "id": data.id,
                "first_name": self.first_name,
                "last_name": self.last_name,
                "email": self.email,
                "alt_emails": [
                    {"email": alt.email, "verified": alt.verified} for alt in data.alt_emails
                ],
                "signup_step": self.signup_step,
                "isLoginData": data.signup_complete,
            }
        )

    def _apply_profile(self, profile: Profile) -> None:
        """Show a profile the service returned for the checked parent: its session data, the
        picture and the header's counts."""
        self._apply_session_data(profile)
        self.phone = profile.phone
        self.profile_image = profile.profile_image or ""
        self.cart_count = profile.cart_count
        self.cancel_cart_count = profile.cancel_cart_count
        self.active_child_count = profile.active_child_count

    def _start_session(self, token: str, data: SessionData | None) -> None:
        """After login or e-mail verification: keep the token the service just issued and
        session data (docs/product.md §3); the profile's other parts come with the next
        refresh."""
        self.token = token
        self.phone = self.profile_image = ""
        self.cart_count = self.cancel_cart_count = self.active_child_count = 0
        if data is not None:
            self._apply_session_data(data)

    def _forget_session(self) -> None:
        """Clear what the browser keeps (the cookie and localStorage entries are emptied by
        the state sync; ``rx.remove_cookie`` would re-run the current page's on_load, whose
        guard would then send the parent to sign-in instead of home). The caller decides
        where to go."""
        self.token = ""
        self.session_data = ""
        self.cart_count_store = "0"
        self.cancel_cart_count_store = "0"
        self.status = "visitor"
        self.first_name = self.last_name = self.email = self.phone = ""
        self.profile_image = self.signup_step = ""
        self.cart_count = self.cancel_cart_count = self.active_child_count = 0

    async def _refresh(self) -> Profile | None:
        """Re-check the token and reload the profile (cart counts included); the profile, or
        None when the session has ended."""
        if not self.token:
            if self.status != "visitor":
                self._forget_session()
            self.status = "visitor"
            return None
        try:
            _ctx, profile = await run_in_transaction(_load_session, token=self.token)
        except DomainError:
            # An expired or revoked token (the API's 401): the session ends here.
            self._forget_session()
            return None
        self._apply_profile(profile)
        return profile

    def _guard_redirect(self, wanted: str) -> EventSpec | None:
        if self.status == "parent":
            return None
        if self.status == "signup":
            return rx.redirect(SIGNUP_PATHS.get(self.signup_step, "/add-child"), replace=True)
        return rx.redirect(f"/sign-in?next={quote(wanted, safe='/')}", replace=True)

    # ---- page loads ----------------------------------------------------------------------
    @rx.event
    async def load_session(self) -> None:
        """on_load of public pages: know who is here (header, 'landing when logged in')."""
        await self._refresh()

    @rx.event
    async def require_parent(self) -> Any:
        """on_load of logged-in pages: a visitor goes to sign-in and comes back after."""
        await self._refresh()
        return self._guard_redirect(page_path(self.router.url.path))

    @rx.event
    async def require_signup_step(self, step: str) -> Any:
        """on_load of /add-child: open to a sign-up at ADD_CHILD (a logged-in parent sees the
        landing screen, docs/product.md §2)."""
        await self._refresh()
        if self.status in ("parent", "unknown"):
            return None
        if self.status == "signup":
            if self.signup_step != step:
                return rx.redirect(SIGNUP_PATHS.get(self.signup_step, "/"), replace=True)
            return None
        return rx.redirect(f"/sign-in?next={quote(SIGNUP_PATHS[step])}", replace=True)

    @rx.event
    async def require_session(self) -> Any:
        """on_load of /allergy-profile: a parent (for any child) or a sign-up at ALLERGY."""
        await self._refresh()
        if self.status == "parent":
            return None
        if self.status == "signup":
            if self.signup_step != "ALLERGY":
                return rx.redirect(SIGNUP_PATHS.get(self.signup_step, "/"), replace=True)
            return None
        return rx.redirect("/sign-in?next=/allergy-profile", replace=True)

    # ---- logout (docs/product.md §2 header) ----------------------------------------------
    @rx.event
    def open_logout(self) -> None:
        self.logout_open = True

    @rx.event
    def set_logout_open(self, value: bool) -> None:
        self.logout_open = value

    @rx.event
    async def confirm_logout(self) -> AsyncIterator[Any]:
        self.logging_out = True
        yield
        lang = (await self.get_state(I18nState)).lang
        if self.token:
            try:
                await run_in_transaction(accounts.logout, token=self.token)
            except DomainError:
                pass  # already gone: logging out is idempotent
        self.logout_open = False
        self.logging_out = False
        # The message first, then home, then the session goes (docs/product.md §2, §4).
        yield succeeded(tr("logout_success", lang))
        yield rx.redirect("/")
        steps = await self.get_state(ProfileStepState)
        steps._reset_steps()
        self._forget_session()


@dataclass(frozen=True)
class ActingParent:
    """The parent a handler acts for, as the session store said on this very call."""

    parent_id: int
    session_id: int
    signup_step: str
    lang: str

    @property
    def complete(self) -> bool:
        """Sign-up finished: the logged-in screens are open (docs/product.md §2)."""
        return self.signup_step == COMPLETE


async def acting_parent(state: rx.State) -> ActingParent | None:
    """The parent signed in by the token cookie, checked by the service on this call.

    The one way a handler learns whose data it reads or changes. ``None`` - and the browser's
    copy of the session forgotten - for no token, a forged one, or a session revoked or
    expired meanwhile (logout elsewhere, password changed): the next call after a revocation
    acts no more. Ids the browser sends with an event are the services' to check against the
    parent returned here. Call it inside ``async with self`` in a background event.
    """
    auth = await state.get_state(AuthState)
    lang = (await state.get_state(I18nState)).lang
    ctx = None
    if auth.token:
        try:
            ctx = await run_in_transaction(accounts.authenticate, token=auth.token)
        except DomainError:
            ctx = None
    if ctx is None:
        if auth.token or auth.status not in ("visitor", "unknown"):
            auth._forget_session()
        return None
    return ActingParent(
        parent_id=ctx.parent_id,
        session_id=ctx.session_id,
        signup_step=ctx.signup_step,
        lang=lang,
    )


async def sync_cart_count(state: rx.State, count: int) -> None:
    """The header's cart count follows the cart (the profile's and the stored one)."""
    auth = await state.get_state(AuthState)
    auth.cart_count = int(count)
    auth.cart_count_store = str(int(count))


async def sync_cancel_count(state: rx.State, count: int) -> None:
    """The header's Cancel Cart count follows the cancel cart (the profile's and the stored
    one, which other tabs see through the storage event)."""
    auth = await state.get_state(AuthState)
    auth.cancel_cart_count = int(count)
    auth.cancel_cart_count_store = str(int(count))


async def signed_up_parent(state: rx.State) -> ActingParent | None:
    """``acting_parent`` when that parent's sign-up is complete (None otherwise: the screens
    behind the sign-up show nothing to a parent still signing up)."""
    who = await acting_parent(state)
    return who if who is not None and who.complete else None


async def complete_parent(state: rx.State) -> tuple[ActingParent | None, str]:
    """The acting parent when their profile is complete (None otherwise: the screens that
    book need it), and the language."""
    lang = (await state.get_state(I18nState)).lang
    return await signed_up_parent(state), lang


def session_expired(lang: str) -> list:
    """docs/product.md §4: a lost session returns to the parent home, saying why."""
    return [rx.toast.error(tr("unauthorized", lang)), rx.redirect("/")]


def _int(value: str) -> int:
    try:
        return int(value or 0)
    except (TypeError, ValueError):
        return 0
