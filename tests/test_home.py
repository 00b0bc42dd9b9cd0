import re

import pytest


@pytest.mark.django_db
def test_home_lists_the_games(client) -> None:
    res = client.get("/")
    assert res.status_code == 200
    body = res.content.decode()
    assert "Patch-Patch" in body
    assert "Baseball" in body


# --- A signed-in player's front page: their seats and their clubs' next nights ---------------------

import datetime as dt  # noqa: E402

from django.test import Client  # noqa: E402
from django.urls import reverse  # noqa: E402
from django.utils import timezone  # noqa: E402

from club import services as club_services  # noqa: E402
from club.models import GameNightReply, Membership  # noqa: E402
from tables import services as table_services  # noqa: E402
from tests.club.helpers import club_with_people, make_user  # noqa: E402
from tests.tables.helpers import seated_table  # noqa: E402


def _home(user=None, **post) -> str:
    c = Client()
    if user is not None:
        c.force_login(user)
    res = c.get("/")
    assert res.status_code == 200
    return res.content.decode()


def _at(days: float) -> dt.datetime:
    return (timezone.now() + dt.timedelta(days=days)).replace(microsecond=0)


def _section(html: str) -> str:
    if 'class="foryou"' not in html:
        return ""
    return html.split('class="foryou"', 1)[1].split("</section>", 1)[0]


@pytest.mark.django_db
def test_the_front_page_lists_the_clubs_next_night_for_each_member() -> None:
    p = club_with_people("h1")
    other = club_with_people("h2")
    Membership.objects.create(club=other.club, user=p.member)
    soon = club_services.game_night_schedule(club=p.club, by=p.host, starts_at=_at(3), note="Bring snacks")
    club_services.game_night_schedule(club=p.club, by=p.host, starts_at=_at(5))  # not the next one
    cancelled = club_services.game_night_schedule(club=other.club, by=other.host, starts_at=_at(1))
    club_services.game_night_cancel(night=cancelled, by=other.host)
    later = club_services.game_night_schedule(club=other.club, by=other.host, starts_at=_at(6))
    club_services.game_night_schedule(club=other.club, by=other.host, starts_at=_at(20))  # too far ahead
    club_services.game_night_reply(night=soon, user=p.member, answer="maybe")
    club_services.game_night_reply(night=soon, user=p.host, answer="yes")
    club_services.game_night_reply(night=soon, user=p.owner, answer="yes")
    Membership.objects.filter(club=p.club, user=p.owner).update(active=False)  # left: not counted

    section = _section(_home(p.member))
    nights = re.findall(r'data-night="(\d+)"', section)
    assert nights == [str(soon.pk), str(later.pk)]  # one a club, soonest first; no cancelled, none too far
    first = section.split(f'data-night="{soon.pk}"', 1)[1].split("</li>", 1)[0]
    assert p.club.name in first and "Bring snacks" in first
    assert "1 coming" in first  # the host; the owner left
    assert re.search(r'value="maybe" class="answerbutton" aria-pressed="true"', first)
    assert re.search(r'value="yes" class="answerbutton" aria-pressed="false"', first)
    # Someone in no club, and a visitor, see none of it.
    assert _section(_home(p.outsider)) == ""
    assert _section(_home()) == ""


@pytest.mark.django_db
def test_answering_on_the_front_page_comes_back_to_it_and_bad_answers_change_nothing() -> None:
    p = club_with_people("h3")
    night = club_services.game_night_schedule(club=p.club, by=p.host, starts_at=_at(2))
    c = Client()
    c.force_login(p.member)
    url = reverse("club_night_reply", args=[p.club.pk, night.pk])
    res = c.post(url, {"answer": "yes", "back": "home"})
    assert res.status_code == 302 and res.url == reverse("home")
    assert GameNightReply.objects.get(night=night, user=p.member).answer == "yes"
    res = c.post(url, {"answer": "sometimes", "back": "home"}, follow=True)
    assert res.redirect_chain[-1][0] == reverse("home")
    assert GameNightReply.objects.get(night=night, user=p.member).answer == "yes"
    assert "message--error" in res.content.decode() and "Answer yes, maybe or no." in res.content.decode()
    # Without "back", the club's page as before.
    res = c.post(url, {"answer": "no"})
    assert res.url == reverse("club_home", args=[p.club.pk])


@pytest.mark.django_db(transaction=True)
def test_the_front_page_lists_the_players_seats_and_not_closed_tables() -> None:
    table, users = seated_table(n=2, name="Friday game")
    closed, closed_users = seated_table(n=1, name="Old game")  # no hand: it closes at once
    table_services.table_close(table_id=closed.id)
    section = _section(_home(users[0]))
    assert "Friday game" in section and "Your seat" in section
    assert reverse("table", args=[table.id]) in section
    assert "Old game" not in _section(_home(closed_users[0]))
    assert _section(_home(make_user("nobody_home"))) == ""


@pytest.mark.django_db(transaction=True)
def test_your_seats_say_where_a_hand_waits_for_you() -> None:
    from tests.tables.helpers import current_state, user_for_index

    table, users = seated_table(n=2, name="Turns")
    hand, state = current_state(table)
    actor = user_for_index(hand, state.actors()[0])
    other = next(u for u in users if u.pk != actor.pk)
    assert "data-my-turn" in _section(_home(actor))
    assert "data-my-turn" not in _section(_home(other))
    c = Client()
    c.force_login(actor)
    assert "data-my-turn" in c.get("/lobby/").content.decode()


@pytest.mark.django_db(transaction=True)
def test_the_section_refreshes_itself_alone() -> None:
    table, users = seated_table(n=2, name="Refresh")
    c = Client()
    c.force_login(users[0])
    page = c.get("/").content.decode()
    assert 'id="foryou"' in page and 'hx-trigger="every 15s"' in page
    part = c.get("/", HTTP_HX_REQUEST="true", HTTP_HX_TARGET="foryou").content.decode()
    assert part.lstrip().startswith('<section id="foryou"') and "Refresh" in part
    assert "<html" not in part and "Games on the site" not in part


@pytest.mark.django_db(transaction=True)
def test_your_seats_say_where_you_are_on_a_break() -> None:
    from tests.tables.helpers import current_state, user_for_index

    table, users = seated_table(n=2, name="Breaks")
    hand, state = current_state(table)
    actor = user_for_index(hand, state.actors()[0])
    me = next(u for u in users if u.pk != actor.pk)  # not to act: "Your turn" would come first
    assert "data-my-break" not in _section(_home(me))
    table_services.table_act(table_id=table.id, user=me, message={"action": "sit_out", "version": table.version})
    assert "data-my-break" in _section(_home(me)) and "on a break" in _section(_home(me))
    assert "data-my-break" not in _section(_home(actor))
