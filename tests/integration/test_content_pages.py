"""One function says what a page is for both doors (``/api/v1`` cms_pages and the Reflex
content state): a CMS page, or the FAQ as a page."""

from __future__ import annotations

from sqlmodel import Session

from hotmeals.services import content


def test_the_faq_is_a_page_with_items_in_each_language(seeded_engine):
    with Session(seeded_engine) as session:
        both = content.page_in_both_languages(session=session, slug=" FAQ ")
    assert both.en.slug == both.fr.slug == "faq"
    assert both.en.title and both.fr.title
    for lang, page in (("en", both.en), ("fr", both.fr)):
        assert page.body == "" and page.language == lang
        assert page.items and page.items[0].question and page.items[0].answer
    assert both.en.items and both.fr.items
    assert both.en.items[0].question != both.fr.items[0].question


def test_other_slugs_are_cms_pages(seeded_engine):
    with Session(seeded_engine) as session:
        about = content.page(session=session, slug="about", lang="fr")
    assert about.slug == "about" and about.language == "fr" and about.body
    assert about.items is None
