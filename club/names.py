"""Text that people type for others to read: names of players, tables and clubs, and short notes.

* :func:`one_line` - a name or note on one line: runs of spaces, tabs and line breaks become one
  space, and characters that print nothing are refused (controls, the direction overrides and
  isolates that could make a name read backwards beside another, zero-width characters, and
  U+FFFD, what a browser's bytes that were not UTF-8 became).
* :func:`plain_text` - the same for text of several lines (a club's description): line breaks
  and tabs stay.
* :func:`name_key` - what two display names are compared by, so that a name is refused when it
  only *looks* like another player's: "ＡＬＩＣＥ" (full-width), "Аlice" (a Cyrillic А), "Alicé",
  "A l i c e" and "ALICE" all read as "alice".
"""

from __future__ import annotations

import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

HIDDEN_MESSAGE = _("Letters, digits and the like only: no control, direction or invisible characters.")

_HIDDEN_CATEGORIES = {"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"}


def _hidden(ch: str) -> bool:
    return ch == "\ufffd" or unicodedata.category(ch) in _HIDDEN_CATEGORIES


def one_line(value: str) -> str:
    """``value`` on one line, or :class:`ValidationError` if it holds a character that prints
    nothing."""
    text = " ".join(str(value).split())
    if any(_hidden(ch) for ch in text):
        raise ValidationError(HIDDEN_MESSAGE, code="hidden")
    return text


def plain_text(value: str) -> str:
    """``value`` as typed (line breaks and tabs kept), or :class:`ValidationError` if it holds
    any other character that prints nothing."""
    text = str(value)
    if any(_hidden(ch) for ch in text if ch not in "\n\r\t"):
        raise ValidationError(HIDDEN_MESSAGE, code="hidden")
    return text


# Letters of other scripts that look like Latin ones, as a name is read (lower case: the key is
# case-folded first). Not every look-alike in Unicode: those a keyboard in Israel or Russia makes.
_LOOKALIKES = str.maketrans({
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c",
    "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ј": "j", "һ": "h", "ԁ": "d", "ӏ": "l",
    "ԛ": "q", "ԝ": "w",
    # Greek
    "α": "a", "β": "b", "ε": "e", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t",
    "υ": "u", "χ": "x",
})


def name_key(name: str) -> str:
    """What a display name is compared by: compatibility forms folded (full-width letters,
    ligatures), accents dropped, case folded, look-alike letters read as Latin, and everything
    but letters and digits left out. A name of signs only keeps its signs. (A capital I and a
    small l, one stroke in most fonts, stay two letters: folding them together would also make
    "Ali" and "All" one name.)"""
    text = unicodedata.normalize("NFKC", name)
    text = "".join(ch for ch in unicodedata.normalize("NFD", text) if unicodedata.category(ch) != "Mn")
    text = text.casefold().translate(_LOOKALIKES)
    key = "".join(ch for ch in text if ch.isalnum())
    return (key or "".join(text.split()))[:255]
