"""The live table's fragment (the ``table`` partial of ``templates/table.html``), written in Python.

Every viewer gets the fragment drawn again each time a table moves, and as a template it was
about a sixth of the server's time under load (``bench/bench_hotpath.py``); the seats, the
boards and the rows of cards were already tags in ``tables.templatetags.table_cards``. This
draws the rest, byte for byte what the partial drew: the partial is now only
``{% table_fragment %}``, and ``tests/tables/test_table_fragment.py`` keeps its old source and
compares the two for every game, every step of a hand and every viewer.

How the template printed a value is kept: ``{{ x }}`` localizes numbers and escapes whatever is
not already safe (``_v``); ``{% translate %}`` labels are not escaped (``_t``); a
``{% blocktranslate %}`` looks up the same msgid, ``%(name)s`` for each ``{{ name }}``, and
fills it with escaped values (``_bt``).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.template import Context
from django.template.loader import get_template
from django.urls import get_script_prefix
from django.utils.formats import localize
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext_noop

from tables.presenter import action_label
from tables.selectors import game_name
from tables.stakes import stakes_text
from tables.templatetags.table_cards import (
    _drawing,
    _get,
    _t,
    board_list,
    card_row,
    chips,
    drawing_language,
    escape,
    seat_list,
    wins_text,
)
from tables.templatetags.table_stakes import rules_url

_PAUSED = gettext_noop("The host has paused this table. Play goes on when they resume it.")
_TIMED_OUT = gettext_noop("Your time ran out, so you are on a break from the next hand. Tap “I'm back” to keep playing.")

# For makemessages, which does not see through _t() and _bt(): the labels and sentences drawn here.
_MSGIDS = (
    gettext_noop("Table"), gettext_noop("Pot"), gettext_noop("Arrange your cards"), gettext_noop("Arrangement under way"), gettext_noop("Board"),
    gettext_noop("Your hand"), gettext_noop("split"), gettext_noop("low"), gettext_noop("high"),
    gettext_noop("Next hand in a moment…"), gettext_noop("The first hand is dealt in"),
    gettext_noop("The next hand is dealt in"),
    gettext_noop("Waiting for players. A hand starts when two players are seated and not on a break."),
    gettext_noop("Your actions"),
    gettext_noop("Tap a card, then another, to swap them, or ⇅ on two boards to swap your fours there. Each group of four plays on the board above it."),
    gettext_noop("Tap the cards you want to throw away, then draw. Draw with none picked to stand pat."),
    gettext_noop("Stand pat"), gettext_noop("Draw {n}"), gettext_noop("Amount"), gettext_noop("Bet"), gettext_noop("Raise to"),
    gettext_noop("Your arrangement is in. Waiting for the others."), gettext_noop("I'm back"),
    _TIMED_OUT,
    gettext_noop("Break from next hand"), gettext_noop("deck fingerprint"),
    gettext_noop("%(name)s scoops all three boards!"), gettext_noop("%(name)s scoops high and low!"),
    gettext_noop("%(name)s scoops all three boards of the main pot!"),
    gettext_noop("Hand #%(n)s"), gettext_noop("Quick sizes"),
)

_CLOCK = '<span class="clock" data-clock></span>'
_SPEEDS = {"slow": gettext_noop("Slow"), "medium": gettext_noop("Medium"), "fast": gettext_noop("Fast")}
_NEXT_TERMS = gettext_noop("From the next hand: %(terms)s.")
_SHOW = gettext_noop("Show my cards")
_PRE = gettext_noop("Before your turn")
_POST_BB = gettext_noop("Post a big blind to play now")
_POST_MISSED = gettext_noop("Post the blinds you missed to play now")
_WAIT_BB = gettext_noop("Wait for the big blind instead")
_STRADDLE = gettext_noop("Straddle")
_STRADDLE_TITLE = gettext_noop("Post twice the big blind whenever you sit left of it, before the cards; on until you turn it off")
_RUN_TWICE = gettext_noop("Run it twice")
_RUN_TWICE_TITLE = gettext_noop("When an all-in ends the betting before the river and everyone still in agrees, deal the rest of the board twice, half the pot on each; counts from the next hand dealt, and stays on until you turn it off")
_SECOND_RUN = gettext_noop("Second run")
_BOMB = gettext_noop("Bomb pot")
_BOMB_NEXT = gettext_noop("Next hand: a bomb pot, %(amount)s from everyone, the flop at once.")
_BOUNTY = gettext_noop("7-2 bounty")
_PAID_OUT = gettext_noop("paid out")
_RAKE = gettext_noop("rake %(rake)s")
_SHARED_CARD = gettext_noop("Shared card")
_NO_LOW = gettext_noop("no low: the high hand takes it all")
_KEEP_PLAYING = gettext_noop("Keep playing")
_LEAVING = gettext_noop("You leave the table when this hand ends.")
_RABBIT = gettext_noop("Hunt the rabbit")
_RABBIT_TITLE = gettext_noop("See the cards that would have come: everyone at the table sees them, and they change nothing")
_RABBIT_NOTE = gettext_noop("Rabbit hunt: the faded cards are what would have come next. They change nothing.")
_CHECK_FOLD = gettext_noop("Check/fold")
_MORE_TIME = gettext_noop("More time +%(n)s s")
_BANK_LEFT = gettext_noop("Time bank: %(n)s s left")
_MORE_TIME_WORDS = gettext_noop("More time")
_CLOCK_ICON = ('<svg class="icon" viewBox="0 0 16 16" width="16" height="16"><circle cx="8" cy="9" r="5.8" fill="none"'
               ' stroke="currentColor" stroke-width="1.6"/><path d="M8 6v3.2l2.2 1.4M6.2 1.6h3.6" fill="none"'
               ' stroke="currentColor" stroke-width="1.6" stroke-linecap="round"/></svg>')


def _terms(table: Any) -> str:
    """The felt's ``data-`` attributes saying the stakes and speed being played (the page's
    script keeps the header and the buy-in boxes in step when a host changes them), and the
    line saying what a host's change waiting for the hand's end will be."""
    if table is None or _get(table, "big_blind") is None:
        return ""
    game, small, big, speed = _get(table, "game"), _get(table, "small_blind"), _get(table, "big_blind"), _get(table, "speed")
    # The same few terms drawn for every viewer of every version: made once per language and
    # terms (a rules link is a URL reversed, the stakes a formatted line).
    key = (drawing_language(), get_script_prefix(), game, small, big, speed, _get(table, "straddles"),
           _get(table, "run_twice"), _get(table, "seven_deuce_bb"), _get(table, "rabbit_hunt"))
    out = _TERMS.get(key)
    if out is None:
        if len(_TERMS) >= 1000:
            _TERMS.clear()
        out = _TERMS[key] = _make_terms(table, game, small, big, speed)
    return out


_TERMS: dict[tuple[Any, ...], str] = {}


def _make_terms(table: Any, game: str, small: int, big: int, speed: str) -> str:
    from tables.services import (
        game_has_rabbit,
        game_has_seven_deuce,
        game_runs_twice,
        game_takes_straddle,
    )

    straddles = "on" if _get(table, "straddles") and game_takes_straddle(game) else "off"
    twice = "on" if _get(table, "run_twice") and game_runs_twice(game) else "off"
    bounty = _get(table, "seven_deuce_bb") or 0
    rabbit = "on" if _get(table, "rabbit_hunt") and game_has_rabbit(game) else "off"
    bounty_text = chips(bounty * big) if bounty and game_has_seven_deuce(game) else ""
    return (f' data-stakes="{_v(stakes_text(game, small, big))}" data-speed="{_t(_SPEEDS.get(speed, speed))}"'
            f' data-big-blind="{_v(str(big))}" data-game="{_v(game_name(game))}" data-straddles="{straddles}"'
            f' data-run-twice="{twice}" data-seven-deuce="{_v(bounty_text)}" data-rabbit="{rabbit}"'
            f' data-rules="{_v(rules_url(game))}"')


def _bomb_next(table: Any) -> str:
    """The bomb pot a host asked for, said to everyone until it is dealt."""
    bb = _get(table, "bomb_next_bb") if table is not None else 0
    if not bb:
        return ""
    from tables.services import game_has_bomb

    if not game_has_bomb(_get(table, "next_game") or _get(table, "game")):
        return ""
    amount = chips(bb * (_get(table, "next_big_blind") or _get(table, "big_blind")))
    return f'<p class="muted next-terms next-bomb">{_bt(_BOMB_NEXT, amount=amount)}</p>'


def _next_terms(table: Any) -> str:
    if table is None:
        return ""
    big, speed, game = _get(table, "next_big_blind"), _get(table, "next_speed"), _get(table, "next_game")
    if big is None and not speed and not game:
        return ""
    parts = []
    if game:  # dealer's choice
        parts.append(game_name(game))
    if big is not None:
        parts.append(stakes_text(game or _get(table, "game"), _get(table, "next_small_blind"), big))
    if speed:
        parts.append(_t(_SPEEDS.get(speed, speed)))
    return f'<p class="muted next-terms">{_bt(_NEXT_TERMS, terms=" · ".join(parts))}</p>'


_LEVEL = gettext_noop("Level %(n)s")
_LEVEL_NEXT = gettext_noop("next: %(stakes)s in")
_LEVEL_NOW = gettext_noop("next: %(stakes)s from the next hand")
_LEVEL_PAUSED = gettext_noop("next: %(stakes)s in %(left)s once play resumes")
_LEVEL_LAST = gettext_noop("the last level")
_LEVEL_ALL = gettext_noop("all levels")
_LEVEL_UP = gettext_noop("Blinds up: level %(n)s, %(stakes)s")


_FREEZEOUT = gettext_noop("Freeze-out: %(left)s of %(n)s players left")
_FREEZEOUT_LATE = gettext_noop("late entry and re-entry through level %(n)s")
_FREEZEOUT_OVER = gettext_noop("Freeze-out over")
_FREEZEOUT_LEFT = gettext_noop("stood up")
_FREEZEOUT_YOURS = gettext_noop("you are out: place %(place)s of %(n)s")


def _freezeout(table: Any, place: Any = None) -> str:
    """A freeze-out being played (how many of its players still hold chips, and to a viewer who
    is out, the place they finished in), or, until the next hand is dealt, the places of the one
    that just ended (tables.freezeout)."""
    from tables import freezeout

    fo = _get(table, "freezeout") if table is not None else None
    if not fo:
        return ""
    if fo.get("on"):
        n = len(fo["entrants"])
        late = f' · {_bt(_FREEZEOUT_LATE, n=fo["late"])}' if freezeout.entry_open(table) else ""
        # Found by an audit: a player out was told their place once, in a note that went away.
        mine = f' · <strong>{_bt(_FREEZEOUT_YOURS, place=place, n=n)}</strong>' if place else ""
        return f'<p class="freezeout">{_bt(_FREEZEOUT, left=freezeout.players_left(fo), n=n)}{late}{mine}</p>'
    if not fo.get("showing"):
        return ""
    rows = []
    for place, name, gone in freezeout.standings(fo):
        row = f'<li value="{place}"><bdi>{escape(name)}</bdi>'
        rows.append(f'{row} <span class="muted">({_t(_FREEZEOUT_LEFT)})</span></li>' if gone else f"{row}</li>")
    return (f'<div class="freezeout freezeout--over" role="status"><strong>{_t(_FREEZEOUT_OVER)}</strong>'
            f'<ol class="freezeout__places">{"".join(rows)}</ol></div>')


def _levels(table: Any, place: Any = None) -> str:
    """Blinds on a clock (tables.levels): the level in play, the next level's stakes and when
    they come (the page's script counts down to ``data-level-ends``; the clock stands while the
    table is paused). Nothing when the blinds are not on a clock. A freeze-out's line first."""
    from tables.levels import LAST_LEVEL, blinds_at

    fo = _freezeout(table, place)
    level = _get(table, "level") if table is not None else 0
    if not level:
        return fo
    # The blinds being played now, then the next level's (found by an audit: the line said only
    # "next: blinds 10/20", and a phone had the header with today's blinds scrolled away).
    now = stakes_text(_get(table, "game"), _get(table, "small_blind"), _get(table, "big_blind"))
    parts = [_bt(_LEVEL, n=level), escape(now)]
    if level >= LAST_LEVEL:
        parts.append(_t(_LEVEL_LAST))
    else:
        small, big = blinds_at(level + 1, _get(table, "level_base_small"), _get(table, "level_base_big"))
        nxt = stakes_text(_get(table, "game"), small, big)
        ends, left = _get(table, "level_ends_at"), _get(table, "level_left_s")
        if ends is not None:
            # The page's script shows the second once the first's countdown reaches zero.
            parts.append(f'<span data-level-ends="{int(ends.timestamp())}">{_bt(_LEVEL_NEXT, stakes=nxt)}'
                         f' <span class="level-clock"></span></span><span data-level-due hidden>{_bt(_LEVEL_NOW, stakes=nxt)}</span>')
        else:
            left = int(left or 0)
            parts.append(_bt(_LEVEL_PAUSED, stakes=nxt, left=f"{left // 60}:{left % 60:02d}"))
    # The whole ladder on its own page; the page's script says "Blinds up" when the level
    # rises under a player's eyes (found by an audit: nothing marked the moment).
    parts.append(f'<a class="levels__all" href="/tables/{int(_get(table, "id"))}/levels/">{_t(_LEVEL_ALL)}</a>')
    up = _bt(_LEVEL_UP, n=level, stakes=now).replace('"', "&quot;")
    return f'{fo}<p class="muted levels" data-level="{level}" data-level-up="{up}">{" · ".join(parts)}</p>'


def _v(value: Any) -> str:
    """``value`` as ``{{ value }}`` prints it: numbers localized, then escaped unless safe."""
    kind = type(value)
    if kind is str:  # not SafeString, a subclass, which is printed as it is
        return escape(value)
    if kind is int and not settings.USE_THOUSAND_SEPARATOR:
        return str(value)  # what localize() gives an int then (numberformat's fast case)
    if not isinstance(value, str):
        value = str(localize(value))
    return conditional_escape(value)


def _bt(msgid: str, **values: Any) -> str:
    """A ``{% blocktranslate with name=... %}`` sentence: ``msgid`` translated (cached, like
    ``_t``) and filled with the values as ``{{ }}`` prints them. A translation whose
    placeholders do not fit falls back to English, as the tag does."""
    data = {k: _v(v) for k, v in values.items()}
    try:
        return _t(msgid) % data
    except (KeyError, ValueError):
        return msgid % data


def _baseball(context: Any) -> str:
    """``{% include "tables/_baseball.html" %}``: still a template, drawn with the context the
    partial had (a template ``Context`` when the page draws the fragment, else a dict)."""
    template = get_template("tables/_baseball.html")
    if isinstance(context, Context):
        return str(template.template.render(context))
    return str(template.render(context))


def render_table(context: Any) -> SafeString:
    """The ``table`` partial for ``context`` (``tables.selectors.table_context``'s dict, or the
    template ``Context`` of the page that includes it): the felt, the seats, the pot, the boards,
    the results, this viewer's buttons, the deck's fingerprint and the last hands."""
    before = getattr(_drawing, "language", None)
    _drawing.language = get_language() or ""
    try:
        return _render_table(context)
    finally:
        _drawing.language = before


def _side_pots(amounts: Any) -> str:
    """The main pot and the side pots of the finished rounds, after the total, or nothing."""
    if not amounts:
        return ""
    # "side pot 1: 1 840", with a colon: a pot's number would run into its amount without it
    # ("side pot 1 1 840" where a space groups thousands).
    # Each pot on one line, a phone breaking between pots, never inside one.
    parts = [
        f'<span class="pot__part">{_t("main pot") if k == 0 else _bt("side pot %(n)s", n=k)}:'
        f' <bdi dir="ltr">{_v(chips(a))}</bdi></span>'
        for k, a in enumerate(amounts)
    ]
    return f' <span class="pot__side">({" · ".join(parts)})</span>'


def _made(text: Any) -> str:
    """The hand the viewer's cards make, under them (``my_made``), or nothing."""
    return f'<p class="board__made">{_v(text)}</p>' if text else ""


def _all_in_mark(sized: Any) -> str:
    """" · all-in" on the Bet/Raise button, shown by the page's script while the amount is the
    player's whole stack (``data-at``); drawn shown when the least is already all of it."""
    if not _get(sized, "all_in"):
        return ""
    shown = "" if _get(sized, "min") == _get(sized, "max") else " hidden"
    return f'<span data-size-allin data-at="{int(_get(sized, "max"))}"{shown}> · {_t("all-in")}</span>'


def _render_table(context: Any) -> SafeString:
    get = context.get
    phase = get("phase")
    family = get("family")
    arranging = get("arranging")
    bb = get("bb")
    table = get("table")
    runout = get("runout") if phase == "over" and not get("replay") else None
    # An all-in's run-out, dealt street by street by the style sheet (table.css, "run-out").
    dealt = f' data-runout="{_v(runout["from"])}" data-runout-steps="{int(runout["steps"])}"' if runout else ""
    out = [
        f'\n  <section class="felt family-{_v(family) if family else "pp"} phase-{_v(phase) if phase else "waiting"}'
        f'{" is-arranging" if arranging else ""}{" game-bb" if bb else ""}"{_terms(table)}{dealt} aria-label="{_t("Table")}">\n'
        f'    <ol class="seats">\n      {seat_list(get("seat_rows"), phase or "", bb)}\n'
        "    </ol>\n\n    "
    ]
    if phase:
        bomb = f' <span class="pot__bomb">{_t(_BOMB)}</span>' if get("bomb") else ""
        # Once the hand is over its chips are in the winners' stacks: said, or the felt would
        # count them twice.
        paid = f' <span class="pot__paid">{_t(_PAID_OUT)}</span>' if phase == "over" else ""
        if paid and get("rake"):  # a public table's rake, so the winners' lines add up (an audit)
            paid += f' <span class="pot__paid pot__rake">· {_bt(_RAKE, rake=chips(get("rake")))}</span>'
        out.append(f'\n    <p class="pot">{_t("Pot")} <strong><bdi dir="ltr">{_v(chips(get("pot")))}</bdi></strong>{bomb}{paid}{_side_pots(get("side_pots"))}\n      ')
        if phase == "arrange":  # "Arrange your cards" only to a player still arranging
            note = "Arrange your cards" if arranging else "Arrangement under way"
            out.append(f'<span class="phase-note">{_t(note)} {_CLOCK}</span>')
        out.append("\n    </p>\n    ")
        if bb:
            out.append(_baseball(context))
        out.append("\n    ")
        mine = get("mine")
        if family == "pp":
            out.append(f'\n    <div class="boards">\n      {board_list(get("boards"), arranging)}\n    </div>\n    ')
        elif family == "flop":
            community = get("community")
            out.append(f'\n    <div class="board board--single">\n      <h3 class="board__title">{_t("Board")}</h3>\n'
                       f'      {card_row(_get(community, "cards"), blanks=_get(community, "blanks"))}\n      ')
            if mine:
                out.append(f'<div class="board__mine">{card_row(mine)}{_made(get("my_made"))}</div>')
            out.append("\n    </div>\n    ")
            second = get("second_run")
            if second:  # the hand ran twice: the second board, its shared cards first
                out.append(f'<div class="board board--single board--second">\n      <h3 class="board__title">{_t(_SECOND_RUN)}</h3>\n'
                           f'      {card_row(second)}\n    </div>\n    ')
        elif family == "draw" and mine:
            out.append(f'\n    <div class="board board--single">\n      <h3 class="board__title">{_t("Your hand")}</h3>\n'
                       f'      {card_row(mine, discardable=get("draw_allowed"))}{_made(get("my_made"))}\n    </div>\n    ')
        elif family == "stud" and (_get(get("community"), "cards") or get("my_made")):
            shared = _get(get("community"), "cards")
            if shared:  # seven-card stud with too many players for the deck: one card for all
                out.append(f'\n    <div class="board board--single board--shared">\n      <h3 class="board__title">{_t(_SHARED_CARD)}</h3>\n'
                           f'      {card_row(shared)}\n    </div>')
            if get("my_made"):
                # Under the pot, away from the player's cards: said whose hand it is.
                out.append(f'\n    <p class="board__made made--stud">{_t("Your hand")}: {_v(get("my_made"))}</p>')
            out.append("\n    ")
        out.append("\n    ")
        if get("rabbit"):
            out.append(f'<p class="rabbit-note">{_t(_RABBIT_NOTE)}</p>\n    ')
        wins = get("wins")
        if wins:
            out.append('<ul class="board__results wins">')
            for w in wins:
                side = w.get("side")
                out.append(
                    f'\n      <li class="win">{wins_text(w["name"], chips(w["amount"]))}'
                    f'{" · " + _v(w["pot_label"]) if w.get("pot_label") else ""}'
                    f'{" · " + _bt("run %(n)s", n=w["run"]) if w.get("run") else ""}'
                    f'{" · " + _t("split") if w.get("split") else ""}'
                    f'{" · " + _t("low") if side == "low" else " · " + _t("high") if side == "high" else ""}'
                    f'{" · " + _t(_NO_LOW) if side == "nolow" else ""}'
                    f'{" · " + _v(w["category"]) if w.get("category") else ""}</li>')
            bounty = get("bounty")
            if bounty:
                out.append(f'\n      <li class="win win--bounty"><strong>{_v(bounty["name"])}</strong>'
                           f' <bdi dir="ltr">+{_v(chips(bounty["amount"]))}</bdi> · {_t(_BOUNTY)}</li>')
            out.append("\n    </ul>")
        out.append("\n    ")
        scoop_name = get("scoop_name")
        if scoop_name:
            if family == "pp" and get("scoop_main"):
                scoop = _bt("%(name)s scoops all three boards of the main pot!", name=scoop_name)
            elif family == "pp":
                scoop = _bt("%(name)s scoops all three boards!", name=scoop_name)
            else:
                scoop = _bt("%(name)s scoops high and low!", name=scoop_name)
            out.append(f'<p class="scoop" role="status"><span aria-hidden="true">★</span> {scoop}</p>')
        out.append("\n    ")
        out.append(_next_terms(table))
        out.append(_bomb_next(table))
        out.append(_levels(table, get("fo_place")))
        if _get(table, "close_after_hand") and _get(table, "status") != "closed":
            # Said to everyone, not only in the host's panel (found by an audit: players and
            # watchers saw an ordinary hand until every seat went empty at once).
            out.append(f'<p class="muted next-hand" data-table-closing>{_t("Closing after this hand.")}</p>')
        if phase == "over" and not _get(bb, "over") and not get("replay"):
            if _get(table, "status") == "closed":
                # Closed at this hand's end: no next hand is coming (found by an audit: the
                # showdown pause counted down to a "next hand" on a closed table).
                out.append(f'<p class="muted next-hand" data-table-closed>{_t("This table is closed.")}</p>')
            elif _get(table, "status") == "paused" or _get(table, "pause_after_hand"):
                out.append(f'<p class="muted next-hand">{_t(_PAUSED)}</p>')
            else:
                out.append(f'<p class="muted next-hand">{_t("Next hand in a moment…")} {_CLOCK}</p>')
        out.append("\n    ")
    else:
        if _get(table, "status") == "closed":  # a host closed it, or it stood empty for a day
            out.append(f'\n    <p class="waiting muted" data-table-closed>{_t("This table is closed.")}</p>\n    ')
        elif _get(table, "status") == "paused":  # a host's pause, not a lack of players
            out.append(f'\n    <p class="waiting muted">{_t(_PAUSED)}</p>{_bomb_next(table)}{_levels(table, get("fo_place"))}\n    ')
        elif _get(table, "next_hand_at"):
            # "first" only before a table's first hand (found by an audit: every deal after a
            # break was announced as the first hand).
            first = _t("The next hand is dealt in") if get("recent_hands") else _t("The first hand is dealt in")
            out.append(f'\n    <p class="waiting">{first} {_CLOCK}</p>\n    \n    ')
        elif _get(bb, "waiting"):  # a new Baseball table: its first session starts on a player's word
            out.append(_baseball(context))
        else:
            out.append(f'\n    <p class="waiting muted">'
                       f'{_t("Waiting for players. A hand starts when two players are seated and not on a break.")}'
                       "</p>\n    ")
        if _get(table, "status") == "open":
            out.append(_levels(table, get("fo_place")))  # the clock runs between hands too (a host's pause stops it)
    out.append("\n\n    ")
    if get("my_seat"):
        out.append(_panel(get, phase, arranging))
    out.append("\n  </section>\n  ")
    hand = get("hand")
    commitment = _get(hand, "deck_commitment")
    if commitment:
        out.append(f'<p class="commitment muted">{_bt("Hand #%(n)s", n=_get(hand, "number"))} · '
                   f'{_t("deck fingerprint")} <code title="{_v(commitment)}" dir="ltr">{_v(commitment[:16])}…</code></p>')
    out.append(f"\n  {_v(get('history_html'))}\n  ")
    return mark_safe("".join(out))  # noqa: S308 - every value from data goes through _v or the tags


def _panel(get: Any, phase: Any, arranging: Any) -> str:
    """The seated viewer's buttons: the hints, the draw, the actions, the sized bet or raise,
    and the break."""
    out = [f'\n    <div class="panel" role="group" aria-label="{_t("Your actions")}">\n      ']
    if arranging:
        out.append(f'<p class="panel__hint">'
                   f'{_t("Tap a card, then another, to swap them, or ⇅ on two boards to swap your fours there. Each group of four plays on the board above it.")}</p>')
    if get("bring_in_hint"):
        out.append(f'<p class="panel__hint">{_v(get("bring_in_hint"))}</p>')
    out.append("\n      ")
    if get("draw_allowed"):
        out.append(f'<p class="panel__hint">'
                   f'{_t("Tap the cards you want to throw away, then draw. Draw with none picked to stand pat.")}</p>\n'
                   f'        <button type="button" class="act act--draw" data-draw data-key="d" data-label-none="{_t("Stand pat")}"'
                   f' data-label-some="{_t("Draw {n}")}"><span data-draw-label>{_t("Stand pat")}</span> <kbd>D</kbd></button>')
    out.append("\n      ")
    for a in get("actions") or ():
        kind, key = _v(a["kind"]), a.get("key", "")
        amount = f' data-amount="{_v(a["amount"])}"' if kind == "call" else ""  # matched by a "Call n" picked before the turn
        out.append(f'\n        <button type="button" class="act act--{kind}" data-action="{kind}"{amount} data-key="{_v(key)}">'
                   f'{_v(a["label"])}{f" <kbd>{_v(str(key).upper())}</kbd>" if key else ""}</button>\n      ')
    out.append("\n      ")
    sized = get("sized")
    if sized:
        kind, key = _v(sized["kind"]), sized.get("key", "")
        low, high, amount = _v(sized["min"]), _v(sized["max"]), _t("Amount")
        # Hebrew's "העלאה ל-" joins its amount with no space ("העלאה ל-20"), as the limit games' buttons.
        label = _t("Bet") if sized["kind"] == "bet" else _t("Raise to")
        out.append(f'<span class="sized" data-sized="{kind}">')
        presets = sized.get("presets")
        if presets:
            out.append(f'\n        <span class="sized__presets" role="group" aria-label="{_t("Quick sizes")}">')
            for p in presets:
                out.append(f'<button type="button" class="sized__preset" data-size-preset="{_v(p["amount"])}" aria-pressed="false">'
                           f'{_v(p["label"])}</button>')
            out.append("</span>")
        out.append(
            "\n"
            f'        <input type="range" min="{low}" max="{high}" value="{low}" step="1" aria-label="{amount}" data-size-range>\n'
            f'        <input type="number" min="{low}" max="{high}" value="{low}" inputmode="numeric" aria-label="{amount}" data-size-input>\n'
            f'        <button type="button" class="act act--{kind}" data-sized-go data-key="{_v(key)}">'
            f'{label}{"" if label.endswith("-") else " "}<span data-size-show>{_v(chips(sized["min"]))}</span>'
            f'{_all_in_mark(sized)}{f" <kbd>{_v(str(key).upper())}</kbd>" if key else ""}</button>\n'
            "      </span>")
    out.append("\n      ")
    if phase == "arrange" and get("arranged"):
        out.append(f'<p class="panel__hint">{_t("Your arrangement is in. Waiting for the others.")}</p>')
    if get("timed_out"):  # found by an audit: "I'm back" alone did not say why it was there
        out.append(f'<p class="panel__hint panel__hint--timeout">{_t(_TIMED_OUT)}</p>')
    pre = get("pre_actions")
    if pre:
        out.append(f'<span class="pre" role="group" aria-label="{_t(_PRE)}">')
        if pre.get("call"):  # facing a bet: fold, or call this much (not "any")
            call = pre["call"]
            out.append(f'<button type="button" class="pre__btn" data-pre="check_fold" aria-pressed="false">{_t("Fold")}</button>'
                       f'<button type="button" class="pre__btn" data-pre="call" data-amount="{call}" aria-pressed="false">'
                       f'{_v(action_label("call", call))}</button></span>')
        else:
            out.append(f'<button type="button" class="pre__btn" data-pre="check_fold" aria-pressed="false">{_t(_CHECK_FOLD)}</button>'
                       f'<button type="button" class="pre__btn" data-pre="check" aria-pressed="false">{_t("Check")}</button></span>')
    bank = get("time_bank")
    if bank:
        # "(clock) More time +20s": the words hidden on a phone, where the bar has no room for
        # them (static/css/table.css); the button's name says them all the same. The number is
        # kept left to right ("+20", not "20+", on a Hebrew page), the unit as the page writes it.
        unit = _t("{n}s").replace("{n}", "")
        out.append(f'<button type="button" class="act act--quiet act--time" data-action="time" data-key="t"'
                   f' aria-label="{_bt(_MORE_TIME, n=bank["step"])}" title="{_bt(_BANK_LEFT, n=bank["left"])}">'
                   f'<span aria-hidden="true">{_CLOCK_ICON} <span class="act__words">{_t(_MORE_TIME_WORDS)}</span>'
                   f' <bdi dir="ltr">+{_v(bank["step"])}</bdi>{unit}</span> <kbd>T</kbd></button>')
    if get("can_show"):
        out.append(f'<button type="button" class="act act--quiet act--show" data-action="show_cards">{_t(_SHOW)}</button>')
    if get("can_rabbit"):
        out.append(f'<button type="button" class="act act--quiet act--rabbit" data-action="rabbit"'
                   f' title="{_t(_RABBIT_TITLE)}">{_t(_RABBIT)}</button>')
    choice = get("bb_choice")
    if choice in ("post", "post_missed"):
        label = _t(_POST_BB if choice == "post" else _POST_MISSED)
        out.append(f'<button type="button" class="act act--quiet act--post" data-action="post_bb">{label}</button>')
    elif choice == "wait":
        out.append(f'<button type="button" class="act act--quiet act--post" data-action="wait_bb">{_t(_WAIT_BB)}</button>')
    straddle = get("straddle")
    if straddle is not None:
        out.append(f'<button type="button" class="act act--quiet act--straddle" data-action="straddle_{"off" if straddle else "on"}"'
                   f' aria-pressed="{"true" if straddle else "false"}" title="{_t(_STRADDLE_TITLE)}">{_t(_STRADDLE)}</button>')
    twice = get("run_twice")
    if twice is not None:
        out.append(f'<button type="button" class="act act--quiet act--run-twice" data-action="run_twice_{"off" if twice else "on"}"'
                   f' aria-pressed="{"true" if twice else "false"}" title="{_t(_RUN_TWICE_TITLE)}">{_t(_RUN_TWICE)}</button>')
    out.append('\n      <span class="panel__spacer"></span>\n      ')
    if get("leaving"):
        out.append(f'\n        <span class="muted panel__leaving">{_t(_LEAVING)}</span>\n      ')
    elif get("on_break"):
        back = _t(_KEEP_PLAYING) if get("break_pending") and not get("timed_out") else _t("I'm back")
        out.append(f'\n        <button type="button" class="act act--back" data-action="im_back">{back}</button>\n      ')
    else:
        out.append(f'\n        <button type="button" class="act act--quiet" data-action="sit_out">'
                   f'{_t("Break from next hand")}</button>\n      ')
    out.append("\n    </div>\n    ")
    return "".join(out)
