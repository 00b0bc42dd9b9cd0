"""An all-in's run-out on the felt, in Chromium: the hands face up at once, the board a street at
a time, the result (winners' lines, nets, the stacks paid) at the end; and a felt drawn again
in the middle of it goes on from there. The felt is drawn by the server's own code from a real
hand; the clock is the browser's animations', set by hand (no waiting, nothing timed)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

from rules_engine.games import Action, HandSetup, get_variant
from tables.fragment import render_table
from tables.presenter import present

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]

# What a player sees at a moment of the run-out: each board card shown or not, the result's
# parts, and which stack the winner's seat shows.
_LOOK = """(at) => {
  for (const a of document.getAnimations()) { a.pause(); a.currentTime = at * 1000; }
  const shown = el => el && parseFloat(getComputedStyle(el).opacity) > 0.5 && getComputedStyle(el).visibility !== 'hidden';
  return {
    board: [...document.querySelectorAll('.board--single > .cards > li .card__face')].map(shown),
    results: shown(document.querySelector('.board__results')),
    net: [...document.querySelectorAll('.seat__net')].some(shown),
    was: [...document.querySelectorAll('.runout-was')].map(shown),
    now: [...document.querySelectorAll('.runout-now')].map(shown),
    hole: [...document.querySelectorAll('.seat__hole .card__face')].map(shown),
    mine: [...document.querySelectorAll('.board__mine .card__face')].map(shown),
    last: [...document.querySelectorAll('.history__list > li')].map(shown),
  };
}"""


def _all_in_preflop(lang: str) -> str:
    """Ann and Bob all in before the flop; Ann's felt at the hand's end, drawn by the server's code.
    (Drawn from the engine's view: a browser test cannot use the test database, Playwright's
    loop runs in this thread.)"""
    from rules_engine.cards import parse_cards

    # Bob Ah Ad, Ann Kc Kd (dealt from the big blind round); the board 2s 7h 9c, Jd, 4s (burns between): aces win.
    order = "Ah Kc Ad Kd 3c 2s 7h 9c 3d Jd 3h 4s 5c 6c 8c Tc Qc 2d 5d 6d 8d Td Qd 2h 5h 6h 8h Th Qh Kh Jh 9h 7c 4c Ac Jc 7d 4d 9d As Ks Qs Js Ts 9s 8s 7s 6s 5s 4h 3s 2c"
    deck = parse_cards(order.replace(" ", ""))
    state = get_variant("NT").start(HandSetup(stacks=(500, 500), button=0, small_blind=5, big_blind=10, deck=deck))
    while state.result is None:
        seat = state.actors()[0]
        legal = {a.kind: a for a in state.legal_actions(seat)}
        state.apply(Action(seat, "raise", legal["raise"].max_amount) if "raise" in legal
                    else Action(seat, "call" if "call" in legal else "check"))
    stacks = state.view_for(None)["players"]
    seats = [{"no": i + 1, "name": name, "empty": False, "me": i == 0, "stack": stacks[i]["stack"],
              "sitting_out": False, "user_id": 10 + i} for i, name in enumerate(["Ann", "Bob"])]
    with translation.override(lang):
        context = present(view=state.view_for(0), seats=seats, players=[[1, 10, 500], [2, 11, 500]])
        return render_table({**context, "table": None})


@pytest.mark.parametrize("lang", ["en", "he"])
def test_an_all_in_is_dealt_a_street_at_a_time_then_paid(browser: Any, screenshot: Any, lang: str) -> None:
    felt = _all_in_preflop(lang)
    assert 'data-runout="0" data-runout-steps="3"' in felt
    css = "".join((ROOT / "static/css" / f).read_text() for f in ("site.css", "table.css"))
    direction = "rtl" if lang == "he" else "ltr"
    page = browser.new_page(viewport={"width": 390, "height": 844})
    try:
        page.set_content(f'<!doctype html><html lang="{lang}" dir="{direction}"><head><meta name="viewport" '
                         f'content="width=device-width"><style>{css}</style></head><body><main id="table-root">'
                         f'{felt}<section class="history"><ul class="history__list"><li>Hand #2: Bob +500</li>'
                         f"<li>Hand #1: Ann +10</li></ul></section></main></body></html>")
        start, flop, turn, end = (page.evaluate(_LOOK, t) for t in (0.2, 1.6, 2.6, 4.0))
        page.evaluate(_LOOK, 1.6)
        screenshot(page, f"runout-flop-{lang}")
        page.evaluate(_LOOK, 4.0)
        screenshot(page, f"runout-end-{lang}")
        # Drawn again 2.5 s into it (another message of the same hand): it goes on from there.
        page.evaluate("""() => { const root = document.getElementById('table-root');
            root.innerHTML = root.innerHTML;  // as static/js/table.js draws each message
            root.style.setProperty('--runout-elapsed', '2.5s'); }""")
        again = page.evaluate(_LOOK, 0.2)
    finally:
        page.close()
    # The hands face up at once, at both seats and under the board (the viewer's own).
    assert start["board"] == [False] * 5 and start["hole"] == [True] * 4 and start["mine"] == [True, True]
    assert not start["results"] and not start["net"] and start["was"] == [True] and start["now"] == [False]
    assert start["last"] == [False, True]  # the last hands' list under the felt waits for it too
    assert flop["board"] == [True, True, True, False, False] and not flop["results"]
    assert turn["board"] == [True, True, True, True, False] and not turn["results"] and turn["was"] == [True]
    assert end["board"] == [True] * 5 and end["results"] and end["net"] and end["was"] == [False] and end["now"] == [True]
    assert end["last"] == [True, True]
    assert again["board"] == [True] * 4 + [False] and not again["results"]
