"""A finished hand told street by street, in the reader's language, for the hand's page.

The story is told from the engine's own events, replayed from the hand's setup and log: events
carry public information only (the boards, stud up-cards, how many cards a draw took, the hands
the showdown showed; never a face-down card), so the same story is right for every reader and
needs no hiding of its own. A bet's kind (check or call, bet or raise, complete, bring-in) is the
engine's, not guessed from a history's ``cc`` and ``cbr``.

Lines avoid verbs that take a gender in Hebrew and Russian past tenses: "Dana: raise to 240".
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.utils.translation import gettext as _

from rules_engine.games import get_variant
from tables.presenter import pictures


@dataclass
class Line:
    text: str
    cards: list[dict[str, Any]] = field(default_factory=list)
    css: str = ""
    groups: list[list[dict[str, Any]]] = field(default_factory=list)  # Patch-Patch: a four per board


@dataclass
class Section:
    title: str
    boards: list[list[dict[str, Any]]] = field(default_factory=list)  # cards dealt to the middle
    dealt: list[dict[str, Any]] = field(default_factory=list)  # stud: {"name", "cards"} face up
    lines: list[Line] = field(default_factory=list)


def hand_story(*, game: str, state: Any, names: list[str]) -> list[Section]:
    """``state``: the finished hand's engine state; ``names[i]``: the name of engine seat ``i``."""
    variant = get_variant(game)
    replay = variant.start(state.setup)
    steps: list[tuple[list[Any], set[int]]] = [(list(replay.start_events), _all_in(replay, None))]
    for action in state.log:
        events = replay.apply(action)
        steps.append((list(events), _all_in(replay, action)))
    return _Teller(family=_family(game), names=names).tell(steps)


def _family(game: str) -> str:
    return "pp" if game == "PP" else ("baseball" if game == "BB" else get_variant(game).FAMILY)


def step_lines(*, game: str, state: Any, names: list[str]) -> list[list[tuple[str, bool]]]:
    """For a replay of the finished hand ``state``: what the story says at each step, the deal's
    first (index 0), then one entry per action of ``state.log`` (a swap of an arrangement says
    nothing); the last also says who won. Each line is ``(text, is a street's title)``. Only
    what the whole story says, so nothing hidden."""
    variant = get_variant(game)
    replay = variant.start(state.setup)
    teller = _Teller(family=_family(game), names=names)
    told = teller.told()
    teller.feed(list(replay.start_events), _all_in(replay, None))
    out = [teller.since(told)]
    for action in state.log:
        told = teller.told()
        teller.feed(list(replay.apply(action)), _all_in(replay, action))
        out.append(teller.since(told))
    told = teller.told()
    teller.settle()
    out[-1].extend(teller.since(told))
    return out


def _all_in(state: Any, action: Any) -> set[int]:
    """The seats whose last chip went in with this step (the deal's forced bets, or one action)."""
    behind = getattr(state, "behind", None)  # Baseball keeps balances and has no all-in
    if behind is None:
        return set()
    if action is None:
        return {s for s, chips in enumerate(behind) if chips == 0}
    if action.seat is None or action.kind in ("fold", "swap", "arrange", "done", "draw"):
        return set()
    return {action.seat} if behind[action.seat] == 0 else set()


_BETS = frozenset({"blind", "straddle", "bomb", "post", "dead", "ante", "bring_in", "call", "bet", "raise", "all_in", "complete"})


def _amount(x: Fraction | int) -> str:
    if isinstance(x, Fraction) and x.denominator != 1:
        from rules_engine.games.baseball import units_display

        return units_display(x)
    from tables.templatetags.table_cards import chips

    return chips(int(x))


def _round_name(n: int) -> str:
    return _("Round %(n)s of 5") % {"n": n}


# A stud street is named by the cards a player holds once it is dealt.
def _street_name(n: int) -> str:
    return {
        2: _("Second street"), 3: _("Third street"), 4: _("Fourth street"), 5: _("Fifth street"),
        6: _("Sixth street"), 7: _("Seventh street"),
    }.get(n, _("Next street"))


class _Teller:
    def __init__(self, *, family: str, names: list[str]) -> None:
        self.family = family
        self.names = names
        self.sections: list[Section] = []
        self.held = [0] * len(names)  # stud: cards each seat holds, Baseball's free cards aside
        self.dealing = False  # the last event was a deal (stud's deals open a street's section)
        self.batch: set[int] = set()  # the seats dealt to in this street
        self.drawn = False  # five-card draw: the draw has begun
        self.community: list[str] = []  # Hold'em and Omaha: the (first run's) board so far
        self.second: list[str] = []  # ... and a second run's board, shared cards first
        self.wins: dict[tuple[int, int | None, int | None], Fraction | int] = {}
        self.pots: set[int] = set()

    def name(self, seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(self.names):
            return "?"
        # Isolated, so a Latin name next to a number reads right in a Hebrew line (the lines
        # are plain text, so the isolate is Unicode's FSI ... PDI rather than <bdi>).
        return "\u2068" + self.names[seat] + "\u2069"

    def section(self, title: str) -> Section:
        s = Section(title)
        self.sections.append(s)
        return s

    def current(self) -> Section:
        return self.sections[-1] if self.sections else self.section(self._first_title())

    def _first_title(self) -> str:
        if self.family in ("flop", "pp"):
            return _("Before the flop")
        if self.family == "draw":
            return _("Before the draw")
        return _("The deal")

    def say(self, text: str, cards: Iterable[Any] = (), css: str = "") -> None:
        self.current().lines.append(Line(text, pictures([str(c) for c in cards]) if cards else [], css))

    def tell(self, steps: list[tuple[list[Any], set[int]]]) -> list[Section]:
        for events, all_in in steps:
            self.feed(events, all_in)
        self.settle()
        return [s for s in self.sections if s.lines or s.boards or s.dealt]

    def feed(self, events: list[Any], all_in: set[int]) -> None:
        """One step's events (the deal's, or one action's)."""
        # "(all-in)" goes on the seat's last chips put in during the step.
        last = {ev.seat: i for i, ev in enumerate(events) if ev.kind in _BETS and ev.seat in all_in}
        for i, ev in enumerate(events):
            self.event(ev, last.get(ev.seat) == i)

    def told(self) -> dict[int, int]:
        """How far the story is told: each section's number of lines (by the section's id)."""
        return {id(s): len(s.lines) for s in self.sections}

    def since(self, told: dict[int, int]) -> list[tuple[str, bool]]:
        """What was told after ``told``: a new section's title (``True``), then the new lines."""
        out = []
        for s in self.sections:
            if id(s) not in told and s.title:
                out.append((s.title, True))
            out.extend((line.text, False) for line in s.lines[told.get(id(s), 0):])
        return out

    # -- one event ----------------------------------------------------------------------------

    def event(self, ev: Any, all_in: bool) -> None:
        kind, who = ev.kind, self.name(ev.seat)
        deal = kind in ("deal", "up", "down", "extra")
        if deal and self.family in ("stud", "baseball"):
            self.stud_deal(ev, kind)
            self.dealing = True
            return
        self.dealing = False
        tail = " " + _("(all-in)") if all_in else ""
        amount = _amount(ev.amount) if ev.amount else "0"
        if kind == "blind":
            self.say(_("%(name)s: blind %(amount)s") % {"name": who, "amount": amount} + tail)
        elif kind == "bomb":
            self.say(_("%(name)s: bomb pot %(amount)s") % {"name": who, "amount": amount} + tail)
        elif kind == "straddle":
            self.say(_("%(name)s: straddle %(amount)s") % {"name": who, "amount": amount} + tail)
        elif kind == "post":
            self.say(_("%(name)s: posts a big blind %(amount)s to come in") % {"name": who, "amount": amount} + tail)
        elif kind == "dead":
            self.say(_("%(name)s: dead small blind %(amount)s, owed for one missed") % {"name": who, "amount": amount} + tail)
        elif kind == "ante":
            self.say(_("%(name)s: ante %(amount)s") % {"name": who, "amount": amount} + tail)
        elif kind == "bring_in":
            self.say(_("%(name)s: bring-in %(amount)s") % {"name": who, "amount": amount} + tail)
        elif kind == "fold":
            self.say(_("%(name)s: fold") % {"name": who}, css="fold")
        elif kind == "check":
            self.say(_("%(name)s: check") % {"name": who})
        elif kind == "call":
            self.say(_("%(name)s: call %(amount)s") % {"name": who, "amount": amount} + tail)
        elif kind == "bet":
            self.say(_("%(name)s: bet %(amount)s") % {"name": who, "amount": amount} + tail)
        elif kind in ("raise", "all_in"):
            self.say(_("%(name)s: raise to %(amount)s") % {"name": who, "amount": amount} + tail)
        elif kind == "complete":
            self.say(_("%(name)s: complete to %(amount)s") % {"name": who, "amount": amount} + tail)
        elif kind == "return":
            self.say(_("%(amount)s not called, back to %(name)s") % {"name": who, "amount": amount})
        elif kind == "timeout":
            self.say(_("%(name)s: the clock ran out") % {"name": who}, css="timeout")
        elif kind == "break":
            self.say(_("%(name)s: a break from the next hand") % {"name": who}, css="timeout")
        elif kind in ("flop", "turn", "river"):
            self.board(kind, ev)
        elif kind == "board":
            self.say(_("One card for everyone, in the middle:"), ev.cards)
        elif kind == "run_twice":
            self.section(_("Second run"))
            self.second = self.community[: ev.amount]
            self.say(_("Everyone still in agreed to run it twice: the cards still to come are dealt again, half of each pot on each board."))
        elif kind == "arrange":
            self.say(_("Each player sets four cards under each board."))
        elif kind == "done" and self.family == "pp":
            self.say(_("%(name)s: arrangement done") % {"name": who})
        elif kind == "draw_round":
            self.section(_("The draw"))
            self.drawn = True
        elif kind == "street" and self.family == "draw" and self.drawn:
            self.section(_("After the draw"))
        elif kind == "draw":
            if ev.amount:
                self.say(_("%(name)s: draws %(count)s") % {"name": who, "count": ev.amount})
            else:
                self.say(_("%(name)s: stands pat") % {"name": who})
        elif kind == "reshuffle":
            self.say(_("The deck ran out: the discards are shuffled and dealt on."))
        elif kind == "show":
            if not self.sections or self.sections[-1].title != _("Showdown"):
                self.section(_("Showdown"))
            if self.family == "pp" and len(ev.cards) == 12:
                self.say(_("%(name)s shows") % {"name": who})
                self.current().lines[-1].groups = [pictures([str(c) for c in ev.cards[k:k + 4]]) for k in (0, 4, 8)]
            else:
                self.say(_("%(name)s shows") % {"name": who}, ev.cards)
        elif kind == "win":
            key = (ev.seat, getattr(ev, "board", None), ev.pot if self.family != "baseball" else None)
            self.wins[key] = self.wins.get(key, 0) + ev.amount
            if key[2] is not None:
                self.pots.add(key[2])
        elif kind == "rake":
            self.settle()
            self.say(_("Rake: %(amount)s") % {"amount": amount})
        elif kind == "scoop":
            self.settle()
            self.say(_("%(name)s scoops!") % {"name": who}, css="win")
        elif kind == "bounty":
            self.settle()
            self.say(_("%(name)s takes the seven-deuce bounty: %(amount)s") % {"name": who, "amount": amount}, css="win")
        # deal (flop and draw games: face down, nothing to tell), street, swap, hand_over: nothing

    def board(self, kind: str, ev: Any) -> None:
        titles = {"flop": _("Flop"), "turn": _("Turn"), "river": _("River")}
        if self.family == "pp":
            titles = {"flop": _("Flops"), "turn": _("Turns"), "river": _("Rivers")}
            if ev.board is not None and ev.board > 0 and self.sections and self.sections[-1].title == titles[kind]:
                self.sections[-1].boards.append(pictures([str(c) for c in ev.cards]))
                return
        elif ev.board == 1 and self.sections:  # Hold'em and Omaha run twice: the whole second board
            self.second.extend(str(c) for c in ev.cards)
            self.sections[-1].boards[:] = [pictures(self.second)]
            return
        self.community.extend(str(c) for c in ev.cards)
        s = self.section(titles[kind])
        s.boards.append(pictures([str(c) for c in ev.cards]))

    def stud_deal(self, ev: Any, kind: str) -> None:
        seat = ev.seat
        if seat is None:
            return
        if not self.dealing or (kind != "extra" and seat in self.batch):  # a street with no betting
            self.section("")
            self.batch = set()
        if kind != "extra":
            self.held[seat] += int(ev.amount) if kind == "deal" else 1
            self.batch.add(seat)
            held = max(self.held[s] for s in self.batch)
            # Baseball's rules and its live table count rounds (1 to 5), not streets (found by an
            # audit: the table said "round 3 of 5" and this page "Fifth street").
            self.sections[-1].title = _round_name(held - 2) if self.family == "baseball" else _street_name(held)
        if not ev.cards:
            return
        cards = pictures([str(c) for c in ev.cards])
        for c in cards:
            c["extra"] = kind == "extra"
        dealt = self.sections[-1].dealt
        if dealt and dealt[-1]["seat"] == seat:
            dealt[-1]["cards"].extend(cards)
        else:
            dealt.append({"seat": seat, "name": self.name(seat), "cards": cards})
        if kind == "extra":
            self.say(_("%(name)s: a free card for the open 4") % {"name": self.name(seat)}, css="extra")

    def settle(self) -> None:
        """The winnings gathered since the last time, a line per winner and pot (or board)."""
        if not self.wins:
            return
        if not self.sections or self.sections[-1].title not in (_("Showdown"), _("Result")):
            self.section(_("Result"))
        many = len(self.pots) > 1
        for (seat, board, pot), won in self.wins.items():
            where = []
            if board is not None and self.family == "flop":  # run twice
                where.append(_("run %(n)s") % {"n": board + 1})
            elif board is not None:
                where.append(_("board %(n)s") % {"n": board + 1})
            if many and pot is not None:
                where.append(_("main pot") if pot == 0 else _("side pot %(n)s") % {"n": pot})
            text = _("%(name)s wins %(amount)s") % {"name": self.name(seat), "amount": _amount(won)}
            if where:
                text += " (" + ", ".join(where) + ")"
            self.say(text, css="win")
        self.wins.clear()
