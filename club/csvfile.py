"""Spreadsheet downloads (CSV): a table's ledger, a club session's results, a club's chip
statement. Home games settle up in a spreadsheet or a split-the-bill app, and PokerNow's ledger
download is what hosts expect.

- UTF-8 with a byte-order mark, so spreadsheets open Hebrew and Russian names as they are;
- the header row in the reader's language, numbers as plain integers (no grouping, no sign
  added), so the columns sum;
- a cell a spreadsheet would run as a formula (a name starting with ``=``, ``+``, ``-``, ``@``
  or a tab) is written with a leading apostrophe: a player's name is never code on the host's
  machine (OWASP's "CSV injection").
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from typing import Any

from django.http import HttpResponse
from django.utils.http import content_disposition_header
from django.utils.text import slugify

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def cell(value: Any) -> Any:
    """``value`` as written: numbers as they are, text made safe from formulas."""
    if value is None:
        return ""
    if isinstance(value, bool) or not isinstance(value, int | float):
        text = str(value)
        return "'" + text if text.startswith(_FORMULA_START) else text
    return value


def filename(*parts: Any) -> str:
    """``ledger-friday-game-2026-12-02.csv``: the parts slugged (letters of any script kept)."""
    slug = "-".join(s for s in (slugify(str(p), allow_unicode=True) for p in parts) if s)
    return (slug or "export")[:120] + ".csv"


def csv_response(name: str, header: Sequence[Any], rows: Iterable[Sequence[Any]]) -> HttpResponse:
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([cell(h) for h in header])
    for row in rows:
        writer.writerow([cell(v) for v in row])
    response = HttpResponse(out.getvalue().encode("utf-8"), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(True, name)
    response["X-Content-Type-Options"] = "nosniff"
    return response
