"""Every finished hand at a table in one ``.phhs`` file: each hand as the viewer may see it (the
same text as that hand's own PHH download), hands by their numbers, for those who may watch."""

from __future__ import annotations

import datetime as dt
import tomllib

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from rules_engine import notation
from tables import services
from tables.models import Hand
from tests.tables.helpers import (
    current_state,
    make_user,
    play_passively,
    seated_table,
    user_for_index,
)

pytestmark = pytest.mark.django_db


def _client(user=None) -> Client:
    c = Client()
    if user is not None:
        c.force_login(user)
    return c


def _play_hands(table, n: int) -> None:
    """Play ``n`` hands, letting the pauses between them run out (the timers' job)."""
    for k in range(n):
        # The first to act folds (their cards stay hidden from everyone else); the rest check
        # or call to a showdown.
        table.refresh_from_db()
        hand, state = current_state(table)
        idx = state.actors()[0]
        services.table_act(table_id=table.id, user=user_for_index(hand, idx),
                           message={"action": "fold", "version": table.version})
        play_passively(table)
        if k + 1 < n:
            for _ in range(5):
                if Hand.objects.filter(table=table, ended__isnull=True).exists():
                    break
                services.table_expire(table_id=table.id, now=timezone.now() + dt.timedelta(seconds=60))


def test_the_file_holds_every_finished_hand_as_the_viewer_sees_it() -> None:
    table, users = seated_table(n=3, game="NT")
    _play_hands(table, 3)
    finished = list(Hand.objects.filter(table=table, ended__isnull=False).order_by("number"))
    assert len(finished) >= 3
    url = reverse("table_hands_phhs", args=[table.id])
    for viewer in (None, users[0]):
        res = _client(viewer).get(url)
        assert res.status_code == 200 and res["Content-Disposition"] == f'attachment; filename="table{table.id}-hands.phhs"'
        hands = notation.split_phhs(res.content.decode())
        assert hands is not None and [name for name, _ in hands] == [str(h.number) for h in finished]
        for hand, (_name, text) in zip(finished, hands, strict=True):
            single = _client(viewer).get(reverse("hand_history_phh", args=[table.id, hand.number])).content.decode()
            assert tomllib.loads(text) == tomllib.loads(single)
    # A watcher sees no hole card the showdown did not show; the player sees their own.
    spectator = notation.split_phhs(_client().get(url).content.decode())
    player = notation.split_phhs(_client(users[0]).get(url).content.decode())
    assert spectator is not None and player is not None
    assert any("????" in text for _n, text in spectator)
    assert sum(text.count("??") for _n, text in player) < sum(text.count("??") for _n, text in spectator)
    # The table page links to it once a hand is over.
    assert f'href="{url}"' in _client(users[1]).get(reverse("table", args=[table.id])).content.decode()


def test_a_private_table_file_is_only_for_those_who_may_watch() -> None:
    table, users = seated_table(n=2, game="NT", is_public=False)
    play_passively(table)
    url = reverse("table_hands_phhs", args=[table.id])
    assert _client(make_user("stranger")).get(url).status_code == 404
    assert _client().get(url).status_code == 404
    assert _client(users[0]).get(url).status_code == 200


def test_a_table_without_finished_hands_gives_an_empty_file() -> None:
    table, _users = seated_table(n=2, game="NT")
    res = _client().get(reverse("table_hands_phhs", args=[table.id]))
    assert res.status_code == 200 and res.content == b""
    assert _client().get(reverse("table_hands_phhs", args=[999999])).status_code == 404


def test_the_file_keeps_the_newest_hands_when_there_are_very_many(monkeypatch: pytest.MonkeyPatch) -> None:
    from tables import views_hands

    table, _users = seated_table(n=3, game="NT")
    _play_hands(table, 3)
    monkeypatch.setattr(views_hands, "MAX_HANDS_IN_FILE", 2)
    hands = notation.split_phhs(_client().get(reverse("table_hands_phhs", args=[table.id])).content.decode())
    numbers = [h.number for h in Hand.objects.filter(table=table, ended__isnull=False).order_by("number")]
    assert hands is not None and [name for name, _ in hands] == [str(n) for n in numbers[-2:]]


def test_a_hand_page_links_the_hands_before_and_after() -> None:
    table, _users = seated_table(n=3, game="NT")
    _play_hands(table, 3)
    numbers = [h.number for h in Hand.objects.filter(table=table, ended__isnull=False).order_by("number")]
    first, middle, last = numbers[0], numbers[1], numbers[-1]

    def nav(n: int) -> tuple[bool, bool, str]:
        page = _client().get(reverse("hand_history", args=[table.id, n])).content.decode()
        return 'rel="prev"' in page, 'rel="next"' in page, page

    has_prev, has_next, page = nav(middle)
    assert has_prev and has_next
    assert f'href="{reverse("hand_history", args=[table.id, first])}"' in page
    assert f'href="{reverse("hand_history", args=[table.id, numbers[2]])}"' in page
    assert nav(first)[:2] == (False, True) and nav(last)[:2] == (True, False)


def test_the_tables_hands_page_lists_every_hand_pages_them_and_opens_one_by_number(monkeypatch: pytest.MonkeyPatch) -> None:
    """A watcher reads a long night's hands beyond the table's last ten: newest first, pages of
    HANDS_PER_PAGE, "Go to hand #" (an audit: hand 150 of 370 was reachable one hand at a time)."""
    import re

    from tables import views_hands

    table, users = seated_table(n=3, game="NT")
    _play_hands(table, 5)
    for _ in range(5):  # the newest hand must have a winner to name: a split pot (4%) plays on
        newest = Hand.objects.filter(table=table, ended__isnull=False).order_by("-number").first()
        if newest is not None and any(n > 0 for n in newest.result["net"]):
            break
        for _ in range(5):
            if Hand.objects.filter(table=table, ended__isnull=True).exists():
                break
            services.table_expire(table_id=table.id, now=timezone.now() + dt.timedelta(seconds=60))
        _play_hands(table, 1)
    numbers = [h.number for h in Hand.objects.filter(table=table, ended__isnull=False).order_by("-number")]
    assert len(numbers) >= 5
    monkeypatch.setattr(views_hands, "HANDS_PER_PAGE", 2)
    url = reverse("table_hands", args=[table.id])
    page = _client().get(url).content.decode()
    assert re.findall(r'<tr data-hand="(\d+)">', page) == [str(n) for n in numbers[:2]]
    assert f"{len(numbers)} hands played, newest first." in page and "?page=last" in page
    last = _client().get(url + "?page=last").content.decode()
    pages = -(-len(numbers) // 2)
    assert f"Page {pages} of {pages}" in last
    assert re.findall(r'<tr data-hand="(\d+)">', last)[-1] == str(numbers[-1])
    # Each row names its winners with what they won, as the table's last hands do.
    hand = Hand.objects.get(table=table, number=numbers[0])
    winners = [i for i, n in enumerate(hand.result["net"]) if n > 0]
    assert winners and "+" in page.split(f'<tr data-hand="{numbers[0]}">', 1)[1].split("</tr>", 1)[0]
    # Go to hand #: a hand that exists opens; one that does not is said, and nothing else.
    res = _client().get(url, {"hand": f"#{numbers[2]}"})
    assert res.status_code == 302 and res["Location"] == reverse("hand_history", args=[table.id, numbers[2]])
    for bad in ("99999", "abc", "٣", "9" * 40, "-1"):
        res = _client().get(url, {"hand": bad}, follow=True)
        said = " ".join(str(m) for m in res.context["messages"])
        assert "has no finished hand" in said and res.redirect_chain[-1][0] == url, bad
    # The table page links to it.
    assert f'href="{url}"' in _client(users[0]).get(reverse("table", args=[table.id])).content.decode()


def test_a_private_tables_hands_page_is_only_for_those_who_may_watch() -> None:
    table, users = seated_table(n=2, game="NT", is_public=False)
    play_passively(table)
    url = reverse("table_hands", args=[table.id])
    assert _client(make_user("stranger")).get(url).status_code == 404
    assert _client().get(url).status_code == 404
    assert _client(users[0]).get(url).status_code == 200
    assert _client().get(reverse("table_hands", args=[999999])).status_code == 404
