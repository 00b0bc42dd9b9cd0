"""The site on a phone's home screen: a web app manifest with icons that exist at the sizes it
names, a theme colour, and an icon for iOS; every page links them."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.templatetags.static import static

ROOT = Path(__file__).resolve().parents[1]


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_the_manifest_names_icons_that_exist_at_their_sizes() -> None:
    found = finders.find("manifest.webmanifest")
    assert found
    manifest = json.loads(Path(found).read_text())
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/lobby/" and manifest["scope"] == "/"
    sizes = set()
    for icon in manifest["icons"]:
        path = Path(found).parent / icon["src"]
        assert path.is_file(), icon["src"]
        if icon["type"] == "image/png":
            w, h = _png_size(path)
            assert icon["sizes"] == f"{w}x{h}"
            sizes.add(w)
    assert {192, 512} <= sizes  # what Android asks for
    assert _png_size(ROOT / "static" / "img" / "apple-touch-icon.png") == (180, 180)


@pytest.mark.django_db
def test_every_page_links_the_manifest_and_the_icons(client) -> None:
    for url in ("/", "/lobby/", "/rules/", "/accounts/login/"):
        body = client.get(url, follow=True).content.decode()
        assert f'<link rel="manifest" href="{static("manifest.webmanifest")}">' in body
        assert static("img/apple-touch-icon.png") in body and '<meta name="theme-color"' in body
