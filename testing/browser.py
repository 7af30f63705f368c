"""Headless Chromium for the tests that look at a page as a browser shows it (Debian's
`chromium`: `scripts/install-chromium`). A missing Chromium skips the test, or fails it under
`.ci/run` (testing/tools.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

from testing.tools import missing_tool

NAMES = ("chromium", "chromium-browser")
FLAGS = [
    "--headless",
    "--no-sandbox",  # tests run as root in CI containers
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--hide-scrollbars",
]


def chromium() -> Path:
    """The browser (CHROMIUM names another); skips (fails under .ci/run) without one."""
    named = os.environ.get("CHROMIUM")
    found = named or next((p for p in map(shutil.which, NAMES) if p), None)
    if not found:
        missing_tool("headless Chromium is not installed: run scripts/install-chromium")
    return Path(found)


def _run(url: str, profile: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    argv = [str(chromium()), *FLAGS, f"--user-data-dir={profile}", *flags, url]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, f"{' '.join(argv)} exited {done.returncode}:\n{done.stderr}"
    return done


def screenshot(page: Path, png: Path, profile: Path, size: tuple[int, int] = (1200, 1800)) -> Path:
    """A PNG of the page as Chromium renders it in a window of `size`."""
    _run(page.as_uri(), profile, f"--screenshot={png}", f"--window-size={size[0]},{size[1]}")
    assert png.is_file(), f"Chromium wrote no screenshot to {png}"
    return png


def dump_dom(page: Path, profile: Path) -> str:
    """The DOM Chromium built from the page, serialised."""
    return _run(page.as_uri(), profile, "--dump-dom").stdout


class Elements(HTMLParser):
    """The tags and attributes of a serialised DOM, in order."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.found: list[tuple[str, dict[str, str]]] = []
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found.append((tag, {k: v or "" for k, v in attrs}))

    def hrefs(self) -> list[str]:
        return [attrs["href"] for tag, attrs in self.found if tag == "a" and "href" in attrs]

    def count(self, tag: str, css_class: str) -> int:
        return sum(
            1 for t, attrs in self.found if t == tag and css_class in attrs.get("class", "").split()
        )


def blank(png: Path) -> bool:
    """Whether a screenshot shows (next to) nothing: one colour, or a handful."""
    from PIL import Image

    with Image.open(png) as image:
        colours = image.convert("RGB").getcolors(maxcolors=1 << 16)
    return colours is not None and len(colours) < 8
