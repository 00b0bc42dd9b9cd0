"""The hand reader page, ``/hand/``: type a hand and a board, see the best hand.

One view serves the whole page and, for the htmx form (``HX-Target: hand-result``), only the
``hand.html#result`` partial. The form is a GET form, so every reading has its own link and the
page works without JavaScript.

Status codes: the full page answers 400 when the cards cannot be read (the page still shows the
form and a message next to it); the htmx partial always answers 200, because htmx does not swap
4xx responses by default and the message is the content the person asked for.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django import forms
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext_lazy as _

from tables.handreader import DEFAULT_GAME, GAMES, HandInputError, Reading, game_choices, read_hand

RESULT_TARGET = "hand-result"


class HandForm(forms.Form):
    game = forms.ChoiceField(choices=[(code, g.name) for code, g in GAMES.items()], label=_("Game"))
    hand = forms.CharField(required=False, max_length=200, strip=True, label=_("Your cards"))
    board = forms.CharField(required=False, max_length=200, strip=True, label=_("Board"))

    reading: Reading | None = None
    card_help = False  # the message is about how a card is written

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        game = data.get("game")
        if game and not self.errors:
            try:
                self.reading = read_hand(game, data.get("hand", ""), data.get("board", ""))
            except HandInputError as exc:
                self.add_error(exc.field, exc.message)
                self.card_help = exc.card_help
        return data


def hand(request: HttpRequest) -> HttpResponse:
    submitted = "hand" in request.GET or "board" in request.GET
    form = HandForm(request.GET if submitted else None)
    game = request.GET.get("game", DEFAULT_GAME)
    if game not in GAMES:
        game = DEFAULT_GAME
    reading = form.reading if submitted and form.is_valid() else None
    context = {
        "form": form,
        "submitted": submitted,
        "reading": reading,
        "games": game_choices(game),
        "game": GAMES[game],
        "hand_text": request.GET.get("hand", ""),
        "board_text": request.GET.get("board", ""),
        "errors": [e for errs in form.errors.values() for e in errs] if submitted else [],
        "card_help": submitted and form.card_help,
        "examples": EXAMPLES,
    }
    htmx = getattr(request, "htmx", None)
    if htmx and htmx.target == RESULT_TARGET and not htmx.history_restore_request:
        response = render(request, "hand.html#result", context)
    else:
        status = 400 if submitted and not form.is_valid() else 200
        response = render(request, "hand.html", context, status=status)
    # One URL answers with a page or a fragment depending on these headers.
    patch_vary_headers(response, ("HX-Request", "HX-Target"))
    return response


# Readings worth a click: each shows something the rules make surprising.
EXAMPLES = [
    {
        "title": _("Omaha: four hearts on the board"),
        "game": "omaha", "hand": "Ah Kc Qd Js", "board": "2h 5h 9h Th 3c",
    },
    {
        "title": _("Omaha: four sevens on the board"),
        "game": "omaha", "hand": "As Kd 4c 2h", "board": "7c 7d 7h 7s Qc",
    },
    {
        "title": _("Hold'em: a flush on the turn"),
        "game": "holdem", "hand": "Ah 8h", "board": "Kh 7h 2c 3h",
    },
    {
        "title": _("Omaha Hi-Lo: high and low"),
        "game": "omaha8", "hand": "As 2s Kh Qd", "board": "3s 5s 8s Jh Kc",
    },
    {
        "title": _("Patch-Patch: three boards"),
        "game": "patchpatch",
        "hand": "Ah Kc 7c 7d Qs Qd 5c 6c 2s 3s Td Jc",
        "board": "Qh 9h 4h 2h Kd / 8c 9c 4d Ac 3h / 4s 5s 9s 7h 8d",
    },
    {
        "title": _("Baseball: threes and nines are wild"),
        "game": "baseball", "hand": "8s 8h 8c 8d 3c Kd 2h",
    },
]

for _example in EXAMPLES:
    _example["query"] = urlencode(
        {k: _example[k] for k in ("game", "hand", "board") if k in _example}
    )
