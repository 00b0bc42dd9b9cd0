"""Shared bits for the rules pages' tests: the pages, the languages, reading rendered HTML."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from rulesdocs.pages import INDEX, LANGS, PAGES

SLUGS = ["index", *PAGES]
ALL_PAGES = {"index": INDEX, **PAGES}


def url(slug: str) -> str:
    return "/rules/" if slug == "index" else f"/rules/{slug}/"


def get(client, slug: str, lang: str, section: str | None = None, htmx: bool = False):
    client.cookies["lang"] = lang
    path = url(slug) + (f"?section={section}" if section else "")
    headers = {"HX-Request": "true"} if htmx else {}
    return client.get(path, headers=headers)


class Elements(HTMLParser):
    """Every start tag with its attributes, and the text of the page without tags."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, {k: v or "" for k, v in attrs}))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def parse(html: str) -> Elements:
    e = Elements()
    e.feed(html)
    return e


def with_attr(html: str, name: str, value: str | None = None) -> list[dict[str, str]]:
    """Attributes of every element carrying ``name`` (equal to ``value`` when given)."""
    return [a for _, a in parse(html).tags if name in a and (value is None or a[name] == value)]


def plain_text(html: str, sep: str = " ") -> str:
    """The page's text; ``sep=""`` keeps inline runs together ("call <bdi>10</bdi>," -> "call 10,")."""
    return re.sub(r"\s+", " ", sep.join(parse(html).text))


__all__ = ["ALL_PAGES", "LANGS", "SLUGS", "get", "parse", "plain_text", "url", "with_attr"]
