"""A page request with the cookie hm_lang=fr is answered with the French copy the build
wrote (hotmeals.web.lang_pages.py), through the same static files Reflex serves the pages with
(precompressed variants, ETags, the not-found page), inside the cache headers as installed."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from reflex.utils.precompressed_staticfiles import PrecompressedStaticFiles
from starlette.applications import Starlette
from starlette.routing import Mount
from starlette.testclient import TestClient

from hotmeals.web.cache import cache_headers
from hotmeals.web.lang_pages import LangPages, french_path, is_page_path, wants_french

EN_PAGE = b'<html lang="en"><body>Log in</body></html>'
FR_PAGE = b'<html lang="fr-CA" data-hm-paint="fr"><body>Connexion</body></html>'


@pytest.fixture
def built(tmp_path: Path) -> Path:
    pages = tmp_path / "parent"
    (pages / "sign-in").mkdir(parents=True)
    (pages / "terms").mkdir()
    (pages / "assets").mkdir()
    for rel, body in {
        "index.html": EN_PAGE,
        "index.fr.html": FR_PAGE,
        "sign-in/index.html": EN_PAGE,
        "sign-in/index.fr.html": FR_PAGE,
        "about.html": EN_PAGE,
        "about.fr.html": FR_PAGE,
        "terms/index.html": EN_PAGE,  # a page the build did not translate
        "404.html": b"<html><body>Page not found</body></html>",
        "assets/app.js": b"console.log(1)",
    }.items():
        (pages / rel).write_bytes(body)
    for rel in ("sign-in/index.html", "sign-in/index.fr.html"):
        (pages / (rel + ".gz")).write_bytes(gzip.compress((pages / rel).read_bytes()))
    return pages


@pytest.fixture
def client(built: Path) -> TestClient:
    files = PrecompressedStaticFiles(directory=built, html=True, encodings=["gzip"])
    inner = Starlette(routes=[Mount("/parent/", app=files)])
    app = cache_headers(LangPages(inner, static_dir=lambda: built))
    return TestClient(app)


FR = {"cookie": "hm_token=abc; hm_lang=fr"}
EN = {"cookie": "hm_lang=en"}


@pytest.mark.parametrize(
    "path", ["/parent/", "/parent/sign-in/", "/parent/sign-in", "/parent/about.html"]
)
def test_french_cookie_gets_the_french_copy(client: TestClient, path: str):
    french = client.get(path, headers=FR)
    assert french.status_code == 200 and french.content == FR_PAGE
    assert "cookie" in french.headers["vary"].lower()
    assert french.headers["cache-control"] == "no-cache"
    english = client.get(path, headers=EN)
    assert english.status_code == 200 and english.content == EN_PAGE
    assert "cookie" in english.headers["vary"].lower()
    assert client.get(path).content == EN_PAGE  # no cookie: English


def test_the_precompressed_french_copy_is_served_when_accepted(client: TestClient):
    answer = client.get("/parent/sign-in/", headers={**FR, "accept-encoding": "gzip"})
    assert answer.headers["content-encoding"] == "gzip"
    assert answer.content == FR_PAGE  # httpx decodes it
    assert answer.headers["vary"].lower() == "accept-encoding, cookie"


def test_etag_revalidation_is_per_language(client: TestClient):
    french = client.get("/parent/sign-in/", headers=FR)
    again = client.get("/parent/sign-in/", headers={**FR, "if-none-match": french.headers["etag"]})
    assert again.status_code == 304
    english = client.get(
        "/parent/sign-in/", headers={**EN, "if-none-match": french.headers["etag"]}
    )
    assert english.status_code == 200 and english.content == EN_PAGE


def test_pages_without_a_copy_and_unknown_paths_are_answered_as_before(client: TestClient):
    assert client.get("/parent/terms", headers=FR).content == EN_PAGE  # redirect followed
    assert client.get("/parent/terms/", headers=FR).content == EN_PAGE
    missing = client.get("/parent/no/such/page", headers=FR)
    assert missing.status_code == 404 and b"Page not found" in missing.content
    asset = client.get("/parent/assets/app.js", headers=FR)
    assert asset.content == b"console.log(1)" and "cookie" not in asset.headers.get("vary", "")
    # the copy's own name is not a way around the cookie's absence either: it is a file
    assert client.get("/parent/sign-in/index.html", headers=FR).content == FR_PAGE


def test_the_rules():
    assert is_page_path("/parent/") and is_page_path("/parent/sign-in")
    assert is_page_path("/parent/about.html")
    assert not is_page_path("/parent/assets/x.js") and not is_page_path("/parent/logo.svg")
    assert not is_page_path("/parent/_event") and not is_page_path("/api/v1/health")
    assert not is_page_path("/parent/../etc/passwd")
    assert wants_french({"headers": [(b"cookie", b"a=1; hm_lang=fr")]})
    assert not wants_french({"headers": [(b"cookie", b"hm_lang=en")]})
    assert not wants_french({"headers": [(b"cookie", b"hm_lang_x=fr")]})
    assert not wants_french({"headers": []})


def test_french_path_follows_the_static_lookup(built: Path):
    assert french_path("/parent/", built) == "/parent/index.fr.html"
    assert french_path("/parent/sign-in/", built) == "/parent/sign-in/index.fr.html"
    assert french_path("/parent/sign-in", built) is None  # the folder's redirect comes first
    assert french_path("/parent/about.html", built) == "/parent/about.fr.html"
    assert french_path("/parent/about", built) is None  # no such folder: the 404 as before
    assert french_path("/parent/terms/", built) is None  # no copy
