"""No page repeats a run of eight words from the seed documents (their facts, never their words)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.rulesdocs.helpers import ALL_PAGES, LANGS, SLUGS, get

SEEDS = Path(__file__).resolve().parents[2].parent / "shared" / "seeds"
RUN = 8
WORD = re.compile(r"\w+")


def _runs(text: str) -> set[tuple[str, ...]]:
    words = WORD.findall(text.lower())
    return {tuple(words[i : i + RUN]) for i in range(len(words) - RUN + 1)}


@pytest.fixture(scope="module")
def seed_runs() -> set[tuple[str, ...]]:
    if not SEEDS.is_dir():
        pytest.skip(f"{SEEDS} is not here (it is on CI): nothing to compare against")
    runs: set[tuple[str, ...]] = set()
    for path in SEEDS.glob("*.txt"):
        runs |= _runs(path.read_text(encoding="utf-8"))
    assert runs, "the seed folder is empty"
    return runs


def _visible(html: str) -> str:
    return re.sub(r"<[^>]+>", " ", html)


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", SLUGS)
def test_no_page_repeats_the_seeds(client, seed_runs, slug: str, lang: str) -> None:
    text = _visible(get(client, slug, lang).content.decode())
    copied = sorted(" ".join(r) for r in _runs(text) & seed_runs)
    assert not copied, f"{slug} ({lang}) repeats {len(copied)} eight-word runs, e.g. {copied[:3]}"


def test_titles_and_summaries_are_our_own(seed_runs) -> None:
    for page in ALL_PAGES.values():
        for text in (page.title, page.summary, *(s.title for s in page.sections)):
            for lang in LANGS:
                assert not _runs(getattr(text, lang)) & seed_runs, (page.slug, lang)
