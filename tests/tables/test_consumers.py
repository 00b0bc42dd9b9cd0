"""The table websocket: players, spectators, reconnects, bad input, races and hidden cards."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from config.asgi import application
from tables.models import Table
from tables.services import retry_when_busy
from tests.tables.helpers import current_state, seated_table, user_for_index

pytestmark = [pytest.mark.django_db(transaction=True)]

CARD_RE = re.compile(r"\b([2-9TJQKA][cdhs])\b")


@retry_when_busy
def _cookie_for(user: Any) -> bytes:
    # Logging in writes the user's row; the tests' shared-cache SQLite refuses that at once
    # ("table is locked", no busy wait) while a socket opened just before draws its first
    # picture, which reads the row: tried again, as the site's own writers are.
    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}".encode()


async def _connect(table_id: int, user: Any = None, query: str = "") -> WebsocketCommunicator:
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    if user is not None:
        headers.append((b"cookie", await database_sync_to_async(_cookie_for)(user)))
    path = f"/ws/tables/{table_id}/" + (f"?{query}" if query else "")
    comm = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await comm.connect()
    assert connected, "websocket refused"
    return comm


async def _next_state(comm: WebsocketCommunicator, timeout: float = 3) -> dict[str, Any]:
    while True:
        msg = json.loads(await comm.receive_from(timeout=timeout))
        if msg["type"] == "state":
            return msg


async def _drain(comm: WebsocketCommunicator, first: float = 0) -> list[dict[str, Any]]:
    """Every message until none has come for 0.15 s. With ``first``, an answer is expected: wait
    up to ``first`` seconds for it (one that needs a database round trip takes 10-50 ms here, but
    a pause of a loaded machine longer than 0.15 s would leave the list empty)."""
    out = []
    if first and not await comm.receive_nothing(timeout=first):
        out.append(json.loads(await comm.receive_from()))
    while not await comm.receive_nothing(timeout=0.15):
        out.append(json.loads(await comm.receive_from()))
    return out


def _hidden_cards_for(table: Table, viewer_index: int | None) -> set[str]:
    """Cards this viewer must not see now: other players' hands and the undealt deck."""
    hand, state = current_state(table)
    snapshot = state.to_json()
    everything = set(CARD_RE.findall(json.dumps(snapshot)))
    visible = set(CARD_RE.findall(json.dumps(state.view_for(viewer_index))))
    return everything - visible


@pytest.fixture
def three_handed() -> tuple[Table, list[Any]]:
    return seated_table(n=3)


async def test_player_gets_own_snapshot_and_no_hidden_card(three_handed: Any) -> None:
    table, users = three_handed
    hand, state = await database_sync_to_async(current_state)(table)
    comms = []
    for i in range(3):
        user = await database_sync_to_async(user_for_index)(hand, i)
        comm = await _connect(table.id, user)
        snap = await _next_state(comm)
        assert snap["version"] == table.version
        hidden = await database_sync_to_async(_hidden_cards_for)(table, i)
        assert hidden, "other players hold cards this viewer must not see"
        leaked = hidden & set(CARD_RE.findall(snap["html"]))
        assert not leaked, f"seat {i} was sent hidden cards {leaked}"
        own = set(CARD_RE.findall(json.dumps(state.view_for(i))))
        assert own & set(CARD_RE.findall(snap["html"])), "a player sees their own cards"
        comms.append(comm)
    spectator = await _connect(table.id, None)
    snap = await _next_state(spectator)
    hidden = await database_sync_to_async(_hidden_cards_for)(table, None)
    assert not (hidden & set(CARD_RE.findall(snap["html"])))
    for c in comms + [spectator]:
        await c.disconnect()


async def test_action_reaches_every_viewer_with_next_version(three_handed: Any) -> None:
    table, users = three_handed
    hand, state = await database_sync_to_async(current_state)(table)
    actor = state.actors()[0]
    actor_user = await database_sync_to_async(user_for_index)(hand, actor)
    a = await _connect(table.id, actor_user)
    spectator = await _connect(table.id, None)
    v0 = (await _next_state(a))["version"]
    await _next_state(spectator)
    await a.send_to(text_data=json.dumps({"action": "call", "version": v0}))
    got_a = await _next_state(a)
    got_s = await _next_state(spectator)
    assert got_a["version"] == got_s["version"] == v0 + 1
    await a.disconnect()
    await spectator.disconnect()


async def test_bad_messages_get_errors_and_change_nothing(three_handed: Any) -> None:
    table, users = three_handed
    hand, state = await database_sync_to_async(current_state)(table)
    actor = state.actors()[0]
    other = next(i for i in range(3) if i != actor)
    user = await database_sync_to_async(user_for_index)(hand, other)
    comm = await _connect(table.id, user)
    v0 = (await _next_state(comm))["version"]
    junk = [
        "not json", "[]", "42", "null", json.dumps({"action": 5}), json.dumps({"action": "call"}),
        json.dumps({"action": "call", "version": "7"}), json.dumps({"action": "call", "version": v0}),
        json.dumps({"action": "swap", "cards": ["Zz", "Ah"], "version": v0}),
        json.dumps({"action": "raise_pot", "version": v0 + 99}), "{" * 5000, json.dumps({"action": "x" * 3000}),
        json.dumps({"action": "arrange", "order": "Ah", "version": v0}),
    ]
    for text in junk:
        await comm.send_to(text_data=text)
        msgs = await _drain(comm, first=5)
        assert any(m["type"] == "error" and m["message"] for m in msgs), text[:40]
    await comm.send_to(bytes_data=b"\x00\x01")
    assert any(m["type"] == "error" for m in await _drain(comm, first=5))
    refreshed = await database_sync_to_async(Table.objects.get)(id=table.id)
    assert refreshed.version == v0
    await comm.disconnect()


async def test_two_players_acting_at_once_exactly_one_applies(three_handed: Any) -> None:
    table, users = three_handed
    hand, state = await database_sync_to_async(current_state)(table)
    comms = []
    for i in range(3):
        user = await database_sync_to_async(user_for_index)(hand, i)
        comms.append(await _connect(table.id, user))
    v0 = (await asyncio.gather(*[_next_state(c) for c in comms]))[0]["version"]
    # Everyone sends "call" for the same version at the same instant: only the actor's can
    # apply, and only once.
    await asyncio.gather(*[c.send_to(text_data=json.dumps({"action": "call", "version": v0})) for c in comms])
    # Each socket's own answer, not a fixed pause (0.5 s was a guess at how long three writers on
    # SQLite take; a loaded CI machine can take longer): the actor's picture of what its call did,
    # the others' refusals. A socket answers its messages in order, so once all three answered,
    # every call has been applied or refused.
    actor = state.actors()[0]
    for i, c in enumerate(comms):
        while True:
            msg = json.loads(await c.receive_from(timeout=10))
            if msg["type"] == "error" or (i == actor and msg["version"] > v0):
                break
    refreshed = await database_sync_to_async(Table.objects.get)(id=table.id)
    assert refreshed.version == v0 + 1
    for c in comms:
        await c.disconnect()


async def test_reconnect_gets_a_fresh_snapshot(three_handed: Any) -> None:
    table, users = three_handed
    hand, state = await database_sync_to_async(current_state)(table)
    user = await database_sync_to_async(user_for_index)(hand, 0)
    first = await _connect(table.id, user)
    s1 = await _next_state(first)
    await first.disconnect()
    second = await _connect(table.id, user)
    s2 = await _next_state(second)
    assert s2["version"] == s1["version"] and s2["html"] == s1["html"]
    await second.send_to(text_data=json.dumps({"action": "snapshot"}))
    s3 = await _next_state(second)
    assert s3["version"] == s1["version"]
    await second.disconnect()


async def test_a_ping_is_answered_with_a_pong_and_changes_nothing(three_handed: Any) -> None:
    """The page asks a quiet socket whether it still carries messages (table.js, tick): the
    answer is a pong, exactly as the page looks for it, for a watcher too, and the table stays."""
    table, users = three_handed
    watcher = await _connect(table.id)
    before = await _next_state(watcher)
    for _ in range(3):
        await watcher.send_to(text_data=json.dumps({"action": "ping", "version": before["version"]}))
        assert await watcher.receive_from(timeout=3) == '{"type":"pong"}'
    await database_sync_to_async(table.refresh_from_db)()
    assert table.version == before["version"]
    assert await watcher.receive_nothing(timeout=0.2)
    await watcher.disconnect()


async def test_private_table_refuses_strangers() -> None:
    from tables import services
    from tests.tables.helpers import make_user

    owner = await database_sync_to_async(make_user)("owner1")
    table = await database_sync_to_async(services.table_create)(
        creator=owner, name="home", small_blind=1, big_blind=2, is_public=False
    )
    stranger = await database_sync_to_async(make_user)("stranger1")
    comm = WebsocketCommunicator(
        application, f"/ws/tables/{table.id}/",
        headers=[(b"origin", b"http://testserver"), (b"cookie", await database_sync_to_async(_cookie_for)(stranger))],
    )
    connected, _ = await comm.connect()
    assert not connected
    ok = await _connect(table.id, stranger, query=f"invite={table.invite_code}")
    await _next_state(ok)
    await ok.disconnect()
    missing = WebsocketCommunicator(application, "/ws/tables/999999/", headers=[(b"origin", b"http://testserver")])
    connected, _ = await missing.connect()
    assert not connected
    # Addresses with no route are refused as plainly (Channels raised "No route found" for each).
    for path in ("/ws/tables/-1/", "/ws/tables/x/", "/ws/nothing/", "/tables/1/"):
        nowhere = WebsocketCommunicator(application, path, headers=[(b"origin", b"http://testserver")])
        connected, _ = await nowhere.connect()
        assert not connected, path


async def test_other_origins_are_refused(three_handed: Any) -> None:
    table, _ = three_handed
    comm = WebsocketCommunicator(application, f"/ws/tables/{table.id}/", headers=[(b"origin", b"http://evil.example")])
    connected, _ = await comm.connect()
    assert not connected


async def test_a_page_on_another_port_of_the_same_host_is_refused(three_handed: Any) -> None:
    """Found by an audit: Channels' allowed-hosts check compares host names only, so a page of
    another program on another port of the same host opened a socket with the player's cookie.
    The Origin must be the site the browser reached, port included (config/origin.py)."""
    table, users = three_handed
    cookie = await database_sync_to_async(_cookie_for)(users[0])
    path = f"/ws/tables/{table.id}/"
    for origin, host, ok in ((b"http://testserver:9999", b"testserver:8002", False),
                             (b"http://testserver", b"testserver:8002", False),
                             (b"https://testserver:8002", b"testserver:8002", True),
                             (b"http://testserver:8002", b"testserver:8002", True),
                             (b"http://TestServer", b"testserver:80", True),
                             (b"https://testserver", b"testserver:443", True)):
        comm = WebsocketCommunicator(application, path, headers=[(b"origin", origin), (b"host", host), (b"cookie", cookie)])
        connected, _ = await comm.connect()
        assert connected is ok, (origin, host)
        if connected:
            await comm.disconnect()
    from config.origin import same_origin

    assert not same_origin("null", "testserver") and not same_origin("file:///x", "testserver")
    assert same_origin("http://127.0.0.1:8000", "example.org")  # a trusted origin (the settings' default)


async def _two_sessions_at(table, player) -> list[tuple[Client, WebsocketCommunicator]]:
    """The player logged in twice (two devices), each session with a socket open at the table
    and its first picture read."""

    def login() -> tuple[Client, bytes]:
        client = Client()
        client.force_login(player)
        return client, f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}".encode()

    out = []
    for _ in range(2):
        client, cookie = await database_sync_to_async(login)()
        headers = [(b"origin", b"http://testserver"), (b"host", b"testserver"), (b"cookie", cookie)]
        comm = WebsocketCommunicator(application, f"/ws/tables/{table.id}/", headers=headers)
        assert (await comm.connect())[0]
        assert (await _next_state(comm))["type"] == "state"
        out.append((client, comm))
    return out


async def test_changing_the_password_closes_the_other_sessions_table_sockets() -> None:
    # Found by an audit: a socket opened before a password change (on another device, or by
    # whoever had the old password) went on chatting and acting for the player.
    table, users = await database_sync_to_async(seated_table)(n=2)
    hand, _ = await database_sync_to_async(current_state)(table)
    player = await database_sync_to_async(user_for_index)(hand, 0)

    def with_password() -> None:
        player.set_password("old-felt-2026")
        player.save()

    await database_sync_to_async(with_password)()

    (changing_client, staying), (_other, other) = await _two_sessions_at(table, player)
    response = await database_sync_to_async(changing_client.post)(
        "/accounts/me/password/", {"old_password": "old-felt-2026", "new_password1": "new-felt-2026-x",
                                   "new_password2": "new-felt-2026-x"})
    assert response.status_code == 302
    said = json.loads(await other.receive_from(timeout=3))
    assert said["type"] == "error" and "password was changed" in said["message"]
    assert await other.receive_output(timeout=3) == {"type": "websocket.close", "code": 4401}
    assert await staying.receive_nothing(timeout=0.3)  # the device that changed it plays on
    await staying.disconnect()


async def test_logging_out_closes_that_sessions_table_sockets_only() -> None:
    # Found by an audit: a tab left open after logging out kept receiving the player's cards
    # and could still act for them.
    table, users = await database_sync_to_async(seated_table)(n=2)
    hand, _ = await database_sync_to_async(current_state)(table)
    player = await database_sync_to_async(user_for_index)(hand, 0)

    (leaving_client, leaving), (_other, staying) = await _two_sessions_at(table, player)
    response = await database_sync_to_async(leaving_client.post)("/accounts/logout/")
    assert response.status_code in (200, 302)
    said = json.loads(await leaving.receive_from(timeout=3))
    assert said["type"] == "error" and "logged out" in said["message"]
    assert await leaving.receive_output(timeout=3) == {"type": "websocket.close", "code": 4401}
    assert await staying.receive_nothing(timeout=0.3)
    await staying.disconnect()


def test_the_session_middlewares_send_is_passed_by_only_where_it_does_nothing() -> None:
    """A table socket sends past Channels' session wrapper (it saves sessions on HTTP responses
    only); a wrapper that would act on a websocket message is kept."""
    from channels.sessions import InstanceSessionWrapper

    from tables.consumers import _send_past_the_session

    async def server_send(message: dict[str, Any]) -> None:
        return None

    scope = {"type": "websocket", "cookies": {}}
    wrapper = InstanceSessionWrapper(scope, server_send)
    assert _send_past_the_session(wrapper.send) is server_send
    assert _send_past_the_session(server_send) is server_send

    class SavesOnWebsockets(InstanceSessionWrapper):
        save_message_types = ["http.response.start", "websocket.send"]

    keeping = SavesOnWebsockets(scope, server_send)
    assert _send_past_the_session(keeping.send) == keeping.send


async def test_a_player_socket_sends_past_the_session_wrapper_and_still_knows_its_player(three_handed: Any) -> None:
    from channels.sessions import InstanceSessionWrapper

    from tables import consumers

    table, users = three_handed
    hand, _state = await database_sync_to_async(current_state)(table)
    user = await database_sync_to_async(user_for_index)(hand, 0)
    comm = await _connect(table.id, user)
    snap = await _next_state(comm)
    assert 'class="panel"' in snap["html"]  # the session's player: their own buttons
    mine = [c for c in list(consumers._open) if c.table_id == table.id]
    assert mine and all(getattr(c.base_send, "__func__", None) is not InstanceSessionWrapper.send for c in mine)
    assert all(c.scope["user"].pk == user.pk for c in mine)
    await comm.send_json_to({"action": "ping"})
    assert json.loads(await comm.receive_from(timeout=3)) == {"type": "pong"}
    await comm.disconnect()


def test_a_pictures_text_is_the_same_json_value_made_faster() -> None:
    from django.utils.safestring import mark_safe

    from tables import consumers

    snap = {"type": "state", "version": 12, "html": mark_safe('<p class="pot">קופה · Банк “x” \\ \n</p>'),
            "clock": "decision", "deadline": 1765000000.25, "my_turn": True, "last": None,
            "chat": {"lines": [{"id": 3, "name": "Дима", "text": "שלום"}], "muted": [4]}}
    text = consumers.message_text(snap)
    assert json.loads(text) == json.loads(json.dumps(snap)) == snap
    assert consumers.orjson is not None  # a dependency: the fast path is the one taken
    assert "קופה" in text and text != json.dumps(snap)  # UTF-8 as it is, no \u escapes
    # What Daphne sends is the text's UTF-8, and the text is a str like any other.
    assert text.encode("utf8") == text.encode("UTF-8") == str(text).encode("utf-8") == text.encode()
    assert text.encode("utf-16") == str(text).encode("utf-16")
    assert text.encode("ascii", "replace") == str(text).encode("ascii", "replace")
    assert text == str(text) and text[:9] == '{"type":"' and type(text[:9]) is str
    # A value orjson refuses is still sent, by json.
    big = {"type": "state", "version": 2**70, "html": ""}
    assert json.loads(consumers.message_text(big)) == big
