"""Check a hand history: paste or upload a PHH file (one hand) or a .phhs file (a table's hands,
as its "every hand in one file" download gives them), see how it replays and whether its deck
commitment holds. Nothing is stored; a bad file gets a clear message."""

from __future__ import annotations

import dataclasses
import logging
from typing import Any

from django import forms
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules_engine import fairness, notation
from rules_engine.errors import RulesError
from tables.selectors import game_name

log = logging.getLogger("tables.replay")

MAX_BYTES = 3_000_000  # a .phhs of a long night: a hand with its deck commitment is about 9 KB
MAX_PASTE = 2_000_000  # under Django's 2.5 MB limit on a form's body; a bigger file is uploaded
MAX_HANDS = 300  # about a second of replaying; a bigger file is for the command line


class HistoryForm(forms.Form):
    text = forms.CharField(
        label=gettext_lazy("Paste a hand history (PHH)"), required=False,
        widget=forms.Textarea(attrs={"rows": 10, "dir": "ltr", "spellcheck": "false"}),
        max_length=MAX_PASTE,
    )
    file = forms.FileField(label=gettext_lazy("or upload a .phh file (one hand) or a .phhs file (many)"), required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        upload = data.get("file")
        if upload is not None:
            if upload.size > MAX_BYTES:
                raise forms.ValidationError(_("The file is too large: this page reads at most 3 MB."))
            try:
                data["text"] = upload.read().decode("utf-8")
            except UnicodeDecodeError as exc:
                raise forms.ValidationError(_("The file is not UTF-8 text.")) from exc
        if not (data.get("text") or "").strip():
            raise forms.ValidationError(_("Paste a hand history or choose a file."))
        return data


def check_history(text: str) -> dict[str, Any]:
    """Replay ``text``; return what the page shows, or ``{"error": ...}``."""
    try:
        several = notation.split_phhs(text)
    except RulesError:
        several = None  # not TOML: the replay below says where
    if several is not None:
        return check_many(several)
    return check_one(text)


def check_one(text: str) -> dict[str, Any]:
    """One hand: its game, each player's start and end, and its deck commitment's verdict."""
    try:
        summary = notation.replay_summary(text, verbose=True)
        parsed = notation.parse_phh(text)
    except RulesError as exc:
        # Not PHH at all (a card room's text history, say): said in the reader's language, the
        # parser's words kept as the detail (found by an audit: only the parser spoke).
        return {"error": str(exc), "not_phh": str(exc).startswith("the history is not valid TOML")}
    except Exception as exc:  # noqa: BLE001 - anything a broken file triggers is the file's fault
        log.warning("unreadable hand history: %s: %s", type(exc).__name__, exc)
        return {"error": _("This is not a hand history the site can read (%(why)s).") % {"why": type(exc).__name__}}
    variant = str(parsed.fields.get("variant", ""))
    starts = parsed.fields.get("starting_stacks", [])
    # The players by name where the history names them (PHH's ``players``, as the site's own
    # downloads do), else p1, p2, ...
    names = parsed.fields.get("players")
    if not (isinstance(names, list) and len(names) == len(starts) and all(isinstance(x, str) and x.strip() for x in names)):
        names = [f"p{i}" for i in range(1, len(starts) + 1)]
    out: dict[str, Any] = {
        "variant": variant, "game": game_name(variant), "summary": summary, "names": names,
        "stacks": [(names[i], start, end) for i, (start, end)
                   in enumerate(zip(starts, summary.get("finishing_stacks", []), strict=False))],
    }
    try:
        out["fairness"] = _in_words(fairness.verify_phh(text))
    except RulesError:
        out["fairness"] = None  # no commitment in this history
    return out


def _in_words(v: fairness.Verification) -> fairness.Verification:
    """The engine's verdict with its message in the page's language (the engine speaks English;
    found by an audit: a Hebrew page showed the English sentence)."""
    if v.ok:
        message = _("The deck commitment holds: every card shown came from its sealed place.")
    elif not v.commitment_ok:
        message = _("The deck commitment does not hold: the revealed cards and salts do not give the "
                    "fingerprint published before the deal.")
    else:
        card = "\u2066" + (v.card or "?") + "\u2069"  # a card name reads left to right in Hebrew too
        message = _("%(card)s was dealt in this hand, but its place in the sealed deck was not revealed.") % {"card": card}
    return dataclasses.replace(v, message=message)


def _net(start: Any, end: Any) -> int | float | None:
    """What a player won or lost in a hand (None where the history's stacks are not numbers)."""
    if isinstance(start, bool) or isinstance(end, bool) or not all(isinstance(v, int | float) for v in (start, end)):
        return None
    return end - start


def check_many(hands: list[tuple[str, str]]) -> dict[str, Any]:
    """Each hand of a .phhs file checked as the one-hand page checks it, one row a hand, and a
    verdict over them all. A hand that does not replay is a row with its error, not the end."""
    if not hands:
        return {"error": _("This file holds no hand.")}
    # A long night's file (the table's download holds up to 1,000 hands): its first MAX_HANDS are
    # checked and the page says so (found by an audit: the whole file was refused under "This
    # history does not replay", which read as if the site's own history were broken).
    total = len(hands)
    hands = hands[:MAX_HANDS]
    rows = []
    for name, text in hands:
        one = check_one(text)
        row: dict[str, Any] = {"name": name, "error": one.get("error")}
        if not row["error"]:
            nets = [(who, _net(start, end)) for who, start, end in one["stacks"]]
            row.update(game=one["game"], fairness=one["fairness"], nets=[(who, n) for who, n in nets if n])
        rows.append(row)
    unreadable = sum(1 for r in rows if r["error"])
    broken = sum(1 for r in rows if not r["error"] and r["fairness"] is not None and not r["fairness"].ok)
    unsealed = sum(1 for r in rows if not r["error"] and r["fairness"] is None)
    return {"hands": rows, "count": len(rows), "unreadable": unreadable, "broken": broken, "unsealed": unsealed,
            "all_good": not (unreadable or broken or unsealed), "total": total, "left_out": total - len(rows)}


def check_page(request: HttpRequest) -> HttpResponse:
    result = None
    if request.method == "POST":
        form = HistoryForm(request.POST, request.FILES)
        if form.is_valid():
            result = check_history(form.cleaned_data["text"])
    else:
        form = HistoryForm()
    failed = bool(result and (result.get("error") or result.get("unreadable") or result.get("broken")))
    status = 400 if (request.method == "POST" and (form.errors or failed)) else 200
    template = "tables/check_history.html#result" if request.htmx else "tables/check_history.html"
    return render(request, template, {"form": form, "result": result}, status=200 if request.htmx else status)
