"""Check a hand history: paste or upload a PHH file, see how it replays and whether its deck
commitment holds. Nothing is stored; a bad file gets a clear message."""

from __future__ import annotations

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

MAX_BYTES = 200_000


class HistoryForm(forms.Form):
    text = forms.CharField(
        label=gettext_lazy("Paste a hand history (PHH)"), required=False,
        widget=forms.Textarea(attrs={"rows": 10, "dir": "ltr", "spellcheck": "false"}),
        max_length=MAX_BYTES,
    )
    file = forms.FileField(label=gettext_lazy("or upload a .phh file"), required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        upload = data.get("file")
        if upload is not None:
            if upload.size > MAX_BYTES:
                raise forms.ValidationError(_("The file is too large: a hand history is at most 200 KB."))
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
        return {"error": _(
            "This is a file of several hand histories (a .phhs file, such as a table's whole night; "
            "hands in it: %(n)s). This page checks one hand: paste one hand's history (each hand has "
            "its own PHH download), or check them all at once with: python -m rules_engine verify FILE.phhs"
        ) % {"n": len(several)}}
    try:
        summary = notation.replay_summary(text, verbose=True)
        parsed = notation.parse_phh(text)
    except RulesError as exc:
        return {"error": str(exc)}
    except Exception as exc:  # noqa: BLE001 - anything a broken file triggers is the file's fault
        log.warning("unreadable hand history: %s: %s", type(exc).__name__, exc)
        return {"error": _("This is not a hand history the site can read (%(why)s).") % {"why": type(exc).__name__}}
    variant = str(parsed.fields.get("variant", ""))
    out: dict[str, Any] = {
        "variant": variant, "game": game_name(variant), "summary": summary,
        "stacks": list(zip(parsed.fields.get("starting_stacks", []), summary.get("finishing_stacks", []), strict=False)),
    }
    try:
        out["fairness"] = fairness.verify_phh(text)
    except RulesError:
        out["fairness"] = None  # no commitment in this history
    return out


def check_page(request: HttpRequest) -> HttpResponse:
    result = None
    if request.method == "POST":
        form = HistoryForm(request.POST, request.FILES)
        if form.is_valid():
            result = check_history(form.cleaned_data["text"])
    else:
        form = HistoryForm()
    status = 400 if (request.method == "POST" and (form.errors or (result and result.get("error")))) else 200
    template = "tables/check_history.html#result" if request.htmx else "tables/check_history.html"
    return render(request, template, {"form": form, "result": result}, status=200 if request.htmx else status)
