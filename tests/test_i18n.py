"""Translations: catalogs complete, compiled files fresh, pages right-to-left in Hebrew.

The .mo files are committed so that a fresh machine serves translated pages without GNU
gettext; these tests make sure nobody forgets to run ``python scripts/compilemessages.py``
(or ``make messages``) after editing a .po file, and that no string ships untranslated.
"""

from __future__ import annotations

import ast
import importlib.util
import re
from pathlib import Path

import polib
import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ("he", "ru")


def _po(lang: str) -> polib.POFile:
    path = ROOT / "locale" / lang / "LC_MESSAGES" / "django.po"
    assert path.exists(), f"{path} is missing"
    return polib.pofile(str(path))


def _key(entry: polib._BaseEntry) -> tuple[str | None, str]:
    return (entry.msgctxt or None, entry.msgid)


def _value(entry: polib._BaseEntry) -> tuple[str, ...]:
    if entry.msgid_plural:
        return tuple(entry.msgstr_plural[i] for i in sorted(entry.msgstr_plural))
    return (entry.msgstr,)


def test_the_site_speaks_three_languages() -> None:
    assert [code for code, _ in settings.LANGUAGES] == ["en", "he", "ru"]
    assert settings.LANGUAGE_COOKIE_NAME == "lang"
    assert ROOT / "locale" in [Path(p) for p in settings.LOCALE_PATHS]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_is_translated_and_none_is_fuzzy(lang: str) -> None:
    po = _po(lang)
    untranslated = [e.msgid for e in po.untranslated_entries()]
    fuzzy = [e.msgid for e in po.fuzzy_entries()]
    assert not untranslated, f"{lang}: untranslated: {untranslated}"
    assert not fuzzy, f"{lang}: fuzzy (check, then remove the flag): {fuzzy}"
    for entry in po.translated_entries():
        if entry.msgid_plural:
            assert all(s.strip() for s in entry.msgstr_plural.values()), (lang, entry.msgid)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_placeholders_survive_translation(lang: str) -> None:
    """A translation that drops or renames %(name)s would crash or say the wrong thing."""
    pattern = re.compile(r"%\((\w+)\)[sd]")
    for entry in _po(lang).translated_entries():
        wanted = set(pattern.findall(entry.msgid))
        for i, text in enumerate(_value(entry)):
            got = set(pattern.findall(text))
            assert got <= wanted | set(pattern.findall(entry.msgid_plural or "")), (lang, entry.msgid)
            # Hebrew says "one card" and "two cards" in words; every other form keeps the number.
            if not (entry.msgid_plural and lang == "he" and i in (0, 1)):
                assert got == wanted, (lang, entry.msgid, text)


def test_hebrew_speaks_to_the_player_in_one_voice() -> None:
    """The Hebrew pages address the player in the plural, which Hebrew uses for anyone (שלכם,
    הזינו): an audit found "הסידור שלך נשלח" (singular) beside "הקישו" (plural) on one panel."""
    singular = re.compile(r"(?<![\u05d0-\u05ea])(שלך|לך|אותך|עבורך|בשבילך|תורך|עצמך|בקשתך|אתה)(?![\u05d0-\u05ea])")
    found = [(e.msgid, text) for e in _po("he") if not e.obsolete
             for text in _value(e) if singular.search(text)]
    assert not found, found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_plural_forms_match_djangos_own_catalogs(lang: str) -> None:
    ours = _po(lang).metadata["Plural-Forms"].replace(" ", "")
    django_po = Path(importlib.util.find_spec("django").origin).parent / "conf" / "locale" / lang / "LC_MESSAGES" / "django.po"
    theirs = polib.pofile(str(django_po)).metadata["Plural-Forms"].replace(" ", "")
    assert ours == theirs


@pytest.mark.parametrize("lang", LANGUAGES)
def test_compiled_catalog_is_fresh(lang: str) -> None:
    """The committed .mo holds exactly what compiling the .po gives (run scripts/compilemessages.py)."""
    po = _po(lang)
    mo_path = ROOT / "locale" / lang / "LC_MESSAGES" / "django.mo"
    assert mo_path.exists(), f"{mo_path} is missing: run python scripts/compilemessages.py"
    mo = polib.mofile(str(mo_path))
    expected = {_key(e): _value(e) for e in po.translated_entries()}
    actual = {_key(e): _value(e) for e in mo if e.msgid}
    stale = sorted(k[1] for k in expected.keys() ^ actual.keys()) + sorted(
        k[1] for k in expected.keys() & actual.keys() if expected[k] != actual[k]
    )
    assert not stale, f"{mo_path.name} for {lang} is stale; run python scripts/compilemessages.py: {stale[:5]}"
    assert mo.metadata.get("Plural-Forms") == po.metadata.get("Plural-Forms")


def test_compile_script_agrees(tmp_path) -> None:
    """scripts/compilemessages.py --check passes on the committed tree."""
    spec = importlib.util.spec_from_file_location("compilemessages", ROOT / "scripts" / "compilemessages.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(["--check"]) == 0


# -- Every marked string is in the catalogs --------------------------------------------------

# Where the site's own strings live (not tests, not the virtualenv, not rules_engine: no Django).
SOURCE_DIRS = [p for p in ROOT.iterdir() if p.is_dir() and (p / "apps.py").exists()] + [ROOT / "config"]
TEMPLATE_DIRS = [ROOT / "templates"] + [p / "templates" for p in SOURCE_DIRS]
_GETTEXT = {
    "_": (0, None), "gettext": (0, None), "gettext_lazy": (0, None), "gettext_noop": (0, None),
    "ngettext": (0, None), "ngettext_lazy": (0, None),
    "pgettext": (1, 0), "pgettext_lazy": (1, 0), "npgettext": (1, 0), "npgettext_lazy": (1, 0),
}
_TRANSLATE_TAG = re.compile(
    r"""{%-?\s*(?:translate|trans)\s+(?P<q>["'])(?P<msgid>.*?)(?P=q)(?P<rest>[^%]*)%}""", re.S
)
_CONTEXT = re.compile(r"""context\s+(?P<q>["'])(?P<ctx>.*?)(?P=q)""")


def _marked_in_python() -> set[tuple[str | None, str]]:
    found: set[tuple[str | None, str]] = set()
    for folder in SOURCE_DIRS:
        for path in folder.rglob("*.py"):
            if "migrations" in path.parts:
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
            for node in ast.walk(tree):
                if not isinstance(node, ast.Call):
                    continue
                name = node.func.id if isinstance(node.func, ast.Name) else (
                    node.func.attr if isinstance(node.func, ast.Attribute) else None
                )
                if name not in _GETTEXT:
                    continue
                msg_at, ctx_at = _GETTEXT[name]
                args = node.args
                if len(args) <= msg_at or not all(
                    isinstance(a, ast.Constant) and isinstance(a.value, str) for a in args[: msg_at + 1]
                ):
                    continue
                ctx = args[ctx_at].value if ctx_at is not None else None
                found.add((ctx, args[msg_at].value))
    return found


def _marked_in_templates() -> set[tuple[str | None, str]]:
    found: set[tuple[str | None, str]] = set()
    for folder in TEMPLATE_DIRS:
        if not folder.is_dir():
            continue
        for path in folder.rglob("*.html"):
            for m in _TRANSLATE_TAG.finditer(path.read_text(encoding="utf-8")):
                ctx = _CONTEXT.search(m.group("rest"))
                # Django looks a template's string up with its % signs doubled (the catalog
                # then holds "3%% rake"): a catalog entry with single ones is never found.
                found.add((ctx.group("ctx") if ctx else None, m.group("msgid").replace("%", "%%")))
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_marked_string_is_in_the_catalog(lang: str) -> None:
    """A string marked for translation in the code but missing from a .po shows up in English.

    Fix: ``python manage.py makemessages -l he -l ru --add-location=file --ignore='.venv/*'
    --ignore='tests/*' --ignore='bench/*'`` (needs GNU gettext), translate, then
    ``python scripts/compilemessages.py``. ``{% blocktranslate %}`` blocks are not checked here.
    """
    catalog = {_key(e) for e in _po(lang) if not e.obsolete}
    missing = sorted((_marked_in_python() | _marked_in_templates()) - catalog, key=str)
    assert not missing, f"{lang}: {len(missing)} marked strings are not in the catalog: {missing[:8]}"


# -- Pages in each language -------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("lang", "direction", "words"),
    [
        ("en", "ltr", "Hand reader"),
        ("he", "rtl", "בודק הידיים"),
        ("ru", "ltr", "Разбор руки"),
    ],
)
def test_pages_render_in_each_language(client, lang: str, direction: str, words: str) -> None:
    client.cookies["lang"] = lang
    for url in ("/", "/hand/"):
        res = client.get(url)
        assert res.status_code == 200, url
        html = res.content.decode()
        assert f'<html lang="{lang}" dir="{direction}">' in html, url
        assert words in html, url


@pytest.mark.django_db
def test_accept_language_picks_hebrew(client) -> None:
    res = client.get("/hand/", headers={"Accept-Language": "he-IL,he;q=0.9,en;q=0.5"})
    assert '<html lang="he" dir="rtl">' in res.content.decode()


@pytest.mark.django_db
def test_language_switch_is_remembered_in_the_lang_cookie(client) -> None:
    res = client.post("/i18n/setlang/", {"language": "ru", "next": "/hand/?game=omaha"})
    assert res.status_code == 302
    assert res["Location"] == "/hand/?game=omaha"
    assert res.cookies["lang"].value == "ru"
    html = client.get("/hand/").content.decode()
    assert '<html lang="ru" dir="ltr">' in html


@pytest.mark.django_db
def test_every_page_has_the_language_switcher(client) -> None:
    html = client.get("/hand/").content.decode()
    assert 'action="/i18n/setlang/"' in html
    for code in ("en", "he", "ru"):
        assert f'<option value="{code}" lang="{code}"' in html


@pytest.mark.django_db
@pytest.mark.parametrize(("lang", "words"), [("he", ["רייק 3%", "{n} שנ׳"]), ("ru", ["рейк 3%", "{n} с"])])
def test_the_table_header_and_clock_units_are_translated(client, lang: str, words: list[str]) -> None:
    # Found by looking at the pages: "3% rake" stayed English (its catalog entry had single %
    # signs) and every clock ended in a Latin "s".
    from tables.services import table_create

    table = table_create(creator=None, name="Raked", small_blind=10, big_blind=20, max_seats=3, is_public=True)
    client.cookies["lang"] = lang
    html = client.get(f"/tables/{table.id}/").content.decode()
    for w in words:
        assert w in html


@pytest.mark.parametrize(("lang", "want"), [("en", "Bring in 5"), ("he", "ברינג-אין 5"), ("ru", "Бринг-ин 5")])
def test_stud_buttons_have_words(lang: str, want: str) -> None:
    from django.utils import translation

    from tables.presenter import action_label

    with translation.override(lang):
        assert action_label("bring_in", 5) == want
        assert "bring_in" not in action_label("complete", 10) and "10" in action_label("complete", 10)
