"""The rules pages: one view for every page, serving the page or, for htmx, one section of it.

``/rules/<slug>/`` renders the page in the active language (the switcher sets it; the address is
the same in every language). With ``?section=<id>`` an htmx request gets only that section, the
partial of the same name in the page's template; a plain request with the same address gets the
whole page, so a shared link still works. ``Vary: HX-Request`` keeps caches from mixing the two.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers

from rulesdocs import context as page_context
from rulesdocs.pages import INDEX, PAGES, Page, doc_language


def _render(request: HttpRequest, page: Page, extra: dict[str, Any]) -> HttpResponse:
    lang = doc_language()
    body = f"rulesdocs/{lang}/{page.slug}.html"
    context = {
        "page": page,
        "pages": PAGES,
        "games": [p for p in PAGES.values() if p.group == "games"],
        "reference": [p for p in PAGES.values() if p.group == "reference"],
        "body_template": body,
        "doc_lang": lang,
        **extra,
    }
    section = request.GET.get("section", "")
    if getattr(request, "htmx", False) and section:
        if section not in page.section_ids:
            raise Http404(f"no section {section!r} on this page")
        response = render(request, f"{body}#{section}", context)
    else:
        response = render(request, "rulesdocs/page.html", context)
    patch_vary_headers(response, ("HX-Request",))
    return response


def index(request: HttpRequest) -> HttpResponse:
    return _render(request, INDEX, {})


def page(request: HttpRequest, slug: str) -> HttpResponse:
    found = PAGES.get(slug)
    if found is None:
        raise Http404(f"no rules page {slug!r}")
    return _render(request, found, page_context.for_page(slug))
