"""Nothing the site says repeats a run of eight words from the seed documents (their facts, never
their words): not the rules pages, not the translations, not the templates.

The comparison is against fingerprints of the seeds' runs (``seedprint.py``), so it runs on a
clean clone too; where the documents are here, they are read and the fingerprints checked.
"""

from __future__ import annotations

import gettext
import re
from pathlib import Path

import pytest

from tests.rulesdocs import seedprint
from tests.rulesdocs.helpers import ALL_PAGES, LANGS, SLUGS, get

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def seed_prints() -> set[str]:
    found = seedprint.seed_prints_from_file()
    assert len(found) > 1000, "the fingerprint file is (nearly) empty"
    return found


def _copied(text: str, seed_prints: set[str]) -> list[str]:
    return sorted(" ".join(r) for r in seedprint.runs(text) if seedprint.fingerprint(r) in seed_prints)


def _visible(html: str) -> str:
    return re.sub(r"<[^>]+>", " ", html)


def test_the_fingerprints_match_the_documents() -> None:
    fresh = seedprint.seed_prints_from_documents()
    if fresh is None:
        pytest.skip(f"{seedprint.SEEDS} is not here: the fingerprint file stands in for it")
    assert fresh == seedprint.seed_prints_from_file(), (
        "the seeds changed: run `.venv/bin/python -m tests.rulesdocs.seedprint`"
    )


def test_the_check_finds_a_copied_run(seed_prints: set[str]) -> None:
    """The comparison is not blind: a run taken from the seeds is caught (needs the documents,
    and falls back to a run whose fingerprint is in the file by construction)."""
    if seedprint.SEEDS.is_dir():
        text = next(iter(sorted(seedprint.SEEDS.glob("*.txt")))).read_text(encoding="utf-8")
        words = seedprint.WORD.findall(text)[:40]
        sample = " ".join(words)
        assert _copied(f"Our own opening, then {sample}.", seed_prints)
    assert not _copied("Each player gets twelve cards and arranges them onto three boards as they like.", seed_prints)


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", SLUGS)
def test_no_page_repeats_the_seeds(client, seed_prints, slug: str, lang: str) -> None:
    text = _visible(get(client, slug, lang).content.decode())
    copied = _copied(text, seed_prints)
    assert not copied, f"{slug} ({lang}) repeats {len(copied)} eight-word runs, e.g. {copied[:3]}"


def test_titles_and_summaries_are_our_own(seed_prints) -> None:
    for page in ALL_PAGES.values():
        for text in (page.title, page.summary, *(s.title for s in page.sections)):
            for lang in LANGS:
                assert not _copied(getattr(text, lang), seed_prints), (page.slug, lang)


@pytest.mark.parametrize("lang", ["he", "ru"])
def test_no_translation_repeats_the_seeds(seed_prints, lang: str) -> None:
    mo = ROOT / "locale" / lang / "LC_MESSAGES" / "django.mo"
    with mo.open("rb") as f:
        catalog = gettext.GNUTranslations(f)._catalog  # type: ignore[attr-defined]
    assert len(catalog) > 100
    for msgid, msgstr in catalog.items():
        ids = msgid if isinstance(msgid, tuple) else (msgid,)
        for text in (*ids, msgstr):
            if isinstance(text, str):
                assert not _copied(text, seed_prints), (lang, msgid)


def test_no_template_repeats_the_seeds(seed_prints) -> None:
    templates = list((ROOT / "templates").rglob("*.html")) + list((ROOT / "templates").rglob("*.txt"))
    assert templates
    for path in templates:
        text = re.sub(r"\{[{%#].*?[}%#]\}", " ", path.read_text(encoding="utf-8"), flags=re.S)
        copied = _copied(_visible(text), seed_prints)
        assert not copied, f"{path.relative_to(ROOT)} repeats {copied[:3]}"
