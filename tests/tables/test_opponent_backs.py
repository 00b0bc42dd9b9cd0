"""At flop and draw games the other players' hands lie face down at their seats while they are in
the pot, as on a real table (and on PokerNow): two backs at Hold'em, four at Omaha, five at draw.
A folded hand, the viewer's own seat (their cards are under the board) and a hand over show none;
and a back is only a back: no card of another player is in the picture."""

from __future__ import annotations

import pytest

from tables import selectors, services
from tests.tables.helpers import current_state, play_passively, seated_table, user_for_index

pytestmark = pytest.mark.django_db

def _seats(html: str) -> list[tuple[str, int]]:
    """(classes, face-down cards) for each seat of a picture."""
    part = html.split('<ol class="seats">', 1)[1].split("</ol>", 1)[0]
    out = []
    for chunk in part.split('<li class="seat')[1:]:
        classes = chunk.split('"', 1)[0]
        out.append((classes, chunk.count("card--back")))
    return out


def _picture(table_id: int, user: object) -> str:
    snap = selectors.table_snapshot(table_id=table_id, user=user)
    assert snap is not None
    return str(snap["html"])


@pytest.mark.parametrize("game,count", [("NT", 2), ("PO", 4), ("F5D", 5)])
def test_the_other_players_hands_lie_face_down(game: str, count: int) -> None:
    table, users = seated_table(n=3, game=game)
    hand, state = current_state(table)
    me = user_for_index(hand, 0)
    seats = _seats(_picture(table.id, me))
    assert len(seats) == 3
    mine = [backs for classes, backs in seats if "seat--me" in classes]
    others = [backs for classes, backs in seats if "seat--me" not in classes]
    assert mine == [0] and others == [count, count]
    # A spectator sees every hand in play face down.
    assert [backs for _c, backs in _seats(_picture(table.id, None))] == [count] * 3
    # Only backs: none of the other players' cards is drawn anywhere in the picture.
    html = _picture(table.id, me)
    for i in (1, 2):
        for c in state.hole[i]:
            assert f'data-card="{c}"' not in html


def test_a_folded_hand_and_a_finished_one_show_no_backs() -> None:
    table, users = seated_table(n=3, game="NT")
    hand, state = current_state(table)
    actor = state.actors()[0]
    services.table_act(table_id=table.id, user=user_for_index(hand, actor),
                       message={"action": "fold", "version": table.version})
    table.refresh_from_db()
    watcher = user_for_index(hand, next(i for i in range(3) if i != actor))
    seats = _seats(_picture(table.id, watcher))
    folded = [backs for classes, backs in seats if "seat--folded" in classes]
    assert folded == [0]
    assert sorted(backs for classes, backs in seats if "seat--folded" not in classes) == [0, 2]
    # Played to the end: the hand is over and nothing lies face down any more.
    finished = play_passively(table)
    assert finished.pk == hand.pk and finished.ended is not None
    assert "phase-over" in _picture(table.id, watcher)
    assert all(backs == 0 for _c, backs in _seats(_picture(table.id, watcher)))

