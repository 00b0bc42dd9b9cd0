"""Random comings and goings at a six-seat blind game: players sit down mid-hand and wait for the
big blind or post one, change their minds, take breaks, come back and leave during hands, while
hands are played at random. After every step no chip is made or lost, every finished hand's
ledger nets to zero, and nobody posts a big blind or pays a missed small blind dead from the
hand's own blinds (GAMES.md section 3; missed blinds as card rooms have them)."""

from __future__ import annotations

import contextlib
import datetime as dt
import random
from collections import Counter
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db.models import Sum
from django.utils import timezone

from club.models import LedgerEntry
from rules_engine.games import get_variant
from rules_engine.notation import parse_phh
from tables import services
from tables.models import Hand, Seat, Table
from tests.tables.helpers import act_once, make_user
from tests.tables.test_services import _granted, _total_chips

pytestmark = pytest.mark.django_db


def _say(table: Table, user: Any, action: str) -> None:
    table.refresh_from_db()
    # A refusal (post_bb once dealt in, say) changes nothing: the totals after each step check it.
    with contextlib.suppress(services.TableError):
        services.table_act(table_id=table.id, user=user, message={"action": action, "version": table.version})


def test_random_comings_and_goings_lose_no_chip(monkeypatch: pytest.MonkeyPatch) -> None:
    # Decks from a seeded generator instead of the OS's, so that each run plays the same hands
    # and what the test is for (a post, a dead small blind) happens every time, not by luck.
    decks = random.Random(2912)
    monkeypatch.setattr(services.secrets, "SystemRandom", lambda: random.Random(decks.random()))
    seen: Counter[str] = Counter()
    for game, seed in (("NT", 7), ("PO", 8), ("F5D", 9)):
        seen.update(_play(game, seed))
    # What the test is for happened.
    assert seen["posted"] > 0, "no post was ever made: the test did not test it"
    assert seen["dead"] > 0, "no dead small blind was ever paid: the test did not test it"
    assert seen["hands"] > 60
    assert seen["replayed"] > 0, "no history with a post or a dead blind was replayed"
    assert seen["straddles"] > 0, "nobody ever straddled: the test did not test it"
    assert seen["bombs"] > 0, "no bomb pot was ever dealt: the test did not test it"


def _play(game: str, seed: int, steps: int = 500) -> Counter[str]:
    rng = random.Random(seed)
    table = services.table_create(creator=None, name="busy", small_blind=5, big_blind=10, max_seats=6, game=game)
    # Straddles allowed (a host's setting, tables.hosting; this table has no host): they come
    # and go with the players' "Straddle" buttons below. Five-card draw refuses them.
    # A seven-deuce bounty too (paid in the Hold'em hands only).
    Table.objects.filter(pk=table.id).update(straddles=True, run_twice=True, seven_deuce_bb=1)
    people = [make_user(f"cg{seed}_{i}") for i in range(8)]
    for u in people[:3]:
        services.table_take_seat(table_id=table.id, user=u, buy_in=rng.choice([200, 500, 1000]))
    services.table_sweep(now=timezone.now() + dt.timedelta(minutes=1))
    table.refresh_from_db()
    assert Hand.objects.filter(table=table).exists()
    posted_seen = bb_seen = dead_seen = replayed = straddled = twice = bombs = between = 0
    last_checked = 0
    for _step in range(steps):
        table.refresh_from_db()
        seated = {s.user_id: s for s in Seat.objects.filter(table=table)}
        roll = rng.random()
        if roll < 0.06:  # someone new sits down, and half the time posts a big blind
            free = [u for u in people if u.pk not in seated]
            if free and len(seated) < 6:
                u = rng.choice(free)
                # Back within half an hour: at least what they took away (services.rejoin_minimum).
                buy_in = max(rng.choice([100, 300, 800]), services.rejoin_minimum(table, u))
                services.table_take_seat(table_id=table.id, user=u, buy_in=buy_in)
                if rng.random() < 0.5:
                    _say(table, u, "post_bb")
        elif roll < 0.09 and seated:  # a waiting player changes their mind, or anyone tries
            _say(table, get_user_model().objects.get(pk=rng.choice(list(seated))),
                 rng.choice(["post_bb", "wait_bb", "straddle_on", "straddle_on", "straddle_off",
                             "run_twice_on", "run_twice_on", "run_twice_off"]))
        elif roll < 0.16 and seated:  # a break, or back from one
            _say(table, get_user_model().objects.get(pk=rng.choice(list(seated))), rng.choice(["sit_out", "im_back"]))
        elif roll < 0.18 and len(seated) > 2:  # someone leaves, maybe mid-hand
            services.table_leave_seat(table_id=table.id, user=get_user_model().objects.get(pk=rng.choice(list(seated))))
        elif not act_once(table, rng, passive=rng.random() < 0.5):
            # Between hands: top up whoever ran short, bring everyone back now and then, deal.
            for s in Seat.objects.filter(table=table, stack__lt=20):
                services.table_leave_seat(table_id=table.id, user=s.user)
            if rng.random() < 0.3:
                for s in Seat.objects.filter(table=table, sitting_out=True):
                    _say(table, s.user, "im_back")
            between += 1
            if between % 5 == 0 and game != "F5D":  # a host's bomb pot now and then (no dice drawn)
                Table.objects.filter(pk=table.id).update(bomb_next_bb=1)
            services.table_sweep(now=timezone.now() + dt.timedelta(minutes=5))
        assert _total_chips() == _granted()
        # Each new hand: whoever came in from waiting is its big blind or posted one.
        for hand in Hand.objects.filter(table=table, number__gt=last_checked).order_by("number"):
            last_checked = hand.number
            state = get_variant(game).from_json(hand.state)
            seat_of = [p[0] for p in hand.players]
            posts = [seat_of[i] for i in state.setup.posts]
            blinds = set() if state.setup.bomb else {seat_of[state.small_blind_seat], seat_of[state.big_blind_seat]}
            assert not blinds & set(posts)
            # A dead small blind is paid by someone back from a break, never by the blinds.
            assert not blinds & {seat_of[i] for i in state.setup.dead}
            if state.setup.bomb:
                # Everyone put the bomb in: no blinds, straddle or post to come in.
                assert state.small_blind_seat is None and not state.setup.posts and not state.setup.straddle
                assert [e.kind for e in state.start_events].count("bomb") == len(seat_of)
                bombs += 1
            if state.setup.straddle:
                # From the seat left of the big blind, three players or more, not posting too.
                spot = (state.button + 3) % len(seat_of)
                assert len(seat_of) >= 3 and [e.seat for e in state.start_events if e.kind == "straddle"] == [spot]
                assert spot not in state.setup.posts and spot not in state.setup.dead
                assert Seat.objects.filter(table=table, seat_no=seat_of[spot], straddle=True).exists() or hand.ended
                straddled += 1
            posted_seen += len(posts)
            dead_seen += len(state.setup.dead)
            bb_seen += 1
    for hand in Hand.objects.filter(table=table, ended__isnull=False):
        total = LedgerEntry.objects.filter(hand_id=hand.id).aggregate(s=Sum("amount"))["s"] or 0
        assert total == 0
        # Its stored history says who posted and who paid dead, and replays to the same stacks.
        state = get_variant(game).from_json(hand.state)
        if getattr(state, "second_board", None) is not None:
            # Ran twice: everyone still in had "Run it twice" on when it was dealt.
            assert set(state.in_hand) <= set(state.setup.run_twice)
            twice += 1
        assert bool(state.setup.seven_deuce) == (game == "NT")
        if (state.setup.posts or state.setup.dead or state.setup.straddle or state.setup.run_twice or state.setup.bomb
                or state.result.bounty):
            parsed = parse_phh(hand.phh)
            assert parsed.setup.run_twice == state.setup.run_twice and parsed.setup.bomb == state.setup.bomb
            assert parsed.setup.seven_deuce == state.setup.seven_deuce and parsed.state.result.bounty == state.result.bounty
            assert getattr(parsed.state, "second_board", None) == getattr(state, "second_board", None)
            assert (parsed.setup.posts, parsed.setup.dead) == (state.setup.posts, state.setup.dead)
            assert parsed.setup.straddle == state.setup.straddle
            assert parsed.state.stacks == state.stacks
            replayed += 1
    for s in list(Seat.objects.filter(table=table)):
        services.table_leave_seat(table_id=table.id, user=s.user)
    # Leaving mid-hand stands up when the hand ends: play it out.
    for _ in range(400):
        if not Seat.objects.filter(table=table).exists():
            break
        if not act_once(table, rng, passive=True):
            services.table_sweep(now=timezone.now() + dt.timedelta(minutes=5))
    assert _total_chips() == _granted()
    return Counter(posted=posted_seen, dead=dead_seen, hands=bb_seen, replayed=replayed, straddles=straddled, run_twice=twice, bombs=bombs)
