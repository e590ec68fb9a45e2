"""About, terms, privacy and FAQ from the CMS tables (docs/product.md §2 steps 7, 9, 10; §7
cms_pages).

Both languages are loaded at once, so switching language swaps the text without a round trip;
a logged-in parent sees them as /edit-profile steps, a visitor in a dialog from the footer.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import Any

import reflex as rx
from markdown_it import MarkdownIt

from hotmeals.domain.errors import DomainError
from hotmeals.services import content
from hotmeals.services.content import Page, PageInBoth
from hotmeals.services.reference import FaqRef
from hotmeals.services.transaction import run_in_transaction
from hotmeals.ui.shared_state.auth import AuthState
from hotmeals.ui.shared_state.steps import ProfileStepState, arrival_url

CMS_SLUGS = ("about", "terms", "privacy")
# Visitor pages show CMS text in a dialog as HTML made here (raw HTML in the Markdown is
# escaped, unsafe links dropped), so they do not load a Markdown renderer; the parent's
# /edit-profile steps use rx.markdown.
_MD = MarkdownIt("commonmark", {"html": False}).enable("table")
_HEADING_RE = re.compile(r"<(/?)h([1-5])>")


def to_html(markdown: str) -> str:
    """Markdown to HTML, headings one level down (the dialog title is the page's heading)."""
    return _HEADING_RE.sub(lambda m: f"<{m[1]}h{int(m[2]) + 1}>", _MD.render(markdown))


class ContentState(rx.State):
    slug: str = ""
    title_en: str = ""
    title_fr: str = ""
    body_en: str = ""
    body_fr: str = ""
    html_en: str = ""
    html_fr: str = ""
    loading: bool = False
    failed: bool = False
    faq_en: list[dict[str, str]] = []
    faq_fr: list[dict[str, str]] = []
    dialog_open: bool = False

    _pages: dict[str, PageInBoth] = {}

    async def _ensure_loaded(self, slug: str) -> None:
        if slug == "faq":
            self.slug = "faq"
            if not self.faq_en:
                faq = await run_in_transaction(content.page_in_both_languages, slug="faq")
                self.faq_en = [_qa(row) for row in faq.en.items or ()]
                self.faq_fr = [_qa(row) for row in faq.fr.items or ()]
            return
        if slug not in CMS_SLUGS:
            return
        self.failed = False
        if slug not in self._pages:
            try:
                self._pages[slug] = await run_in_transaction(
                    content.page_in_both_languages, slug=slug
                )
            except DomainError:
                self.failed = True
                self.slug = slug
                self.title_en = self.title_fr = self.body_en = self.body_fr = ""
                self.html_en = self.html_fr = ""
                return
        pages = self._pages[slug]
        self.slug = slug
        self.title_en, self.body_en = pages.en.title, _without_title(pages.en)
        self.title_fr, self.body_fr = pages.fr.title, _without_title(pages.fr)
        self.html_en, self.html_fr = to_html(self.body_en), to_html(self.body_fr)

    @rx.event
    async def open_dialog(self, slug: str) -> AsyncIterator[Any]:
        """The footer's About / Terms / Privacy for a visitor: the page in a dialog."""
        async for event in self._in_dialog(slug):
            yield event

    async def _in_dialog(self, slug: str) -> AsyncIterator[Any]:
        self.dialog_open = True
        self.loading = True
        yield
        await self._ensure_loaded(slug)
        self.loading = False

    @rx.event
    async def open_from_footer(self, slug: str, step: str) -> AsyncIterator[Any]:
        """Footer links: a logged-in parent gets the /edit-profile step, a visitor a dialog."""
        auth = await self.get_state(AuthState)
        if auth.is_parent:
            # Public text either way: the parent's status only picks where it is shown.
            steps = await self.get_state(ProfileStepState)
            steps._set_steps(str(step))
            await self._ensure_loaded(slug)
            yield rx.redirect(arrival_url(steps.current))
            return
        async for event in self._in_dialog(slug):
            yield event

    @rx.event
    async def show_page(self) -> AsyncIterator[Any]:
        """on_load of /about, /terms, /privacy and /faq: the page the address names (public
        text; an unknown address loads nothing)."""
        slug = page_slug(self.router.url.path)
        self.dialog_open = False
        self.loading = True
        yield
        if slug:
            await self._ensure_loaded(slug)
        self.loading = False

    @rx.event
    def set_dialog_open(self, value: bool) -> None:
        self.dialog_open = value


def page_slug(path: str) -> str:
    """'/parent/terms' or '/terms/' -> 'terms'; '' for any other address."""
    last = path.rstrip("/").rsplit("/", 1)[-1]
    return last if last in (*CMS_SLUGS, "faq") else ""


def _without_title(page: Page) -> str:
    """The body without a leading '# Title' line: the screen shows the title as its heading."""
    body = page.body.lstrip()
    first, _, rest = body.partition("\n")
    if first.startswith("# ") and first[2:].strip() == page.title.strip():
        return rest.lstrip()
    return body


def _qa(row: FaqRef) -> dict[str, str]:
    return {
        "id": str(row.id),
        "question": row.question,
        "answer": row.answer,
        "answer_html": to_html(row.answer),
    }
