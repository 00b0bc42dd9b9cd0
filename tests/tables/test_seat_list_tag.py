"""``{% seat_list %}`` draws what the template loop it replaced drew, for every game, every step
of a hand and every viewer (compared with the loop's source, kept here), and for the rare rows."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.template import Context, Template
from django.utils import translation
from django.utils.safestring import mark_safe

from rules_engine.cards import Card
from tables import selectors
from tables.handreader import CardPicture
from tables.models import LIVE_GAMES
from tables.presenter import SeatRow, _Units
from tables.templatetags.table_cards import _banked
from tests.tables.helpers import act_once, seated_table

# The loop as templates/table.html had it before {% seat_list %}, with the seated player's user id
# (``data-user``, which the page uses to mark a player who is away) added since, and an all-in
# player's seat saying "arranging" and "ready" while they arrange, as the others' seats do, and
# during an all-in's run-out a winner's stack before it was paid (``was``), the two swapped by the style sheet,
# and the player's own seat out of chips leading to "Add chips".
LOOP = """      {% for s in seat_rows %}
      <li class="seat{% if s.empty %} seat--empty{% endif %}{% if s.me %} seat--me{% endif %}{% if s.acting %} seat--acting{% endif %}{% if s.folded %} seat--folded{% endif %}"{% if s.empty %} data-seat="{{ s.no }}"{% endif %}{% if s.me and not s.empty and not bb %} data-stack="{{ s.stack|stringformat:'d' }}"{% if s.in_hand or s.folded %}{% if phase and phase != "over" %} data-dealt{% endif %}{% endif %}{% endif %}{% if not s.empty and s.user_id is not None %} data-user="{{ s.user_id }}"{% endif %}>
        {% if s.empty %}
          <span class="seat__name muted">{% translate "Empty seat" %}</span>
        {% else %}
          <span class="seat__name" title="{{ s.name }}">{{ s.name }}</span>
          <span class="seat__badges">{% if s.button %}<abbr class="badge badge--button" title="{% translate 'Button' %}">D</abbr>{% endif %}{% if s.small_blind %}<abbr class="badge" title="{% translate 'Small blind' %}">SB</abbr>{% endif %}{% if s.big_blind %}<abbr class="badge" title="{% translate 'Big blind' %}">BB</abbr>{% endif %}{% if s.opener and phase != "over" %}<span class="badge badge--opener" title="{% translate 'Best open hand: opens this round' %}">{% translate "opens" %}</span>{% endif %}</span>
          <span class="seat__stack{% if bb and s.stack|stringformat:'s'|slice:':1' == '-' %} is-negative{% endif %}"{% if bb %} title="{% translate 'Balance in units' %}"{% endif %}>{% if s.was is not None and s.was != s.stack %}<span class="runout-stack"><bdi dir="ltr" class="runout-was">{{ s.was|chips }}</bdi><bdi dir="ltr" class="runout-now">{{ s.stack|chips }}</bdi></span>{% else %}<bdi dir="ltr">{{ s.stack|chips }}</bdi>{% endif %}</span>
          {% if s.bet %}<span class="seat__bet">{% translate "bet" %} <bdi dir="ltr">{{ s.bet|chips }}</bdi></span>{% endif %}
          <span class="seat__status">
            {% if s.folded %}{% translate "folded" %}{% elif s.acting and phase == "arrange" %}{% translate "arranging" %}{% if s.banked %}{{ bank_mark }}{% endif %}{% elif s.arranged and phase == "arrange" %}{% translate "ready" %}{% elif s.all_in %}{% translate "all-in" %}{% elif s.acting %}{% translate "to act" %} <span class="clock" data-clock></span>{% if s.banked %}{{ bank_mark }}{% endif %}{% elif s.act and phase != "over" and s.act != "bet" or s.act == "bet" and not s.bet and phase != "over" %}<span class="seat__act">{% translate s.act %}</span>{% elif s.leaving and s.in_hand and phase and phase != "over" %}{% translate "leaves after this hand" %}{% elif s.sitting_out and s.in_hand and phase and phase != "over" %}{% translate "break after this hand" %}{% elif s.sitting_out %}{% translate "on a break" %}{% elif s.stack == 0 and s.waiting or s.stack == 0 and s.wait_bb or s.stack == 0 and phase == "over" or s.stack == 0 and not phase %}{% if s.me %}<a class="seat__add" href="#add-chips">{% endif %}{% translate "out of chips" %}{% if s.me %}</a>{% endif %}{% elif s.short and s.waiting or s.short and s.wait_bb or s.short and phase == "over" or s.short and not phase %}{% if s.me %}<a class="seat__add" href="#add-chips">{% endif %}{% translate "short of a big blind: add chips" %}{% if s.me %}</a>{% endif %}{% elif s.wait_bb %}{% translate "waits for the big blind" %}{% elif s.waiting %}{% translate "waits for the next hand" %}{% endif %}
          </span>
          {% if s.net is not None %}<span class="seat__net {% if s.net > 0 %}plus{% elif s.net < 0 %}minus{% endif %}"><bdi dir="ltr">{% if s.net > 0 %}+{% elif s.net == 0 %}±{% endif %}{{ s.net|chips }}</bdi></span>{% endif %}
          {% if s.showing %}<span class="seat__showing muted">{% blocktranslate with hand=s.showing %}showing: {{ hand }}{% endblocktranslate %}</span>{% endif %}
          {% if s.up or s.down %}<div class="seat__stud" dir="ltr"><div class="seat__down">{% card_row s.down size="small" %}</div>{% card_row s.up size="small" %}</div>{% endif %}
          {% if s.hole %}<div class="seat__hole">{% card_row s.hole size="small" %}</div>{% endif %}
          {% if s.made %}<span class="seat__made">{{ s.made }}</span>{% endif %}
          {% if s.drawn is not None %}<span class="seat__drawn muted">{% if s.drawn == 0 %}{% translate "stood pat" %}{% else %}{% blocktranslate count n=s.drawn %}drew {{ n }} card{% plural %}drew {{ n }} cards{% endblocktranslate %}{% endif %}</span>{% endif %}
          {% if s.hands %}<div class="seat__shown">{% for h in s.hands %}<div class="shown-hand">{% if forloop.counter in s.boards_won %}{% blocktranslate with n=forloop.counter asvar won %}Won board {{ n }}{% endblocktranslate %}<span class="shown-hand__no is-won" role="img" title="{{ won }}" aria-label="{{ won }}">{{ forloop.counter }}</span>{% else %}<span class="shown-hand__no muted" role="img" aria-label="{% blocktranslate with n=forloop.counter %}Board {{ n }}{% endblocktranslate %}">{{ forloop.counter }}</span>{% endif %}{% card_row h size="small" %}</div>{% endfor %}</div>{% endif %}
        {% endif %}
      </li>
      {% endfor %}
"""

# And the Patch-Patch boards, before {% board_list %}.
BOARDS_LOOP = """      {% for b in boards %}
      <div class="board" aria-label="{% blocktranslate with n=b.index %}Board {{ n }}{% endblocktranslate %}">
        <h3 class="board__title">{% blocktranslate with n=b.index %}Board {{ n }}{% endblocktranslate %}</h3>
        <div class="board__cards">{% card_row b.cards blanks=b.blanks %}</div>
        {% if b.mine %}
        <div class="board__mine">
          {% card_row b.mine swappable=arranging %}
          <p class="board__made">{% if b.made %}{{ b.made }}{% else %}&nbsp;{% endif %}</p>
          {% if arranging %}<button type="button" class="swap-group" data-swap-group="{{ b.index }}" aria-pressed="false" title="{% translate "Swap this four with the four on another board: tap ⇅ there too" %}" aria-label="{% blocktranslate with n=b.index %}Board {{ n }}{% endblocktranslate %}: {% translate "Swap this four with the four on another board: tap ⇅ there too" %}"><span aria-hidden="true">⇅</span></button>{% endif %}
        </div>
        {% endif %}
        {% if b.results %}
        <ul class="board__results">{% for w in b.results %}
          <li class="win">{% blocktranslate with name=w.name amount=w.amount|chips %}<strong>{{ name }}</strong> wins <bdi dir="ltr">{{ amount }}</bdi>{% endblocktranslate %}{% if w.pot_label %} · {{ w.pot_label }}{% endif %} · {{ w.category }}{% if w.split %} · {% translate "split" %}{% endif %}</li>{% endfor %}
        </ul>
        {% endif %}
      </div>
      {% endfor %}
"""

OLD_BOARDS = Template("{% load i18n table_cards %}<div>" + BOARDS_LOOP + "</div>")
NEW_BOARDS = Template("{% load i18n table_cards %}<div>\n{% board_list boards arranging %}\n</div>")

OLD = Template("{% load i18n table_cards %}<ol>" + LOOP + "</ol>")
NEW = Template("{% load i18n table_cards %}<ol>\n{% seat_list seat_rows phase bb %}\n</ol>")


def _same(context: dict[str, Any]) -> str:
    # The time bank's mark, added since (drawn by the tag's own helper: the loop places it).
    context = {**context, "bank_mark": mark_safe(_banked())}
    old = re.sub(r"\s+", " ", OLD.render(Context(context))).strip()
    new = re.sub(r"\s+", " ", NEW.render(Context(context))).strip()
    assert new == old
    return new


def _same_boards(context: dict[str, Any]) -> str:
    old = re.sub(r"\s+", " ", OLD_BOARDS.render(Context(context))).strip()
    new = re.sub(r"\s+", " ", NEW_BOARDS.render(Context(context))).strip()
    assert new == old
    return new


def _pics(*cards: str) -> list[dict[str, Any]]:
    return [{"pic": CardPicture(Card.parse(c))} for c in cards]


@pytest.mark.parametrize("lang", ["en", "he", "ru"])
def test_rare_rows(lang: str) -> None:
    rows = [
        SeatRow(no=0),
        SeatRow(no=1, name='<b>"Long & odd" name</b>' * 3, empty=False, me=True, stack=1500, bet=40, acting=True,
                button=True, small_blind=True, net=0, showing="One pair", opener=True, drawn=1),
        SeatRow(no=2, name="Dana", empty=False, stack=0, folded=True, big_blind=True, net=-30, drawn=3,
                hands=[_pics("Ah", "Kd", "Qc", "Js"), _pics("2h", "3d", "4c", "5s")], hole=_pics("Th", "9h"),
                boards_won={2}, made="Two pair · low 8-6-4-3-2"),
        SeatRow(no=3, name="Eli", empty=False, stack="-2 1/3", all_in=True, net=_Units("7/3", "+2 1/3"),
                up=_pics("As", "Ks"), down=[{"hidden": True}, _pics("Qs")[0]]),
        SeatRow(no=4, name="Fay", empty=False, arranged=True, sitting_out=True, net=12, drawn=0),
        SeatRow(no=5, name="Gil", empty=False, waiting=True, stack="1", net=_Units("0", "0")),
        SeatRow(no=8, name="Jo", empty=False, waiting=True, stack=0),  # busted: chips to add
        SeatRow(no=10, name="Lev", empty=False, wait_bb=True, stack=0),  # busted: no blind comes to it
        SeatRow(no=11, name="Max", empty=False, wait_bb=True, stack=500),
        SeatRow(no=9, name="Kim", empty=False, waiting=True, stack="0"),  # Baseball: a balance of 0
        SeatRow(no=6, name="Hod", empty=False, sitting_out=True),
        SeatRow(no=7, name="Ira", empty=False, acting=True, banked=True),
        SeatRow(no=12, name="Noa", empty=False, all_in=True, acting=True),  # all-in, arranging
        SeatRow(no=13, name="Ori", empty=False, all_in=True, arranged=True),  # all-in, arranged
        SeatRow(no=14, name="Pia", empty=False, stack=2600, was=0, net=1600),  # a run-out: paid at its end
        SeatRow(no=15, name="Rom", empty=False, stack=40, was=40),  # nothing paid to show
        SeatRow(no=16, name="Uri", empty=False, me=True, waiting=True, stack=0),  # one's own seat, busted
    ]
    with translation.override(lang):
        for phase in ("", "arrange", "preflop", "over", "draw"):
            for bb in (None, {"over": False}):
                html = _same({"seat_rows": rows, "phase": phase, "bb": bb})
            if lang == "en":
                statuses = dict(re.findall(r'title="(Noa|Ori)">.*?<span class="seat__status">\s*([^<]*?)\s*<', html))
                assert statuses == ({"Noa": "arranging", "Ori": "ready"} if phase == "arrange"
                                    else {"Noa": "all-in", "Ori": "all-in"}), (phase, statuses)
        assert "&lt;b&gt;" in html and "<b>" not in html
        assert html.count('class="seat__bank"') == 1  # Ira's, who took time; not seat 1's, acting without
        assert html.count('class="shown-hand__no is-won"') == 1  # Dana's board 2
        assert html.count('class="seat__drawn muted"') == 3 and "drew 0" not in html  # Fay stood pat
        if lang == "en":
            assert html.count("out of chips") == 3 and html.count("waits for the next hand") >= 2
            assert html.count("waits for the big blind") == 1  # Max's
        assert html.count('class="shown-hand__no muted"') == 1
        assert html.count('class="seat__add"') == 1  # Uri's own seat leads to "Add chips"; Jo's does not
        assert html.count('class="runout-now"') == 1 and '<bdi dir="ltr" class="runout-was">0</bdi>' in html


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("game", sorted(LIVE_GAMES))
def test_every_step_of_a_hand_for_every_viewer(game: str) -> None:
    rng = random.Random(7)
    table, users = seated_table(game=game)
    checked = 0
    boards_seen: set[bool] = set()
    for _step in range(60):
        table.refresh_from_db()
        for lang in ("en", "he"):
            with translation.override(lang):
                for viewer in [*users, None]:
                    context = selectors.table_context(table_id=table.id, user=viewer)
                    assert context is not None
                    _same({"seat_rows": context["seat_rows"], "phase": context.get("phase", ""),
                           "bb": context.get("bb")})
                    if context.get("boards"):
                        html = _same_boards({"boards": context["boards"], "arranging": context.get("arranging")})
                        boards_seen.add("board__results" in html)
                        # A shown four's number is marked on each board its seat won a share of.
                        for row in context["seat_rows"]:
                            if row.hands:
                                assert row.boards_won == {b.index for b in context["boards"]
                                                          if any(w["name"] == row.name for w in b.results)}
                    checked += 1
        if not act_once(table, rng, passive=game == "PP"):
            break
    assert checked >= 8
    if game == "PP":
        assert boards_seen == {True, False}  # boards during the hand and with their winners


def test_boards_with_odd_names_and_splits() -> None:
    from tables.presenter import BoardRow

    boards = [BoardRow(index=i, cards=_pics("Ah", "Kd", "Qc"), blanks=2, mine=_pics("2h", "3d", "4c", "5s"),
                       made="One pair" if i == 1 else "",
                       results=[{"name": "<i>Ann & Bo</i>", "amount": 105, "category": "Straight", "split": True},
                                {"name": "Cy", "amount": 0, "category": "Flush", "split": False}] if i != 2 else [])
              for i in (1, 2, 3)]
    for lang in ("en", "he", "ru"):
        with translation.override(lang):
            for arranging in (True, False):
                html = _same_boards({"boards": boards, "arranging": arranging})
                assert "&lt;i&gt;Ann &amp; Bo&lt;/i&gt;" in html
