"""The hidden-card scanner for a host's house rules: random hands at a hosted Hold'em or Omaha
table where everyone runs it twice and a bomb pot comes now and then, many all-ins (in Hold'em a
seven-deuce bounty too, its winner's cards shown). After every
action each viewer's payload holds only the cards that viewer may see (the board out so far, a
second run only once it is dealt, their own cards, the hands shown at the end); every finished
hand's history proves its deck, second run and all, and no chip is made or lost."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest
from django.db.models import Sum
from django.utils import translation

from rules_engine import fairness
from tables import hosting, services
from tables.models import Seat, Table
from tables.selectors import hand_history_text, table_snapshot
from tests.tables.helpers import current_state, make_user, user_for_index
from tests.tables.test_hidden_cards import cards_in

pytestmark = pytest.mark.django_db


def _allowed(state: Any, viewer: int | None) -> set[str]:
    ok = {str(c) for c in state.board}
    if state.is_over:
        ok |= {str(c) for c in (state.second_board or ())}
        ok |= {str(c) for seat in state.result.shown for c in state.hand_of(seat)}
    if viewer is not None:
        ok |= {str(c) for c in state.hand_of(viewer)}
    return ok


def _act(rng: random.Random, table: Table, hand: Any, state: Any) -> None:
    seat = state.to_act
    legal = {la.kind: la for la in state.legal_actions(seat)}
    message: dict[str, Any] = {"version": table.version}
    big = legal.get("raise") or legal.get("bet")
    if big is not None and rng.random() < 0.35:
        message.update(action=big.kind, amount=big.max_amount or big.to)  # all-in, or the most pot limit allows
    else:
        kinds = [k for k in legal if k not in ("raise", "bet")]
        # Facing a seven-deuce at a bounty table, fold more often: the bounty gets taken.
        fold = 6 if state.setup.seven_deuce and any(
            sorted(c.rank for c in state.hand_of(s)) == [2, 7] for s in state.in_hand if s != seat) else 1
        message["action"] = rng.choices(kinds, [{"fold": fold}.get(k, 4) for k in kinds])[0]
    services.table_act(table_id=table.id, user=user_for_index(hand, seat), message=message)


def _deal_seven_deuces(monkeypatch: pytest.MonkeyPatch, rng: random.Random) -> None:
    """Decks from a seeded generator (the same hands every run), and two in three give one of the
    three seats a seven and a deuce (hole cards go one at a time round the table, so a seat's are
    positions j and 3 + j), for the bounty to be won."""
    decks = random.Random(rng.random())
    monkeypatch.setattr(services.secrets, "SystemRandom", lambda: random.Random(decks.random()))
    shuffled = services.Deck.shuffled

    def biased(source: Any) -> Any:
        deck = list(shuffled(source).order)
        if rng.random() < 0.67:
            j = rng.randrange(3)
            for pos, rank in ((j, 7), (3 + j, 2)):
                k = next(i for i, c in enumerate(deck) if c.rank == rank and i >= 6)
                deck[pos], deck[k] = deck[k], deck[pos]
        return SimpleNamespace(order=tuple(deck))

    monkeypatch.setattr(services.Deck, "shuffled", staticmethod(biased))


@pytest.mark.parametrize(("game", "seed"), [("NT", 31), ("PO/8", 32)])
def test_run_twice_and_bomb_pots_never_show_a_card_early(game: str, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """In Hold'em with a seven-deuce bounty too: the cards of whoever takes it are shown."""
    rng = random.Random(seed)
    host = make_user(f"hrhost{seed}")
    table = services.table_create(creator=host, name="House rules", small_blind=5, big_blind=10, game=game,
                                  max_seats=4, is_public=False)
    services.table_pause(table_id=table.id, now=True)
    users = [host] + [make_user(f"hrguest{seed}_{i}") for i in range(2)]
    for u in users:
        services.table_take_seat(table_id=table.id, user=u, buy_in=300)
    hosting.table_host_run_twice(table_id=table.id, by=host, on=True)
    for u in users:
        table.refresh_from_db()
        services.table_act(table_id=table.id, user=u, message={"action": "run_twice_on", "version": table.version})
    if game == "NT":
        hosting.table_host_seven_deuce(table_id=table.id, by=host, big_blinds=1)
        _deal_seven_deuces(monkeypatch, random.Random(seed + 100))
    services.table_resume(table_id=table.id)
    granted = 900
    seen = {"hands": 0, "twice": 0, "bombs": 0, "bounties": 0}
    for _step in range(2000):
        table.refresh_from_db()
        hand, state = current_state(table)
        lang = rng.choice(["en", "he", "ru"])
        with translation.override(lang):
            for index in (*range(len(hand.players)), None):
                user = None if index is None else user_for_index(hand, index)
                html = table_snapshot(table_id=table.id, user=user)["html"]
                leaked = cards_in(html, lang) - _allowed(state, index)
                assert not leaked, f"{lang}: viewer {index} was sent {sorted(leaked)} in phase {state.phase}"
        if not state.is_over:
            _act(rng, table, hand, state)
            continue
        seen["hands"] += 1
        seen["twice"] += state.second_board is not None
        seen["bombs"] += bool(state.setup.bomb)
        seen["bounties"] += bool(state.result.bounty)
        check = fairness.verify_phh(hand_history_text(hand=hand, user=None))
        assert check.ok, check.message
        assert Seat.objects.filter(table=table).aggregate(s=Sum("stack"))["s"] == granted
        if seen["hands"] >= 40:
            break
        # Top up the short stacks (test-only, counted), a bomb pot every third hand, deal on.
        for s in Seat.objects.filter(table=table, stack__lt=100):
            granted += 300 - int(s.stack)
            s.stack = 300
            s.save(update_fields=["stack"])
        if seen["hands"] % 3 == 0:
            hosting.table_host_bomb(table_id=table.id, by=host, big_blinds=rng.choice((1, 2, 5)))
        services.table_expire(table_id=table.id, now=hand.deadline)
    assert seen["hands"] >= 40
    assert seen["twice"] >= 3, seen
    assert seen["bombs"] >= 8, seen
    assert seen["bounties"] >= (3 if game == "NT" else 0), seen
