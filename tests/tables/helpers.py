"""Shared helpers for table tests: users, seated tables, driving a hand to its end."""

from __future__ import annotations

import random
from typing import Any

from django.contrib.auth import get_user_model

from club.services import profile_ensure
from tables import services
from tables.models import Hand, Seat, Table


def make_user(name: str) -> Any:
    user = get_user_model().objects.create_user(username=name, password="pw-" + name + "-12345")
    profile_ensure(user=user)
    return user


def seated_table(n: int = 3, buy_in: int = 1000, **kwargs: Any) -> tuple[Table, list[Any]]:
    opts = {"name": "Test table", "small_blind": 5, "big_blind": 10, "max_seats": 3, "is_public": True}
    opts.update(kwargs)
    table = services.table_create(creator=None, **opts)
    # Paused while everyone sits down, so the first hand is dealt to all of them.
    services.table_pause(table_id=table.id, now=True)
    users = [make_user(f"p{table.id}_{i}") for i in range(n)]
    for u in users:
        services.table_take_seat(table_id=table.id, user=u, buy_in=buy_in)
    services.table_resume(table_id=table.id)
    if table.game == "BB":  # a Baseball table deals once a player starts its first session
        from tables.baseball import table_new_session

        table_new_session(table_id=table.id, user=users[0])
    table.refresh_from_db()
    return table, users


def current_state(table: Table) -> tuple[Hand, Any]:
    from rules_engine.games import get_variant

    hand = Hand.objects.filter(table=table).order_by("-number").first()
    assert hand is not None
    return hand, get_variant(table.game).from_json(hand.state)


def user_for_index(hand: Hand, idx: int) -> Any:
    seat_no, user_id, _ = hand.players[idx]
    return Seat.objects.get(table=hand.table, seat_no=seat_no).user


def play_passively(table: Table, max_steps: int = 200) -> Hand:
    """Drive the current hand to its end: check when possible, else call; 'done' to arrange."""
    hand, state = current_state(table)
    number = hand.number
    for _ in range(max_steps):
        table.refresh_from_db()
        hand, state = current_state(table)
        if hand.number != number or hand.ended is not None:
            return Hand.objects.get(table=table, number=number)
        actors = state.actors()
        idx = actors[0]
        kinds = [a.kind for a in state.legal_actions(idx)]
        for choice in ("done", "check", "call"):
            if choice in kinds:
                break
        else:
            choice = kinds[0]
        services.table_act(
            table_id=table.id, user=user_for_index(hand, idx),
            message={"action": choice, "version": table.version},
        )
    raise AssertionError("hand did not end")


def act_once(table: Table, rng: random.Random, passive: bool) -> bool:
    """One action by whoever is to act: checks and calls (``passive``), else anything legal at
    random (a bet or raise at its smallest). False once the hand is over."""
    table.refresh_from_db()
    hand, state = current_state(table)
    if hand.ended is not None or not state.actors():
        return False
    idx = state.actors()[0]
    kinds = [a.kind for a in state.legal_actions(idx) if a.kind not in ("swap", "arrange")]
    quiet = [k for k in ("done", "check", "call") if k in kinds]
    choice = quiet[0] if passive and quiet else rng.choice(kinds)
    message: dict[str, Any] = {"action": choice, "version": table.version}
    if choice in ("bet", "raise"):
        legal = next(a for a in state.legal_actions(idx) if a.kind == choice)
        message["amount"] = getattr(legal, "min_amount", None) or getattr(legal, "amount", None)
    try:
        services.table_act(table_id=table.id, user=user_for_index(hand, idx), message=message)
    except ValueError:
        services.table_act(table_id=table.id, user=user_for_index(hand, idx),
                           message={"action": "fold" if "fold" in kinds else kinds[0], "version": table.version})
    return True
