#!/usr/bin/env python
"""Compile every ``locale/<lang>/LC_MESSAGES/*.po`` into its ``.mo`` with polib.

Django's ``compilemessages`` needs GNU gettext's ``msgfmt``; this needs only polib (a declared
dependency), so a fresh machine can serve translated pages. The Makefile runs it before ``run``
and ``test``; the compiled ``.mo`` files are committed too, and ``tests/test_i18n.py`` fails when
one is stale.

Fuzzy and obsolete entries are left out, exactly as msgfmt does. A ``.mo`` is rewritten only
when its bytes would change, so running this twice leaves the tree untouched.

Usage: python scripts/compilemessages.py [--check]
  --check  compile nothing; exit 1 and name the catalogs whose .mo is missing or stale.
"""

from __future__ import annotations

import sys
from pathlib import Path

import polib

ROOT = Path(__file__).resolve().parent.parent
LOCALE_DIRS = [ROOT / "locale"]


def catalogs() -> list[Path]:
    """Every .po file under the project's locale directories, in a stable order."""
    return sorted(p for d in LOCALE_DIRS if d.is_dir() for p in d.glob("*/LC_MESSAGES/*.po"))


def compiled(po_path: Path) -> bytes:
    """The .mo bytes for one .po file."""
    return polib.pofile(str(po_path)).to_binary()


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = []
    for po_path in catalogs():
        mo_path = po_path.with_suffix(".mo")
        data = compiled(po_path)
        if mo_path.exists() and mo_path.read_bytes() == data:
            continue
        stale.append(mo_path)
        if not check:
            mo_path.write_bytes(data)
            print(f"compiled {mo_path.relative_to(ROOT)}")
    if check and stale:
        for mo_path in stale:
            print(f"stale or missing: {mo_path.relative_to(ROOT)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
