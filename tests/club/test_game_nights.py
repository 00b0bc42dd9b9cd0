"""Game nights: a host schedules a night ahead, members say yes, maybe or no, the club's page
shows who is coming. Services on a real database, then the pages through the test client."""

from __future__ import annotations

import datetime as dt
import re
import zoneinfo

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import formats, timezone

from club import selectors, services
from club.models import GameNight, GameNightReply, Membership
from tests.club.helpers import club_with_people, make_user

pytestmark = pytest.mark.django_db

JERUSALEM = zoneinfo.ZoneInfo("Asia/Jerusalem")


def _client(user=None) -> Client:
    c = Client()
    if user is not None and user.is_authenticated:
        c.force_login(user)
    return c


def _messages(res) -> str:
    return " ".join(str(m) for m in res.context["messages"])


def _soon(days: int = 3, hour: int = 20) -> dt.datetime:
    """A start some days ahead, on the hour (UTC)."""
    day = timezone.now().astimezone(dt.UTC).date() + dt.timedelta(days=days)
    return dt.datetime.combine(day, dt.time(hour), tzinfo=dt.UTC)


def _night(p, **kwargs) -> GameNight:
    kwargs.setdefault("starts_at", _soon())
    return services.game_night_schedule(club=p.club, by=p.host, **kwargs)


def _started(night: GameNight, ago: dt.timedelta) -> None:
    GameNight.objects.filter(pk=night.pk).update(starts_at=timezone.now() - ago)
    night.refresh_from_db()


def _page(p, user, **cookies) -> str:
    """The club's home page as ``user`` sees it (cookies: ``tz``, ``lang``)."""
    c = _client(user)
    for k, v in cookies.items():
        c.cookies[k] = v
    res = c.get(reverse("club_home", args=[p.club.pk]))
    assert res.status_code == 200
    return res.content.decode()


def _night_block(page: str, night: GameNight) -> str:
    """The part of the page about one night: from its row to the next row (or the list's end)."""
    start = page.index(f'data-night="{night.pk}"')
    ends = [page.find(mark, start) for mark in ('<li class="nightrow', '<form class="nightform"', "</section>")]
    return page[start:min(e for e in ends if e != -1)]


# -- Scheduling --------------------------------------------------------------------------------


@pytest.mark.parametrize("role", ["owner", "host"])
def test_a_host_schedules_a_night(role: str) -> None:
    p = club_with_people()
    starts = _soon()
    night = services.game_night_schedule(club=p.club, by=p[role], starts_at=starts, note="  Patch-Patch 5/10  ")
    assert (night.club_id, night.starts_at, night.note, night.created_by_id, night.cancelled) == (
        p.club.pk, starts, "Patch-Patch 5/10", p[role].pk, False)


@pytest.mark.parametrize("role", ["member", "outsider", "anonymous"])
def test_only_hosts_schedule(role: str) -> None:
    p = club_with_people()
    with pytest.raises(services.NotAllowed, match="Only the club's hosts"):
        services.game_night_schedule(club=p.club, by=p[role], starts_at=_soon())
    assert not GameNight.objects.exists()


@pytest.mark.parametrize(("starts", "note", "says"), [
    (lambda: timezone.now() - dt.timedelta(minutes=1), "", "already passed"),
    (lambda: timezone.now(), "", "already passed"),
    (lambda: timezone.now() + dt.timedelta(days=366), "", "at most a year ahead"),
    (lambda: _soon(), "x" * 201, "at most 200 characters"),
])
def test_a_bad_night_is_refused_and_nothing_is_made(starts, note: str, says: str) -> None:
    p = club_with_people()
    with pytest.raises(services.ClubError, match=says):
        services.game_night_schedule(club=p.club, by=p.host, starts_at=starts(), note=note)
    assert not GameNight.objects.exists()


def test_the_limits_themselves_are_allowed() -> None:
    p = club_with_people()
    far = services.game_night_schedule(club=p.club, by=p.host, starts_at=timezone.now() + dt.timedelta(days=364, hours=23))
    long_note = services.game_night_schedule(club=p.club, by=p.host, starts_at=_soon(), note=" " + "y" * 200 + " ")
    assert far.pk and long_note.note == "y" * 200


def test_a_club_has_at_most_ten_nights_ahead() -> None:
    p = club_with_people()
    nights = [_night(p, starts_at=_soon(days=d)) for d in range(1, 11)]
    with pytest.raises(services.ClubError, match="already has 10 nights ahead"):
        _night(p, starts_at=_soon(days=20))
    assert GameNight.objects.count() == 10
    # A cancelled night, or one being played, leaves room for another.
    services.game_night_cancel(night=nights[0], by=p.host)
    _night(p, starts_at=_soon(days=20))
    _started(nights[1], dt.timedelta(hours=1))
    _night(p, starts_at=_soon(days=21))
    assert GameNight.objects.count() == 12


def test_the_same_night_twice_is_refused() -> None:
    """A second tap, or the same time typed again, would split the answers between two nights."""
    p = club_with_people()
    first = _night(p, starts_at=_soon(days=3, hour=20))
    for starts in (_soon(days=3, hour=20), _soon(days=3, hour=20) + dt.timedelta(minutes=90),
                   _soon(days=3, hour=20) - dt.timedelta(minutes=119)):
        with pytest.raises(services.ClubError, match="already has a night within two hours"):
            _night(p, starts_at=starts)
    assert list(GameNight.objects.all()) == [first]
    # Two hours apart is another night; a cancelled night leaves its time free.
    _night(p, starts_at=_soon(days=3, hour=22))
    services.game_night_cancel(night=first, by=p.host)
    _night(p, starts_at=_soon(days=3, hour=20))
    assert GameNight.objects.filter(cancelled=False).count() == 2


# -- Replies -----------------------------------------------------------------------------------


def test_a_member_replies_and_changes_their_mind_until_the_night() -> None:
    p = club_with_people()
    night = _night(p)
    first = services.game_night_reply(night=night, user=p.member, answer="maybe")
    services.game_night_reply(night=night, user=p.member, answer="yes")
    assert GameNightReply.objects.get(night=night, user=p.member).answer == "yes"
    services.game_night_reply(night=night, user=p.member, answer="no")
    assert list(GameNightReply.objects.filter(night=night).values_list("user_id", "answer")) == [(p.member.pk, "no")]
    assert first.pk == GameNightReply.objects.get().pk
    # Hosts answer like everyone else.
    services.game_night_reply(night=night, user=p.owner, answer="yes")
    assert GameNightReply.objects.filter(night=night).count() == 2


def test_the_same_answer_again_keeps_its_place_in_the_list() -> None:
    p = club_with_people()
    night = _night(p)
    services.game_night_reply(night=night, user=p.member, answer="yes")
    services.game_night_reply(night=night, user=p.host, answer="yes")
    services.game_night_reply(night=night, user=p.member, answer="yes")
    [row] = selectors.upcoming_game_nights(club=p.club, user=p.member)
    assert row.yes == ("Misha", "Hana")


@pytest.mark.parametrize("answer", ["", "YES", "sure", "maybe "])
def test_an_answer_other_than_yes_maybe_no_is_refused(answer: str) -> None:
    p = club_with_people()
    night = _night(p)
    with pytest.raises(services.ClubError, match="Answer yes, maybe or no"):
        services.game_night_reply(night=night, user=p.member, answer=answer)
    assert not GameNightReply.objects.exists()


@pytest.mark.parametrize("role", ["outsider", "anonymous"])
def test_non_members_cannot_reply(role: str) -> None:
    p = club_with_people()
    night = _night(p)
    with pytest.raises(services.NotAllowed, match="Only members"):
        services.game_night_reply(night=night, user=p[role], answer="yes")
    assert not GameNightReply.objects.exists()


def test_a_member_who_left_can_no_longer_reply_and_is_no_longer_counted() -> None:
    p = club_with_people()
    night = _night(p)
    services.game_night_reply(night=night, user=p.member, answer="yes")
    services.club_leave(club=p.club, user=p.member)
    with pytest.raises(services.NotAllowed):
        services.game_night_reply(night=night, user=p.member, answer="no")
    assert GameNightReply.objects.get().answer == "yes"  # kept, in case they come back
    [row] = selectors.upcoming_game_nights(club=p.club, user=p.host)
    assert row.yes == ()


def test_no_reply_to_a_cancelled_night() -> None:
    p = club_with_people()
    night = _night(p)
    services.game_night_reply(night=night, user=p.member, answer="maybe")
    services.game_night_cancel(night=night, by=p.host)
    with pytest.raises(services.ClubError, match="cancelled"):
        services.game_night_reply(night=night, user=p.member, answer="yes")
    with pytest.raises(services.ClubError, match="cancelled"):
        services.game_night_reply(night=night, user=p.host, answer="yes")
    assert list(GameNightReply.objects.values_list("user_id", "answer")) == [(p.member.pk, "maybe")]


def test_no_reply_once_the_night_has_started() -> None:
    p = club_with_people()
    night = _night(p)
    services.game_night_reply(night=night, user=p.member, answer="yes")
    _started(night, dt.timedelta(seconds=1))
    with pytest.raises(services.ClubError, match="already started"):
        services.game_night_reply(night=night, user=p.member, answer="no")
    with pytest.raises(services.ClubError, match="already started"):
        services.game_night_reply(night=night, user=p.host, answer="yes")
    assert list(GameNightReply.objects.values_list("user_id", "answer")) == [(p.member.pk, "yes")]


# -- Cancelling --------------------------------------------------------------------------------


def test_a_host_cancels_a_night_and_the_replies_stay() -> None:
    p = club_with_people()
    night = _night(p)
    services.game_night_reply(night=night, user=p.member, answer="yes")
    with pytest.raises(services.NotAllowed):
        services.game_night_cancel(night=night, by=p.member)
    with pytest.raises(services.NotAllowed):
        services.game_night_cancel(night=night, by=p.outsider)
    night.refresh_from_db()
    assert not night.cancelled
    services.game_night_cancel(night=night, by=p.owner)
    night.refresh_from_db()
    assert night.cancelled and GameNightReply.objects.get(night=night).answer == "yes"
    with pytest.raises(services.ClubError, match="already cancelled"):
        services.game_night_cancel(night=night, by=p.host)
    [row] = selectors.upcoming_game_nights(club=p.club, user=p.member)
    assert row.night.cancelled and not row.open_for_replies


def test_a_night_that_started_cannot_be_cancelled() -> None:
    p = club_with_people()
    night = _night(p)
    _started(night, dt.timedelta(minutes=5))
    with pytest.raises(services.ClubError, match="already started"):
        services.game_night_cancel(night=night, by=p.host)
    night.refresh_from_db()
    assert not night.cancelled


# -- What members see ---------------------------------------------------------------------------


def test_upcoming_nights_soonest_first_tonight_stays_six_hours_at_most_ten() -> None:
    p = club_with_people()
    later = [_night(p, starts_at=_soon(days=d)) for d in (5, 2, 9)]
    tonight = _night(p, starts_at=_soon(days=1))
    _started(tonight, dt.timedelta(hours=5, minutes=59))
    gone = _night(p, starts_at=_soon(days=1))
    _started(gone, dt.timedelta(hours=6, minutes=1))
    rows = selectors.upcoming_game_nights(club=p.club, user=p.member)
    assert [r.night.pk for r in rows] == [tonight.pk, later[1].pk, later[0].pk, later[2].pk]
    assert rows[0].started and not rows[0].open_for_replies and not rows[1].started and rows[1].open_for_replies
    for d in range(10, 17):
        _night(p, starts_at=_soon(days=d))
    rows = selectors.upcoming_game_nights(club=p.club, user=p.member)
    assert len(rows) == 10 and rows[0].night.pk == tonight.pk
    # Another club's nights are not this club's.
    q = club_with_people("2")
    assert selectors.upcoming_game_nights(club=q.club, user=q.member) == []


def test_counts_names_and_the_viewers_own_answer() -> None:
    p = club_with_people()
    night = _night(p)
    extra = make_user("zoya")
    Membership.objects.create(club=p.club, user=extra)
    services.game_night_reply(night=night, user=p.member, answer="yes")
    services.game_night_reply(night=night, user=p.host, answer="maybe")
    services.game_night_reply(night=night, user=p.owner, answer="yes")
    services.game_night_reply(night=night, user=extra, answer="no")
    [row] = selectors.upcoming_game_nights(club=p.club, user=p.host)
    assert (row.yes, row.maybe, row.no, row.mine) == (("Misha", "Olga"), ("Hana",), ("Zoya",), "maybe")
    [row] = selectors.upcoming_game_nights(club=p.club, user=p.outsider)
    assert row.mine == ""


def test_the_club_page_shows_who_is_coming_and_the_viewers_answer() -> None:
    p = club_with_people()
    night = _night(p, note="Patch-Patch 5/10 at Olga's")
    for user in (make_user("noam"), make_user("nadia")):
        Membership.objects.create(club=p.club, user=user)
        services.game_night_reply(night=night, user=user, answer="no")
    services.game_night_reply(night=night, user=p.host, answer="maybe")
    services.game_night_reply(night=night, user=p.owner, answer="yes")
    services.game_night_reply(night=night, user=p.member, answer="yes")
    block = _night_block(_page(p, p.member), night)
    assert "Patch-Patch 5/10 at Olga&#x27;s" in block
    coming = re.search(r'data-answer="yes">(.*?)</li>', block, re.S).group(1)
    maybe = re.search(r'data-answer="maybe">(.*?)</li>', block, re.S).group(1)
    no = re.search(r'data-answer="no"[^>]*>(.*?)</li>', block, re.S).group(1)
    assert re.search(r"Coming: <span class=\"num\">2</span>.*Olga, Misha", coming, re.S)
    assert re.search(r"Maybe: <span class=\"num\">1</span>.*Hana", maybe, re.S)
    assert re.search(r"Not coming: <span class=\"num\">2</span>", no) and "Noam" not in block and "Nadia" not in block
    assert block.index('data-answer="yes"') < block.index('data-answer="maybe"') < block.index('data-answer="no"')
    pressed = re.findall(r'<button type="submit" name="answer" value="(\w+)" class="answerbutton" aria-pressed="(\w+)"', block)
    assert pressed == [("yes", "true"), ("maybe", "false"), ("no", "false")]
    host_block = _night_block(_page(p, p.host), night)
    pressed = re.findall(r'name="answer" value="(\w+)" class="answerbutton" aria-pressed="true"', host_block)
    assert pressed == ["maybe"]
    # Cancel forms and the scheduling form are for hosts only.
    cancel = reverse("club_night_cancel", args=[p.club.pk, night.pk])
    assert cancel in host_block and cancel not in block
    schedule = f'action="{reverse("club_night_schedule", args=[p.club.pk])}"'
    assert schedule not in _page(p, p.member) and 'type="datetime-local"' not in _page(p, p.member)
    assert schedule in _page(p, p.host) and 'type="datetime-local"' in _page(p, p.host)


def test_a_night_nobody_answered_yet_and_an_empty_calendar() -> None:
    p = club_with_people()
    assert "No game nights are scheduled." in _page(p, p.member)
    night = _night(p)
    block = _night_block(_page(p, p.member), night)
    assert "Nobody has answered yet." in block
    assert 'aria-pressed="true"' not in block


def test_cancelled_and_started_nights_on_the_page_have_no_buttons() -> None:
    p = club_with_people()
    cancelled = _night(p, starts_at=_soon(days=2))
    services.game_night_reply(night=cancelled, user=p.member, answer="yes")
    services.game_night_cancel(night=cancelled, by=p.host)
    tonight = _night(p, starts_at=_soon(days=1))
    services.game_night_reply(night=tonight, user=p.member, answer="yes")
    _started(tonight, dt.timedelta(hours=1))
    page = _page(p, p.host)
    c_block, t_block = _night_block(page, cancelled), _night_block(page, tonight)
    assert "Cancelled" in c_block and "Misha" not in c_block and 'name="answer"' not in c_block
    assert "nightrow--cancelled" in page
    assert "Under way" in t_block and "Misha" in t_block and 'name="answer"' not in t_block
    assert reverse("club_night_cancel", args=[p.club.pk, tonight.pk]) not in t_block


def test_the_time_is_shown_in_the_readers_zone() -> None:
    p = club_with_people()
    starts = _soon(days=3, hour=17)  # 17:00 UTC
    night = _night(p, starts_at=starts)
    local = starts.astimezone(JERUSALEM)
    block = _night_block(_page(p, p.member, tz="Asia/Jerusalem"), night)
    m = re.search(r'<time datetime="([^"]+)">\s*(.*?)\s*</time>', block, re.S)
    assert m.group(1) == local.isoformat()
    assert m.group(2).endswith(f"at {local.hour - 12} p.m.") and m.group(2).startswith(local.strftime("%A, "))
    utc = re.search(r'<time datetime="([^"]+)">\s*(.*?)\s*</time>', _night_block(_page(p, p.member), night), re.S)
    assert utc.group(1) == starts.isoformat() and utc.group(2).endswith("at 5 p.m.")


@pytest.mark.parametrize(("lang", "title", "button"), [
    ("en", "Game nights", "I'm in"), ("he", "הערבים הקרובים", "אני בפנים"), ("ru", "Игровые вечера", "Приду"),
])
def test_the_section_in_three_languages(lang: str, title: str, button: str) -> None:
    p = club_with_people()
    _night(p)
    page = _page(p, p.host, lang=lang)
    assert f"<h2>{title}</h2>" in page and button in page


# -- The page's forms -------------------------------------------------------------------------


def test_a_host_schedules_from_the_page_in_the_readers_zone() -> None:
    p = club_with_people()
    c = _client(p.host)
    c.cookies["tz"] = "Asia/Jerusalem"
    day = timezone.now().astimezone(JERUSALEM).date() + dt.timedelta(days=30)
    res = c.post(reverse("club_night_schedule", args=[p.club.pk]),
                 {"starts_at": f"{day:%Y-%m-%d}T20:00", "note": " Patch-Patch 5/10 "}, follow=True)
    night = GameNight.objects.get()
    assert night.starts_at == dt.datetime.combine(day, dt.time(20), tzinfo=JERUSALEM)
    assert night.starts_at.astimezone(dt.UTC).hour in (17, 18)  # 20:00 there is not 20:00 UTC
    assert night.note == "Patch-Patch 5/10" and night.created_by == p.host
    assert "Members can now say whether they are coming" in _messages(res)
    # The day as the list writes it: no year.
    assert f"The night of {formats.date_format(day, 'N j')} is on" in _messages(res)
    assert str(day.year) not in _messages(res)
    assert res.redirect_chain == [(reverse("club_home", args=[p.club.pk]), 302)]


@pytest.mark.parametrize(("form", "says"), [
    ({"note": "no date"}, "Choose the day and time of the night."),
    ({"starts_at": "", "note": "empty date"}, "Choose the day and time of the night."),
    ({"starts_at": "next thursday"}, "could not be read"),
    ({"starts_at": "2026-13-45T25:99"}, "could not be read"),
    ({"starts_at": "PAST"}, "That time has already passed"),
    ({"starts_at": "FAR"}, "at most a year ahead"),
    ({"starts_at": "SOON", "note": "n" * 201}, "The note has at most 200 characters."),
])
def test_bad_form_input_says_why_and_changes_nothing(form: dict[str, str], says: str) -> None:
    p = club_with_people()
    now = timezone.localtime()
    stand_ins = {"PAST": now - dt.timedelta(hours=1), "FAR": now + dt.timedelta(days=400), "SOON": now + dt.timedelta(days=2)}
    if form.get("starts_at") in stand_ins:
        form = {**form, "starts_at": f"{stand_ins[form['starts_at']]:%Y-%m-%dT%H:%M}"}
    res = _client(p.host).post(reverse("club_night_schedule", args=[p.club.pk]), form, follow=True)
    assert res.status_code == 200 and says in _messages(res)
    assert not GameNight.objects.exists()


def test_replying_and_changing_it_from_the_page() -> None:
    p = club_with_people()
    night = _night(p)
    url = reverse("club_night_reply", args=[p.club.pk, night.pk])
    c = _client(p.member)
    res = c.post(url, {"answer": "maybe"}, follow=True)
    assert "Your answer is saved" in _messages(res)
    assert GameNightReply.objects.get(user=p.member).answer == "maybe"
    c.post(url, {"answer": "yes"})
    assert GameNightReply.objects.get(user=p.member).answer == "yes"
    res = c.post(url, {"answer": "perhaps"}, follow=True)
    assert "Answer yes, maybe or no." in _messages(res) and GameNightReply.objects.get(user=p.member).answer == "yes"
    block = _night_block(_page(p, p.member), night)
    assert re.findall(r'value="(\w+)" class="answerbutton" aria-pressed="true"', block) == ["yes"]
    assert c.get(url).status_code == 302  # a change is a POST: a visit goes to a page and changes nothing
    assert GameNightReply.objects.get(user=p.member).answer == "yes"


def test_cancelling_from_the_page_and_no_reply_after_it() -> None:
    p = club_with_people()
    night = _night(p)
    cancel = reverse("club_night_cancel", args=[p.club.pk, night.pk])
    assert _client(p.member).post(cancel).status_code == 403
    night.refresh_from_db()
    assert not night.cancelled
    res = _client(p.host).post(cancel, follow=True)
    night.refresh_from_db()
    assert night.cancelled and "The night is cancelled." in _messages(res)
    res = _client(p.host).post(cancel, follow=True)
    assert "already cancelled" in _messages(res)
    res = _client(p.member).post(reverse("club_night_reply", args=[p.club.pk, night.pk]), {"answer": "yes"}, follow=True)
    assert "This night is cancelled." in _messages(res) and not GameNightReply.objects.exists()


def test_no_reply_to_a_past_night_from_the_page() -> None:
    p = club_with_people()
    night = _night(p)
    _started(night, dt.timedelta(hours=7))
    res = _client(p.member).post(reverse("club_night_reply", args=[p.club.pk, night.pk]), {"answer": "yes"}, follow=True)
    assert "already started" in _messages(res) and not GameNightReply.objects.exists()


def test_a_member_cannot_schedule_from_the_page() -> None:
    p = club_with_people()
    res = _client(p.member).post(reverse("club_night_schedule", args=[p.club.pk]), {"starts_at": f"{_soon():%Y-%m-%dT%H:%M}"})
    assert res.status_code == 403 and not GameNight.objects.exists()


def test_non_members_see_nothing_of_the_nights_and_every_post_is_refused() -> None:
    p = club_with_people()
    night = _night(p, note="Secret stakes 50/100")
    for viewer in (p.outsider, None):
        page = _client(viewer).get(reverse("club_home", args=[p.club.pk])).content.decode()
        assert p.club.name in page  # the about page
        assert "Game nights" not in page and "Secret stakes" not in page and "nightrow" not in page
    posts = [
        (reverse("club_night_schedule", args=[p.club.pk]), {"starts_at": f"{_soon(days=4):%Y-%m-%dT%H:%M}"}),
        (reverse("club_night_reply", args=[p.club.pk, night.pk]), {"answer": "yes"}),
        (reverse("club_night_cancel", args=[p.club.pk, night.pk]), {}),
    ]
    for url, data in posts:
        assert _client(p.outsider).post(url, data).status_code == 404, url
        anon = _client().post(url, data)
        assert anon.status_code == 302 and anon["Location"].startswith("/accounts/login/"), url
    night.refresh_from_db()
    assert GameNight.objects.count() == 1 and not night.cancelled and not GameNightReply.objects.exists()


def test_a_night_of_another_club_is_not_found_through_this_one() -> None:
    p = club_with_people()
    q = club_with_people("2")
    theirs = services.game_night_schedule(club=q.club, by=q.host, starts_at=_soon())
    Membership.objects.create(club=q.club, user=p.member)
    # p's host is not q's host; p's member is in both clubs but asks through p's address.
    assert _client(p.host).post(reverse("club_night_cancel", args=[p.club.pk, theirs.pk])).status_code == 404
    assert _client(p.member).post(reverse("club_night_reply", args=[p.club.pk, theirs.pk]), {"answer": "yes"}).status_code == 404
    theirs.refresh_from_db()
    assert not theirs.cancelled and not GameNightReply.objects.exists()


def test_the_forms_need_their_csrf_token() -> None:
    p = club_with_people()
    night = _night(p)
    c = Client(enforce_csrf_checks=True)
    c.force_login(p.member)
    url = reverse("club_night_reply", args=[p.club.pk, night.pk])
    assert c.post(url, {"answer": "yes"}).status_code == 403
    assert not GameNightReply.objects.exists()
    page = c.get(reverse("club_home", args=[p.club.pk])).content.decode()
    form = page.split(f'action="{url}"', 1)[1].split("</form>", 1)[0]
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form).group(1)
    assert c.post(url, {"answer": "yes", "csrfmiddlewaretoken": token}).status_code == 302
    assert GameNightReply.objects.get().answer == "yes"


def test_the_admin_lists_game_nights() -> None:
    p = club_with_people()
    night = _night(p, note="olga's table")
    services.game_night_reply(night=night, user=p.member, answer="yes")
    admin = get_user_model().objects.create_superuser("root", "root@example.com", "root-pass-2026")
    c = _client(admin)
    assert "olga&#x27;s table" in c.get(reverse("admin:club_gamenight_changelist"), {"q": "olga"}).content.decode()
    assert c.get(reverse("admin:club_gamenight_change", args=[night.pk])).status_code == 200


def _unfold(ics: str) -> list[str]:
    """The content lines of an iCalendar text, folded lines joined again."""
    return ics.replace("\r\n ", "").split("\r\n")


def test_a_member_adds_a_night_to_their_calendar() -> None:
    p = club_with_people()
    starts = (timezone.now() + dt.timedelta(days=3)).replace(microsecond=0, second=0)
    note = "Patch-Patch 5/10; bring snacks, drinks\nand a friend \\ or two " + "long " * 20
    night = _night(p, starts_at=starts, note=note)
    home = _client(p.member).get(reverse("club_home", args=[p.club.pk])).content.decode()
    link = reverse("club_night_ics", args=[p.club.pk, night.pk])
    assert f'href="{link}"' in _night_block(home, night)
    res = _client(p.member).get(link)
    assert res.status_code == 200 and res["Content-Type"] == "text/calendar; charset=utf-8"
    assert "attachment" in res["Content-Disposition"]
    raw = res.content.decode()
    assert raw.endswith("\r\n") and "\n" not in raw.replace("\r\n", "")  # CRLF only
    assert all(len(line.encode()) <= 75 for line in raw.split("\r\n"))  # folded
    lines = _unfold(raw)
    assert f"DTSTART:{starts.astimezone(dt.UTC):%Y%m%dT%H%M%S}Z" in lines
    assert f"DTEND:{(starts + dt.timedelta(hours=4)).astimezone(dt.UTC):%Y%m%dT%H%M%S}Z" in lines
    assert f"SUMMARY:{p.club.name}: game night" in lines
    description = next(x for x in lines if x.startswith("DESCRIPTION:"))
    assert description.startswith("DESCRIPTION:Patch-Patch 5/10\\; bring snacks\\, drinks\\nand a friend \\\\ or two long")
    assert description.endswith(f"\\nhttp://testserver/clubs/{p.club.pk}/")
    assert "STATUS:CONFIRMED" in lines and lines.count("BEGIN:VEVENT") == 1
    # Cancelled: the same event, marked off; the page offers no calendar for it any more.
    services.game_night_cancel(night=night, by=p.host)
    assert "STATUS:CANCELLED" in _unfold(_client(p.member).get(link).content.decode())
    home = _client(p.member).get(reverse("club_home", args=[p.club.pk])).content.decode()
    assert f'href="{link}"' not in _night_block(home, night)


def test_only_members_get_a_nights_calendar() -> None:
    p = club_with_people()
    night = _night(p)
    link = reverse("club_night_ics", args=[p.club.pk, night.pk])
    assert _client(p.outsider).get(link).status_code == 404
    assert _client().get(link).status_code == 302  # to the login page
    other = club_with_people("2")
    assert _client(other.member).get(reverse("club_night_ics", args=[other.club.pk, night.pk])).status_code == 404
