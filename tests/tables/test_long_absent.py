"""A site's public table stands up a player it has dealt ABSENT_HANDS hands in a row without (on
a break, or short of a big blind), their chips back to their bankroll: the seat goes to someone
who will play. Private and club tables never do (their hosts decide)."""

from __future__ import annotations

import datetime as dt

import pytest

from club.models import Profile
from tables import services
from tables.models import Seat, Table
from tests.tables.helpers import play_passively, seated_table

pytestmark = pytest.mark.django_db


def _play_hands(table: Table, hands: int) -> None:
    for _ in range(hands):
        finished = play_passively(table)
        if finished.deadline is not None:  # the showdown pause runs out: the next hand is dealt
            services.table_expire(table_id=table.id, now=finished.deadline + dt.timedelta(seconds=1))
        table.refresh_from_db()


def _bankroll(user) -> int:
    return Profile.objects.get(user=user).bankroll


def _break(table: Table, user) -> None:
    table.refresh_from_db()
    services.table_act(table_id=table.id, user=user, message={"action": "sit_out", "version": table.version})


@pytest.mark.parametrize("game", ["NT", "PP"])
def test_a_player_on_a_break_for_ten_hands_is_stood_up_with_their_chips(game: str) -> None:
    table, (a, b, c) = seated_table(n=3, game=game)
    _break(table, c)  # from the next hand
    _play_hands(table, 1)
    stack = Seat.objects.get(table=table, user=c).stack
    before = _bankroll(c)
    # Dealt nine hands without them: still seated (the first hand they were in counts).
    _play_hands(table, services.ABSENT_HANDS - 1)
    assert Seat.objects.filter(table=table, user=c).exists()
    assert _bankroll(c) == before
    # The tenth: the next deal stands them up, their chips back in their bankroll.
    _play_hands(table, 1)
    assert not Seat.objects.filter(table=table, user=c).exists()
    assert _bankroll(c) == before + stack
    assert Seat.objects.filter(table=table).count() == 2  # the others play on


def test_a_player_back_in_time_keeps_the_seat() -> None:
    table, (a, b, c) = seated_table(n=3, game="NT")
    _break(table, c)
    _play_hands(table, services.ABSENT_HANDS - 2)
    table.refresh_from_db()
    services.table_act(table_id=table.id, user=c, message={"action": "im_back", "version": table.version})
    _play_hands(table, services.ABSENT_HANDS)
    assert Seat.objects.filter(table=table, user=c).exists()


def test_private_tables_never_stand_anyone_up() -> None:
    table, (a, b, c) = seated_table(n=3, game="NT", is_public=False)
    _break(table, c)
    _play_hands(table, services.ABSENT_HANDS + 2)
    assert Seat.objects.filter(table=table, user=c).exists()


def test_a_newcomer_is_not_counted_against_hands_dealt_before_they_sat() -> None:
    table, (a, b, c) = seated_table(n=3, game="NT")
    _play_hands(table, services.ABSENT_HANDS)
    services.table_leave_seat(table_id=table.id, user=c)
    _play_hands(table, 1)  # their last hand ends: the seat is free
    from tests.tables.helpers import make_user

    late = make_user("late_sitter")
    services.table_take_seat(table_id=table.id, user=late, buy_in=1000)
    _break(table, late)  # sits down and takes a break at once
    _play_hands(table, services.ABSENT_HANDS - 1)
    assert Seat.objects.filter(table=table, user=late).exists()


@pytest.mark.django_db(transaction=True)  # told once the stand-up is committed
def test_the_player_stood_up_is_told_so(monkeypatch: pytest.MonkeyPatch) -> None:
    from tables import live

    told: list[tuple[int, int, str]] = []
    monkeypatch.setattr(live, "broadcast_access_changed",
                        lambda table_id, user_id, ended_session=None, stood_up="": told.append((table_id, user_id, stood_up)))
    table, (a, b, c) = seated_table(n=3, game="NT")
    _break(table, c)
    _play_hands(table, services.ABSENT_HANDS)
    assert told == []
    _play_hands(table, 1)
    assert told == [(table.id, c.pk, "absent")]


@pytest.mark.django_db(transaction=True)
async def test_a_stood_up_players_page_shows_why() -> None:
    import json

    from channels.db import database_sync_to_async

    from tables import live
    from tests.tables.test_consumers import _connect, _next_state

    table, (a, b, c) = await database_sync_to_async(seated_table)(n=3, game="NT")
    comm = await _connect(table.id, c)
    await _next_state(comm)
    other = await _connect(table.id, a)
    await _next_state(other)
    for why, words in (("absent", "not dealt in for ten hands"), ("stalled", "dealt no hand for five minutes")):
        await database_sync_to_async(live.broadcast_access_changed)(table.id, c.pk, stood_up=why)
        while True:
            msg = json.loads(await comm.receive_from(timeout=3))
            if msg["type"] == "error":
                break
        assert "stood you up" in msg["message"] and words in msg["message"], msg
    assert await other.receive_nothing(timeout=0.3) or json.loads(await other.receive_from())["type"] != "error"
    await comm.disconnect()
    await other.disconnect()


def test_a_public_table_that_cannot_deal_frees_its_idle_seats_after_five_minutes(django_capture_on_commit_callbacks) -> None:
    """Found by an audit: two of three players on a break (or broke) and no hand dealt, so the
    ten-hand rule never ran and the table stayed "full" to newcomers. After STALLED_TABLE with
    nothing dealt, the idle players stand up with their chips; the one ready to play stays."""
    from django.utils import timezone

    table, (a, b, c) = seated_table(n=3, game="NT")
    private, (pa, pb, pc) = seated_table(n=3, game="NT", is_public=False)
    for t, users in ((table, (b, c)), (private, (pb, pc))):
        for u in users:
            _break(t, u)
        _play_hands(t, 1)  # the hand ends; only one player is ready: nothing is dealt
        assert t.hands.filter(ended__isnull=True).count() == 0
    stacks = {u: Seat.objects.get(table=table, user=u).stack for u in (b, c)}
    before = {u: _bankroll(u) for u in (b, c)}
    soon = timezone.now() + services.STALLED_TABLE - dt.timedelta(minutes=1)
    assert services.stand_up_at_stalled_tables(now=soon) == 0
    table.refresh_from_db()
    version = table.version
    later = timezone.now() + services.STALLED_TABLE + dt.timedelta(minutes=1)
    with django_capture_on_commit_callbacks(execute=False) as hooks:
        assert services.stand_up_at_stalled_tables(now=later) == 2
    told = [h for h in hooks if getattr(h, "func", None) is services._tell_stood_up]
    assert sorted(h.args for h in told) == sorted([(table.id, b.pk, "stalled"), (table.id, c.pk, "stalled")])
    assert list(Seat.objects.filter(table=table).values_list("user", flat=True)) == [a.pk]
    assert all(_bankroll(u) == before[u] + stacks[u] for u in (b, c))
    table.refresh_from_db()
    assert table.version == version + 1  # the watchers' pictures show the free seats
    assert Seat.objects.filter(table=private).count() == 3  # a private table's host decides
    assert services.stand_up_at_stalled_tables(now=later) == 0


def test_a_public_table_that_deals_keeps_everyone_however_long_its_hands() -> None:
    from django.utils import timezone

    table, (a, b, c) = seated_table(n=3, game="NT")
    _break(table, c)
    _play_hands(table, 1)  # a and b are dealt the next hand: c waits for the ten-hand rule
    later = timezone.now() + services.STALLED_TABLE * 3
    assert services.stand_up_at_stalled_tables(now=later) == 0
    assert Seat.objects.filter(table=table).count() == 3


def test_leaving_on_ones_turn_says_what_went_back_after_the_hand_it_ended() -> None:
    """Found by an audit: the message counted the stack read before the leave, but leaving on
    one's turn folds at once and the hand settles first (the blind stays in the pot)."""
    from django.test import Client

    from tests.tables.helpers import current_state, user_for_index

    table, _users = seated_table(n=2, game="NT")
    hand, state = current_state(table)
    actor = user_for_index(hand, state.actors()[0])
    stack = Seat.objects.get(table=table, user=actor).stack
    before = _bankroll(actor)
    c = Client()
    c.force_login(actor)
    page = c.post(f"/tables/{table.id}/leave/", follow=True).content.decode()
    back = _bankroll(actor) - before
    assert not Seat.objects.filter(table=table, user=actor).exists()
    assert 0 < back < stack  # their blind went to the other player
    assert f"You stood up; {back:,} chips are back in your bankroll." in page


def test_back_at_a_public_table_within_half_an_hour_with_at_least_what_was_taken() -> None:
    """Found by an audit: a player up to 4,925 stood up and sat straight back down with the 250
    minimum. Within REJOIN_WINDOW of standing up at one of the site's public tables, a player
    brings back at least what they took away (to the table's most); the sit form says so too."""
    from django.test import Client

    from club.models import LedgerEntry

    table, (a, b) = seated_table(n=2, game="NT", buy_in=1200)
    services.table_pause(table_id=table.id, now=True)
    play_passively(table)  # the hand being played ends; the table stays paused
    stack = Seat.objects.get(table=table, user=a).stack
    services.table_leave_seat(table_id=table.id, user=a)
    assert services.rejoin_minimum(table, a) == stack
    with pytest.raises(services.TableError, match="come back with at least as many"):
        services.table_take_seat(table_id=table.id, user=a, buy_in=100)
    c = Client()
    c.force_login(a)
    page = c.get(f"/tables/{table.id}/").content.decode()
    assert f'min="{stack}"' in page
    # ... and says why, in the reader's language (found by an audit: "1,500–1,500" and nothing more).
    assert "data-rejoin" in page and f"({stack:,}, up to the table's most)" in page
    ru = c.get(f"/tables/{table.id}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "data-rejoin" in ru and "меньше получаса" in ru
    # A bankroll short of it is told that, not that it is below the table's minimum.
    from club.models import Profile

    Profile.objects.filter(user=a).update(bankroll=stack - 1)
    page = c.get(f"/tables/{table.id}/").content.decode()
    assert "data-rejoin" in page and "more than your bankroll has" in page
    assert "data-below-minimum" not in page and 'name="buy_in"' not in page
    Profile.objects.filter(user=a).update(bankroll=100_000)
    # Sitting down with less through the form is refused with that reason, not a bare range.
    res = c.post(f"/tables/{table.id}/sit/", {"buy_in": 100}, follow=True)
    assert f"You left this table with {stack:,} chips less than half an hour ago" in res.content.decode()
    assert not Seat.objects.filter(table=table, user=a).exists()
    # Half an hour on, the table's own minimum again.
    LedgerEntry.objects.filter(user=a, table_id=table.id).update(
        created=LedgerEntry.objects.filter(user=a, table_id=table.id).latest("id").created - services.REJOIN_WINDOW)
    assert services.rejoin_minimum(table, a) == 0
    services.table_take_seat(table_id=table.id, user=a, buy_in=100)
    # A private table's host decides: no such rule there.
    private, (pa, _pb) = seated_table(n=2, game="NT", is_public=False)
    services.table_pause(table_id=private.id, now=True)
    play_passively(private)
    services.table_leave_seat(table_id=private.id, user=pa)
    assert services.rejoin_minimum(private, pa) == 0
    services.table_take_seat(table_id=private.id, user=pa, buy_in=100)


def test_a_seat_short_of_a_big_blind_at_a_cash_table_says_to_add_chips() -> None:
    """Found by an audit: a host raised the blinds over a player's stack and the seat read "waits
    for the big blind", which never came (a cash table deals a big blind or more)."""
    from tables import selectors
    from tables.fragment import render_table

    table, (a, b, c) = seated_table(n=3, game="NT", is_public=False)
    finished = play_passively(table)
    Seat.objects.filter(table=table, user=c).update(stack=5)  # under the big blind of 10
    services.table_expire(table_id=table.id, now=finished.deadline + dt.timedelta(seconds=1))
    table.refresh_from_db()
    hand = table.hands.order_by("-number").first()
    assert hand.number == finished.number + 1 and len(hand.players) == 2  # c is not dealt in
    html = str(render_table(selectors.table_context(table_id=table.id, user=a)))
    assert html.count("short of a big blind: add chips") == 1 and "waits for the big blind" not in html
