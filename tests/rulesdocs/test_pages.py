"""Every rules page, in every language, as a whole page and section by section (htmx)."""

from __future__ import annotations

import pytest

from tests.rulesdocs.helpers import ALL_PAGES, LANGS, SLUGS, get, plain_text, with_attr

DIRECTION = {"en": "ltr", "he": "rtl", "ru": "ltr"}
# Words a poker player of each language would use, one of which each page must contain.
NATIVE = {
    "en": ("hand", "card", "pot", "bet"),
    "he": ("יד", "קלפים", "קופה", "בורד", "שולחן"),
    "ru": ("карт", "банк", "ставк", "стол", "рук"),
}
# Words that give away an English page left untranslated.
ENGLISH_ONLY = ("the pot", "showdown", "Worked examples", "Two plus three", "The game")


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", SLUGS)
def test_full_page(client, slug: str, lang: str) -> None:
    res = get(client, slug, lang)
    assert res.status_code == 200
    assert "HX-Request" in res["Vary"]
    html = res.content.decode()
    assert f'<html lang="{lang}" dir="{DIRECTION[lang]}">' in html
    page = ALL_PAGES[slug]
    text = plain_text(html)
    # The page's own title, in this language, heads it; every section is there with its anchor
    # and its entry in the table of contents.
    assert getattr(page.title, lang) in text
    ids = {a["id"] for a in with_attr(html, "id")}
    toc = {a["href"] for a in with_attr(html, "hx-get")}
    for section in page.sections:
        assert section.id in ids, section.id
        assert getattr(section.title, lang) in text, section.id
        assert f'href="#{section.id}"' in html
        assert f"{res.wsgi_request.path}?section={section.id}" in {
            a["hx-get"] for a in with_attr(html, "hx-get")
        }
    assert toc, "the table of contents links carry hx-get"
    # Links to every other rules page, and the print stylesheet.
    for other in ALL_PAGES:
        if other not in ("index", slug):
            assert f'href="/rules/{other}/"' in html, other
    assert "css/docs.css" in html


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", SLUGS)
def test_each_section_alone_for_htmx(client, slug: str, lang: str) -> None:
    for section in ALL_PAGES[slug].sections:
        res = get(client, slug, lang, section=section.id, htmx=True)
        assert res.status_code == 200, section.id
        assert "HX-Request" in res["Vary"]
        html = res.content.decode()
        assert "<html" not in html and "<nav" not in html, section.id
        assert html.strip().startswith(f'<section id="{section.id}"'), section.id
        assert getattr(section.title, lang) in plain_text(html)


@pytest.mark.django_db
def test_a_section_address_without_htmx_is_the_whole_page(client) -> None:
    res = get(client, "patchpatch", "en", section="betting")
    html = res.content.decode()
    assert res.status_code == 200 and "<html" in html and 'id="glance"' in html


@pytest.mark.django_db
def test_unknown_pages_and_sections(client) -> None:
    assert get(client, "canasta", "en").status_code == 404
    assert get(client, "patchpatch", "en", section="nope", htmx=True).status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize("slug", SLUGS)
def test_the_language_really_changes_the_text(client, slug: str) -> None:
    texts = {lang: plain_text(get(client, slug, lang).content.decode()) for lang in LANGS}
    for lang, text in texts.items():
        assert any(w in text for w in NATIVE[lang]), (slug, lang)
    for lang in ("he", "ru"):
        body = texts[lang]
        leaked = [w for w in ENGLISH_ONLY if w in body]
        assert not leaked, (slug, lang, leaked)
        # Different words, not the same page with another title.
        assert len(set(body.split()) & set(texts["en"].split())) < 0.5 * len(set(body.split()))


@pytest.mark.django_db
def test_known_words_per_language(client) -> None:
    he = plain_text(get(client, "patchpatch", "he").content.decode())
    ru = plain_text(get(client, "patchpatch", "ru").content.decode())
    for word in ("פלופ", "טרן", "ריבר", "בליינד", "קופה", "סקופ"):
        assert word in he, word
    for word in ("флоп", "тёрн", "ривер", "банк", "блайнд", "скуп"):
        assert word in ru, word


@pytest.mark.django_db
def test_hebrew_keeps_cards_and_numbers_left_to_right(client) -> None:
    html = get(client, "patchpatch", "he").content.decode()
    card_rows = with_attr(html, "class")
    rows = [a for a in card_rows if a["class"].split()[0] == "cards"]
    assert rows and all(a.get("dir") == "ltr" for a in rows)
    # Every stake and amount in the pot-only table sits in an isolated left-to-right run.
    assert html.count('<bdi dir="ltr">') > 50
    assert '<bdi dir="ltr">5-10</bdi>' in html and '<bdi dir="ltr">500-1000</bdi>' in html


@pytest.mark.django_db
@pytest.mark.parametrize("slug", ["patchpatch", "rankings", "omaha", "holdem", "baseball"])
def test_try_it_on_your_own_cards(client, slug: str) -> None:
    html = get(client, slug, "en").content.decode()
    forms = [a for a in with_attr(html, "action") if a["action"] == "/hand/"]
    assert forms and all(a.get("method") == "get" for a in forms)
    games = {a["value"] for a in with_attr(html, "name", "game")}
    assert games == {ALL_PAGES[slug].hand_game}
    res = client.get("/hand/", {"game": ALL_PAGES[slug].hand_game})
    assert res.status_code == 200


@pytest.mark.django_db
def test_print_stylesheet_hides_navigation() -> None:
    from pathlib import Path

    css = (Path(__file__).resolve().parents[2] / "static" / "css" / "docs.css").read_text()
    print_rules = css[css.index("@media print") :]
    for selector in (".topbar", ".langswitch", ".doc-toc", ".doc-pages", ".tryit"):
        assert selector in print_rules.split("display: none")[0], selector
    assert "background: #fff" in print_rules and "color: #000" in print_rules
