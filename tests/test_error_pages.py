"""The site's own error pages: a page not found (a wrong address, or a private table or club page
for an outsider), a refused form (CSRF), a bad request and a server error, in the visitor's
language, with a way back, never Django's bare English page."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.utils import translation

from tests.tables.helpers import make_user

pytestmark = pytest.mark.django_db


def test_a_wrong_address_gets_the_sites_page_in_the_visitors_language() -> None:
    client = Client()
    page = client.get("/no/such/page/")
    assert page.status_code == 404
    html = page.content.decode()
    assert "Page not found" in html and 'href="/lobby/"' in html and "site.css" in html
    assert "The requested resource was not found on this server" not in html
    client.cookies["lang"] = "ru"
    html = client.get("/no/such/page/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Страница не найдена" in html and 'lang="ru"' in html
    client.cookies["lang"] = "he"
    html = client.get("/no/such/page/", HTTP_ACCEPT_LANGUAGE="he").content.decode()
    assert "הדף לא נמצא" in html and 'dir="rtl"' in html


def test_an_outsider_at_a_club_page_gets_the_same_page_logged_in() -> None:
    from tests.club.helpers import club_with_people

    p = club_with_people("err")
    client = Client()
    client.force_login(p.outsider)
    page = client.get(f"/clubs/{p.club.pk}/members/")
    assert page.status_code == 404
    html = page.content.decode()
    assert "Page not found" in html and "members" in html  # says why a page may be missing
    assert p.outsider.username.lower() in html.lower()  # the account menu: still logged in


def test_a_form_sent_without_its_token_is_refused_with_a_way_back() -> None:
    user = make_user("csrf-page")
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    page = client.post("/tables/new/", {"name": "x"})
    assert page.status_code == 403
    html = page.content.decode()
    assert "The form expired" in html and "Nothing was changed" in html and 'href="/"' in html
    assert "CSRF verification failed" not in html


@pytest.mark.parametrize(("template", "words", "russian"), [
    ("500.html", "Something went wrong", "Что-то пошло не так"),
    ("400.html", "Bad request", "Неверный запрос"),
])
def test_the_pages_drawn_without_a_request_need_none(template: str, words: str, russian: str) -> None:
    # Django draws these with no request and no context processors.
    html = render_to_string(template)
    assert words in html and 'href="/"' in html
    with translation.override("ru"):
        assert russian in render_to_string(template)


def test_a_name_the_site_does_not_answer_at_is_named_with_what_lets_it_in() -> None:
    """Found by an audit: friends' phones at a laptop's network address got "The site could not
    read that request", and its "Home" link led back to the same refused name."""
    page = Client(HTTP_HOST="pokerbox.example:8003").get("/")
    html = page.content.decode()
    assert page.status_code == 400
    assert "pokerbox.example:8003" in html and "DJANGO_ALLOWED_HOSTS" in html
    assert "could not read that request" not in html
    assert "<script" not in Client(HTTP_HOST="x<script>.example").get("/").content.decode().split("<body>")[1]
    with translation.override("ru"):
        assert "DJANGO_ALLOWED_HOSTS" in render_to_string("400.html", {"refused_host": "a.example"})
        assert "не настроен" in render_to_string("400.html", {"refused_host": "a.example"})
