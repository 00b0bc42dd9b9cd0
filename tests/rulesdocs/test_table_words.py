"""The Hebrew and Russian rules pages, and the catalog itself, call a thing by the word the table
calls it.

A player who reads "פוט" and "צ'יפים" on a rules page and then sees "קופה" and "ז'יטונים" at the
table reads of two things where there is one. Each term below is checked three ways: the
catalog still says the word (if it changes, the pages must follow), no rules page, title or
summary uses the other word, and no other message of the catalog uses it either (the catalog
once said "ביג בליינד", "סטאק", "לוח", "олл-ин", "частный стол", "скорость" and "Прикуп" in some
messages beside the labels' words). The Patch-Patch page names the everyday Hebrew words once, where it
introduces the pot and the chips (כ„פוט”, „צ'יפים”), and only there.
"""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest
from django.utils import translation

from rulesdocs.pages import LANGS as DOC_LANGS
from tests.rulesdocs.helpers import ALL_PAGES, SLUGS, get, plain_text

# Hebrew letters on either side end a word; one-letter prefixes (ה, ב, ל, מ, ו, ש, כ) may lead it.
HE = "\u05d0-\u05ea"
PREFIX = f"(?<![{HE}])[והבלמשכ]{{0,3}}"
# Short words take fewer prefixes: "שקול" (equal) and "מבט" (a look) are other words.
SHORT = f"(?<![{HE}])[והבל]{{0,2}}"
END = f"(?![{HE}])"
APOS = "['\u05f3]"  # an apostrophe or a Hebrew geresh

# (msgid, what the interface says for it, the rules pages' old word as a pattern)
HEBREW = [
    ("Pot", "קופה", rf"{PREFIX}פוט(ים)?{END}"),
    ("Chips", "ז'יטונים", rf"{PREFIX}צ{APOS}יפ(ים)?{END}"),
    ("main pot", "קופה ראשית", rf"{PREFIX}מיין{END}"),
    ("side pot %(n)s", "קופת צד", rf"{PREFIX}סייד{END}"),
    ("Bet", "הימור", rf"{SHORT}בט(ים)?{END}"),
    ("call", "השוואה", rf"{SHORT}קול{END}"),
    ("raise", "העלאה", rf"{PREFIX}רייז(ים)?{END}"),
    ("Showdown", "חשיפה", rf"{PREFIX}שואודאון{END}"),
    ("Button", "דילר", rf"{PREFIX}באטן{END}"),
    ("Small blind", "בליינד קטן", rf"{PREFIX}סמול{END}"),
    ("Big blind", "בליינד גדול", rf"{PREFIX}ביג{END}"),
    ("Your stack has reached this table's most (%(high)s): chips are added only below it.", "ערימה",
     rf"{PREFIX}סטאק(ים)?{END}"),
    ("Seat", "מושב", rf"{PREFIX}(כיסא|כיסאות){END}"),
    ("split", "חלוקה", rf"{PREFIX}ספליט{END}"),
    ("Stakes", "סכומים", rf"{PREFIX}סטייקס{END}"),
    ("Buy-in", "באי-אין", rf"{PREFIX}ביי-אין{END}"),
    ("Session", "סשן", r"ערבי משחק|ערב בייסבול|ערבי הבייסבול"),
    ("Level %(n)s", "שלב", rf"{PREFIX}(רמה|רמות){END}"),
    ("Bet pot %(amount)s", "הימור בגודל הקופה", r"הימור פוט"),
    ("Speed", "קצב", rf"{PREFIX}מהירות{END}"),
    ("Board", "בורד", rf"{PREFIX}(לוח|לוחות){END}"),
]
# Words the interface itself spells with "פוט": the betting structure and the host's bomb pot.
HEBREW_KEPT = ("פוט-לימיט", "בומב פוט")
# The one place the everyday words are named, beside the table's.
HEBREW_NAMED = {"patchpatch": ("„פוט”", "„צ'יפים”")}

RUSSIAN = [
    ("All-in", "Ва-банк", r"олл-ин\w*"),
    ("Fold", "Пас", r"(?<!\w)фолд\w*"),
    ("Bet", "Ставка", r"(?<!\w)бет(а|ом|у|е|ы|ов)?(?![\w-])"),
    ("Raise to", "Рейз", r"(?<!\w)повышени(е|я|ю|ем|и|й|ями|ях)(?!\w)"),
    ("Your private tables", "закрытые", r"частн\w+ стол\w*"),
    ("Session", "Сессия", r"вечер\w* бейсбола"),
    ("Speed", "Темп", r"(?<!\w)скорост\w*"),
    ("Draw", "Обмен", r"(?<!\w)прикуп\w*"),
]

WORDS = {"he": HEBREW, "ru": RUSSIAN}


def _without_kept(lang: str, slug: str, text: str) -> str:
    if lang != "he":
        return text
    for word in HEBREW_KEPT:
        text = text.replace(word, " ")
    for word in HEBREW_NAMED.get(slug, ()):
        assert text.count(word) == 1, f"{slug}: the everyday word {word} is named once"
        text = text.replace(word, " ")
    return text


def _found(lang: str, text: str) -> list[str]:
    return [m.group(0) for _, _, old in WORDS[lang] for m in re.finditer(old, text, re.IGNORECASE)]


@pytest.mark.parametrize("lang", ["he", "ru"])
def test_the_interface_still_says_these_words(lang: str) -> None:
    with translation.override(lang):
        for msgid, word, _ in WORDS[lang]:
            assert word.lower() in translation.gettext(msgid).lower(), (msgid, word)


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["he", "ru"])
@pytest.mark.parametrize("slug", SLUGS)
def test_no_rules_page_uses_the_other_word(client, slug: str, lang: str) -> None:
    text = _without_kept(lang, slug, plain_text(get(client, slug, lang).content.decode()))
    found = _found(lang, text)
    assert not found, f"{slug} ({lang}) says {sorted(set(found))}"


@pytest.mark.parametrize("lang", ["he", "ru"])
def test_titles_and_summaries_use_the_table_words(lang: str) -> None:
    assert lang in DOC_LANGS
    for page in ALL_PAGES.values():
        for text in (page.title, page.summary, *(s.title for s in page.sections)):
            found = _found(lang, _without_kept(lang, "", getattr(text, lang)))
            assert not found, (page.slug, lang, found)


@pytest.mark.parametrize("lang", ["he", "ru"])
def test_no_catalog_message_uses_the_other_word(lang: str) -> None:
    """Every msgstr, not only the labels: a help line or a story line with the old word is the same
    two-words-for-one-thing. The only exceptions are the interface's own "פוט-לימיט" and "בומב פוט"."""
    po = polib.pofile(str(Path(__file__).resolve().parents[2] / "locale" / lang / "LC_MESSAGES" / "django.po"))
    found = []
    for entry in po:
        if entry.obsolete or not entry.msgid:
            continue
        texts = entry.msgstr_plural.values() if entry.msgid_plural else [entry.msgstr]
        found += [(entry.msgid, word) for text in texts for word in _found(lang, _without_kept(lang, "", text))]
    assert not found, found


@pytest.mark.django_db
def test_the_pages_say_the_table_words(client) -> None:
    he = plain_text(get(client, "patchpatch", "he").content.decode())
    ru = plain_text(get(client, "patchpatch", "ru").content.decode())
    for word in ("קופה", "ז'יטונים", "קופה ראשית", "קופת צד", "השוואה", "העלאה", "חשיפה", "בליינד קטן",
                 "בליינד גדול", "דילר"):
        assert word in he, word
    for word in ("ва-банк", "пас", "ставка на весь банк"):
        assert word in ru.lower(), word


def test_the_checks_catch_the_old_words() -> None:
    """The patterns are not blind: the old sentences are caught, the new ones and the kept words
    are not."""
    assert sorted(_found("he", "כל פוט, ראשי וצדדי, וצ'יפ עודף הולך לסייד פוט")) == sorted(
        ["פוט", "וצ'יפ", "לסייד", "פוט"])
    assert sorted(_found("he", "בפוט היו 60, הבט הוסיף 60 והקול מכניס")) == sorted(["בפוט", "הבט", "והקול"])
    assert not _found("he", _without_kept("he", "", "אומהה פוט-לימיט, בומב פוט, קופה וקופות צד"))
    assert not _found("he", "בטוח, קולות, ביגוד, שקול, מבט")
    assert sorted(_found("ru", "Олл-ин, фолд, бет в банк, три повышения, частные столы")) == sorted(
        ["Олл-ин", "фолд", "бет", "повышения", "частные столы"])
    assert not _found("ru", "пас, ва-банк, ставка, рейз, повысить, закрытые столы, бета-версия")
    assert sorted(_found("he", "הימור פוט, ביג בליינד, הסטאק, במהירות, לוח 2, שני הלוחות, הבאטן, מהכיסא")) == sorted(
        ["הימור פוט", "פוט", "ביג", "הסטאק", "במהירות", "לוח", "הלוחות", "הבאטן", "מהכיסא"])
    assert not _found("he", "הימור בגודל הקופה, בליינד גדול, הערימה, בקצב, בורד 2, הדילר, מהמושב, לוחץ, מהיר")
    assert sorted(_found("ru", "после олл-ина, частного стола, на этой скорости, Прикуп, при прикупе")) == sorted(
        ["олл-ина", "частного стола", "скорости", "Прикуп", "прикупе"])
    assert not _found("ru", "после ставки ва-банк, закрытого стола, в этом темпе, обмен, скорый")
