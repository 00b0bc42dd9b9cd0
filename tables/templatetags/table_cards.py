"""``{% card_row %}``: a row of cards at the table, written in Python.

The table fragment is rendered for every viewer each time a table moves, and a Patch-Patch table
draws a dozen rows of cards; as an ``{% include %}`` they were most of the render's time (see
``bench/bench_hotpath.py``). The markup is the same as the include it replaces.
"""

from __future__ import annotations

import functools
import threading
from html import escape as html_escape
from typing import Any

from django import template
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext_noop
from django.utils.translation import gettext as _

register = template.Library()

_FACE_DOWN: dict[str, str] = {}


def escape(text: Any) -> str:
    """Django's ``escape`` without its lazy-string wrapper (a measurable share of a render, called
    for every name and amount): the same ``html.escape(str(text))``; callers mark the whole
    fragment safe."""
    return html_escape(str(text))


# The language of the fragment being drawn on this thread (``tables.fragment.render_table`` sets
# it for the length of one drawing): Django's get_language() goes through asgiref's Local, and the
# labels and cards asked it some twenty times per viewer per drawing.
_drawing = threading.local()


def drawing_language() -> str:
    lang = getattr(_drawing, "language", None)
    return lang if lang is not None else (get_language() or "")


# Thousands grouped as each language writes them: 150,000 (English, Hebrew), 150 000 (Russian,
# a no-break space, as Django's and the browser's Russian formats have it).
_GROUP_SEPARATOR = {"ru": "\u00a0"}


def chips(value: Any) -> str:
    """A number of chips as a player reads it: ``chips(150000)`` is "150,000" in English and
    "150 000" in Russian. Anything else (Baseball's "1 2/3", text) is returned as written."""
    if type(value) is not int:
        return str(value)
    text = f"{value:,}"
    sep = _GROUP_SEPARATOR.get(drawing_language()[:2])
    return text.replace(",", sep) if sep else text


@register.filter(name="chips")
def chips_filter(value: Any) -> str:
    return chips(value)


def _face_down() -> str:
    lang = drawing_language()
    html = _FACE_DOWN.get(lang)
    if html is None:
        label = escape(_("face-down card"))
        html = f'<li class="card card--back"><span class="card__face" role="img" aria-label="{label}"></span></li>'
        _FACE_DOWN[lang] = html
    return html


def _get(obj: Any, name: str) -> Any:
    if isinstance(obj, dict):
        return obj.get(name)
    return getattr(obj, name, None)


@register.simple_tag
def card_row(cards: Any, size: str = "", blanks: int = 0, swappable: bool = False, discardable: bool = False) -> SafeString:
    """``cards``: ``[{"pic": CardPicture, "swap": "Ah" or "", "extra": bool} or {"hidden": True}]``;
    ``blanks``: empty slots still to come; ``swappable``: the cards are buttons that swap
    (arrangement); ``discardable``: the cards toggle for a draw."""
    parts = [f'<ul class="cards{" cards--" + escape(size) if size else ""}" dir="ltr">']
    lang = drawing_language()
    for c in cards or ():
        get = c.get if type(c) is dict else functools.partial(_get, c)  # the presenter's dicts, or objects
        if get("hidden"):
            parts.append(_face_down())
            continue
        pic = get("pic")
        swap = get("swap")
        mode = "swap" if swappable and swap else ("discard" if discardable else "")
        key = (lang, pic, bool(get("extra")), mode, swap if mode == "swap" else "", bool(get("rabbit")), get("street"))
        html = _CARDS.get(key)
        if html is None:
            if len(_CARDS) >= _CARDS_MAX:
                _CARDS.clear()
            html = _CARDS[key] = _card(pic, key[2], mode, swap, rabbit=key[5], street=key[6])
        parts.append(html)
    for _i in range(int(blanks or 0)):
        parts.append('<li class="card card--blank"><span class="card__face" aria-hidden="true"></span></li>')
    parts.append("</ul>")
    return mark_safe("".join(parts))  # noqa: S308 - every value above is escaped


# One card's markup, kept per language and the way it is drawn: a table draws the same few
# dozen cards on every render. A CardPicture is a frozen dataclass: equal pictures, equal markup.
_CARDS: dict[tuple[Any, ...], str] = {}
_CARDS_MAX = 20000


def _card(pic: Any, extra: bool, mode: str, swap: Any, rabbit: bool = False, street: Any = None) -> str:
    classes = ["card", f"card--{pic.color}"]
    if rabbit:  # a card the rabbit hunt turned up: it was never dealt
        classes.append("card--rabbit")
    if pic.used:
        classes.append("card--used")
    elif pic.kicker or pic.idle:
        classes.append("card--idle")
    if pic.wild:
        classes.append("card--wild")
    if extra:
        classes.append("card--extra")
    text = escape(pic.text)
    label = escape(pic.label)
    face = (f'<span class="card__rank" aria-hidden="true">{escape(pic.rank)}</span>'
            f'<span class="card__suit" aria-hidden="true">{escape(pic.suit)}</span>')
    if mode == "swap":
        inner = (f'<button type="button" class="card__face card__btn" data-swap="{escape(swap)}" '
                 f'draggable="true" aria-label="{label}">{face}</button>')
    elif mode == "discard":
        inner = (f'<button type="button" class="card__face card__btn" data-discard="{text}" '
                 f'aria-pressed="false" aria-label="{label}">{face}</button>')
    else:
        inner = f'<span class="card__face" role="img" aria-label="{label}">{face}</span>'
    # A stud run-out's card: the street it comes on (table.css deals it then).
    dealt = f' data-street="{int(street)}"' if street else ""
    return f'<li class="{" ".join(classes)}" data-card="{text}"{dealt}>{inner}</li>'


def _t(text: str) -> str:
    """A translated label, kept per language (the table draws the same few on every render)."""
    lang = drawing_language()
    key = (lang, text)
    out = _LABELS.get(key)
    if out is None:
        out = _LABELS[key] = _(text)
    return out


_LABELS: dict[tuple[str, str], str] = {}
_SWAP_GROUP = gettext_noop("Swap this four with the four on another board: tap ⇅ there too")
# A winner's line says what they took from the pot in words: a bare "+25" read as their net for
# the hand, which the seat shows ("+15", their own 10 back in the 25; found by an audit).
WINS = gettext_noop('<strong>%(name)s</strong> wins <bdi dir="ltr">%(amount)s</bdi>')


def wins_text(name: str, amount: str) -> str:
    """The start of a winner's line: ``WINS`` in the drawing language, the values escaped."""
    text = _t(WINS)
    data = {"name": escape(name), "amount": escape(amount)}
    try:
        return text % data
    except (KeyError, ValueError):  # a translation whose placeholders do not fit: English
        return WINS % data

@register.simple_tag
def win_line(name: Any, amount: Any) -> SafeString:
    """``wins_text`` for a template (the hand page's winners, as the table says them)."""
    return mark_safe(wins_text(str(name), chips(amount)))  # noqa: S308 - wins_text escapes both


# For makemessages, which does not see through _t(): the labels the seats draw.
_MSGIDS = (
    gettext_noop("Empty seat"), gettext_noop("Button"), gettext_noop("Small blind"), gettext_noop("Big blind"),
    gettext_noop("Best open hand: opens this round"), gettext_noop("opens"), gettext_noop("Balance in units"),
    gettext_noop("bet"), gettext_noop("folded"), gettext_noop("all-in"), gettext_noop("arranging"),
    gettext_noop("to act"), gettext_noop("on their time bank"), gettext_noop("ready"), gettext_noop("on a break"), gettext_noop("waits for the next hand"),
    gettext_noop("waits for the big blind"), gettext_noop("posts a big blind to come in"),
    gettext_noop("split"), gettext_noop("Board %(n)s"), gettext_noop("stood pat"), gettext_noop("Won board %(n)s"), gettext_noop("out of chips"), gettext_noop("short of a big blind: add chips"),
    # A seat's last act in the round (tables.presenter.ACT_WORDS).
    gettext_noop("check"), gettext_noop("call"), gettext_noop("raise"), gettext_noop("complete"), gettext_noop("bring-in"),
    gettext_noop("straddle"),
)


_BANK_ICON = ('<svg class="icon" viewBox="0 0 16 16" width="12" height="12" aria-hidden="true"><circle cx="8" cy="9"'
              ' r="5.8" fill="none" stroke="currentColor" stroke-width="1.8"/><path d="M8 6v3.2l2.2 1.4M6.2 1.6h3.6"'
              ' fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round"/></svg>')


def _banked() -> str:
    """The mark on a seat whose player took time from their bank on the clock running now."""
    words = _t("on their time bank")
    return f' <span class="seat__bank" title="{words}">{_BANK_ICON}<span class="visually-hidden">{words}</span></span>'


def _status(s: Any, phase: str) -> str:
    if s.folded:
        return _t("folded")
    # An all-in player arranges like everyone else: "arranging", then "ready", as the others'
    # seats say (found by an audit: their seat said "all-in" while they were arranging).
    if s.acting and phase == "arrange":
        return _t("arranging") + (_banked() if s.banked else "")
    if s.arranged and phase == "arrange":
        return _t("ready")
    if s.all_in:
        return _t("all-in")
    if s.acting:
        return _t("to act") + ' <span class="clock" data-clock></span>' + (_banked() if s.banked else "")
    if s.act and phase != "over" and not (s.act == "bet" and s.bet):  # "bet 105" says it already
        return f'<span class="seat__act">{_t(s.act)}</span>'
    if s.leaving and s.in_hand and phase not in ("", "over"):
        return _t("leaves after this hand")
    if s.sitting_out:
        # Still playing the hand: the break starts after it (found by an audit: "on a break"
        # beside a seat that was betting).
        return _t("break after this hand") if s.in_hand and phase not in ("", "over") else _t("on a break")
    # No chips: said before "waits for the big blind" (no blind comes to a seat with nothing) and
    # once the hand that took the last chip is over (found by an audit: a busted seat said
    # "waits for the big blind", or nothing). Chips only: a Baseball balance is text ("0").
    if type(s.stack) is int and s.stack == 0 and (s.waiting or s.wait_bb or phase in ("", "over")):
        return _add(s, _t("out of chips"))  # not "waits for the next hand": no hand comes until chips are added
    if s.short and (s.waiting or s.wait_bb or phase in ("", "over")):
        return _add(s, _t("short of a big blind: add chips"))  # no big blind comes to it either
    if s.wait_bb:
        return _t("posts a big blind to come in") if s.post_bb else _t("waits for the big blind")
    if s.waiting:
        return _t("waits for the next hand")
    return ""


def _add(s: Any, words: str) -> str:
    """On the player's own seat, the words lead to "Add chips" at the page's foot (found by an
    audit: under the chat on a phone); table.css shows them as a link only where that form is."""
    return f'<a class="seat__add" href="#add-chips">{words}</a>' if s.me else words


@register.simple_tag
def seat_list(rows: Any, phase: str = "", bb: Any = None) -> SafeString:
    """The seats at the table (``tables.presenter.SeatRow``), written in Python for the same
    reason as ``card_row``: this loop was most of what was left of each viewer's render. The
    markup is what the template loop it replaces drew (tests/tables/test_seat_list_tag.py)."""
    from django.utils.translation import ngettext

    parts: list[str] = []
    for s in rows or ():
        classes = "seat"
        if s.empty:
            classes += " seat--empty"
        if s.me:
            classes += " seat--me"
        if s.acting:
            classes += " seat--acting"
        if s.folded:
            classes += " seat--folded"
        # The viewer's own stack as a plain number, for the page's "Add chips" box.
        own = f' data-stack="{s.stack}"' if s.me and not s.empty and not bb and isinstance(s.stack, int) else ""
        if s.empty:
            own = f' data-seat="{int(s.no)}"'  # a tap chooses it in the page's "Seat" box
        if own and (s.in_hand or s.folded) and phase not in ("", "over"):
            own += " data-dealt"  # dealt into the hand being played: chips wait for its end
        if not s.empty and s.user_id is not None:
            own += f' data-user="{int(s.user_id)}"'  # marked when the player is away (presence)
        parts.append(f'<li class="{classes}"{own}>\n')
        if s.empty:
            parts.append(f'<span class="seat__name muted">{_t("Empty seat")}</span>\n</li>\n')
            continue
        name = escape(s.name)
        parts.append(f'<span class="seat__name" title="{name}">{name}</span>\n<span class="seat__badges">')
        if s.button:
            parts.append(f'<abbr class="badge badge--button" title="{_t("Button")}">D</abbr>')
        if s.small_blind:
            parts.append(f'<abbr class="badge" title="{_t("Small blind")}">SB</abbr>')
        if s.big_blind:
            parts.append(f'<abbr class="badge" title="{_t("Big blind")}">BB</abbr>')
        if s.opener and phase != "over":
            parts.append(f'<span class="badge badge--opener" title="{_t("Best open hand: opens this round")}">'
                         f'{_t("opens")}</span>')
        stack = escape(chips(s.stack))
        negative = " is-negative" if bb and stack[:1] == "-" else ""
        title = f' title="{_t("Balance in units")}"' if bb else ""
        if s.was is not None and s.was != s.stack:
            # An all-in's run-out: the stack before the pot was paid until the last card is out
            # (table.css swaps the two).
            stack = (f'<span class="runout-stack"><bdi dir="ltr" class="runout-was">{escape(chips(s.was))}</bdi>'
                     f'<bdi dir="ltr" class="runout-now">{stack}</bdi></span>')
        else:
            stack = f'<bdi dir="ltr">{stack}</bdi>'
        parts.append(f'</span>\n<span class="seat__stack{negative}"{title}>{stack}</span>\n')
        if s.bet:
            parts.append(f'<span class="seat__bet">{_t("bet")} <bdi dir="ltr">{escape(chips(s.bet))}</bdi></span>\n')
        parts.append(f'<span class="seat__status">\n{_status(s, phase)}\n</span>\n')
        if s.net is not None:
            sign = "plus" if s.net > 0 else "minus" if s.net < 0 else ""
            mark = "+" if s.net > 0 else "±" if s.net == 0 else ""
            parts.append(f'<span class="seat__net {sign}"><bdi dir="ltr">{mark}{escape(chips(s.net))}</bdi></span>\n')
        if s.showing:
            parts.append(f'<span class="seat__showing muted">{_("showing: %(hand)s") % {"hand": escape(s.showing)}}</span>\n')
        if s.up or s.down:
            parts.append(f'<div class="seat__stud" dir="ltr"><div class="seat__down">{card_row(s.down, size="small")}</div>'
                         f'{card_row(s.up, size="small")}</div>\n')
        if s.hole:
            parts.append(f'<div class="seat__hole">{card_row(s.hole, size="small")}</div>\n')
        if s.made:
            parts.append(f'<span class="seat__made">{escape(s.made)}</span>\n')
        if s.drawn is not None:
            drew = (_t("stood pat") if s.drawn == 0
                    else ngettext("drew %(n)s card", "drew %(n)s cards", s.drawn) % {"n": s.drawn})
            parts.append(f'<span class="seat__drawn muted">{drew}</span>\n')
        if s.hands:
            shown = "".join(f'<div class="shown-hand">{_row_number(i, i in s.boards_won)}{card_row(h, size="small")}</div>'
                            for i, h in enumerate(s.hands, 1))
            parts.append(f'<div class="seat__shown">{shown}</div>\n')
        parts.append("</li>\n")
    return mark_safe("".join(parts))  # noqa: S308 - names and amounts are escaped; labels are ours


def _row_number(n: int, won: bool) -> str:
    """The board number beside a Patch-Patch seat's shown four: a gold mark on a board the seat
    won (all of it or a share), so a phone shows who took which board without the boards below."""
    # role="img": a screen reader reads the label ("Board 2"), not a bare "2" (an audit).
    if not won:
        return f'<span class="shown-hand__no muted" role="img" aria-label="{_t("Board %(n)s") % {"n": n}}">{n}</span>'
    title = _t("Won board %(n)s") % {"n": n}
    return f'<span class="shown-hand__no is-won" role="img" title="{title}" aria-label="{title}">{n}</span>'


@register.simple_tag
def board_list(boards: Any, arranging: bool = False) -> SafeString:
    """Patch-Patch's three boards (``tables.presenter.BoardRow``): each board's cards, the
    viewer's four under it with the hand they make, and the board's winners at the showdown.
    In Python for the same reason as ``seat_list``; checked against the template loop it
    replaces (tests/tables/test_seat_list_tag.py)."""
    parts: list[str] = []
    for b in boards or ():
        title = _t("Board %(n)s") % {"n": b.index}
        parts.append(f'<div class="board" aria-label="{title}">\n<h3 class="board__title">{title}</h3>\n'
                     f'<div class="board__cards">{card_row(b.cards, blanks=b.blanks)}</div>\n')
        if b.mine:
            made = escape(b.made) if b.made else "&nbsp;"
            swap = ""
            if arranging:  # ⇅ here, then on another board: the two fours change places whole
                label = _t(_SWAP_GROUP)
                swap = (f'<button type="button" class="swap-group" data-swap-group="{b.index}" aria-pressed="false"'
                        f' title="{label}" aria-label="{title}: {label}"><span aria-hidden="true">⇅</span></button>\n')
            parts.append(f'<div class="board__mine">\n{card_row(b.mine, swappable=arranging)}\n'
                         f'<p class="board__made">{made}</p>\n{swap}</div>\n')
        if b.results:
            split = _t("split")
            wins = "".join(
                f'\n<li class="win">{wins_text(w["name"], chips(w["amount"]))}'
                f'{" · " + escape(w["pot_label"]) if w.get("pot_label") else ""}'
                f' · {escape(w["category"])}{" · " + split if w.get("split") else ""}</li>'
                for w in b.results
            )
            parts.append(f'<ul class="board__results">{wins}\n</ul>\n')
        parts.append("</div>\n")
    return mark_safe("".join(parts))  # noqa: S308 - names and amounts are escaped; labels are ours


@register.simple_tag(takes_context=True)
def table_fragment(context: Any) -> SafeString:
    """The whole ``table`` partial of ``templates/table.html``, drawn in Python from the page's
    context (``tables.fragment.render_table``, which the websocket's redraws call directly)."""
    from tables.fragment import render_table

    return render_table(context)
