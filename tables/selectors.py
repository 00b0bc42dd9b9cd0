"""Readers for pages. No writes here."""

import datetime as dt
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class GameInfo:
    code: str
    name: str | Promise
    summary: str | Promise


def game_catalogue() -> list[GameInfo]:
    """The games the site runs, flagship first."""
    return [
        GameInfo("PP", _("Patch-Patch"),
                 _("12 cards each, three boards, two from your hand and three from the board on each, pot-only betting.")),
        GameInfo("NT", _("No-limit Hold'em"), _("Two hole cards, five on the board, any bet up to your stack.")),
        GameInfo("PO", _("Pot-limit Omaha"), _("Four hole cards, exactly two of them with three from the board.")),
        GameInfo("FT", _("Limit and pot-limit Hold'em"), _("Hold'em with fixed or pot-sized bets.")),
        GameInfo("FO/8", _("Omaha Hi-Lo"), _("Omaha with the pot split between the best high and the best eight-or-better low.")),
        GameInfo("F7S", _("Seven-card stud"), _("Two down, four up, one down; the best five of seven.")),
        GameInfo("FR", _("Razz"), _("Seven-card stud for the lowest hand; five-four-three-two-ace is the best.")),
        GameInfo("F7S/8", _("Stud Hi-Lo"), _("Seven-card stud with the pot split between high and an eight-or-better low.")),
        GameInfo("F5S", _("Five-card stud"), _("One card down, four up, four betting rounds.")),
        GameInfo("F5D", _("Five-card draw"), _("Five cards down, one draw of up to five cards.")),
        GameInfo("BB", _("Baseball"), _("Seven-card stud with wild threes and nines and a free card for every open four.")),
    ]


# Every engine code by the name players know it by.
GAME_NAMES: dict[str, Promise] = {
    "PP": _("Patch-Patch"),
    "NT": _("No-limit Hold'em"),
    "PT": _("Pot-limit Hold'em"),
    "FT": _("Limit Hold'em"),
    "PO": _("Pot-limit Omaha"),
    "FO": _("Limit Omaha"),
    "FO/8": _("Omaha Hi-Lo (limit)"),
    "PO/8": _("Omaha Hi-Lo (pot-limit)"),
    "F7S": _("Seven-card stud"),
    "FR": _("Razz"),
    "F7S/8": _("Stud Hi-Lo"),
    "F5S": _("Five-card stud"),
    "F5D": _("Five-card draw (limit)"),
    "P5D": _("Five-card draw (pot-limit)"),
    "BB": _("Baseball"),
}


def game_name(code: str) -> str:
    return str(GAME_NAMES.get(code, code))


def seat_defaults() -> str:
    """Each live game's usual number of seats, as JSON for the new-table forms (their script sets
    the seats when the game changes, until the host picks a number): Patch-Patch 3, Baseball 6,
    the others a full ring of up to 9 (found by an audit: a Hold'em table opened with three)."""
    import json

    from rules_engine.games import get_variant
    from tables.models import LIVE_GAMES

    usual = {"PP": 3, "BB": 6}
    return json.dumps({c: usual.get(c, min(9, get_variant(c).MAX_PLAYERS)) for c in sorted(LIVE_GAMES)})


def live_games() -> list[tuple[str, str]]:
    """(code, name) of the games a table can be opened for (``tables.models.LIVE_GAMES``), in
    the catalogue's order; a game the catalogue does not describe yet goes by its engine name."""
    from rules_engine.games import get_variant
    from tables.models import LIVE_GAMES

    names = {code: str(name) for code, name in GAME_NAMES.items()}
    order = list(names)
    codes = sorted(LIVE_GAMES, key=lambda c: (order.index(c) if c in order else len(order), c))
    return [(c, names.get(c) or str(getattr(get_variant(c), "name", c))) for c in codes]


# ---------------------------------------------------------------------------------------------
# Tables


INVITED_KEY = "invited_tables"  # in the session (invited_tables)


def invited_tables(session: Any) -> dict[int, str]:
    """The private tables this browser was invited to, each with the link's code it came by
    (``[[table id, code], ...]`` in the session, newest last): a host's new link closes the old.
    Anything else in there (an older session's bare table ids) opens nothing."""
    raw = session.get(INVITED_KEY, []) if session is not None else []
    if not isinstance(raw, list):
        return {}
    return {pair[0]: pair[1] for pair in raw
            if isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], int) and isinstance(pair[1], str)}


def can_watch(*, table_id: int, user: Any, invite_code: str = "", invited: dict[int, str] | None = None) -> bool:
    """Public tables are open to anyone; private ones to their players, their creator and
    whoever holds the table's secret invite link (``invite_code``, or
    ``invited``: the links a browser's session remembers, by table); a club's tables to the
    club's members."""
    from tables.models import Seat, Table

    table = Table.objects.filter(id=table_id).first()
    if table is None:
        return False
    if table.club_id is not None:
        # A club table is the club's: its members watch and play, and nobody else (a table's
        # own invite link does not open it).
        from club.selectors import is_member

        return is_member(club_id=table.club_id, user=user)
    if table.is_public:
        return True
    if invite_code and secrets.compare_digest(invite_code, table.invite_code):
        return True
    # A browser that came by the link remembers it (invited_tables): it opens the table for
    # as long as the link is the table's, not after its host made a new one.
    remembered = (invited or {}).get(table_id)
    if remembered and secrets.compare_digest(remembered, table.invite_code):
        return True
    if user is None or not user.is_authenticated:
        return False
    if table.created_by_id == user.pk:
        return True
    return Seat.objects.filter(table=table, user=user).exists()


def played_at(*, table_id: int, user: Any) -> bool:
    """Whether ``user`` ever played at the table (bought in; Baseball: holds a balance there):
    they may read its ledger (or standings) after losing sight of it, as they read their own
    hands ("Your hands"), though not watch it or sit down without the link."""
    if user is None or not user.is_authenticated:
        return False
    from club.models import LedgerEntry
    from tables.models import UnitsEntry

    return (LedgerEntry.objects.filter(account=f"table:{table_id}", user=user).exists()
            or UnitsEntry.objects.filter(table_id=table_id, user=user).exists())


def lobby_tables() -> list[Any]:
    from django.db.models import Count

    from tables.models import Table

    return list(
        Table.objects.exclude(status="closed").filter(is_public=True)
        .annotate(taken=Count("seats")).order_by("big_blind", "id")
    )


def table_snapshot(*, table_id: int, user: Any, version_hint: int | None = None,
                   hand_only: bool = False) -> dict[str, Any] | None:
    """Everything one viewer may see of a table, rendered: ``{"type": "state", "version", "html",
    "clock", "deadline"}``. The engine's ``view_for`` removes every card this viewer may not see.

    ``version_hint``: a version the table is known to have reached (the group message said so);
    when this process already read that version (or a later one), the table row is not read
    again and what it read is drawn (a version after that has its own message on the way)."""
    from tables.fragment import render_table

    context = table_context(table_id=table_id, user=user, version_hint=version_hint, hand_only=hand_only)
    if context is None:
        return None
    html = render_table(context)  # the table.html#table partial, drawn in Python
    hand = context["hand"]
    return {
        "type": "state",
        "version": context["table"].version,
        "html": html,
        "clock": hand.clock if hand and hand.deadline else ("deal" if context["table"].next_hand_at else ""),
        "deadline": _deadline(hand, context["table"]),
        "my_turn": bool(context.get("my_turn")),
        # Another player's latest act, for the page's screen-reader announcements (table.js).
        **({"last": last[1], "last_n": last[0]} if (last := context.get("last_act")) and last[2] != context.get("me")
           else {}),
    }


def _deadline(hand: Any, table: Any) -> float | None:
    if hand is not None and hand.deadline is not None:
        return float(hand.deadline.timestamp())
    if table.next_hand_at is not None:
        return float(table.next_hand_at.timestamp())
    return None


# What every viewer of one table version reads the same: the seats, the hand, its parsed state
# and the recent hands. Each viewer's consumer renders its own picture when the table moves, so
# without this a three-player table read the same rows three times per action (and once more for
# each spectator). Kept per process for the latest version of each table: every writer bumps
# Table.version in the same transaction as its change (tables.services), so an entry is right
# for exactly as long as its version is current. The key carries the table's invite code too, so
# a reused row id (a test database rolled back) can never match an old entry. A display name
# edited mid-hand shows from the next version that reads the seats again (the hand's end at the
# latest): an action inside a hand reuses the seats of the version before.
_SHARED: dict[int, tuple[tuple[int, str], dict[str, Any]]] = {}
SHARED_READS_MAX_TABLES = 4096


def clear_shared_reads() -> None:
    _SHARED.clear()


def _shared_reads(table: Any, hand: Any, *, hand_only: bool = False) -> dict[str, Any]:
    """The reads of ``table`` at its version, ``hand`` its latest hand read in the same statement
    (``hotsql.table_and_latest_hand``). ``hand_only``: this version changed only the table row
    and the hand from the version before (the group message said so, for an action inside a
    hand); when this process holds that version, its seats are this one's too."""
    from django.urls import reverse

    from rules_engine.games import get_variant
    from rules_engine.resume import resume
    from tables import hotsql

    key = (table.version, table.invite_code)
    entry = _SHARED.get(table.id)
    if entry is not None and entry[0] == key:
        return entry[1]
    before = entry[1] if entry is not None and entry[0][1] == table.invite_code else None
    if (hand_only and before is not None and entry is not None and entry[0][0] == table.version - 1
            and hand is not None and hand.ended is None and before["hand"] is not None
            and before["hand"].pk == hand.pk):
        seats = before["seats"]
    else:
        seats = hotsql.seats_with_users(table.id)  # Seat.objects ... select_related("user", "user__profile")
    state = None
    if hand is not None:
        # The state of the version before, when it is this hand's: the actions since are applied
        # to a copy of it rather than the hand replayed from its deal (rules_engine.resume).
        held = before["state"] if before is not None and _same_hand(before["hand"], hand) else None
        state = resume(get_variant(hand.game), hand.state, before=held,
                       before_data=before["hand"].state if held is not None else None)
    # The finished hands change only when a hand ends: every other version (each action inside
    # a hand, and the deal after a hand ended) takes them from the version before. The key is the
    # number of the latest finished hand (hands are numbered in order and only the latest can be
    # running), so a deal, which changes the latest hand but no finished one, keeps the list.
    recent_key = (hand.number if hand.ended is not None else hand.number - 1) if hand is not None else None
    if before is not None and before["recent_key"] == recent_key:
        recent = before["recent"]
    else:
        recent = hotsql.finished_hands(table.id, 10)  # Hand.objects.filter(...).values(...)[:10]
        add_winners(recent, known=[s.user for s in seats])
        for h in recent:  # the links, once rather than twice per hand for every viewer
            h["href"] = reverse("hand_history", args=[table.id, h["number"]])
            h["phh_href"] = reverse("hand_history_phh", args=[table.id, h["number"]])
    # The "last hands" list drawn once per language for as long as the list stays the same.
    recent_html = before["recent_html"] if before is not None and recent is before["recent"] else {}
    reads = {"table": table, "seats": seats, "hand": hand, "state": state, "recent": recent, "recent_key": recent_key,
             "recent_html": recent_html}
    if len(_SHARED) >= SHARED_READS_MAX_TABLES:
        _SHARED.clear()
    _SHARED[table.id] = (key, reads)
    return reads


def _same_hand(held: Any, hand: Any) -> bool:
    return held is not None and held.pk == hand.pk and held.game == hand.game


def held_state(*, table: Any, hand: Any) -> tuple[Any, Any] | None:
    """The engine state this process holds for ``hand`` (its viewers' reads of the table's latest
    version it read), with the saved state it was read from: for ``rules_engine.resume``, so the
    writer of the next action reads the hand without replaying it. None when it holds none. The
    state is shared with the viewers: it must not be changed (``resume`` copies it)."""
    entry = _SHARED.get(table.id)
    if entry is None or entry[0][1] != table.invite_code:
        return None
    reads = entry[1]
    if reads["state"] is None or not _same_hand(reads["hand"], hand):
        return None
    return reads["state"], reads["hand"].state


def prime_shared_reads(*, table: Any, hand: Any, state: Any) -> bool:
    """The writer of an action inside a hand hands its rows to this process's viewers: called on
    commit by ``tables.services.table_act`` with the table at its new version, the hand and its
    state as saved. Such an action changes only the table row and the hand (no seat, and no
    finished hand when the hand goes on), so the seats and recent hands of the version before
    are reused, and this process's viewers draw the new version without a query. Nothing is
    primed unless the entry for the version just before is held (it then reads as usual).
    Returns True when primed."""
    key = (table.version - 1, table.invite_code)
    entry = _SHARED.get(table.id)
    if entry is None or entry[0] != key or hand.ended is not None:
        return False
    before = entry[1]
    if before["hand"] is None or before["hand"].pk != hand.pk:
        return False
    _SHARED[table.id] = ((table.version, table.invite_code), dict(before, table=table, hand=hand, state=state))
    return True


def table_context(*, table_id: int, user: Any, version_hint: int | None = None,
                  hand_only: bool = False) -> dict[str, Any] | None:
    """What one viewer sees of a table, shaped for ``table.html`` (see ``tables.presenter``).
    ``hand_only``: the version ``version_hint`` changed only the table row and the hand (see
    ``_shared_reads``)."""
    from tables import hotsql, levels
    from tables.presenter import present

    reads = None
    if version_hint is not None:
        entry = _SHARED.get(table_id)
        # The version named, or a later one this process holds already (a message for V that
        # arrives after V+1 was read): the viewer draws the later one and skips its message.
        if entry is not None and entry[0][0] >= version_hint:
            reads = entry[1]
    if reads is None:
        read = hotsql.table_and_latest_hand(table_id)
        if read is None:
            return None
        reads = _shared_reads(read[0], read[1], hand_only=hand_only and read[0].version == version_hint)
    table = reads["table"]
    seats, hand, state = reads["seats"], reads["hand"], reads["state"]
    if (hand is not None and hand.ended is not None and hand.deadline is None
            and (table.game != "BB" or table.bb_pots_done == 0)):
        # The last hand's showdown pause is over and no hand was dealt (too few players ready):
        # the table waits for players, with today's stacks, not the last result (found by
        # looking at the pages: an emptied table showed its last pot and "next hand" for good).
        # Baseball keeps its last pot in sight: its session's standings go with it, until the
        # next session starts (its balances start at 0, found by an audit).
        hand = state = None
    my_seat = None
    if user is not None and getattr(user, "is_authenticated", False):
        my_seat = next((s for s in seats if s.user_id == user.pk), None)
    view = None
    me = None
    if hand is not None:
        if my_seat is not None:
            for i, (seat_no, user_id, _start) in enumerate(hand.players):
                if seat_no == my_seat.seat_no and user_id == my_seat.user_id:
                    me = i
        view = state.view_for(me)
        if hand.ended is not None and hand.shown_after:
            view = with_shown_after(view, state, hand.shown_after)
        if hand.ended is not None and hand.rabbit:
            view = with_rabbit(view, state)
    by_seat = {s.seat_no: s for s in seats}
    # Seats whose player took time from their bank on the clock running now (services._more_time).
    banked = ({hand.players[i][0] for i, _v in hand.banked.get("took", ())}
              if hand is not None and hand.banked and hand.ended is None else ())
    # A cash table deals a player a big blind or more (services._least_stack): a seat with less
    # says so, not "waits for the big blind" (found by an audit: a host raised the blinds over
    # two stacks and one seat waited for a big blind that never came).
    least = 0 if table.game == "BB" else (1 if levels.on(table) else table.big_blind)
    seat_dicts = []
    for n in range(table.max_seats):
        s = by_seat.get(n)
        seat_dicts.append({
            "no": n, "empty": s is None, "name": _display_name(s.user) if s else "",
            "me": bool(s and my_seat and s.pk == my_seat.pk), "stack": _seat_stack(table, s),
            "sitting_out": bool(s and (s.sitting_out or s.break_next)), "user_id": s.user_id if s else None,
            "wait_bb": bool(s and s.wait_bb), "post_bb": bool(s and s.wait_bb and s.post_bb),
            "banked": n in banked, "leaving": bool(s and s.leaving),
            "short": bool(s and 0 < s.stack < least),
        })
    gone: dict[int, str] = {}
    if view is not None and view["phase"] == "over" and hand is not None and hand.deadline is not None:
        gone = _keep_the_gone(seat_dicts, hand, view)  # the showdown pause only (Baseball's last pot stays longer)
    context = present(view=view, seats=seat_dicts, players=hand.players if hand else None, gone=gone)
    context.update({
        "table": table,
        "my_seat": my_seat,
        "hand": hand,
        "view": view,
        "me": me,
        "my_turn": bool(view and me is not None and me in (view.get("actors") or []) and view["phase"] != "over"),
        "recent_hands": reads["recent"],
        "history_html": _history_html(reads),
        "game_label": game_name(table.game),
        "on_break": bool(my_seat and (my_seat.sitting_out or my_seat.break_next)),
        # Asked for a break while still dealt in: the button takes it back ("Keep playing"), not
        # "I'm back" from a break not yet begun (found by an audit of a newcomer's first hand).
        "break_pending": bool(my_seat and (my_seat.sitting_out or my_seat.break_next) and me is not None
                              and view is not None and view["phase"] != "over"),
        # A break the clock gave them in this hand: the panel says why "I'm back" is there.
        "timed_out": bool(my_seat and (my_seat.sitting_out or my_seat.break_next) and me is not None
                          and state is not None and any(a.seat == me and a.timeout for a in state.log)),
        # Before their turn, a player still in the betting may pick what to do when it comes
        # ("Check/fold", "Check"): the page's script sends it then (static/js/table.js).
        "pre_actions": _pre_actions(view, me) if not (my_seat and my_seat.leaving) else None,
        # Asked to leave while dealt in: gone when the hand ends; the panel says so instead of
        # offering a break or "Keep playing" (found by an audit: that button kept nobody).
        "leaving": bool(my_seat and my_seat.leaving),
        # After the hand, a player whose cards nobody saw may show them (tables.services._show_cards).
        "can_show": bool(me is not None and hand is not None and hand.ended is not None
                         and me not in _shown(hand, state) and (hand.deadline is not None or table.game == "BB")),
        # After a hand that ended before its board was out, where the host allows it: "Hunt the
        # rabbit" (tables.services._hunt_rabbit).
        "can_rabbit": bool(me is not None and hand is not None and not hand.rabbit
                           and _rabbit_cards(table, hand, state) is not None),
        "bb_choice": _bb_choice(my_seat, seats),
        # "Straddle" (kept on until turned off), where the host allows them and the game takes one.
        "straddle": None if my_seat is None or not table.straddles or not _takes_straddle(table.game) else bool(my_seat.straddle),
        # "Run it twice" (kept on until turned off), where the host allows it in Hold'em and Omaha.
        "run_twice": None if my_seat is None or not _runs_twice(table) else bool(my_seat.run_twice),
        "time_bank": _time_bank(table, hand, my_seat, view, me),
        "last_act": _last_act(state, hand, seat_dicts),
        # A freeze-out's player who is out reads their place on the felt while it goes on.
        "fo_place": _freezeout_place(table, user) if my_seat is None else None,
    })
    if table.game == "BB":
        from tables import baseball

        context.update(baseball.table_extra_context(table=table, user=user))
    return context


# The words for a hand's latest act, as its seat shows them (tables.presenter.ACT_WORDS).
_LAST_WORDS = {"fold": "folded", "check": "check", "call": "call", "bet": "bet", "bet_pot": "bet", "raise": "raise",
               "raise_pot": "raise", "all_in": "all-in", "complete": "complete", "bring_in": "bring-in"}


def _last_act(state: Any, hand: Any, seat_dicts: list[dict[str, Any]]) -> tuple[int, str, int] | None:
    """The hand's latest betting act as words ("Carol: call") with the number of acts so far:
    what a screen reader says when the round it ended is cleared from the seats (a river call
    that brings the showdown, the last call before the flop). Public: every seat shows it."""
    log = getattr(state, "log", None) if hand is not None else None
    if not log:
        return None
    act = log[-1]
    word = _LAST_WORDS.get(act.kind)
    if word is None or not 0 <= act.seat < len(hand.players):
        return None
    seat_no = hand.players[act.seat][0]
    name = next((d["name"] for d in seat_dicts if d["no"] == seat_no and not d["empty"]), "")
    return (len(log), f"{name}: {gettext(word)}", act.seat) if name else None


def _runs_twice(table: Any) -> bool:
    from tables.services import runs_twice

    return runs_twice(table)


def _takes_straddle(game: str) -> bool:
    from tables.services import game_takes_straddle

    return game_takes_straddle(game)


def _time_bank(table: Any, hand: Any, my_seat: Any, view: dict[str, Any] | None, me: int | None) -> dict[str, int] | None:
    """While a clock of the viewer's runs (their decision, or an arrangement not yet sent) and
    their time bank is not empty, ``{"left": seconds in it, "step": what "More time" adds}``:
    the button is offered then (tables.services._more_time). Else None."""
    from tables.models import TIME_BANK_STEP, time_bank_left

    if (my_seat is None or me is None or view is None or hand is None or hand.ended is not None
            or hand.deadline is None or view["phase"] == "over" or me not in (view.get("actors") or ())):
        return None
    left = time_bank_left(my_seat, table.hands_played)
    return {"left": left, "step": min(left, TIME_BANK_STEP)} if left > 0 else None


def _bb_choice(my_seat: Any, seats: list[Any]) -> str:
    """For a player waiting for the big blind: "post" (offer to post one and come in sooner,
    tables.services._deal_in_waiting), "post_missed" (the same for one who also owes a small
    blind missed during a break, paid dead with it) or "wait" (they chose to; offer to take it
    back); else "".

    Offered only where it can help: with three players a newcomer is always the button, a blind
    or the big blind's seat, so it takes three others seated (not on a break; others waiting
    count, they come in too)."""
    if my_seat is None or not my_seat.wait_bb:
        return ""
    others = sum(1 for s in seats if s.pk != my_seat.pk and not (s.sitting_out or s.break_next or s.leaving))
    if others < 3:
        return ""
    if my_seat.post_bb:
        return "wait"
    return "post_missed" if my_seat.missed_sb else "post"


# What a player's own view holds of their cards, by layout: Patch-Patch's three fours, a flop or
# draw hand, stud's down cards (its up cards are everyone's already).
_CARD_KEYS = ("hands", "cards", "down", "hole_count")


def shown_after_section(hand: Any, state: Any, names: list[str]) -> Any:
    """The hand page's last part: the cards players showed after the hand, in the order shown."""
    from django.utils.translation import gettext as _

    from tables.presenter import pictures
    from tables.story import Line, Section

    section = Section(title=_("After the hand"))
    for i in hand.shown_after:
        cards = [str(c) for c in state.hand_of(i)]
        line = Line(text=_("%(name)s shows") % {"name": names[i]})
        if hand.game == "PP" and len(cards) == 12:
            line.groups = [pictures(cards[k:k + 4]) for k in (0, 4, 8)]
        else:
            line.cards = pictures(cards)
        section.lines.append(line)
    return section


def _pre_actions(view: dict[str, Any] | None, me: int | None) -> dict[str, int] | None:
    """Whether the viewer, dealt into a hand being bet, is waiting for their turn with chips
    behind; if so ``{"call": n}``, the chips a call would put in as the bets stand now (0: nothing
    to call). The page offers "Check/fold" and "Check" with nothing to call, "Fold" and "Call n"
    facing a bet. The engine says the call when the turn comes; a "Call n" picked meanwhile is
    sent only if that call is still n (static/js/table.js). ``n`` is worked out from the bets on
    the table (a rare engine rule, such as a short big blind's, may make the real call differ:
    then the choice is not sent and the player decides)."""
    if view is None or me is None or view["phase"] in ("over", "arrange"):
        return None
    players = view["players"]
    p = players[me]
    if p["folded"] or p["all_in"] or me in (view.get("actors") or []):
        return None
    bets = [q.get("bet") for q in players if not q.get("folded")]
    stack, mine = p.get("stack"), p.get("bet")
    if not all(isinstance(b, int) and not isinstance(b, bool) for b in [*bets, stack, mine]):
        return {"call": 0}  # units, not chips (Baseball): the two plain choices
    if (view.get("bring_in") is not None and view.get("bring_in_amount") and max(bets) == 0
            and all(q.get("contributed") == view.get("ante") for q in players)):
        # Stud before the bring-in is posted: nobody may check (found by an audit, which was
        # offered "Check"); the call will be the bring-in, unless it is completed meanwhile.
        return {"call": max(0, min(int(view["bring_in_amount"]), stack))}
    return {"call": max(0, min(max(bets) - mine, stack))}


def _shown(hand: Any, state: Any) -> set[int]:
    from tables.services import shown_seats

    return shown_seats(hand, state)


def _rabbit_cards(table: Any, hand: Any, state: Any) -> Any:
    from tables.services import rabbit_cards

    return rabbit_cards(table, hand, state)


def with_rabbit(view: dict[str, Any], state: Any) -> dict[str, Any]:
    """``view`` (of a finished hand whose rabbit was hunted, ``Hand.rabbit``) with ``rabbit``: for
    each board, the cards that would have come. A copy, as ``with_shown_after``'s."""
    boards = state.rabbit() if hasattr(state, "rabbit") else None
    if not boards:
        return view
    return {**view, "rabbit": [[str(c) for c in b] for b in boards]}


def rabbit_section(hand: Any, state: Any) -> Any:
    """The hand page's line for a hunted rabbit: the cards that would have come, per board."""
    from django.utils.translation import gettext as _

    from tables.presenter import pictures
    from tables.story import Line, Section

    boards = state.rabbit() if hasattr(state, "rabbit") else None
    section = Section(title=_("Rabbit hunt"))
    if boards:
        line = Line(text=_("The cards that would have come (they changed nothing)"))
        if len(boards) > 1:
            line.groups = [pictures([str(c) for c in b]) for b in boards]
        else:
            line.cards = pictures([str(c) for c in boards[0]])
        section.lines.append(line)
    return section


def with_shown_after(view: dict[str, Any], state: Any, shown: list[int]) -> dict[str, Any]:
    """``view`` (one viewer's, of a finished hand) with the cards of the players who showed them
    after the hand (``Hand.shown_after``) face up, as the showdown shows a hand. A copy: the
    engine's view and state are shared by every viewer of this version."""
    players = list(view["players"])
    for i in shown:
        if not 0 <= i < len(players):
            continue
        own = state.view_for(i)["players"][i]
        players[i] = {**players[i], **{k: own[k] for k in _CARD_KEYS if k in own}, "shown": True}
    return {**view, "players": players}


def add_winners(recent: list[dict[str, Any]], known: Iterable[Any] = ()) -> None:
    """Each finished hand's winners for the "last hands" list: who came out ahead and by how
    much (public: the result every viewer saw), ``{"name", "net"}``, biggest first. ``known``:
    users already read with their profiles (the table's seats, read in the same moment), whose
    names are taken from them; only the other players are read."""
    from fractions import Fraction

    from django.contrib.auth import get_user_model

    ids = {int(p[1]) for h in recent for p in h.get("players") or ()}
    names = {u.pk: _display_name(u) for u in known if u.pk in ids}
    missing = ids - names.keys()
    if missing:
        users = get_user_model().objects.filter(pk__in=missing).select_related("profile")
        names.update((u.pk, _display_name(u)) for u in users)
    for h in recent:
        result = h.pop("result", None) or {}
        players = h.pop("players", None) or []
        nets = result.get("net") or []
        shown = result.get("net_display") or nets
        # Chips are ints; Baseball's exact units come as text ("1 2/3" is shown, "5/3" parsed).
        values = [n if isinstance(n, int) else Fraction(str(n)) for n in nets]
        won = [(values[i], names.get(int(p[1]), "?"), shown[i])
               for i, p in enumerate(players) if i < len(values) and values[i] > 0]
        h["winners"] = [{"name": name, "net": text} for _value, name, text in sorted(won, key=lambda w: -w[0])]


def _history_html(reads: dict[str, Any]) -> str:
    from django.template.loader import render_to_string
    from django.utils import translation

    language = translation.get_language() or ""
    cache = reads["recent_html"]
    html = cache.get(language)
    if html is None:
        recent = reads["recent"]
        # A table that changed its game (dealer's choice) names each hand's game in the list.
        mixed = len({h.get("game") for h in recent}) > 1
        html = cache[language] = render_to_string(
            "table.html#history", {"recent_hands": recent, "table": reads["table"], "recent_mixed": mixed})
    return html


def _seat_stack(table: Any, seat: Any) -> int | str:
    """A seat's chips; at a Baseball table its exact balance in units, written "1 2/3"."""
    if seat is None:
        return 0
    if table.game == "BB":
        from rules_engine.games.baseball import parse_units, units_display

        return units_display(parse_units(seat.units))
    return int(seat.stack)


def _display_name(user: Any) -> str:
    profile = getattr(user, "profile", None)
    return (profile.display_name if profile and profile.display_name else user.get_username())[:40]


def seats_of(*, user: Any) -> dict[int, Any]:
    """Where a player sits, by table id: ``{table_id: their stack}`` (units written "1 2/3" at a
    Baseball table), for the lobby to mark their tables. Closed tables are left out."""
    from tables.models import Seat

    if user is None or not user.is_authenticated:
        return {}
    seats = Seat.objects.filter(user=user).exclude(table__status="closed").select_related("table")
    return {s.table_id: _seat_stack(s.table, s) for s in seats}


def breaks_of(*, user: Any) -> set[int]:
    """The open tables where ``user`` sits on a break (or has asked for one from the next hand)."""
    from django.db.models import Q

    from tables.models import Seat

    if user is None or not getattr(user, "is_authenticated", False):
        return set()
    return set(Seat.objects.filter(user=user).filter(Q(sitting_out=True) | Q(break_next=True))
               .exclude(table__status="closed").values_list("table_id", flat=True))


def seated_tables(*, user: Any) -> list[Any]:
    """Every open table ``user`` sits at (public, private or a club's), newest first, each with
    ``taken``, ``game_name`` and ``my_stack``: the home page's "Your seats"."""
    from django.db.models import Count

    from tables.models import Table

    stacks = seats_of(user=user)
    if not stacks:
        return []
    tables = list(Table.objects.filter(id__in=stacks).exclude(status="closed")
                  .select_related("club").annotate(taken=Count("seats")).order_by("-id"))
    turns = turns_of(user=user, table_ids=[t.id for t in tables])
    breaks = breaks_of(user=user)
    for t in tables:
        t.game_name = GAME_NAMES.get(t.game, t.game)
        t.my_stack = stacks.get(t.id)
        t.my_turn = t.id in turns
        t.my_break = t.id in breaks
    return tables


def turns_of(*, user: Any, table_ids: list[int]) -> set[int]:
    """The tables among ``table_ids`` where the hand being played waits for ``user``: their
    decision, or an arrangement they have not sent (the lists of "your seats" mark them)."""
    from rules_engine.games import get_variant
    from tables.models import Hand

    if not table_ids or user is None or not getattr(user, "is_authenticated", False):
        return set()
    out = set()
    for hand in Hand.objects.filter(table_id__in=table_ids, ended__isnull=True).only("table_id", "game", "players", "state"):
        idx = next((i for i, p in enumerate(hand.players) if p[1] == user.pk), None)
        if idx is None:
            continue
        state = get_variant(hand.game).from_json(hand.state)
        if not state.is_over and idx in state.actors():
            out.add(hand.table_id)
    return out


def club_tables_seated(*, user: Any) -> list[Any]:
    """The club tables a player sits at (each club's page lists its tables; the lobby lists these
    so a player finds their seat again from anywhere)."""
    from django.db.models import Count

    from tables.models import Seat, Table

    if user is None or not user.is_authenticated:
        return []
    seated = Seat.objects.filter(user=user).values("table_id")
    return list(
        Table.objects.exclude(status="closed").filter(club__isnull=False, id__in=seated)
        .select_related("club").annotate(taken=Count("seats")).order_by("-id")
    )


def private_tables_for(*, user: Any) -> list[Any]:
    """The private tables a player created or sits at, for their lobby (invite links are secret,
    so the lobby is how a creator finds their table again). Club tables are on the club's page."""
    from django.db.models import Count, Q

    from tables.models import Seat, Table

    if user is None or not user.is_authenticated:
        return []
    seated = Seat.objects.filter(user=user).values("table_id")
    return list(
        Table.objects.exclude(status="closed").filter(is_public=False, club__isnull=True)
        .filter(Q(created_by=user) | Q(id__in=seated))
        .annotate(taken=Count("seats")).order_by("-id")
    )


def finished_hand_context(*, hand: Any, user: Any = None) -> dict[str, Any]:
    """A finished hand as everyone may now see it: the public (spectator) view after the end,
    which shows only the hands the showdown revealed; and ``my_cards``, the cards of ``user``
    if they played the hand (theirs to see, shown or not; Patch-Patch in its three fours)."""
    from rules_engine.games import get_variant
    from tables.presenter import pictures, present
    from tables.story import hand_story

    state = get_variant(hand.game).from_json(hand.state)
    view = state.view_for(None)
    if hand.shown_after:
        view = with_shown_after(view, state, hand.shown_after)
    if hand.rabbit:
        view = with_rabbit(view, state)
    names = _hand_names(hand)
    seat_dicts = [
        {"no": seat_no, "empty": False, "name": names[seat_no], "me": False, "stack": 0, "sitting_out": False, "user_id": user_id}
        for seat_no, user_id, _start in hand.players
    ]
    context = present(view=view, seats=seat_dicts, players=hand.players)
    story = hand_story(game=hand.game, state=state, names=[names[seat_no] for seat_no, _u, _s in hand.players])
    if hand.shown_after:
        story.append(shown_after_section(hand, state, [names[seat_no] for seat_no, _u, _s in hand.players]))
    if hand.rabbit:
        story.append(rabbit_section(hand, state))
    # Each player's stack when the hand was dealt, as hand histories open (not Baseball's units:
    # its balances are the standings').
    starting = [] if hand.game == "BB" else [
        {"name": names[seat_no], "stack": start} for seat_no, _u, start in hand.players]
    context.update({"hand": hand, "table": hand.table, "story": story, "my_cards": [], "starting": starting})
    mine = _engine_index_of(hand, user)
    if mine is not None:
        cards = [str(c) for c in state.hand_of(mine)]
        fours = len(cards) == 12 and hand.game == "PP"
        context["my_cards"] = [pictures(cards[k:k + 4]) for k in (0, 4, 8)] if fours else [pictures(cards)]
    return context


def _freezeout_place(table: Any, user: Any) -> int | None:
    fo = table.freezeout
    uid = getattr(user, "pk", None)
    if not fo or not fo.get("on") or uid is None:
        return None
    return next((int(row[2]) for row in fo.get("out") or () if int(row[0]) == uid), None)


def _keep_the_gone(seat_dicts: list[dict[str, Any]], hand: Any, view: dict[str, Any]) -> dict[int, str]:
    """During a finished hand's showdown pause, the players dealt in whose seats are gone since.
    One whose chips ran out in it (a freeze-out gives the seat back as the hand settles) is still
    drawn in that seat, with the cards the table saw and "out of chips": found by an audit, the
    losers of an all-in vanished with their cards at once, so nobody saw why they were out. The
    next deal clears them. A player who left with chips leaves the seat free at once for whoever
    wants it, and is still named in the winners' lines. Returns engine index -> name of both."""
    gone = [(i, int(seat_no), int(user_id)) for i, (seat_no, user_id, _start) in enumerate(hand.players)
            if 0 <= int(seat_no) < len(seat_dicts) and seat_dicts[int(seat_no)]["empty"]]
    if not gone:
        return {}
    names = _hand_names(hand)
    for i, seat_no, user_id in gone:
        player = view["players"][i] if i < len(view.get("players") or ()) else {}
        if player.get("stack") == 0 and type(player.get("stack")) is int:
            seat_dicts[seat_no].update({
                "empty": False, "name": names.get(seat_no, "?"), "me": False, "user_id": user_id,
                "stack": 0, "sitting_out": False,
            })
    return {i: names.get(seat_no, "?") for i, seat_no, _user_id in gone}


def _hand_names(hand: Any) -> dict[int, str]:
    """Table seat number -> the name of the player dealt in there."""
    from django.contrib.auth import get_user_model

    ids = [int(user_id) for _seat_no, user_id, _start in hand.players]
    users = {u.pk: u for u in get_user_model().objects.filter(pk__in=ids).select_related("profile")}
    return {seat_no: _display_name(users[int(user_id)]) if int(user_id) in users else "?"
            for seat_no, user_id, _start in hand.players}


def hand_replay(*, hand: Any, user: Any, step: int) -> dict[str, Any]:
    """A finished hand at one step, as ``user`` saw it then: their own cards and what the table
    showed, drawn as the live table draws it (no buttons), and what the story says of the step.
    Step 0 is the deal; each later step is one action (an arrangement's single swaps are folded
    into the player's "done"); the last is the hand's end. ``step`` is brought into range."""
    from rules_engine.games import get_variant
    from tables.fragment import render_table
    from tables.presenter import present
    from tables.story import step_lines

    variant = get_variant(hand.game)
    final = variant.from_json(hand.state)
    log = list(final.log)
    stops = [0] + [i + 1 for i, a in enumerate(log) if a.kind not in ("swap", "arrange")]
    step = max(0, min(step, len(stops) - 1))
    state = variant.replay(final.setup, log[:stops[step]])
    seat = _engine_index_of(hand, user)
    view = state.view_for(seat)
    names = _hand_names(hand)
    seat_dicts = [
        {"no": seat_no, "empty": False, "name": names[seat_no], "me": i == seat, "sitting_out": False,
         "user_id": user_id, "stack": view["players"][i]["stack"]}
        for i, (seat_no, user_id, _start) in enumerate(hand.players)
    ]
    context = present(view=view, seats=seat_dicts, players=hand.players)
    context.update({"arranging": False, "my_seat": None, "table": None, "hand": None, "history_html": "", "replay": True})
    lines = step_lines(game=hand.game, state=final, names=[names[seat_no] for seat_no, _u, _s in hand.players])
    said = lines[0] if step == 0 else [t for k in range(stops[step - 1] + 1, stops[step] + 1) for t in lines[k]]
    return {"felt": render_table(context), "lines": said, "step": step, "last": len(stops) - 1}


def hand_history_text(*, hand: Any, user: Any) -> str:
    """The PHH a viewer may download: every hand the showdown did not show is written ``??``
    (a player also gets their own cards), with the deck commitment and the salts of exactly the
    places of the cards this history names, so it can be checked without revealing the rest."""
    import tomllib

    from rules_engine import fairness, notation
    from rules_engine.games import get_variant

    state = get_variant(hand.game).from_json(hand.state)
    viewer = _engine_index_of(hand, user)
    # The players by the names the table showed (PHH's optional ``players``, p1 first), as a
    # card room's history names them; nothing the table did not show to whoever may read this.
    names = _hand_names(hand)
    players: dict[str, Any] = {"players": ["".join(ch for ch in names[hand.players[i][0]] if ch.isprintable())
                                           for i in notation.phh_players(state)]}
    # Which hand this is, as PHH's optional fields say it (found by an audit: a file renamed on
    # a player's disk could no longer be placed): the table's name and the hand's number there,
    # and when it was dealt, in UTC.
    when = hand.started.astimezone(dt.UTC) if hand.started else None
    players["table"] = "".join(ch for ch in hand.table.name if ch.isprintable())
    players["hand"] = int(hand.number)
    if when is not None:
        players.update(year=when.year, month=when.month, day=when.day,
                       time=when.time().replace(microsecond=0, tzinfo=None), time_zone="UTC")
    text = notation.to_phh(state, hide_unshown=True, viewer=viewer, fields=players)
    if not hand.deck_commitment or len(hand.deck_salts) != fairness.DECK_SIZE:
        return text
    commit = fairness.ShuffleCommitment(tuple(state.setup.deck), tuple(hand.deck_salts))
    # A card a draw hand dealt out of the reshuffled discards keeps its place sealed: opening it
    # would tell which seat was first dealt that card, and threw it away.
    shown = fairness._cards_in_history(tomllib.loads(text).get("actions")) - set(getattr(state, "recycled", ()))
    if hand.rabbit and hasattr(state, "rabbit"):
        # The rabbit hunt showed these to the table: their places open too, so anyone can check
        # they were the deck's next cards.
        shown |= {c for b in state.rabbit() or () for c in b}
    return notation.to_phh(state, hide_unshown=True, viewer=viewer,
                           fields={**players, **fairness.public_fields(commit, shown)})


def _engine_index_of(hand: Any, user: Any) -> int | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    for i, (_seat_no, user_id, _start) in enumerate(hand.players):
        if user_id == user.pk:
            return i
    return None


def deck_disclosure(*, phh_text: str) -> list[dict[str, Any]]:
    """The 52 places of the deck as a history shows them: the leaf of every place, and the card
    and salt of the places it reveals."""
    import tomllib

    from rules_engine import fairness

    fields = tomllib.loads(phh_text)
    revealed = {r.position: r for r in (fairness.Revealed.parse(x) for x in fields.get(fairness.REVEAL_FIELD, []))}
    rows = []
    for i, leaf in enumerate(fields.get(fairness.LEAVES_FIELD, [])):
        r = revealed.get(i)
        rows.append({"position": i, "leaf": leaf, "card": str(r.card) if r else "", "salt": r.salt if r else ""})
    return rows


def freezeout_results(*, table: Any = None, club_id: int | None = None, limit: int = 10) -> list[dict[str, Any]]:
    """The latest freeze-outs played to their end at ``table`` or at ``club_id``'s tables, newest
    first: ``table_name``, ``table_url``, ``ended``, ``entrants`` and ``places`` as (place, name,
    stood up) from the best place down (tables.freezeout)."""
    from django.urls import reverse

    from tables.models import FreezeoutResult

    rows = FreezeoutResult.objects.select_related("table").order_by("-ended", "-id")
    if table is not None:
        rows = rows.filter(table=table)
    if club_id is not None:
        rows = rows.filter(table__club_id=club_id)
    return [{
        "table_name": r.table.name, "table_url": reverse("table", kwargs={"table_id": r.table_id}),
        "ended": r.ended, "entrants": r.entrants, "reentries": r.reentries,
        "places": [(int(p[2]), str(p[1]), bool(p[3])) for p in r.places],
    } for r in rows[:limit]]


def freezeout_wins(*, club_id: int, limit: int = 5) -> list[tuple[str, int]]:
    """(name, freeze-outs won) at ``club_id``'s tables, most first (then by name); a player is
    counted by id, under the name of their latest win."""
    from tables.models import FreezeoutResult

    wins: dict[int, list[Any]] = {}
    for places in FreezeoutResult.objects.filter(table__club_id=club_id).order_by("ended").values_list("places", flat=True):
        for user_id, name, place, _gone in places:
            if int(place) == 1:
                entry = wins.setdefault(int(user_id), [str(name), 0])
                entry[0], entry[1] = str(name), entry[1] + 1
    return sorted(((n, w) for n, w in wins.values()), key=lambda r: (-r[1], r[0]))[:limit]


def table_ledger(*, table: Any) -> dict[str, Any]:
    """Who brought how much to a table and who is up, as home games settle at the end of a night
    (PokerNow's "ledger"): per player, the chips bought in (first buy-in and every "Add chips"),
    the chips taken away on standing up, what is on the table now if seated, and the net of every
    finished hand. All of it read from the chips ledger (``club.models.LedgerEntry``), so it adds
    up: bought in + net = taken away + on the table, and the nets plus the rake sum to zero."""
    from django.contrib.auth import get_user_model
    from django.db.models import Sum

    from club.models import LedgerEntry
    from tables.models import Seat

    kinds = LedgerEntry.Kind
    totals: dict[int, dict[str, int]] = {}
    for row in (LedgerEntry.objects.filter(account=f"table:{table.id}", user__isnull=False)
                .values("user", "kind").annotate(total=Sum("amount"))):
        totals.setdefault(row["user"], {})[row["kind"]] = int(row["total"] or 0)
    seated = set(Seat.objects.filter(table=table).values_list("user_id", flat=True))
    users = {u.pk: u for u in get_user_model().objects.filter(pk__in=totals).select_related("profile")}
    rows = []
    for user_id, by_kind in totals.items():
        bought = by_kind.get(kinds.BUY_IN, 0)
        left = -by_kind.get(kinds.CASH_OUT, 0)
        net = by_kind.get(kinds.HAND, 0)
        rows.append({
            "user_id": user_id, "name": _display_name(users[user_id]), "bought": bought, "left": left,
            "on_table": bought + net - left if user_id in seated else None, "net": net,
        })
    rows.sort(key=lambda r: (-r["net"], r["name"].lower()))
    rake = LedgerEntry.objects.filter(kind=kinds.RAKE, table_id=table.id).aggregate(total=Sum("amount"))["total"] or 0
    return {"rows": rows, "rake": int(rake), "hands": table.hands.filter(ended__isnull=False).count()}


def hands_played(*, user: Any, game: str = "", summary: list[dict[str, Any]] | None = None) -> list[int]:
    """Ids of the finished hands ``user`` was dealt into, at any table, newest first; only those
    of ``game`` when given. ``summary``, when given, is filled with one row per game the player
    has played (over every hand, whatever ``game`` says): ``{"game", "hands", "won", "net"}``,
    the net in chips (Baseball's units are not chips: its row has ``net`` None), most hands first.

    The tables are those the player ever moved chips at (a buy-in, club chips included), has a
    Baseball balance at, or sits at now; a hand's players list says who was dealt in. At a chips
    table only the hands begun since the player's first buy-in there are looked at: a busy
    public table's older hands are not read for a player who came later."""
    from django.db.models import Min, Q

    from club.models import LedgerEntry
    from tables.models import Hand, Seat, UnitsEntry

    since = dict(LedgerEntry.objects.filter(user=user, table_id__isnull=False)
                 .values("table_id").annotate(first=Min("created")).values_list("table_id", "first"))
    others = set(UnitsEntry.objects.filter(user=user).values_list("table_id", flat=True))
    others.update(Seat.objects.filter(user=user).values_list("table_id", flat=True))
    where = Q(table_id__in=others - set(since))
    for table_id, first in since.items():
        where |= Q(table_id=table_id, started__gte=first)
    uid = user.pk
    rows = (Hand.objects.filter(where, ended__isnull=False)
            .order_by("-ended", "-id").values_list("id", "players", "game", "result"))
    out = []
    by_game: dict[str, dict[str, Any]] = {}
    for hand_id, players, hand_game, result in rows:
        mine = next((i for i, p in enumerate(players or ()) if int(p[1]) == uid), None)
        if mine is None:
            continue
        if not game or hand_game == game:
            out.append(hand_id)
        if summary is not None:
            row = by_game.setdefault(hand_game, {"game": hand_game, "hands": 0, "won": 0, "net": 0})
            row["hands"] += 1
            nets = (result or {}).get("net") or []
            net = nets[mine] if mine < len(nets) else 0
            if hand_game == "BB":
                row["net"] = None
                row["won"] += 1 if Fraction(str(net)) > 0 else 0
            else:
                row["net"] += int(net)
                row["won"] += 1 if int(net) > 0 else 0
    if summary is not None:
        summary.extend(sorted(by_game.values(), key=lambda r: (-r["hands"], r["game"])))
    return out


def dealt_in(*, hand: Any, user: Any) -> bool:
    """Whether ``user`` was dealt into ``hand``."""
    return _engine_index_of(hand, user) is not None


def hand_rows(*, user: Any, hand_ids: list[int]) -> list[dict[str, Any]]:
    """One line per hand for the player's own list: when it ended, where, which game, and what
    it did to the player's stack (chips, or Baseball's exact units as written)."""
    from django.urls import reverse

    from tables.models import Hand

    hands = {h.id: h for h in Hand.objects.filter(id__in=hand_ids).select_related("table")
             .only("id", "number", "game", "players", "result", "ended", "table__id", "table__name", "table__game")}
    rows = []
    for hand_id in hand_ids:
        h = hands.get(hand_id)
        if h is None:
            continue
        mine = next((i for i, p in enumerate(h.players) if int(p[1]) == user.pk), None)
        result = h.result or {}
        nets = result.get("net") or []
        shown = result.get("net_display") or nets
        net = nets[mine] if mine is not None and mine < len(nets) else None
        rows.append({
            "ended": h.ended, "table_id": h.table_id, "table_name": h.table.name, "game": h.game,
            "number": h.number, "href": reverse("hand_history", args=[h.table_id, h.number]),
            "net": shown[mine] if net is not None else None,
            "sign": 0 if net is None else _sign(net),
        })
    return rows


def _sign(n: Any) -> int:
    """1, 0 or -1 for a net in chips (an int) or Baseball's exact units ("5/3", "-1")."""
    from fractions import Fraction

    value = n if isinstance(n, int) else Fraction(str(n))
    return (value > 0) - (value < 0)
