"""Hashed build files are cached for a year, the rest of the frontend revalidates, and
brotli is served to browsers that take it (gzip to the others). The frontend is served by the
same static-file app Reflex mounts in single-port prod, behind our cache middleware."""

from __future__ import annotations

import gzip
from pathlib import Path

from fastapi.testclient import TestClient
from reflex.utils.precompressed_staticfiles import PrecompressedStaticFiles
from starlette.applications import Starlette
from starlette.responses import JSONResponse, PlainTextResponse
from starlette.routing import Mount, Route

from hotmeals.web.cache import IMMUTABLE, cache_control, cache_headers


def _site(tmp_path: Path) -> TestClient:
    root = tmp_path / "parent"
    (root / "assets").mkdir(parents=True)
    script = b"console.log('hot meals');" * 50
    (root / "assets" / "root-Ab12Cd34.js").write_bytes(script)
    (root / "assets" / "root-Ab12Cd34.js.gz").write_bytes(gzip.compress(script))
    (root / "assets" / "root-Ab12Cd34.js.br").write_bytes(b"brotli-bytes")
    (root / "index.html").write_text("<h1>Hot Meals</h1>")
    (root / "sign-in").mkdir()
    (root / "sign-in" / "index.html").write_text("<h1>Log in</h1>")
    (root / "logo.svg").write_text("<svg/>")

    async def api(_request):
        return JSONResponse({"code": 1}, headers={"cache-control": "no-store"})

    async def ping(_request):
        return PlainTextResponse("pong")

    app = Starlette(
        routes=[
            Route("/api/v1/thing", api),
            Route("/ping", ping),
            Mount(
                "/parent",
                app=PrecompressedStaticFiles(
                    directory=root, html=True, encodings=["brotli", "gzip"]
                ),
            ),
        ]
    )
    return TestClient(cache_headers(app))


def test_hashed_assets_are_immutable_for_a_year(tmp_path):
    client = _site(tmp_path)
    r = client.get("/parent/assets/root-Ab12Cd34.js")
    assert r.status_code == 200
    assert r.headers["cache-control"] == IMMUTABLE.decode()
    assert client.head("/parent/assets/root-Ab12Cd34.js").headers["cache-control"] == (
        IMMUTABLE.decode()
    )


def test_pages_and_unhashed_files_revalidate(tmp_path):
    client = _site(tmp_path)
    for path in ("/parent/", "/parent/logo.svg"):
        r = client.get(path)
        assert r.status_code == 200, path
        assert r.headers["cache-control"] == "no-cache", path
        assert r.headers.get("etag") or r.headers.get("last-modified"), path


def test_errors_and_other_routes_keep_their_own_headers(tmp_path):
    client = _site(tmp_path)
    missing = client.get("/parent/assets/gone-00000000.js")
    assert missing.status_code == 404 and "cache-control" not in missing.headers
    assert client.get("/api/v1/thing").headers["cache-control"] == "no-store"
    assert "cache-control" not in client.get("/ping").headers
    assert cache_control("/parent/_upload", 200) is None


def test_a_page_without_its_slash_is_answered_at_once_not_redirected(tmp_path):
    client = _site(tmp_path)
    for path in ("/parent/sign-in", "/parent/sign-in?next=/edit-profile"):
        r = client.get(path, follow_redirects=False)
        assert r.status_code == 200, path
        assert r.text == "<h1>Log in</h1>"
        assert r.headers["cache-control"] == "no-cache"
    assert client.head("/parent/sign-in", follow_redirects=False).status_code == 200
    # What is not a page folder answers as before.
    assert client.get("/parent/nowhere", follow_redirects=False).status_code == 404
    assert client.get("/parent/assets", follow_redirects=False).status_code in (307, 404)


def test_brotli_first_then_gzip_then_plain(tmp_path):
    client = _site(tmp_path)
    path = "/parent/assets/root-Ab12Cd34.js"
    br = client.get(path, headers={"accept-encoding": "gzip, deflate, br, zstd"})
    assert br.headers["content-encoding"] == "br" and br.content == b"brotli-bytes"
    gz = client.get(path, headers={"accept-encoding": "gzip"})
    assert gz.headers["content-encoding"] == "gzip"
    assert gz.content.startswith(b"console.log")  # the client decoded it
    plain = client.get(path, headers={"accept-encoding": "identity"})
    assert "content-encoding" not in plain.headers


def test_the_build_writes_brotli_before_gzip():
    from rxconfig import config

    assert list(config.frontend_compression_formats) == ["brotli", "gzip"]
