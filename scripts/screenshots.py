"""Screenshots of pages at 1280 and 390 px, in English and French, for looking at what we build.

.venv/bin/python scripts/screenshots.py http://localhost:1805 / /sign-in --out shots
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from playwright.sync_api import sync_playwright

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("base")
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--out", default="shots")
    ap.add_argument("--langs", default="en,fr")
    ap.add_argument("--storage", default=None, help="Playwright storage state JSON (logged in)")
    a = ap.parse_args()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        for width, height in ((1280, 800), (390, 844)):
            for lang in a.langs.split(","):
                ctx = browser.new_context(
                    viewport={"width": width, "height": height}, storage_state=a.storage
                )
                ctx.add_init_script(f"window.localStorage.setItem('lang', '{lang}')")
                page = ctx.new_page()
                for path in a.paths:
                    page.goto(f"{a.base}/parent{path}")
                    page.wait_for_timeout(1500)
                    name = re.sub(r"[^a-z0-9]+", "-", path.strip("/")) or "home"
                    page.screenshot(path=str(out / f"{name}-{width}-{lang}.png"), full_page=True)
                ctx.close()
        browser.close()


if __name__ == "__main__":
    main()
