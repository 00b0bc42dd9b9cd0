"""Static files (``config/static.py``): fingerprinted URLs, a year's caching for them, ``no-cache``
and an ETag for anything else, gzip for a browser that accepts it, and nothing outside the static
directories."""

from __future__ import annotations

import gzip
import os
import re
from pathlib import Path
from typing import Any

import pytest
from channels.testing import HttpCommunicator
from django.template import Context, Template

from config import static

ROOT = Path(__file__).resolve().parents[1]


async def _fallback(scope: dict[str, Any], receive: Any, send: Any) -> None:
    await send({"type": "http.response.start", "status": 404, "headers": [(b"x-from", b"site")]})
    await send({"type": "http.response.body", "body": b"the site's 404"})


async def _get(path: str, query: str = "", method: str = "GET", **headers: str) -> dict[str, Any]:
    app = static.StaticFiles(_fallback)
    comm = HttpCommunicator(app, method, path, headers=[(k.replace("_", "-").encode(), v.encode()) for k, v in headers.items()])
    comm.scope["query_string"] = query.encode()
    response = await comm.get_response()
    response["h"] = {k.decode().lower(): v.decode() for k, v in response["headers"]}
    return response


def test_static_urls_carry_the_files_fingerprint() -> None:
    html = Template("{% load static %}{% static 'js/table.js' %} {% static 'css/site.css' %}").render(Context())
    urls = html.split()
    body = (ROOT / "static/js/table.js").read_bytes()
    import hashlib

    assert urls[0] == f"/static/js/table.js?v={hashlib.sha256(body).hexdigest()[:12]}"
    assert re.fullmatch(r"/static/css/site\.css\?v=[0-9a-f]{12}", urls[1])
    # A name that is no file is left as Django writes it.
    assert Template("{% load static %}{% static 'no/such.css' %}").render(Context()) == "/static/no/such.css"


@pytest.mark.asyncio
async def test_a_fingerprinted_url_is_kept_a_year_and_gzipped_for_a_browser_that_takes_it() -> None:
    entry = static.load("js/table.js")
    assert entry is not None
    r = await _get("/static/js/table.js", f"v={entry.version}", accept_encoding="gzip, deflate, br")
    assert r["status"] == 200
    assert r["h"]["cache-control"] == "public, max-age=31536000, immutable"
    assert r["h"]["content-encoding"] == "gzip" and r["h"]["vary"] == "Accept-Encoding"
    assert gzip.decompress(r["body"]) == (ROOT / "static/js/table.js").read_bytes()
    assert int(r["h"]["content-length"]) == len(r["body"]) < len(entry.body) / 2
    assert r["h"]["content-type"] == "text/javascript; charset=utf-8"


@pytest.mark.asyncio
async def test_without_gzip_in_accept_encoding_the_file_goes_plain() -> None:
    r = await _get("/static/css/site.css", accept_encoding="identity")
    assert r["status"] == 200 and "content-encoding" not in r["h"]
    assert r["body"] == (ROOT / "static/css/site.css").read_bytes()
    assert r["h"]["content-type"] == "text/css; charset=utf-8"


@pytest.mark.asyncio
async def test_a_bare_or_old_url_is_checked_each_time_and_answered_304_when_unchanged() -> None:
    entry = static.load("css/site.css")
    assert entry is not None
    for query in ("", "v=000000000000"):
        r = await _get("/static/css/site.css", query)
        assert r["status"] == 200 and r["h"]["cache-control"] == "no-cache" and r["h"]["etag"] == entry.etag
    r = await _get("/static/css/site.css", "", if_none_match=entry.etag)
    assert r["status"] == 304 and r["body"] == b""
    r = await _get("/static/css/site.css", "", if_none_match='"something-else"')
    assert r["status"] == 200 and r["body"]


@pytest.mark.asyncio
async def test_head_sends_the_headers_without_the_body() -> None:
    r = await _get("/static/css/site.css", method="HEAD")
    assert r["status"] == 200 and r["body"] == b"" and int(r["h"]["content-length"]) > 1000


@pytest.mark.asyncio
@pytest.mark.parametrize("path", ["/static/no/such.css", "/static/../config/settings/base.py",
                                  "/static//etc/passwd", "/static/", "/static/css"])
async def test_what_is_not_a_static_file_goes_to_the_sites_404(path: str) -> None:
    r = await _get(path)
    assert r["status"] == 404 and r["h"].get("x-from") == "site"


@pytest.mark.asyncio
async def test_other_paths_and_methods_go_to_the_site() -> None:
    assert (await _get("/lobby/"))["h"].get("x-from") == "site"
    assert (await _get("/static/css/site.css", method="POST"))["h"].get("x-from") == "site"


def test_an_edited_file_gets_a_new_fingerprint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    f = tmp_path / "x.css"
    f.write_text("a { color: red; }")
    monkeypatch.setattr(static, "_find", lambda name: str(f) if name == "x.css" else None)
    monkeypatch.setattr(static, "_PATHS", {})
    first = static.load("x.css")
    assert first is not None and static.load("x.css") is first  # kept in memory
    f.write_text("a { color: blue; }")
    os.utime(f, (first.mtime + 5, first.mtime + 5))
    second = static.load("x.css")
    assert second is not None and second.version != first.version and second.body == b"a { color: blue; }"
    f.unlink()
    assert static.load("x.css") is None  # gone from disk: gone from the site


@pytest.mark.django_db
def test_pages_are_gzipped_for_a_browser_that_takes_them(client: Any) -> None:
    plain = client.get("/rules/baseball/")
    squeezed = client.get("/rules/baseball/", HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert plain.status_code == squeezed.status_code == 200
    assert "content-encoding" not in plain.headers
    assert squeezed.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in squeezed.headers["Vary"]
    text = gzip.decompress(squeezed.content).decode()
    assert "</html>" in text and len(squeezed.content) < len(plain.content) / 2
