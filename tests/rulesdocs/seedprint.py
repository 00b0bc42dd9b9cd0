"""Fingerprints of the seed documents' eight-word runs, so the "our own words" tests run anywhere.

The seed documents (``../shared/seeds``) sit beside the repository on the machines we work on,
not in a clean clone. The tests compare our pages against every run of eight words in them;
to do that without the documents, ``seed_runs.txt`` keeps a short hash of each run (never the
words: no text of the seeds is in this repository, and a hash cannot be read back). Where the
documents are here, the tests read them and check that the file still matches them.

Rewrite the file after the seeds change: ``.venv/bin/python -m tests.rulesdocs.seedprint``.
"""

from __future__ import annotations

import hashlib
import re
import sys
from pathlib import Path

SEEDS = Path(__file__).resolve().parents[2].parent / "shared" / "seeds"
PRINTS = Path(__file__).with_name("seed_runs.txt")
RUN = 8
WORD = re.compile(r"\w+")


def runs(text: str) -> set[tuple[str, ...]]:
    words = WORD.findall(text.lower())
    return {tuple(words[i : i + RUN]) for i in range(len(words) - RUN + 1)}


def fingerprint(run: tuple[str, ...]) -> str:
    """48 bits of a run's hash: against some 10^4 runs of ours, a false match is about 10^-6."""
    return hashlib.blake2b(" ".join(run).encode(), digest_size=6).hexdigest()


def prints(texts: set[tuple[str, ...]]) -> set[str]:
    return {fingerprint(r) for r in texts}


def seed_prints_from_documents() -> set[str] | None:
    """The fingerprints of the seed documents, or None when they are not beside the repository."""
    if not SEEDS.is_dir():
        return None
    found: set[tuple[str, ...]] = set()
    for path in sorted(SEEDS.glob("*.txt")):
        found |= runs(path.read_text(encoding="utf-8"))
    return prints(found)


def seed_prints_from_file() -> set[str]:
    return {line for line in PRINTS.read_text(encoding="ascii").split() if line}


def main() -> int:
    fresh = seed_prints_from_documents()
    if fresh is None:
        print(f"{SEEDS} is not here: nothing to fingerprint", file=sys.stderr)
        return 2
    if not fresh:
        print(f"{SEEDS} holds no text", file=sys.stderr)
        return 2
    PRINTS.write_text("\n".join(sorted(fresh)) + "\n", encoding="ascii")
    print(f"{len(fresh)} fingerprints written to {PRINTS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
