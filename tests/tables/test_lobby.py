"""The lobby, the new-table form, private invitations, and sitting down / standing up by form."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from club.models import LedgerEntry, Profile
from club.services import profile_ensure
from tables import services
from tables.models import Seat, Table

pytestmark = pytest.mark.django_db


def _user(name: str):
    user = get_user_model().objects.create_user(username=name, password="pw-" + name + "-lobby-2024")
    profile_ensure(user=user, display_name=name.title())
    return user


def _client_for(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def _table(creator=None, **kwargs) -> Table:
    opts = {"name": "Felt One", "small_blind": 5, "big_blind": 10, "max_seats": 3, "is_public": True}
    opts.update(kwargs)
    return services.table_create(creator=creator, **opts)


def _messages(res) -> list[str]:
    return [str(m) for m in res.context["messages"]]


def _new_table_data(**overrides):
    data = {"name": "Kitchen", "stakes": "10-20", "small_blind": "", "big_blind": "", "speed": "fast",
            "max_seats": "2", "visibility": "public"}
    data.update(overrides)
    return data


# ---------------------------------------------------------------------------------------------
# Lobby


def test_lobby_lists_public_tables_not_private_ones(client) -> None:
    owner = _user("olga")
    public = _table(name="Open Felt", small_blind=10, big_blind=20, speed="fast", max_seats=2)
    private = _table(owner, name="Secret Kitchen", is_public=False, small_blind=3, big_blind=6)
    res = client.get(reverse("lobby"))
    assert res.status_code == 200
    body = res.content.decode()
    assert "Open Felt" in body
    assert reverse("table", kwargs={"table_id": public.id}) in body
    assert "10/20" in body and "Fast" in body and "0 of 2 seats" in body and "Patch-Patch" in body
    assert "Secret Kitchen" not in body
    assert reverse("table", kwargs={"table_id": private.id}) not in body
    assert private.invite_code not in body


def test_lobby_shows_the_creator_their_private_tables(client) -> None:
    owner = _user("olga")
    private = _table(owner, name="Secret Kitchen", is_public=False, small_blind=3, big_blind=6)
    body = _client_for(owner).get(reverse("lobby")).content.decode()
    assert "Secret Kitchen" in body
    assert reverse("table_invite", kwargs={"table_id": private.id}) in body
    assert "Secret Kitchen" not in _client_for(_user("stan")).get(reverse("lobby")).content.decode()


def test_lobby_counts_seats_and_hides_closed_tables(client) -> None:
    table = _table(name="Busy")
    _table(name="Gone").__class__.objects.filter(name="Gone").update(status="closed")
    services.table_take_seat(table_id=table.id, user=_user("ann"), buy_in=500)
    body = client.get(reverse("lobby")).content.decode()
    assert "1 of 3 seats" in body
    assert "Gone" not in body


def test_lobby_htmx_refresh_gets_only_the_list(client) -> None:
    _table(name="Open Felt")
    res = client.get(reverse("lobby"), HTTP_HX_REQUEST="true", HTTP_HX_TARGET="lobby-list")
    body = res.content.decode()
    assert res.status_code == 200
    assert body.lstrip().startswith('<div id="lobby-list"')
    assert "<html" not in body and "Open Felt" in body
    assert 'hx-trigger="refresh, every 15s"' in body
    assert "HX-Request" in res["Vary"]
    # An htmx navigation to the whole page (the top bar's links) still gets the whole page.
    full = client.get(reverse("lobby"), HTTP_HX_REQUEST="true", HTTP_HX_TARGET="").content.decode()
    assert "<html" in full and "lobby.js" in full


def _listed(body: str) -> list[str]:
    import re

    return re.findall(r'class="tablerow__name" href="[^"]+">([^<]+)</a>', body)


def test_lobby_filters_by_game_stakes_and_a_free_seat(client) -> None:
    _table(name="Hold 5-10", game="NT")
    _table(name="Hold 25-50", game="NT", small_blind=25, big_blind=50)
    _table(name="Patch 5-10", game="PP")
    full = _table(name="Patch full", game="PP", max_seats=2)
    for name in ("fillone", "filltwo"):
        services.table_take_seat(table_id=full.id, user=_user(name), buy_in=500)
    _table(name="Baseball", game="BB", small_blind=0, big_blind=0)
    lobby = reverse("lobby")
    assert _listed(client.get(lobby).content.decode()) == ["Baseball", "Hold 5-10", "Patch 5-10", "Patch full", "Hold 25-50"]
    assert _listed(client.get(lobby, {"game": "NT"}).content.decode()) == ["Hold 5-10", "Hold 25-50"]
    # Baseball plays for units: it is on no rung of the ladder.
    assert _listed(client.get(lobby, {"stakes": "5-10"}).content.decode()) == ["Hold 5-10", "Patch 5-10", "Patch full"]
    body = client.get(lobby, {"game": "PP", "free": "on"}).content.decode()
    assert _listed(body) == ["Patch 5-10"] and "1 of 5" in body
    body = client.get(lobby, {"game": "PP", "stakes": "25-50"}).content.decode()
    assert _listed(body) == [] and "No public table fits this choice." in body
    # The list's own refresh keeps the choice (it asks with the same address).
    body = client.get(lobby, {"game": "NT"}, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="lobby-list").content.decode()
    assert body.lstrip().startswith('<div id="lobby-list"') and 'hx-get="/lobby/?game=NT"' in body
    assert _listed(body) == ["Hold 5-10", "Hold 25-50"]
    # What the filter cannot read is said, and the list stays whole.
    for bad in ({"game": "XX"}, {"stakes": "1-2"}, {"stakes": "5-10", "game": "<script>"}):
        body = client.get(lobby, bad).content.decode()
        assert "could not be read" in body and len(_listed(body)) == 5 and "<script>" not in body
    # A player's own public seat stays listed whatever the filter (an audit: filtering for
    # Hold'em hid the Patch-Patch table where it was their turn).
    filler = get_user_model().objects.get(username="fillone")
    seated = _client_for(filler)
    assert _listed(seated.get(lobby, {"game": "NT"}).content.decode()) == ["Hold 5-10", "Patch full", "Hold 25-50"]
    assert _listed(client.get(lobby, {"game": "NT"}).content.decode()) == ["Hold 5-10", "Hold 25-50"]


# ---------------------------------------------------------------------------------------------
# New table


def test_new_table_needs_a_login(client) -> None:
    res = client.get(reverse("table_new"))
    assert res.status_code == 302
    assert res["Location"].startswith(reverse("login"))
    client.post(reverse("table_new"), _new_table_data())
    assert not Table.objects.exists()


def test_new_public_table_goes_to_its_page(client) -> None:
    c = _client_for(_user("olga"))
    res = c.post(reverse("table_new"), _new_table_data())
    table = Table.objects.get()
    assert res.status_code == 302
    assert res["Location"] == reverse("table", kwargs={"table_id": table.id})
    assert (table.name, table.small_blind, table.big_blind, table.speed, table.max_seats, table.is_public) == (
        "Kitchen", 10, 20, "fast", 2, True)
    assert table.created_by.username == "olga"


@pytest.mark.parametrize(
    ("overrides", "where"),
    [
        ({"name": ""}, "name"),
        ({"name": "x" * 61}, "name"),
        ({"stakes": "7-14"}, "stakes"),  # not a ladder choice at all
        ({"stakes": ""}, "stakes"),
        ({"max_seats": "4"}, "max_seats"),
        ({"speed": "glacial"}, "speed"),
        ({"visibility": "secret"}, "visibility"),
        ({"small_blind": "7", "big_blind": "14"}, "__all__"),  # public tables keep the ladder
        ({"small_blind": "20", "big_blind": "10", "visibility": "private"}, "__all__"),
        ({"small_blind": "5", "visibility": "private"}, "__all__"),
        ({"small_blind": "-5", "big_blind": "10", "visibility": "private"}, "small_blind"),
    ],
)
def test_new_table_validation(overrides, where) -> None:
    c = _client_for(_user("olga"))
    res = c.post(reverse("table_new"), _new_table_data(**overrides))
    assert res.status_code == 200
    assert res.context["form"].errors.get(where), res.context["form"].errors
    assert not Table.objects.exists()


def test_public_custom_blinds_error_names_the_ladder() -> None:
    c = _client_for(_user("olga"))
    res = c.post(reverse("table_new"), _new_table_data(small_blind="7", big_blind="14"))
    body = res.content.decode()
    assert "stakes ladder" in body and "5/10" in body
    assert 'value="7"' in body  # what was typed stays in the form


def test_public_custom_blinds_on_the_ladder_are_fine() -> None:
    c = _client_for(_user("olga"))
    c.post(reverse("table_new"), _new_table_data(small_blind="25", big_blind="50"))
    assert Table.objects.get().big_blind == 50


def test_service_refusals_show_on_the_form(monkeypatch) -> None:
    def refuse(**kwargs):
        raise services.TableError("the club is closed tonight")

    monkeypatch.setattr(services, "table_create", refuse)
    res = _client_for(_user("olga")).post(reverse("table_new"), _new_table_data())
    assert res.status_code == 200
    assert "the club is closed tonight" in res.content.decode()


# ---------------------------------------------------------------------------------------------
# Private tables and invitations


def _private_table_by_form(owner) -> Table:
    c = _client_for(owner)
    res = c.post(reverse("table_new"), _new_table_data(visibility="private", small_blind="3", big_blind="6", stakes=""))
    table = Table.objects.get()
    assert res["Location"] == reverse("table_invite", kwargs={"table_id": table.id})
    assert (table.is_public, table.small_blind, table.big_blind) == (False, 3, 6)
    return table


def test_private_invite_link_lets_a_friend_in_and_a_stranger_gets_404() -> None:
    owner, friend, stranger = _user("olga"), _user("fred"), _user("stan")
    table = _private_table_by_form(owner)
    page = reverse("table", kwargs={"table_id": table.id})

    invite_page = _client_for(owner).get(reverse("table_invite", kwargs={"table_id": table.id}))
    link = invite_page.context["invite_url"]
    assert link == f"http://testserver{page}?invite={table.invite_code}"
    assert link in invite_page.content.decode()
    assert _client_for(owner).get(page).status_code == 200

    f = _client_for(friend)
    assert f.get(page).status_code == 404
    res = f.get(link)
    # The session remembers the invitation and the secret leaves the address bar.
    assert res.status_code == 302 and res["Location"] == page
    assert f.session["invited_tables"] == [[table.id, table.invite_code]]
    res = f.get(page)
    assert res.status_code == 200
    assert res.context["ws_url"] == f"/ws/tables/{table.id}/"
    assert "invite_url" not in res.context  # only the creator is shown the link

    # A friend with no account yet: the invitation is remembered, "Sign up to play" comes back
    # to the table, and the new player may open it (found by an audit: sign-up led to the lobby).
    from urllib.parse import quote

    newcomer = Client()
    assert newcomer.get(link)["Location"] == page
    html = newcomer.get(page).content.decode()
    assert f'href="/accounts/signup/?next={quote(page, safe="")}"' in html and "Sign up to play" in html
    res = newcomer.post(f"/accounts/signup/?next={quote(page, safe='')}", {
        "username": "newfriend", "display_name": "New Friend", "password1": "felt-and-chips-2026",
        "password2": "felt-and-chips-2026"})
    assert res["Location"] == page and newcomer.get(page).status_code == 200

    s = _client_for(stranger)
    assert s.get(page).status_code == 404
    assert s.get(f"{page}?invite=not-the-code").status_code == 404
    assert s.get(reverse("table_invite", kwargs={"table_id": table.id})).status_code == 404
    assert "invited_tables" not in s.session
    # A private table looks exactly like a missing one.
    assert s.get(reverse("table", kwargs={"table_id": table.id + 100})).status_code == 404


def test_an_invitation_for_one_table_opens_no_other(client) -> None:
    owner = _user("olga")
    first = _table(owner, name="First", is_public=False)
    second = _table(owner, name="Second", is_public=False)
    res = client.get(reverse("table", kwargs={"table_id": second.id}) + f"?invite={first.invite_code}")
    assert res.status_code == 404
    client.get(reverse("table", kwargs={"table_id": first.id}) + f"?invite={first.invite_code}")
    assert client.get(reverse("table", kwargs={"table_id": first.id})).status_code == 200
    assert client.get(reverse("table", kwargs={"table_id": second.id})).status_code == 404


def test_an_invitation_survives_signing_up(client) -> None:
    """The usual way in: a friend opens the link logged out, signs up, then sits down."""
    table = _table(_user("olga"), is_public=False)
    page = reverse("table", kwargs={"table_id": table.id})
    client.get(f"{page}?invite={table.invite_code}")
    assert client.get(page).status_code == 200
    password = "felt-river-7-queens"
    res = client.post(reverse("signup") + f"?next={page}", {
        "username": "newbie", "display_name": "Newbie", "password1": password, "password2": password,
    })
    assert res["Location"] == page
    assert client.get(page).status_code == 200
    client.post(reverse("table_sit", kwargs={"table_id": table.id}), {"buy_in": "300"})
    assert Seat.objects.get(table=table).user.username == "newbie"


def test_public_table_page_is_open_to_anyone(client) -> None:
    table = _table()
    res = client.get(reverse("table", kwargs={"table_id": table.id}))
    assert res.status_code == 200
    assert res.context["ws_url"] == f"/ws/tables/{table.id}/"
    assert res.context["buy_in"] == {"min": 50, "max": 1500, "default": 1000, "affordable": True, "default_bb": 100, "back": 0}


def test_default_buy_in_is_clipped_to_the_bankroll(client) -> None:
    from club.services import bankroll_to_table

    user = _user("pat")
    bankroll_to_table(user=user, amount=19_300, table_id=999)  # 700 left
    table = _table()
    res = _client_for(user).get(reverse("table", kwargs={"table_id": table.id}))
    assert res.context["bankroll"] == 700
    assert res.context["buy_in"]["default"] == 700


# ---------------------------------------------------------------------------------------------
# Sitting down and standing up


def _bankroll(user) -> int:
    return Profile.objects.get(user=user).bankroll


@pytest.mark.parametrize(
    ("buy_in", "message"),
    [
        ("49", "between 50 and 1,500 chips"),
        ("1501", "between 50 and 1,500 chips"),
        ("", "whole number of chips"),
        ("ten", "whole number of chips"),
        ("100.5", "whole number of chips"),
        # A good buy-in with a seat that is not one: the seat is what is wrong.
        ("500 seat=-1", "There is no such seat."),
        ("500 seat=10", "There is no such seat."),
        ("500 seat=x", "There is no such seat."),
    ],
)
def test_sit_with_a_bad_buy_in_shows_an_error_and_moves_no_chips(buy_in, message) -> None:
    user = _user("ann")
    table = _table()
    c = _client_for(user)
    buy_in, _sep, seat = buy_in.partition(" seat=")
    form = {"buy_in": buy_in, **({"seat": seat} if _sep else {})}
    res = c.post(reverse("table_sit", kwargs={"table_id": table.id}), form, follow=True)
    assert res.redirect_chain[-1][0] == reverse("table", kwargs={"table_id": table.id})
    assert any(message in m for m in _messages(res)), _messages(res)
    assert message in res.content.decode()
    assert _bankroll(user) == 20_000
    assert not Seat.objects.exists()
    assert list(LedgerEntry.objects.filter(user=user).values_list("kind", flat=True)) == ["grant"]


def test_sit_with_more_than_the_bankroll_is_refused() -> None:
    from club.services import bankroll_to_table

    user = _user("ann")
    bankroll_to_table(user=user, amount=19_900, table_id=999)  # 100 left
    table = _table()
    res = _client_for(user).post(reverse("table_sit", kwargs={"table_id": table.id}), {"buy_in": "500"}, follow=True)
    assert any("You have 100 chips" in m for m in _messages(res))
    assert _bankroll(user) == 100
    assert not Seat.objects.exists()
    with pytest.raises(ValueError, match="has 100 chips; 1,000 are needed"):  # grouped, as everywhere
        bankroll_to_table(user=user, amount=1000, table_id=999)


def test_sit_then_leave_returns_exact_chips_with_ledger_entries() -> None:
    user = _user("ann")
    table = _table()
    c = _client_for(user)
    res = c.post(reverse("table_sit", kwargs={"table_id": table.id}), {"buy_in": "737"}, follow=True)
    assert any("737 chips" in m for m in _messages(res))
    seat = Seat.objects.get(table=table, user=user)
    assert seat.stack == 737
    assert _bankroll(user) == 20_000 - 737

    # A second seat for the same player is refused and moves nothing.
    res = c.post(reverse("table_sit", kwargs={"table_id": table.id}), {"buy_in": "100"}, follow=True)
    assert any("already have a seat" in m for m in _messages(res))
    assert _bankroll(user) == 20_000 - 737

    res = c.post(reverse("table_leave", kwargs={"table_id": table.id}), follow=True)
    assert any("737 chips are back" in m for m in _messages(res))
    assert res.content.decode().count("737 chips are back") == 1  # shown once, not by base.html too
    assert not Seat.objects.filter(table=table).exists()
    assert _bankroll(user) == 20_000
    rows = list(LedgerEntry.objects.filter(user=user).order_by("id").values_list("kind", "account", "amount", "balance_after"))
    assert rows == [
        ("grant", "bankroll", 20_000, 20_000),
        ("buy_in", "bankroll", -737, 19_263),
        ("buy_in", f"table:{table.id}", 737, None),
        ("cash_out", f"table:{table.id}", -737, None),
        ("cash_out", "bankroll", 737, 20_000),
    ]
    # Both accounts balance: the table account is back to zero.
    assert sum(r[2] for r in rows if r[1] == f"table:{table.id}") == 0


def test_leave_without_a_seat_says_so() -> None:
    table = _table()
    res = _client_for(_user("ann")).post(reverse("table_leave", kwargs={"table_id": table.id}), follow=True)
    assert any("no seat" in m for m in _messages(res))


def test_sit_needs_a_login_and_a_private_table_needs_an_invitation(client) -> None:
    table = _table(_user("olga"), is_public=False)
    res = client.post(reverse("table_sit", kwargs={"table_id": table.id}), {"buy_in": "500"})
    assert res.status_code == 302 and res["Location"].startswith(reverse("login"))

    stranger = _user("stan")
    s = _client_for(stranger)
    assert s.post(reverse("table_sit", kwargs={"table_id": table.id}), {"buy_in": "500"}).status_code == 404
    assert _bankroll(stranger) == 20_000 and not Seat.objects.exists()

    s.get(reverse("table", kwargs={"table_id": table.id}) + f"?invite={table.invite_code}")
    s.post(reverse("table_sit", kwargs={"table_id": table.id}), {"buy_in": "500"})
    assert Seat.objects.get(table=table).user == stranger
    assert _bankroll(stranger) == 19_500


def test_sit_and_leave_are_post_only() -> None:
    table = _table()
    c = _client_for(_user("ann"))
    # A visit is sent to the table (club.middleware.ButtonAddressMiddleware) and seats nobody.
    for name in ("table_sit", "table_leave"):
        res = c.get(reverse(name, kwargs={"table_id": table.id}))
        assert res.status_code == 302 and res.headers["Location"] == reverse("table", args=[table.id])
    assert not Seat.objects.filter(table=table).exists()
    assert c.put(reverse("table_sit", kwargs={"table_id": table.id})).status_code == 405


def test_two_players_sitting_deal_a_hand_and_leaving_mid_hand_loses_no_chip(settings) -> None:
    pytest.importorskip("rules_engine.games.patchpatch")
    pytest.importorskip("rules_engine.notation")  # settling a hand writes its history
    settings.TABLE_DEAL_SECONDS = 0  # deal as soon as two sit, without the usual short wait
    table = _table()
    ann, bob = _user("ann"), _user("bob")
    _client_for(ann).post(reverse("table_sit", kwargs={"table_id": table.id}), {"buy_in": "1000"})
    _client_for(bob).post(reverse("table_sit", kwargs={"table_id": table.id}), {"buy_in": "1000"})
    assert table.hands.count() == 1
    res = _client_for(ann).post(reverse("table_leave", kwargs={"table_id": table.id}), follow=True)
    assert any("when this hand ends" in m or "are back" in m for m in _messages(res)), _messages(res)
    # Chips only moved between the two players and the house.
    bankrolls = sum(Profile.objects.filter(user__in=[ann, bob]).values_list("bankroll", flat=True))
    stacks = sum(Seat.objects.filter(table=table).values_list("stack", flat=True))
    rake = sum(LedgerEntry.objects.filter(account="house", table_id=table.id).values_list("amount", flat=True))
    assert bankrolls + stacks + rake == 40_000


# ---------------------------------------------------------------------------------------------
# Demo data


def test_seed_demo_adds_no_demo_accounts_to_a_database_url_site_unless_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """Found by an audit: the README's one-time step (`make run` with DATABASE_URL) put players
    with the README's password into a production database, and put them back after deletion."""
    from io import StringIO

    from django.core.management import call_command

    monkeypatch.setenv("DATABASE_URL", "postgresql://example/prod")
    monkeypatch.delenv("SEED_DEMO", raising=False)
    out = StringIO()
    call_command("seed_demo", stdout=out)
    assert not get_user_model().objects.filter(username__in=["alice", "bob", "carol"]).exists()
    assert not Table.objects.exists()
    assert "SEED_DEMO=1" in out.getvalue() and "createsuperuser" in out.getvalue()
    assert "patchpatch-demo" not in out.getvalue()
    monkeypatch.setenv("SEED_DEMO", "1")
    call_command("seed_demo", stdout=StringIO())
    assert get_user_model().objects.filter(username__in=["alice", "bob", "carol"]).count() == 3
    monkeypatch.delenv("SEED_DEMO")
    call_command("seed_demo", "--demo", stdout=out)
    assert "patchpatch-demo" in out.getvalue()


def test_seed_demo_is_idempotent(monkeypatch: pytest.MonkeyPatch) -> None:
    from io import StringIO

    monkeypatch.delenv("DATABASE_URL", raising=False)

    from django.core.management import call_command

    out = StringIO()
    call_command("seed_demo", stdout=out)
    call_command("seed_demo", stdout=StringIO())
    users = get_user_model().objects.filter(username__in=["alice", "bob", "carol"])
    assert users.count() == 3
    assert all(u.check_password("patchpatch-demo") for u in users)
    assert sorted(Profile.objects.values_list("bankroll", flat=True)) == [20_000] * 3
    assert LedgerEntry.objects.filter(kind="grant").count() == 3
    public = {(t.game, t.small_blind, t.big_blind, t.speed, t.max_seats) for t in Table.objects.filter(is_public=True)}
    # Patch-Patch, and the two games a newcomer most likely knows (an audit).
    assert public == {("PP", 5, 10, "medium", 3), ("PP", 10, 20, "fast", 2), ("NT", 5, 10, "medium", 6),
                      ("PO", 5, 10, "medium", 6)}
    private = Table.objects.get(is_public=False, club__isnull=True)  # the demo club has its own table
    assert private.created_by.username == "alice"
    assert f"/tables/{private.id}/?invite={private.invite_code}" in out.getvalue()
    assert "alice" in out.getvalue() and "patchpatch-demo" in out.getvalue()
    from django.utils import timezone

    from club.models import GameNight

    night = GameNight.objects.get()  # one night on the demo club's calendar, not one a run
    assert night.starts_at > timezone.now() and night.starts_at.weekday() == 3
    assert [(r.user.username, r.answer) for r in night.replies.all()] == [("bob", "yes")]


def test_the_lobby_marks_where_the_player_sits_and_lists_their_club_tables() -> None:
    from tests.club.helpers import club_with_people

    player = _user("sitter")
    public = _table(name="Public seat")
    _table(name="Other felt")
    services.table_take_seat(table_id=public.id, user=player, buy_in=700)
    p = club_with_people(chips=3000)
    club_table = services.table_create(creator=p.host, name="Club den", small_blind=5, big_blind=10, club=p.club)
    services.table_take_seat(table_id=club_table.id, user=p.member, buy_in=1200)
    body = _client_for(player).get(reverse("lobby")).content.decode()
    row = body.split(">Public seat<", 1)[1].split("</li>", 1)[0]
    assert "Your seat · 700" in row
    assert "Your seat" not in body.split(">Other felt<", 1)[1].split("</li>", 1)[0]
    assert "Your seats at club tables" not in body and "Club den" not in body
    # A club member finds the club table they sit at in the lobby, with the club's name.
    body = _client_for(p.member).get(reverse("lobby")).content.decode()
    assert "Your seats at club tables" in body
    row = body.split(">Club den<", 1)[1].split("</li>", 1)[0]
    assert "Your seat · 1,200" in row and p.club.name in row and "Invite link" not in row
    # Nobody else sees it; a closed table is not listed.
    assert "Club den" not in _client_for(p.host).get(reverse("lobby")).content.decode()
    services.table_close(table_id=club_table.id)
    assert "Club den" not in _client_for(p.member).get(reverse("lobby")).content.decode()



def test_a_host_makes_a_new_invite_link_and_the_old_one_opens_nothing() -> None:
    owner, friend, latecomer, player = _user("olga"), _user("fred"), _user("lars"), _user("pia")
    table = _private_table_by_form(owner)
    page = reverse("table", kwargs={"table_id": table.id})
    old_link = f"{page}?invite={table.invite_code}"
    f, p = _client_for(friend), _client_for(player)
    f.get(old_link)
    p.get(old_link)
    assert f.get(page).status_code == 200
    services.table_take_seat(table_id=table.id, user=player, buy_in=500)  # a player, seated
    # Only the table's creator makes a new link; a guest's try changes nothing.
    f.post(reverse("table_host_new_invite", kwargs={"table_id": table.id}))
    table.refresh_from_db()
    assert f"invite={table.invite_code}" in old_link
    o = _client_for(owner)
    res = o.post(reverse("table_host_new_invite", kwargs={"table_id": table.id}), follow=True)
    table.refresh_from_db()
    assert f"invite={table.invite_code}" not in old_link
    assert res.context["invite_url"].endswith(f"?invite={table.invite_code}")
    assert "The old one no longer opens the table." in res.content.decode()
    # The old link opens nothing, not even in the browser that came by it; the new one does.
    assert f.get(page).status_code == 404
    late = _client_for(latecomer)
    assert late.get(old_link).status_code == 404
    assert late.get(f"{page}?invite={table.invite_code}").status_code == 302
    assert late.get(page).status_code == 200
    # The seated player keeps their way in, as does an older session's bare table id: nothing.
    assert p.get(page).status_code == 200
    session = f.session
    session["invited_tables"] = [table.id]
    session.save()
    assert f.get(page).status_code == 404
    assert "Make a new invite link" in o.get(page).content.decode()


@pytest.mark.parametrize(("lang", "amount"), [("en", "1,250"), ("he", "1,250"), ("ru", "1\u00a0250")])
def test_the_chips_in_a_message_are_grouped_as_the_table_groups_them(lang: str, amount: str) -> None:
    """Found by an audit: a Hebrew page said "2050 chips" after leaving while its table said
    "2,050" (Django's Hebrew number format does not group)."""
    table = _table()
    c = _client_for(_user("ann"))
    c.cookies["lang"] = lang
    c.post(reverse("table_sit", kwargs={"table_id": table.id}), {"buy_in": "1250"})
    res = c.post(reverse("table_leave", kwargs={"table_id": table.id}), follow=True)
    assert any(amount in m for m in _messages(res)), _messages(res)


def test_my_tables_lists_each_seat_and_whose_turn_it_is(client) -> None:
    """What a table page shows of the player's other tables (templates/table.html, table.js)."""
    import json

    ann, ben = _user("ann"), _user("ben")
    one = _table(name="One", game="NT")
    two = _table(name="Two", game="NT")
    for t in (one, two):
        for u in (ann, ben):
            services.table_take_seat(table_id=t.id, user=u, buy_in=500)
    assert json.loads(client.get(reverse("my_tables")).content) == {"tables": []}  # nobody logged in
    res = _client_for(ann).get(reverse("my_tables"))
    assert res["Cache-Control"] == "no-store"
    rows = {r["name"]: r for r in json.loads(res.content)["tables"]}
    assert set(rows) == {"One", "Two"} and rows["One"]["url"] == reverse("table", args=[one.id])
    import datetime as dt

    from django.utils import timezone

    from rules_engine.games import get_variant
    from tables.models import Hand

    for t in (one, two):  # the deal's pause runs out: each table deals its first hand
        services.table_expire(table_id=t.id, now=timezone.now() + dt.timedelta(hours=1))
    turns = {who.username: {r["name"]: r["turn"] for r in
                            json.loads(_client_for(who).get(reverse("my_tables")).content)["tables"]}
             for who in (ann, ben)}
    for name, table in (("One", one), ("Two", two)):
        hand = Hand.objects.get(table=table, ended__isnull=True)
        state = get_variant(hand.game).from_json(hand.state)
        actor = hand.players[state.actors()[0]][1]
        assert turns["ann"][name] == (actor == ann.pk) and turns["ben"][name] == (actor == ben.pk)
        assert turns["ann"][name] != turns["ben"][name]
    # The table page has the strip, for the script to fill.
    page = _client_for(ann).get(reverse("table", args=[one.id])).content.decode()
    assert f'id="other-tables" data-url="{reverse("my_tables")}" data-current="{one.id}"' in page
