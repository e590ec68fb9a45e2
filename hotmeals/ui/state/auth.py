"""The parent's session in the browser: the token cookie, the §3 session data in localStorage,
and the profile the shell shows. Every page's on_load re-checks the token with the service, so
a revoked or expired session ends at the next navigation (spec §4: a 401 clears the session
and returns to the parent home).

Route sets (spec §2) are decided here by ``status``:

- ``unknown``: not checked yet (before hydration) - public pages render, guarded ones do not;
- ``visitor``: no valid token;
- ``signup``: a valid token whose sign-up is not complete (ADD_CHILD or ALLERGY) - only
  /add-child and /allergy-profile are open, like the original app's "not logged in" set;
- ``parent``: logged in (sign-up complete) - the logged-in set.

Imports nothing app-level but the services it calls and the i18n state.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

import reflex as rx

from hotmeals.domain.errors import DomainError
from hotmeals.i18n import t as tr
from hotmeals.ui.state.base import call_service
from hotmeals.ui.state.i18n import I18nState

SESSION_MAX_AGE = 7 * 24 * 3600  # spec §9: session cookies last 7 days
TOKEN_COOKIE = "hm_token"
SESSION_KEY = "hm_session"
PREFIX = "/parent"

# Where an incomplete sign-up continues (spec §2 "After login").
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


def after_login_path(
    signup_step: str, is_login_data: bool, next_path: str | None = None
) -> str:
    """Spec §2: ADD_CHILD -> add-child, ALLERGY -> allergy-profile, isLoginData ->
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


def _load_session(*, session: Any, token: str) -> tuple[Any, dict]:
    """Check the token and read the profile in one transaction."""
    from hotmeals.services import accounts, profile

    ctx = accounts.authenticate(session=session, token=token)
    return ctx, profile.get_profile(session=session, parent_id=ctx.parent_id)


def initials(first: str, last: str) -> str:
    return ((first[:1] + last[:1]) or "?").upper()


class AuthState(rx.State):
    token: str = rx.Cookie(
        "", name=TOKEN_COOKIE, max_age=SESSION_MAX_AGE, same_site="lax", path="/"
    )
    # Spec §3 session data (id, names, e-mails, signup_step, isLoginData). The token itself
    # stays in the cookie only: one copy to clear, and nothing secret in localStorage.
    session_data: str = rx.LocalStorage("", name=SESSION_KEY)
    cart_count_store: str = rx.LocalStorage("0", name="cartCount")
    cancel_cart_count_store: str = rx.LocalStorage("0", name="cancelCartCount")

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

    _parent_id: int = 0
    _session_id: int = 0

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
        """Spec §4: the local count is preferred if above 0, otherwise the profile's."""
        local = _int(self.cart_count_store)
        return local if local > 0 else self.cart_count

    @rx.var
    def shown_cancel_cart_count(self) -> int:
        local = _int(self.cancel_cart_count_store)
        return local if local > 0 else self.cancel_cart_count

    # ---- used by other states ------------------------------------------------------------
    @property
    def parent_id(self) -> int:
        return self._parent_id

    @property
    def session_id(self) -> int:
        return self._session_id

    async def lang(self) -> str:
        return (await self.get_state(I18nState)).lang

    def client_address(self) -> str | None:
        return self.router.session.client_ip or None

    def user_agent(self) -> str | None:
        return (self.router.headers.user_agent or "")[:255] or None

    def apply_profile(self, profile: dict) -> None:
        self.first_name = profile.get("first_name") or ""
        self.last_name = profile.get("last_name") or ""
        self.email = profile.get("email") or ""
        self.phone = profile.get("phone") or ""
        self.profile_image = profile.get("profile_image") or ""
        self.signup_step = profile.get("signup_step") or ""
        self.cart_count = int(profile.get("cart_count") or 0)
        self.cancel_cart_count = int(profile.get("cancel_cart_count") or 0)
        self.active_child_count = int(profile.get("active_child_count") or 0)
        if profile.get("id"):
            self._parent_id = int(profile["id"])
        self.status = "parent" if self.signup_step == "COMPLETE" else "signup"
        self.session_data = json.dumps(
            {
                "id": self._parent_id,
                "first_name": self.first_name,
                "last_name": self.last_name,
                "email": self.email,
                "alt_emails": profile.get("alt_emails") or [],
                "signup_step": self.signup_step,
                "isLoginData": bool(profile.get("isLoginData")),
            }
        )

    def start_session(self, token: str, session_data: dict) -> None:
        """After login or e-mail verification: keep the token and the §3 session data."""
        self.token = token
        self._parent_id = int(session_data.get("id") or 0)
        self.apply_profile(session_data)

    def forget_session(self) -> None:
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
        self._parent_id = self._session_id = 0

    async def refresh(self) -> None:
        """Re-check the token and reload the profile (cart counts included)."""
        if not self.token:
            if self.status != "visitor":
                self.forget_session()
            self.status = "visitor"
            return
        try:
            ctx, profile = await call_service(_load_session, token=self.token)
        except DomainError:
            # An expired or revoked token (the API's 401): the session ends here.
            self.forget_session()
            return
        self._session_id = ctx.session_id
        self._parent_id = ctx.parent_id
        self.apply_profile(profile)

    async def checked_parent_id(self) -> int:
        """The parent's id after checking the token again, for an action that changes data:
        a session revoked meanwhile (logout elsewhere, password changed) acts no more.
        0 (and the session forgotten) when the token is no longer valid."""
        from hotmeals.services import accounts

        try:
            ctx = await call_service(accounts.authenticate, token=self.token)
        except DomainError:
            self.forget_session()
            return 0
        self._parent_id, self._session_id = ctx.parent_id, ctx.session_id
        return ctx.parent_id

    def session_expired(self, lang: str) -> list:
        """Spec §4: a lost session returns to the parent home, saying why."""
        return [rx.toast.error(tr("unauthorized", lang)), rx.redirect("/")]

    def _guard_redirect(self, wanted: str) -> rx.event.EventSpec | None:
        if self.status == "parent":
            return None
        if self.status == "signup":
            return rx.redirect(SIGNUP_PATHS.get(self.signup_step, "/add-child"), replace=True)
        return rx.redirect(f"/sign-in?next={quote(wanted, safe='/')}", replace=True)

    # ---- page loads ----------------------------------------------------------------------
    @rx.event
    async def load_session(self):
        """on_load of public pages: know who is here (header, 'landing when logged in')."""
        await self.refresh()

    @rx.event
    async def require_parent(self):
        """on_load of logged-in pages: a visitor goes to sign-in and comes back after."""
        await self.refresh()
        return self._guard_redirect(page_path(self.router.url.path))

    @rx.event
    async def require_signup_step(self, step: str):
        """on_load of /add-child: open to a sign-up at ADD_CHILD (a logged-in parent sees the
        landing screen, spec §2)."""
        await self.refresh()
        if self.status in ("parent", "unknown"):
            return None
        if self.status == "signup":
            if self.signup_step != step:
                return rx.redirect(SIGNUP_PATHS.get(self.signup_step, "/"), replace=True)
            return None
        return rx.redirect(f"/sign-in?next={quote(SIGNUP_PATHS[step])}", replace=True)

    @rx.event
    async def require_session(self):
        """on_load of /allergy-profile: a parent (for any child) or a sign-up at ALLERGY."""
        await self.refresh()
        if self.status == "parent":
            return None
        if self.status == "signup":
            if self.signup_step != "ALLERGY":
                return rx.redirect(SIGNUP_PATHS.get(self.signup_step, "/"), replace=True)
            return None
        return rx.redirect("/sign-in?next=/allergy-profile", replace=True)

    # ---- logout (spec §2 header) ---------------------------------------------------------
    @rx.event
    def open_logout(self):
        self.logout_open = True

    @rx.event
    def set_logout_open(self, value: bool):
        self.logout_open = value

    @rx.event
    async def confirm_logout(self):
        from hotmeals.services import accounts

        self.logging_out = True
        yield
        lang = await self.lang()
        if self.token:
            try:
                await call_service(accounts.logout, token=self.token)
            except DomainError:
                pass  # already gone: logging out is idempotent
        self.logout_open = False
        self.logging_out = False
        # The message first, then home, then the session goes (spec §2, §4).
        yield rx.toast.success(tr("logout_success", lang))
        yield rx.redirect("/")
        from hotmeals.ui.state.steps import ProfileStepState

        steps = await self.get_state(ProfileStepState)
        steps.reset_steps()
        self.forget_session()


def _int(value: str) -> int:
    try:
        return int(value or 0)
    except (TypeError, ValueError):
        return 0
