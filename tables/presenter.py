"""Turn one viewer's engine view into what the table template draws.

The input is ``state.view_for(seat)``: it already holds only the cards this viewer may see, so
nothing here can leak a hidden card. This module only reshapes it: seats in table order with
names, boards with the viewer's four cards under each, buttons with translated labels, and the
showdown per board.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.utils.translation import get_language_bidi
from django.utils.translation import gettext as _

from rules_engine.cards import Card
from tables.handnames import hand_name
from tables.handreader import CardPicture

BOARD_SIZE = 5

# Category labels from the engine, in the viewer's language.
CATEGORY_NAMES = {
    "royal_flush": lambda: _("Royal flush"),
    "straight_flush": lambda: _("Straight flush"),
    "four_of_a_kind": lambda: _("Four of a kind"),
    "full_house": lambda: _("Full house"),
    "flush": lambda: _("Flush"),
    "straight": lambda: _("Straight"),
    "three_of_a_kind": lambda: _("Three of a kind"),
    "two_pair": lambda: _("Two pair"),
    "one_pair": lambda: _("One pair"),
    "high_card": lambda: _("High card"),
    "five_of_a_kind": lambda: _("Five of a kind"),
}

# Keyboard shortcuts shown on the buttons.
KEYS = {"fold": "f", "check": "c", "call": "c", "bet_pot": "r", "raise_pot": "r", "bet": "r", "raise": "r",
        "complete": "r", "bring_in": "b", "all_in": "a", "done": "d"}


class _Units(Fraction):
    """An exact amount of Baseball units that compares as a number and prints as people write it."""

    text: str

    def __new__(cls, exact: str, text: str) -> _Units:
        self = super().__new__(cls, exact)
        self.text = text
        return self

    def __str__(self) -> str:
        return self.text


def category_name(label: str | None) -> str:
    if not label:
        return ""
    name = CATEGORY_NAMES.get(label)
    return name() if name else label


def action_label(kind: str, amount: int) -> str:
    from tables.templatetags.table_cards import chips

    amount = chips(amount)  # type: ignore[assignment]  # "Call 1,500", "Колл 1 500"
    if kind == "fold":
        return _("Fold")
    if kind == "check":
        return _("Check")
    if kind == "call":
        return _("Call %(amount)s") % {"amount": amount}
    if kind == "bet_pot":
        return _("Bet pot %(amount)s") % {"amount": amount}
    if kind in ("raise_pot", "raise"):
        return _("Raise to %(amount)s") % {"amount": amount}
    if kind == "bet":
        return _("Bet %(amount)s") % {"amount": amount}
    if kind == "all_in":
        return _("All-in %(amount)s") % {"amount": amount}
    if kind == "bring_in":
        return _("Bring in %(amount)s") % {"amount": amount}
    if kind == "complete":
        return _("Complete to %(amount)s") % {"amount": amount}
    if kind == "done":
        return _("Done")
    return kind


# The word a seat shows for its last act in the round (msgids; the seat list translates them).
ACT_WORDS = {"check": "check", "call": "call", "bet": "bet", "raise": "raise", "all_in": "raise",
             "complete": "complete", "bring_in": "bring-in", "straddle": "straddle"}


# The quick sizes offered next to the bet slider: a fraction of a pot-sized bet or raise.
PRESET_FRACTIONS = (
    (Fraction(1, 2), lambda: _("½ pot")),
    (Fraction(3, 4), lambda: _("¾ pot")),
    (Fraction(1), lambda: _("Pot")),
)


def pot_raise_to(*, pot: int, highest: int, to_call: int, fraction: Fraction = Fraction(1)) -> int:
    """The bet or raise-to total that is ``fraction`` of a pot-sized one, in whole chips.

    A pot-sized raise first calls, then raises by the pot as it would be after that call:
    raise-to = ``highest`` + (``pot`` + ``to_call``), where ``pot`` is every chip in the middle,
    this round's bets included (the view's ``pot``), ``highest`` the bet to match this round and
    ``to_call`` what the player must add to match it. A fraction f of it is ``highest`` +
    f * (``pot`` + ``to_call``), rounded down to a whole chip. With no bet yet in the round
    (``highest`` = ``to_call`` = 0) that is f * ``pot``. f = 1 is the pot-limit maximum
    (``rules_engine.betting.PotLimit``).

    >>> pot_raise_to(pot=240, highest=0, to_call=0, fraction=Fraction(1, 2))  # bet half of 240
    120
    >>> pot_raise_to(pot=500, highest=150, to_call=150)  # pot 200, a bet of 150, a call of 150
    800
    >>> pot_raise_to(pot=15, highest=10, to_call=10, fraction=Fraction(3, 4))  # blinds 5/10
    28
    """
    base = pot + to_call
    return highest + base * fraction.numerator // fraction.denominator


def size_presets(view: dict[str, Any], sized: dict[str, Any]) -> list[dict[str, Any]]:
    """The one-tap sizes for a bet or raise of the player's choice (``sized`` is its legal
    action, with ``min_amount`` and ``max_amount`` raise-to totals): "½ pot", "¾ pot", "Pot"
    (:func:`pot_raise_to`) and the most the player may put in, each ``{"label", "amount"}``.

    The bet to match and what the viewer must call are the ``to`` and ``amount`` of the
    viewer's check or call (a short blind leaves the players' bets below the bet to match).
    A size at or below the minimum, or the same as one before it, is left out; sizes at or above
    the maximum give way to one button for the maximum: "All-in" when it is the player's whole
    stack (always in no-limit; in pot-limit, a stack short of a pot-sized raise), else "Pot" (in
    pot-limit the maximum is a pot-sized bet or raise, the third fraction exactly). Tapping one
    only fills in the amount; the Bet/Raise button sends it.
    """
    low, high = int(sized["min_amount"]), int(sized["max_amount"])
    you = view.get("you") or {}
    me = view["players"][you["seat"]] if "seat" in you else {"bet": 0, "stack": high}
    mine, whole = int(me["bet"]), int(me["bet"]) + int(me["stack"])
    highest = max((int(p["bet"]) for p in view["players"]), default=0)
    to_call = highest - mine
    for la in view.get("legal_actions") or ():
        if la["kind"] in ("check", "call"):
            highest, to_call = int(la["to"]), int(la["amount"])
    presets: list[dict[str, Any]] = []
    taken = {low}
    for fraction, label in PRESET_FRACTIONS:
        to = pot_raise_to(pot=int(view["pot"]), highest=highest, to_call=to_call, fraction=fraction)
        if to >= high:
            break
        if to <= low or to in taken:  # clamped up to the minimum, or a size already offered
            continue
        taken.add(to)
        presets.append({"label": label(), "amount": to})
    presets.append({"label": _("All-in") if high >= whole else _("Pot"), "amount": high})
    return presets


def pictures(
    cards: list[str] | None, used: set[str] | None = None, swap: bool = False, wild: frozenset[int] = frozenset()
) -> list[dict[str, Any]]:
    out = []
    for text in cards or []:
        lit = bool(used and text in used)
        idle = used is not None and text not in used
        key = (text, lit, idle, wild)
        pic = _PICTURES.get(key)
        if pic is None:
            card = Card.parse(text)
            pic = CardPicture(card=card, used=lit, idle=idle, wild=card.rank in wild)
            if len(_PICTURES) >= 4096:
                _PICTURES.clear()
            _PICTURES[key] = pic
        out.append({"pic": pic, "swap": text if swap else "", "extra": False})
    return out


# A CardPicture is frozen: one per card and way of drawing it, made once and shared by every
# picture of every table (the drawing then finds its markup by the same object, see card_row).
_PICTURES: dict[tuple[str, bool, bool, frozenset[int]], CardPicture] = {}


def rabbit_pictures(cards: list[str]) -> list[dict[str, Any]]:
    """The cards a rabbit hunt turned up (``view["rabbit"]``): drawn after a board's real cards,
    faded (``card--rabbit``), never lit as part of a hand."""
    out = pictures(cards)
    for c in out:
        c["rabbit"] = True
    return out


def _card_text(c: Any) -> str:
    return str(c["card"]) if isinstance(c, dict) else str(c)


def _wilds(view: dict[str, Any]) -> frozenset[int]:
    return frozenset(int(r) for r in view.get("wild_ranks") or ())


@dataclass
class SeatRow:
    no: int
    name: str = ""
    empty: bool = True
    me: bool = False
    stack: int = 0
    bet: int = 0
    in_hand: bool = False
    folded: bool = False
    all_in: bool = False
    acting: bool = False
    arranged: bool = False
    button: bool = False
    small_blind: bool = False
    big_blind: bool = False
    sitting_out: bool = False
    leaving: bool = False  # stands up when the hand being played ends
    waiting: bool = False  # seated but not dealt into the hand being played
    wait_bb: bool = False  # joined a running blind game: dealt in when the big blind comes round
    post_bb: bool = False  # ... or posts a big blind to come in sooner
    net: Any = None
    hands: list[list[dict[str, Any]]] = field(default_factory=list)
    boards_won: set[int] = field(default_factory=set)  # Patch-Patch: the boards (1-3) this seat won a share of
    hole: list[dict[str, Any]] = field(default_factory=list)  # a flop or draw hand shown at showdown
    up: list[dict[str, Any]] = field(default_factory=list)  # stud: face-up cards (public)
    down: list[dict[str, Any]] = field(default_factory=list)  # stud: {"hidden": True} = face down
    drawn: int | None = None  # draw: how many cards this player drew
    opener: bool = False  # Baseball: the best open hand, who opens this round's betting
    showing: str = ""  # Baseball: what the open cards make ("One pair")
    made: str = ""  # a hand turned over at the showdown, in words ("Two pair", "low 8-6-4-3-2")
    act: str = ""  # the seat's last act in the betting round under way: "check", "raise" ... (msgid)
    user_id: int | None = None  # who sits here: the page marks a seated player who is away
    banked: bool = False  # took time from their bank on the clock running now
    short: bool = False  # fewer chips than the table deals a player in with (a cash table's big blind)
    was: int | None = None  # an all-in's run-out: the stack before the pot was paid, shown while it is dealt


@dataclass
class BoardRow:
    index: int
    cards: list[dict[str, Any]]
    blanks: int
    mine: list[dict[str, Any]]
    made: str = ""
    made_cards: set[str] = field(default_factory=set)
    results: list[dict[str, Any]] = field(default_factory=list)


def present(*, view: dict[str, Any] | None, seats: list[dict[str, Any]], players: list[list[int]] | None,
            gone: dict[int, str] | None = None) -> dict[str, Any]:
    """Build the template context for one viewer.

    ``seats`` are the table's seats (``no``, ``name``, ``stack``, ``sitting_out``, ``user_id``),
    ``players`` the hand's engine index -> (seat_no, user_id, start stack).
    """
    engine_of_seat: dict[int, int] = {}
    if players:
        for i, (seat_no, _user_id, _start) in enumerate(players):
            engine_of_seat[seat_no] = i
    # Players dealt in whose seats are gone since (``gone``: engine index -> name) are still named
    # in the winners' lines (found by an audit: "? +20" for a player who left and won).
    names = dict(gone or {})
    rows: list[SeatRow] = []
    won = _won_cards(view.get("result") if view is not None else None)
    for s in seats:
        row = SeatRow(no=s["no"], name=s["name"], empty=s["empty"], me=s["me"], stack=s["stack"], sitting_out=s["sitting_out"],
                      wait_bb=bool(s.get("wait_bb")), post_bb=bool(s.get("post_bb")), leaving=bool(s.get("leaving")),
                      user_id=None if s["empty"] else s.get("user_id"), banked=bool(s.get("banked")),
                      short=bool(s.get("short")))
        i = engine_of_seat.get(s["no"]) if not s["empty"] else None
        if view is not None and i is not None and s["user_id"] == players[i][1]:  # type: ignore[index]
            p = view["players"][i]
            names[i] = s["name"]
            # Baseball's exact balances are shown as people write them: "1 2/3", "-2".
            row.stack = p.get("stack_display", p["stack"])
            if view["phase"] == "over" and "stack_display" not in p:
                # The hand is settled: the seat holds the stack, with any chips added since.
                row.stack = s["stack"]
            row.opener = bool(p.get("opener"))
            row.bet = p["bet"] if view["phase"] not in ("arrange", "draw", "over") else 0
            row.in_hand = p["in_hand"]
            row.folded = p["folded"]
            row.all_in = p["all_in"]
            row.arranged = p.get("arranged", False)
            # Stud has no button: the bring-in, then the best open cards, act first. Only baseball's
            # dealer (who deals the session's hands in turn) is marked at a stud table.
            row.button = p["button"] and (view.get("family") != "stud" or view.get("variant") == "BB")
            row.small_blind = p["small_blind"]
            row.big_blind = p["big_blind"]
            row.acting = i in (view.get("actors") or []) and view["phase"] != "over"
            row.act = ACT_WORDS.get(p.get("act") or "", "")
            if view.get("result"):
                row.net = view["result"]["net"][i]
                if "net_display" in view["result"]:  # exact units: compare as a number, show as text
                    row.net = _Units(view["result"]["net"][i], view["result"]["net_display"][i])
            if p.get("hands") and p.get("shown"):
                row.hands = [pictures(h["cards"], used=_lit(won.get((i, b)), h["cards"])) for b, h in enumerate(p["hands"])]
                row.boards_won = {b + 1 for b in range(len(p["hands"])) if won.get((i, b))}
            family = view.get("family", "pp")
            if p.get("made") and family in ("flop", "draw", "stud"):
                row.made = _made_words(p["made"])
                if p["made"].get("second"):  # run twice: what the hand made on each board
                    row.made = (_("run %(n)s") % {"n": 1} + ": " + row.made + " · "
                                + _("run %(n)s") % {"n": 2} + ": " + _made_words(p["made"]["second"]))
            if view.get("variant") == "BB" and p.get("showing") and not p["folded"] and view["phase"] != "over":
                row.showing = hand_name(p["showing"], None, category_name, ranks=p.get("showing_ranks"))
            if family == "stud":
                up = [_card_text(c) for c in p.get("up") or []]
                lit = _lit(won.get((i, 0)), up + [_card_text(c) for c in p.get("down") or [] if c], own_only=True)
                row.up = pictures(up, used=lit, wild=_wilds(view))
                for j, c in enumerate(p.get("up") or []):
                    if isinstance(c, dict) and c.get("extra"):
                        row.up[j]["extra"] = True
                row.down = [
                    pictures([_card_text(c)], used=lit, wild=_wilds(view))[0] if c else {"hidden": True}
                    for c in p.get("down") or []
                ]
            elif family in ("flop", "draw") and p.get("cards") and p.get("shown"):
                row.hole = pictures(p["cards"], used=_lit(won.get((i, 0)), p["cards"], own_only=family == "draw"))
            elif family in ("flop", "draw") and not s["me"] and not p["folded"] and view["phase"] != "over":
                # Another player's hand still in play, face down as it lies on a real table: who is
                # still in the pot reads at a glance (the viewer's own cards are under the board).
                row.hole = [{"hidden": True} for _ in range(p.get("hole_count") or 0)]
            if family == "draw":
                row.drawn = p.get("drawn")
        elif view is not None and not s["empty"]:
            # Not dealt in: waiting for the next hand, also while this one's end is shown (found by
            # an audit: a player back from a break had a seat with nothing to say).
            row.waiting = True
        rows.append(row)
    if view is None:
        return {"seat_rows": rows, "boards": [], "actions": [], "phase": "", "arranging": False}

    you = view.get("you")
    result = view.get("result")
    family = view.get("family", "pp")
    boards = _pp_boards(view, names) if family == "pp" else []
    arranging = bool(you and you.get("arranging"))
    community = None
    mine: list[dict[str, Any]] = []
    # What the viewer's cards make so far (the engine works it out for flop games from the flop
    # on, for draw games always, for stud from the fifth card), named in the page's language; at
    # a high-only flop game its five cards are lit on the board and in the hand, as each
    # Patch-Patch board does.
    made = (you or {}).get("made") if family in ("flop", "draw", "stud") else None
    if you and view["players"][you["seat"]]["folded"]:
        made = None  # a folded hand is out: its cards, nothing lit, no name (as Patch-Patch's)
    my_made = ""
    made_cards: set[str] | None = None
    if made:
        my_made = _made_words(made)
        if made.get("second"):  # run twice: what the cards make on each board
            my_made = (_("run %(n)s") % {"n": 1} + ": " + my_made + " · "
                       + _("run %(n)s") % {"n": 2} + ": " + _made_words(made["second"]))
        if family == "flop" and "low" not in made:
            made_cards = set(made.get("cards") or ())
    second_run = None
    if family == "flop":
        board_cards = view.get("board") or []
        won = _generic_wins(result, names)
        # Run twice: each board lights the cards that won on it.
        winning = {c for w in won if w.get("run", 1) == 1 for c in w["cards"]}
        community = {"cards": pictures(board_cards, used=winning or made_cards or None), "blanks": 5 - len(board_cards)}
        hunted = view.get("rabbit")
        if hunted:
            community["cards"] += rabbit_pictures(hunted[0])
            community["blanks"] = max(0, community["blanks"] - len(hunted[0]))
        if view.get("second_board"):
            second_run = pictures(view["second_board"], used={c for w in won if w.get("run") == 2 for c in w["cards"]} or None)
    elif family == "stud" and view.get("board"):
        # Seven-card stud with more players than the deck can give seven cards each: the last
        # card is dealt once, face up, and plays in every hand (GAMES.md section 3).
        community = {"cards": pictures(view["board"]), "blanks": 0}
    # An all-in ended the betting before the river and the rest of the board was dealt at once:
    # the felt deals it street by street (a second after another), and keeps the result (the
    # winners, the hands' names, the stacks paid) for its end, as a card room does.
    runout = None
    steps = view.get("runout_streets")
    if result and result.get("showdown") and isinstance(steps, int) and steps > 0 and not view.get("rabbit"):
        if family == "flop" and isinstance(view.get("runout_from"), int):
            runout = {"from": view["runout_from"], "steps": steps}
        elif family == "stud" and isinstance(view.get("runout_round"), int) and view.get("variant") != "BB":
            runout = {"from": "stud", "steps": steps}
            _stud_streets(view, rows)
    if runout is not None:
        payouts = result.get("payouts") or []  # type: ignore[union-attr]
        for row in rows:
            i = engine_of_seat.get(row.no) if not row.empty else None
            if (i is not None and players and i < len(payouts) and payouts[i] and isinstance(row.stack, int)
                    and row.user_id == players[i][1]):
                row.was = max(0, row.stack - payouts[i])
    if family == "flop" and made_cards and winning and not made_cards <= winning:
        made_cards = None  # the board lights the winner's hand; the viewer's lost one is named, unlit
    if family in ("flop", "draw") and you:
        drawing = family == "draw" and any(la["kind"] == "draw" for la in view.get("legal_actions") or [])
        mine = pictures(you.get("cards"), used=made_cards)
        for m in mine:
            m["discard"] = drawing
    actions = []
    sized = None
    legal = view.get("legal_actions") or []
    # A bring-in that takes every chip the player has is offered by the engine twice, as the
    # bring-in and as an all-in of the same amount: one button, "Bring in 2 · all-in" (found by
    # an audit).
    short_bring_in = {la.get("amount") for la in legal if la["kind"] == "bring_in"} & {
        la.get("amount") for la in legal if la["kind"] == "all_in"}
    for la in legal:
        kind = la["kind"]
        if kind in ("swap", "arrange", "draw"):
            continue
        if kind == "all_in" and la.get("amount") in short_bring_in:
            continue
        low, high = la.get("min_amount"), la.get("max_amount")
        if kind in ("bet", "raise") and low is not None and high is not None and high > low:
            # No-limit and pot-limit: the player picks the size between the two bounds.
            presets = size_presets(view, la)
            sized = {"kind": kind, "min": low, "max": high, "label": action_label(kind, low), "key": KEYS.get(kind, ""),
                     "presets": presets,
                     # The most is the player's whole stack: the button says "all-in" there (an audit:
                     # after the "All-in" quick size it said "Raise to 2,575" only).
                     "all_in": bool(you) and high >= _whole_stack(view, you)}
            continue
        label = action_label(kind, la["amount"])
        if (kind == "call" and la.get("all_in")) or (kind == "bring_in" and la["amount"] in short_bring_in):
            label += " · " + _("all-in")  # the call takes every chip behind: said on the button
        # One key, one button: five-card stud's open pair offers two bets ("Bet 10", "Bet 20"),
        # and only the first takes R (found by an audit: R always took the first anyway).
        key = KEYS.get(kind, "")
        if key and any(a["key"] == key for a in actions):
            key = ""
        actions.append({"kind": kind, "amount": la["amount"], "label": label, "key": key})
    draw_allowed = any(la["kind"] == "draw" for la in view.get("legal_actions") or [])
    scoop_name = names.get(result["scoop"]) if result and result.get("scoop") is not None else None
    # A short all-in who took every board of the main pot scooped that pot, not the side pots
    # the others played for: said so (found by an audit: "scoops all three boards!" read as all).
    scoop_main = bool(scoop_name) and any(result["scoop"] not in pot.get("eligible", ()) for pot in result["pots"])  # type: ignore[index]
    return {
        "scoop_main": scoop_main,
        "seat_rows": rows,
        "family": family,
        "boards": boards,
        "community": community,
        "second_run": second_run,
        "runout": runout,
        "rabbit": bool(view.get("rabbit")),
        "bomb": view.get("bomb") or 0,
        "mine": mine,
        "my_made": my_made,
        # Patch-Patch says each board's winners under it; a pot nobody contested (everyone else
        # folded) has no boards, and is said here as the other games say theirs (found by an
        # audit: the felt did not say who took it).
        "wins": (_sided(_generic_wins(result, names), str(view.get("variant", "")).endswith("/8")) if family != "pp"
                 else _generic_wins(result, names) if result and not result.get("showdown") else []),
        "bounty": _bounty(result, names),
        "actions": actions,
        "sized": sized,
        "draw_allowed": draw_allowed,
        "bring_in_hint": _bring_in_hint(view, actions),
        "game_name": view.get("game", ""),
        "phase": view["phase"],
        "arranging": arranging,
        "arranged": bool(you and view["players"][you["seat"]].get("arranged")),
        # After the hand the pot has been paid out; show what was played for.
        "pot": sum(p["amount"] for p in result["pots"]) if result else view["pot"],
        "rake": int(result.get("rake") or 0) if result else 0,
        # While a hand with an all-in is played: the main pot and each side pot so far.
        "side_pots": view.get("side_pots") or [],
        "result": result,
        "scoop_name": scoop_name if family == "pp" or _is_hilo(result) else None,
        "showdown": bool(result and result.get("showdown")),
        "clock_kind": view.get("clock") or "",
    }


def _whole_stack(view: dict[str, Any], you: dict[str, Any]) -> int:
    """The viewer's chips in this betting round and behind: a raise to this much is all-in."""
    me = view["players"][you["seat"]]
    return int(me["bet"]) + int(me["stack"])


def _stud_streets(view: dict[str, Any], rows: list[SeatRow]) -> None:
    """A stud run-out: each card a seat was dealt after the betting ended is marked with its
    street (1 = the first to come), for the felt to deal them one street at a time."""
    from rules_engine.games import get_variant

    game = get_variant(str(view.get("variant")))
    first, later, r = game.FIRST_STREET, game.LATER_STREETS, int(view["runout_round"])
    up_at = first.count(True) + later[:r].count(True)
    down_at = first.count(False) + later[:r].count(False)
    up_streets = [k for k, up in enumerate(later[r:], 1) if up]
    down_streets = [k for k, up in enumerate(later[r:], 1) if not up]
    for row in rows:
        for card, street in zip(row.up[up_at:], up_streets, strict=False):
            card["street"] = street
        for card, street in zip(row.down[down_at:], down_streets, strict=False):
            card["street"] = street


def _pp_boards(view: dict[str, Any], names: dict[int, str]) -> list[BoardRow]:
    """Patch-Patch: three boards, the viewer's four cards under each, the winners of each."""
    you = view.get("you")
    result = view.get("result")
    my_hands = you["hands"] if you else None
    arranging = bool(you and you.get("arranging"))
    folded = bool(you) and bool(view["players"][you["seat"]]["folded"])
    boards = []
    board_wins: dict[int, list[dict[str, Any]]] = {}
    if result:
        for pot in result["pots"]:
            for b in pot["boards"]:
                for w in b["winners"]:
                    board_wins.setdefault(b["board"], []).append(
                        {
                            "name": names.get(w["seat"], "?"),
                            "amount": w["amount"],
                            "category": hand_name(w["category"], w["cards"], category_name),
                            "cards": w["cards"],
                            "pot": pot["index"],
                            # With side pots each line says whose pot it is (an audit saw "Dana
                            # +165 · Two pair" above "Alice +317 · One pair" on one board).
                            "pot_label": "" if len(result["pots"]) < 2 else (
                                _("main pot") if pot["index"] == 0 else _("side pot %(n)s") % {"n": pot["index"]}),
                            "split": len(b["winners"]) > 1,
                        }
                    )
    hunted = view.get("rabbit") or [[], [], []]
    for b in range(3):
        board_cards = view["boards"][b] if b < len(view["boards"]) else []
        rabbit = rabbit_pictures(hunted[b]) if b < len(hunted) else []
        mine = my_hands[b] if my_hands else None
        winning: set[str] = set()
        for w in board_wins.get(b, []):
            winning.update(w["cards"])
        made = None if folded or not mine else mine["made"]
        highlight = winning or (set(made["cards"]) if made else set())
        # A lit card belongs to the hand named beside it (found by an audit): once a board has
        # winners it lights theirs, so the viewer's four under it light theirs only when they
        # are that hand (a win or a split); a lost board names the viewer's hand, unlit. A folded
        # hand is out: its cards, nothing lit, no name.
        mine_lit = set(made["cards"]) if made and (not winning or set(made["cards"]) <= winning) else None
        boards.append(
            BoardRow(
                index=b + 1,
                cards=pictures(board_cards, used=highlight if highlight else None) + rabbit,
                blanks=max(0, BOARD_SIZE - len(board_cards) - len(rabbit)),
                mine=pictures(mine["cards"], used=mine_lit, swap=arranging) if mine else [],
                # The category alone while the hand is played (a phone has a third of a line
                # beside the four cards); its ranks once it is over, to read against the winners'.
                made=(hand_name(made["category"], made.get("cards"), category_name) if view["phase"] == "over"
                      else category_name(made["category"])) if made else "",
                made_cards=set(made["cards"]) if made else set(),
                results=board_wins.get(b, []),
            )
        )
    return boards


def _won_cards(result: dict[str, Any] | None) -> dict[tuple[int, int], set[str]]:
    """(engine seat, board) -> the cards of every hand that seat won with at a showdown (a
    Hi-Lo seat that takes both halves: both hands' cards). Board 0 in the one-board games."""
    won: dict[tuple[int, int], set[str]] = {}
    if not result or not result.get("showdown"):
        return won
    for pot in result.get("pots") or []:
        for board in pot.get("boards") or []:
            for w in board.get("winners") or []:
                won.setdefault((w["seat"], board.get("board", 0)), set()).update(w.get("cards") or ())
        winners = pot.get("winners")
        if isinstance(winners, list):  # Baseball's pots
            for w in winners:
                if isinstance(w, dict) and "seat" in w:
                    won.setdefault((w["seat"], 0), set()).update(w.get("cards") or ())
    return won


def _lit(won: set[str] | None, held: list[str], own_only: bool = False) -> set[str] | None:
    """The cards of a shown hand to light as the winning ones (the rest dimmed), or None to draw
    it plain: a seat that won nothing, or a winning hand whose cards are not all among what is
    drawn (a wild card named as another card; ``own_only`` for games with no board)."""
    if not won:
        return None
    mine = won.intersection(held)
    if not mine or (own_only and mine != won):
        return None
    return mine


def _low_text(description: str) -> str:
    """A low's ranks ("6-5-4-2-A") read left to right inside a right-to-left line too: without
    a Unicode left-to-right isolate a Hebrew page showed "A-6-5-4-2". And they stay on one line
    in every language: a word joiner after each dash (invisible), where a phone's narrow seat
    broke "7-6-5-" from "2-A" (found by an audit)."""
    joined = description.replace("-", "-\u2060")
    return f"\u2066{joined}\u2069" if get_language_bidi() else joined


def _made_words(made: dict[str, Any]) -> str:
    """A made hand in words: its category, and a Hi-Lo game's low ("Two pair · low 7-5-3-2-A")."""
    named = [hand_name(made["category"], made.get("cards"), category_name, ranks=made.get("ranks"))] if made.get("category") else []
    if made.get("low"):  # Hi-Lo's low, and Razz's only hand
        named.append(_("low") + " " + _low_text(made["low"]["description"]))
    return " · ".join(named)


def _sided(wins: list[dict[str, Any]], hilo: bool) -> list[dict[str, Any]]:
    """Say "high"/"low" (or that there was no low) only in a hi-lo game (its code ends "/8");
    elsewhere every pot is a high pot."""
    if not hilo:
        for w in wins:
            w["side"] = ""
    return wins


def _bring_in_hint(view: dict[str, Any], actions: list[dict[str, Any]]) -> str:
    """Why a stud player is asked to open (found by an audit: nothing said who brings in, or
    why): the lowest up card brings in, Razz's highest."""
    amounts = {a["kind"]: a["amount"] for a in actions}
    if "bring_in" not in amounts:
        return ""
    from tables.templatetags.table_cards import chips

    values = {"amount": chips(amounts["bring_in"]), "complete": chips(amounts.get("complete", 0))}
    if view.get("variant") == "FR":
        return _("Your up card is the highest, so you open: bring in %(amount)s, or complete to %(complete)s.") % values
    return _("Your up card is the lowest, so you open: bring in %(amount)s, or complete to %(complete)s.") % values


def _bounty(result: dict[str, Any] | None, names: dict[int, str]) -> dict[str, Any] | None:
    """Hold'em's seven-deuce bounty, when a hand paid one: who took it and how much in all."""
    paid = (result or {}).get("bounty") or []
    taker = next((i for i, b in enumerate(paid) if b > 0), None)
    return None if taker is None else {"name": names.get(taker, "?"), "amount": paid[taker]}


def _is_hilo(result: dict[str, Any] | None) -> bool:
    """A hi-lo hand whose pot had a low (the scoop: "high and low")."""
    return bool(result) and any(b.get("half") == "low" for p in result["pots"] for b in p.get("boards") or [])  # type: ignore[index]


def _generic_wins(result: dict[str, Any] | None, names: dict[int, str]) -> list[dict[str, Any]]:
    """Who won what in a one-board game: per pot, each winner with amount, hand and side."""
    if not result:
        return []
    out = []
    # A hand run twice has a second board's shares (board 1): say which run each was won on.
    twice = any(b.get("board") == 1 for p in result.get("pots") or [] for b in p.get("boards") or [])
    # With side pots each line says whose pot it is, as Patch-Patch's boards do (found by an
    # audit: "Alice +300" over "Bob +400" did not say which was the main pot).
    pots = result.get("pots") or []
    for pot in pots:
        index = pot.get("index", 0)
        label = {"pot_label": _("main pot") if index == 0 else _("side pot %(n)s") % {"n": index}} if len(pots) > 1 else {}
        if pot.get("boards"):
            # A hi-lo run with no low: its high hand takes the whole pot, and says so.
            with_low = {b.get("board", 0) for b in pot["boards"] if b.get("half") == "low"}
            for board in pot["boards"]:
                side = board.get("half", "")
                if side == "high" and board.get("board", 0) not in with_low:
                    side = "nolow"
                for w in board.get("winners") or []:
                    # A low is named by its cards ("7-5-3-2-A"): its category would only repeat "low".
                    low = w.get("category") == "low" and w.get("description") and _low_text(w["description"])
                    out.append({
                        "name": names.get(w.get("seat"), "?"), "amount": w.get("amount", 0),
                        "category": low or hand_name(w.get("category"), w.get("cards"), category_name),
                        "cards": list(w.get("cards") or []),
                        "side": side, "pot": index,
                        "split": len(board.get("winners") or []) > 1,
                        **({"run": board.get("board", 0) + 1} if twice else {}), **label,
                    })
            continue
        winners = pot.get("winners")
        if isinstance(winners, list) and winners and isinstance(winners[0], dict):
            for w in winners:
                out.append({
                    "name": names.get(w.get("seat"), "?"), "amount": w.get("amount_display", w.get("amount", 0)),
                    # Baseball names the ranks its wild cards stand for ("Five of a kind, kings").
                    "category": hand_name(w.get("category"), w.get("cards"), category_name, ranks=w.get("ranks")),
                    "cards": list(w.get("cards") or []),
                    "side": w.get("side", ""), "pot": index,
                    "split": len(winners) > 1 and "amount_display" in w,  # Baseball's exact shares
                    **label,
                })
        else:
            for seat, amount in enumerate(pot.get("payouts") or []):
                if amount:
                    out.append({"name": names.get(seat, "?"), "amount": amount, "category": "", "cards": [], "side": "", "pot": index, **label})
    return out
