"""The hand-history checker page, and hostile uploads: every broken or random file gets a clear
message and a 400 (200 for htmx), never a server error."""

from __future__ import annotations

import random
import string

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from tables.selectors import hand_history_text
from tests.tables.helpers import play_passively, seated_table

pytestmark = pytest.mark.django_db


def _history() -> str:
    table, users = seated_table(n=3)
    return hand_history_text(hand=play_passively(table), user=None)


def test_a_site_history_replays_and_its_deck_checks_out(client: Client) -> None:
    text = _history()
    res = client.post("/hands/check/", {"text": text})
    assert res.status_code == 200
    body = res.content.decode()
    assert "Patch-Patch" in body and "The deck commitment holds" in body
    upload = SimpleUploadedFile("hand.phh", text.encode(), content_type="application/toml")
    res = client.post("/hands/check/", {"file": upload}, HTTP_HX_REQUEST="true")
    assert res.status_code == 200 and "The deck commitment holds" in res.content.decode()
    assert "<html" not in res.content.decode()


def test_a_tampered_history_is_flagged(client: Client) -> None:
    text = _history()
    import tomllib

    fields = tomllib.loads(text)
    first = fields["_deck_reveal"][0]
    bad = text.replace(first, first[:-1] + ("1" if first[-1] == "0" else "0"))
    res = client.post("/hands/check/", {"text": bad})
    assert "✗" in res.content.decode()


def _mutations(text: str, rng: random.Random) -> list[str]:
    out = ["", " ", "\x00", "[[[[", "variant = 'ZZ'", "variant = 'PP'\nactions = 5", text[: len(text) // 2]]
    lines = text.splitlines()
    for _ in range(60):
        copy = list(lines)
        i = rng.randrange(len(copy))
        choice = rng.randrange(5)
        if choice == 0:
            del copy[i]
        elif choice == 1:
            copy[i] = copy[i].replace("p1", "p9")
        elif choice == 2:
            copy[i] = "".join(rng.choice(string.printable) for _ in range(rng.randrange(1, 80)))
        elif choice == 3:
            copy.insert(i, copy[i])
        else:
            copy[i] = copy[i].replace("1", "-1").replace("c", "x")
        out.append("\n".join(copy))
    return out


def test_hostile_histories_get_clear_errors_never_a_crash(client: Client) -> None:
    text = _history()
    rng = random.Random(7)
    for bad in _mutations(text, rng):
        res = client.post("/hands/check/", {"text": bad})
        assert res.status_code in (200, 400), bad[:60]
    too_big = SimpleUploadedFile("big.phh", b"x" * 3_000_001)
    res = client.post("/hands/check/", {"file": too_big})
    assert res.status_code == 400 and "too large" in res.content.decode()
    binary = SimpleUploadedFile("bin.phh", bytes(range(256)))
    res = client.post("/hands/check/", {"file": binary})
    assert res.status_code == 400 and "UTF-8" in res.content.decode()
    assert client.post("/hands/check/", {}).status_code == 400
    # Valid TOML nested thousands deep (a fuzzer's find: it ran the reader out of stack).
    for deep in ("a = " + "[" * 5000 + "]" * 5000, "a = " + "{b = " * 3000 + "1" + "}" * 3000,
                 "[1]\n" + text.replace("actions", "x = " + "[" * 5000 + "]" * 5000 + "\nactions", 1)):
        res = client.post("/hands/check/", {"text": deep})
        assert res.status_code == 400 and "nested too deep" in res.content.decode()


def test_a_file_of_several_hands_is_checked_hand_by_hand(client: Client) -> None:
    """A table's .phhs download checks on this page: a row a hand, and a verdict over them all."""
    from rules_engine.notation import join_phhs

    table, _users = seated_table(n=3)
    first = hand_history_text(hand=play_passively(table), user=None)
    second = hand_history_text(hand=play_passively(table), user=None)
    several = "".join(join_phhs([(1, first), (2, second)]))
    res = client.post("/hands/check/", {"text": several})
    body = res.content.decode()
    assert res.status_code == 200
    assert "All 2 hands replay by the rules, and every deck commitment holds." in body
    assert body.count('<tr class="is-bad"') == 0 and body.count("<td dir=\"ltr\">1</td>") == 1
    # Uploaded as the table page gives it, the same.
    upload = SimpleUploadedFile("hands.phhs", several.encode(), content_type="application/toml")
    res = client.post("/hands/check/", {"file": upload}, HTTP_HX_REQUEST="true")
    assert res.status_code == 200 and "All 2 hands" in res.content.decode()


def test_a_bad_hand_in_a_file_is_named_and_the_others_still_checked(client: Client) -> None:
    import tomllib

    from rules_engine.notation import join_phhs

    table, _users = seated_table(n=3)
    good = hand_history_text(hand=play_passively(table), user=None)
    tampered = hand_history_text(hand=play_passively(table), user=None)
    reveal = tomllib.loads(tampered)["_deck_reveal"][0]
    tampered = tampered.replace(reveal, reveal[:-1] + ("1" if reveal[-1] == "0" else "0"))
    broken = good.replace('"p1 cc"', '"p1 zz"', 1) if '"p1 cc"' in good else good.replace("actions = [", "actions = [\n  \"p9 cc\",", 1)
    several = "".join(join_phhs([(7, good), (8, tampered), (9, broken)]))
    res = client.post("/hands/check/", {"text": several})
    body = res.content.decode()
    assert res.status_code == 400
    assert "3 hands checked." in body
    assert "1 does not replay by the rules." in body and "1 fails its deck check." in body
    assert body.count('<tr class="is-bad"') == 2
    assert "every deck commitment holds" not in body


def test_a_file_of_too_many_hands_has_its_first_hands_checked_and_the_rest_sent_to_the_command_line(
        client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    """A long night's file (an audit: 328 hands) is not refused as if it did not replay: its
    first hands are checked, and the page says how many were left for the command line."""
    from rules_engine.notation import join_phhs
    from tables import views_replay

    monkeypatch.setattr(views_replay, "MAX_HANDS", 3)
    text = _history()
    several = "".join(join_phhs([(i, text) for i in range(1, 6)]))
    upload = SimpleUploadedFile("night.phhs", several.encode())
    res = client.post("/hands/check/", {"file": upload})
    body = res.content.decode()
    assert res.status_code == 200 and "This file holds 5 hands: the first 3 are checked here." in body
    assert "python -m rules_engine verify FILE.phhs" in body and "does not replay" not in body
    assert body.count("<tr>") + body.count("<tr ") == 1 + 3  # the header and three hands
    assert "All 3 hands replay by the rules" in body


@pytest.mark.parametrize("game", ["PP", "NT", "F7S", "F5D", "BB"])
def test_a_site_history_names_its_players_p1_first(game: str) -> None:
    """PHH's ``players``: the names the table showed, in the history's own order (p1 first), so
    that each name goes with that player's stacks and winnings."""
    import tomllib

    from rules_engine import notation
    from tables.selectors import _display_name

    table, users = seated_table(n=3, game=game)
    hand = play_passively(table)
    fields = tomllib.loads(hand_history_text(hand=hand, user=None))
    parsed = notation.parse_phh(hand_history_text(hand=hand, user=None))
    by_user = {u.pk: _display_name(u) for u in users}
    expected = [by_user[int(hand.players[seat][1])] for seat in parsed.players]
    assert fields["players"] == expected
    assert len(set(expected)) == 3
    if game != "BB":  # chips: each name's start is that player's stack when the hand began
        starts = {by_user[int(u)]: int(start) for _seat, u, start in hand.players}
        assert [starts[name] for name in fields["players"]] == fields["starting_stacks"]


def test_the_checker_names_the_players_a_history_names(client: Client) -> None:
    import tomllib

    text = _history()
    names = tomllib.loads(text)["players"]
    body = client.post("/hands/check/", {"text": text}).content.decode()
    for name in names:
        assert f"<td><bdi>{name}</bdi></td>" in body
    # Without the field (or with one that does not fit the players), p1, p2, ...
    bare = "\n".join(line for line in text.splitlines() if not line.startswith("players ="))
    body = client.post("/hands/check/", {"text": bare}).content.decode()
    assert "<td><bdi>p1</bdi></td>" in body and f"<bdi>{names[0]}</bdi>" not in body
    wrong = bare + '\nplayers = ["only one"]\n'
    body = client.post("/hands/check/", {"text": wrong}).content.decode()
    assert "<td><bdi>p3</bdi></td>" in body and "<bdi>only one</bdi>" not in body


def test_the_verdicts_speak_the_pages_language(client: Client) -> None:
    """Found by an audit: a Hebrew page showed the engine's English sentence, and its button
    said צ׳ק (the poker check) for "verify"."""
    import re
    import tomllib

    text = _history()
    fields = tomllib.loads(text)
    client.cookies["lang"] = "he"
    page = client.get("/hands/check/").content.decode()
    assert 'type="submit">לבדוק</button>' in page
    # One revealed place taken out: the commitment still holds, that card's place is not shown.
    first = fields["_deck_reveal"][0]
    hidden = re.sub(r'\s*"' + re.escape(first) + r'",?', "", text, count=1)
    assert hidden != text
    body = client.post("/hands/check/", {"text": hidden}).content.decode()
    assert "חולק ביד הזאת, אבל המקום שלו בחפיסה החתומה לא נחשף" in body and "was dealt in this history" not in body
    # A salt changed: the commitment does not hold.
    bad = text.replace(first, first[:-1] + ("1" if first[-1] == "0" else "0"))
    body = client.post("/hands/check/", {"text": bad}).content.decode()
    assert "טביעת האצבע של החפיסה לא מתאימה" in body and "do not give the published commitment" not in body


def test_a_card_rooms_text_history_is_said_to_be_no_phh(client: Client) -> None:
    """Found by an audit: a PokerStars hand pasted in got the TOML parser's words only."""
    stars = ("PokerStars Hand #2478: Hold'em No Limit ($0.01/$0.02 USD) - 2026/12/01 20:00:00 ET\n"
             "Table 'Alpha' 6-max Seat #1 is the button\nSeat 1: dana ($2 in chips)\n")
    res = client.post("/hands/check/", {"text": stars})
    body = res.content.decode()
    assert res.status_code == 400 and "This is not a PHH hand history." in body
    assert "not valid TOML" in body  # the detail, folded away
    client.cookies["lang"] = "ru"
    assert "Это не история раздачи в формате PHH." in client.post("/hands/check/", {"text": stars}).content.decode()
    # A PHH history that breaks a rule still says what it breaks.
    broken = _history().replace("actions = [", "actions = [\n  \"p9 cc\",", 1)
    body = client.post("/hands/check/", {"text": broken}).content.decode()
    assert "This is not a PHH hand history." not in body
