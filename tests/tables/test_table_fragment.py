"""``tables.fragment.render_table`` draws what the ``table`` partial of ``templates/table.html``
drew, byte for byte: for every live game, every step of a hand and every viewer, in English,
Hebrew and Russian, and for the rarer pictures (a table waiting for players, a player on a break,
splits and scoops, odd names). The partial's old source is kept here as the reference."""

from __future__ import annotations

import datetime as dt
import random
from types import SimpleNamespace
from typing import Any

import pytest
from django.template import Context, Template
from django.template.loader import render_to_string
from django.utils import timezone, translation

from club.models import Profile
from rules_engine.cards import Deck
from tables import selectors, services
from tables.fragment import render_table
from tables.models import LIVE_GAMES
from tests.tables.helpers import (
    act_once,
    current_state,
    make_user,
    play_passively,
    seated_table,
    user_for_index,
)

# The partial as templates/table.html had it before {% table_fragment %}: between
# "{% partialdef table inline %}" and "{% endpartialdef %}", verbatim, plus the hand a flop or draw
# player's cards make (``my_made``), the stakes and speed on the felt (``data-stakes``) and the
# "Show my cards" button after a hand (``can_show``), the choices before one's turn
# (``pre_actions``: "Fold" and "Call n" facing a bet), the call's amount on its button
# (``data-amount``) and the game on the felt (``data-game``, dealer's choice), and "More time"
# from the time bank (``time_bank``), the rabbit hunt (``data-rabbit``, ``rabbit``, ``can_rabbit``),
# the main and side pots during a hand with an all-in (``side_pots``), an all-in's run-out dealt
# street by street (``runout``), added since.
PARTIAL = """
  <section class="felt family-{{ family|default:'pp' }} phase-{{ phase|default:'waiting' }}{% if arranging %} is-arranging{% endif %}{% if bb %} game-bb{% endif %}"{% if table %} data-stakes="{{ table|stakes }}" data-speed="{{ table.get_speed_display }}" data-big-blind="{{ table.big_blind|stringformat:'d' }}" data-game="{{ table.game|game_name }}" data-straddles="{% if table.straddles and table.game in 'NT PT PO PO/8' %}on{% else %}off{% endif %}" data-run-twice="{% if table.run_twice and table.game in 'NT PT FT PO FO PO/8 FO/8' %}on{% else %}off{% endif %}" data-seven-deuce="{% if table.seven_deuce_bb and table.game in 'NT PT FT' %}{% widthratio table.seven_deuce_bb 1 table.big_blind as each %}{{ each|chips }}{% endif %}" data-rabbit="{% if table.rabbit_hunt and table.game in 'PP NT PT FT PO FO PO/8 FO/8' %}on{% else %}off{% endif %}" data-rules="{{ table.game|rules_url }}"{% endif %}{% if runout and phase == 'over' and not replay %} data-runout="{{ runout.from }}" data-runout-steps="{{ runout.steps }}"{% endif %} aria-label="{% translate 'Table' %}">
    <ol class="seats">
      {% seat_list seat_rows phase bb %}
    </ol>

    {% if phase %}
    <p class="pot">{% translate "Pot" %} <strong><bdi dir="ltr">{{ pot|chips }}</bdi></strong>{% if bomb %} <span class="pot__bomb">{% translate "Bomb pot" %}</span>{% endif %}{% if phase == "over" %} <span class="pot__paid">{% translate "paid out" %}</span>{% if rake %} <span class="pot__paid pot__rake">· {% blocktranslate with rake=rake|chips %}rake {{ rake }}{% endblocktranslate %}</span>{% endif %}{% endif %}{% if side_pots %} <span class="pot__side">({% for a in side_pots %}<span class="pot__part">{% if forloop.first %}{% translate "main pot" %}{% else %}{% blocktranslate with n=forloop.counter0 %}side pot {{ n }}{% endblocktranslate %}{% endif %}: <bdi dir="ltr">{{ a|chips }}</bdi></span>{% if not forloop.last %} · {% endif %}{% endfor %})</span>{% endif %}
      {% if phase == "arrange" %}<span class="phase-note">{% if arranging %}{% translate "Arrange your cards" %}{% else %}{% translate "Arrangement under way" %}{% endif %} <span class="clock" data-clock></span></span>{% endif %}
    </p>
    {% if bb %}{% include "tables/_baseball.html" %}{% endif %}
    {% if family == "pp" %}
    <div class="boards">
      {% board_list boards arranging %}
    </div>
    {% elif family == "flop" %}
    <div class="board board--single">
      <h3 class="board__title">{% translate "Board" %}</h3>
      {% card_row community.cards blanks=community.blanks %}
      {% if mine %}<div class="board__mine">{% card_row mine %}{% if my_made %}<p class="board__made">{{ my_made }}</p>{% endif %}</div>{% endif %}
    </div>
    {% if second_run %}<div class="board board--single board--second">
      <h3 class="board__title">{% translate "Second run" %}</h3>
      {% card_row second_run %}
    </div>
    {% endif %}{% elif family == "draw" and mine %}
    <div class="board board--single">
      <h3 class="board__title">{% translate "Your hand" %}</h3>
      {% card_row mine discardable=draw_allowed %}{% if my_made %}<p class="board__made">{{ my_made }}</p>{% endif %}
    </div>
    {% elif family == "stud" and community.cards or family == "stud" and my_made %}{% if community.cards %}
    <div class="board board--single board--shared">
      <h3 class="board__title">{% translate "Shared card" %}</h3>
      {% card_row community.cards %}
    </div>{% endif %}{% if my_made %}
    <p class="board__made made--stud">{% translate "Your hand" %}: {{ my_made }}</p>{% endif %}
    {% endif %}
    {% if rabbit %}<p class="rabbit-note">{% translate "Rabbit hunt: the faded cards are what would have come next. They change nothing." %}</p>
    {% endif %}{% if wins %}<ul class="board__results wins">{% for w in wins %}
      <li class="win">{% blocktranslate with name=w.name amount=w.amount|chips %}<strong>{{ name }}</strong> wins <bdi dir="ltr">{{ amount }}</bdi>{% endblocktranslate %}{% if w.pot_label %} · {{ w.pot_label }}{% endif %}{% if w.run %} · {% blocktranslate with n=w.run %}run {{ n }}{% endblocktranslate %}{% endif %}{% if w.split %} · {% translate "split" %}{% endif %}{% if w.side == "low" %} · {% translate "low" %}{% elif w.side == "high" %} · {% translate "high" %}{% endif %}{% if w.side == "nolow" %} · {% translate "no low: the high hand takes it all" %}{% endif %}{% if w.category %} · {{ w.category }}{% endif %}</li>{% endfor %}{% if bounty %}
      <li class="win win--bounty"><strong>{{ bounty.name }}</strong> <bdi dir="ltr">+{{ bounty.amount|chips }}</bdi> · {% translate "7-2 bounty" %}</li>{% endif %}
    </ul>{% endif %}
    {% if scoop_name %}<p class="scoop" role="status"><span aria-hidden="true">★</span> {% if family == "pp" and scoop_main %}{% blocktranslate with name=scoop_name %}{{ name }} scoops all three boards of the main pot!{% endblocktranslate %}{% elif family == "pp" %}{% blocktranslate with name=scoop_name %}{{ name }} scoops all three boards!{% endblocktranslate %}{% else %}{% blocktranslate with name=scoop_name %}{{ name }} scoops high and low!{% endblocktranslate %}{% endif %}</p>{% endif %}
    {% if phase == "over" and not bb.over %}<p class="muted next-hand">{% translate "Next hand in a moment…" %} <span class="clock" data-clock></span></p>{% endif %}
    {% else %}
    {% if table.next_hand_at %}<p class="waiting">{% if recent_hands %}{% translate "The next hand is dealt in" %}{% else %}{% translate "The first hand is dealt in" %}{% endif %} <span class="clock" data-clock></span></p>
    {% else %}<p class="waiting muted">{% translate "Waiting for players. A hand starts when two players are seated and not on a break." %}</p>{% endif %}
    {% endif %}

    {% if my_seat %}
    <div class="panel" role="group" aria-label="{% translate 'Your actions' %}">
      {% if arranging %}<p class="panel__hint">{% translate "Tap a card, then another, to swap them, or ⇅ on two boards to swap your fours there. Each group of four plays on the board above it." %}</p>{% endif %}{% if bring_in_hint %}<p class="panel__hint">{{ bring_in_hint }}</p>{% endif %}
      {% if draw_allowed %}<p class="panel__hint">{% translate "Tap the cards you want to throw away, then draw. Draw with none picked to stand pat." %}</p>
        <button type="button" class="act act--draw" data-draw data-key="d" data-label-none="{% translate "Stand pat" %}" data-label-some="{% translate "Draw {n}" %}"><span data-draw-label>{% translate "Stand pat" %}</span> <kbd>D</kbd></button>{% endif %}
      {% for a in actions %}
        <button type="button" class="act act--{{ a.kind }}" data-action="{{ a.kind }}"{% if a.kind == "call" %} data-amount="{{ a.amount }}"{% endif %} data-key="{{ a.key }}">{{ a.label }}{% if a.key %} <kbd>{{ a.key|upper }}</kbd>{% endif %}</button>
      {% endfor %}
      {% if sized %}<span class="sized" data-sized="{{ sized.kind }}">{% if sized.presets %}
        <span class="sized__presets" role="group" aria-label="{% translate 'Quick sizes' %}">{% for p in sized.presets %}<button type="button" class="sized__preset" data-size-preset="{{ p.amount }}" aria-pressed="false">{{ p.label }}</button>{% endfor %}</span>{% endif %}
        <input type="range" min="{{ sized.min }}" max="{{ sized.max }}" value="{{ sized.min }}" step="1" aria-label="{% translate 'Amount' %}" data-size-range>
        <input type="number" min="{{ sized.min }}" max="{{ sized.max }}" value="{{ sized.min }}" inputmode="numeric" aria-label="{% translate 'Amount' %}" data-size-input>
        <button type="button" class="act act--{{ sized.kind }}" data-sized-go data-key="{{ sized.key }}">{% if sized.kind == "bet" %}{% translate "Bet" as go %}{% else %}{% translate "Raise to" as go %}{% endif %}{{ go }}{% if go|slice:"-1:" != "-" %} {% endif %}<span data-size-show>{{ sized.min|chips }}</span>{% if sized.all_in %}<span data-size-allin data-at="{{ sized.max }}"{% if sized.min != sized.max %} hidden{% endif %}> · {% translate "all-in" %}</span>{% endif %}{% if sized.key %} <kbd>{{ sized.key|upper }}</kbd>{% endif %}</button>
      </span>{% endif %}
      {% if phase == "arrange" and arranged %}<p class="panel__hint">{% translate "Your arrangement is in. Waiting for the others." %}</p>{% endif %}{% if timed_out %}<p class="panel__hint panel__hint--timeout">{% translate "Your time ran out, so you are on a break from the next hand. Tap “I'm back” to keep playing." %}</p>{% endif %}{% if pre_actions %}<span class="pre" role="group" aria-label="{% translate 'Before your turn' %}">{% if pre_actions.call %}<button type="button" class="pre__btn" data-pre="check_fold" aria-pressed="false">{% translate "Fold" %}</button><button type="button" class="pre__btn" data-pre="call" data-amount="{{ pre_actions.call }}" aria-pressed="false">{% blocktranslate with amount=pre_actions.call|chips %}Call {{ amount }}{% endblocktranslate %}</button></span>{% else %}<button type="button" class="pre__btn" data-pre="check_fold" aria-pressed="false">{% translate "Check/fold" %}</button><button type="button" class="pre__btn" data-pre="check" aria-pressed="false">{% translate "Check" %}</button></span>{% endif %}{% endif %}{% if time_bank %}<button type="button" class="act act--quiet act--time" data-action="time" data-key="t" aria-label="{% blocktranslate with n=time_bank.step %}More time +{{ n }} s{% endblocktranslate %}" title="{% blocktranslate with n=time_bank.left %}Time bank: {{ n }} s left{% endblocktranslate %}"><span aria-hidden="true"><svg class="icon" viewBox="0 0 16 16" width="16" height="16"><circle cx="8" cy="9" r="5.8" fill="none" stroke="currentColor" stroke-width="1.6"/><path d="M8 6v3.2l2.2 1.4M6.2 1.6h3.6" fill="none" stroke="currentColor" stroke-width="1.6" stroke-linecap="round"/></svg> <span class="act__words">{% translate "More time" %}</span> {% translate "{n}s" as unit %}<bdi dir="ltr">+{{ time_bank.step }}</bdi>{{ unit|cut:"{n}" }}</span> <kbd>T</kbd></button>{% endif %}{% if can_show %}<button type="button" class="act act--quiet act--show" data-action="show_cards">{% translate "Show my cards" %}</button>{% endif %}{% if can_rabbit %}<button type="button" class="act act--quiet act--rabbit" data-action="rabbit" title="{% translate 'See the cards that would have come: everyone at the table sees them, and they change nothing' %}">{% translate "Hunt the rabbit" %}</button>{% endif %}{% if straddle is not None %}<button type="button" class="act act--quiet act--straddle" data-action="straddle_{% if straddle %}off{% else %}on{% endif %}" aria-pressed="{% if straddle %}true{% else %}false{% endif %}" title="{% translate 'Post twice the big blind whenever you sit left of it, before the cards; on until you turn it off' %}">{% translate "Straddle" %}</button>{% endif %}{% if run_twice is not None %}<button type="button" class="act act--quiet act--run-twice" data-action="run_twice_{% if run_twice %}off{% else %}on{% endif %}" aria-pressed="{% if run_twice %}true{% else %}false{% endif %}" title="{% translate 'When an all-in ends the betting before the river and everyone still in agrees, deal the rest of the board twice, half the pot on each; counts from the next hand dealt, and stays on until you turn it off' %}">{% translate "Run it twice" %}</button>{% endif %}
      <span class="panel__spacer"></span>
      {% if on_break %}
        <button type="button" class="act act--back" data-action="im_back">{% if break_pending and not timed_out %}{% translate "Keep playing" %}{% else %}{% translate "I'm back" %}{% endif %}</button>
      {% else %}
        <button type="button" class="act act--quiet" data-action="sit_out">{% translate "Break from next hand" %}</button>
      {% endif %}
    </div>
    {% endif %}
  </section>
  {% if hand.deck_commitment %}<p class="commitment muted">{% blocktranslate with n=hand.number %}Hand #{{ n }}{% endblocktranslate %} · {% translate "deck fingerprint" %} <code title="{{ hand.deck_commitment }}" dir="ltr">{{ hand.deck_commitment|slice:":16" }}…</code></p>{% endif %}
  {{ history_html }}
  """

REFERENCE = Template("{% load i18n static table_cards table_stakes %}" + PARTIAL)

LANGUAGES = ("en", "he", "ru")
# Names that must come out escaped, and one written right to left.
NAMES = ['<script>alert("x")</script>', "O'Brien \"Bo\" & <Co>", "דנה כהן"]


def _same(context: dict[str, Any]) -> str:
    """The new fragment is the old partial's render, and so is the page's partial (the tag)."""
    old = REFERENCE.render(Context(context))
    assert render_table(context) == old
    assert render_to_string("table.html#table", context) == old
    assert "<script>" not in old  # every name escaped
    return old


def _name(users: list[Any]) -> None:
    for user, name in zip(users, NAMES, strict=False):
        Profile.objects.filter(user=user).update(display_name=name)


def _every_viewer(table: Any, users: list[Any], langs: tuple[str, ...] = LANGUAGES) -> list[str]:
    """Each of ``users`` (seated or not) and an anonymous viewer, in each language."""
    pages = []
    for lang in langs:
        with translation.override(lang):
            for viewer in [*users, None]:
                context = selectors.table_context(table_id=table.id, user=viewer)
                assert context is not None
                pages.append(_same(context))
    return pages




@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("game", sorted(LIVE_GAMES))
def test_every_step_of_a_hand_for_every_viewer(game: str) -> None:
    rng = random.Random(11)
    table, users = seated_table(game=game)
    _name(users)
    stranger = make_user(f"s{table.id}")
    seen: set[str] = set()
    seen_html = ""
    for _step in range(80):
        table.refresh_from_db()
        for html in _every_viewer(table, [*users, stranger]):
            seen.update(mark for mark in MARKS if mark in html)
            if "data-size-show" in html and ("העלאה" in html or "הימור" in html):  # the Hebrew pages
                seen_html += html[html.index("data-sized-go") - 200:html.index("data-size-show") + 20]
        # Patch-Patch plays to the showdown (its boards' winners); the others at random.
        if not act_once(table, rng, passive=game == "PP"):
            break
    assert {"commitment", "&lt;script&gt;", "next-hand", "act--quiet"} <= seen, seen
    if game in ("NT", "PT", "PO"):
        assert "data-sized" in seen  # a bet or raise of the player's size
    if game == "NT":
        assert "data-size-allin" in seen  # no-limit's most is the whole stack: the button can say so
        # Hebrew's "raise to" joins its amount ("העלאה ל-20"; an audit saw "העלאה ל- 20").
        assert "ל- <span data-size-show>" not in seen_html and (
            "ל-<span data-size-show>" in seen_html or "הימור <span data-size-show>" in seen_html)
    if game in ("F5D", "P5D"):
        assert "data-draw" in seen
    if game == "PP":
        assert {"is-arranging", "board__results", "Your arrangement is in"} <= seen
    if game == "BB":
        assert "bb__line" in seen


# What the walk through a hand should have drawn at least once.
MARKS = ("commitment", "&lt;script&gt;", "next-hand", "act--quiet", "data-sized", "data-draw", "is-arranging", "data-size-allin",
         "board__results", "bb__line", "wins", "phase-note", "Your arrangement is in")


def _stack_deck(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """Every hand from now on is dealt from the deck ``random.Random(seed)`` shuffles."""
    monkeypatch.setattr(services, "Deck", SimpleNamespace(
        shuffled=lambda rng=None: Deck.shuffled(random.Random(seed))))


# Decks that give three players, checking and calling to the showdown, these results.
@pytest.mark.django_db
@pytest.mark.parametrize(("game", "seed", "shows"), [
    ("NT", 20, ["wins", " · split"]),
    ("FO/8", 4, ["wins", " · split", " · low", " · high"]),
    ("FO/8", 13, ["wins", " · low", " · high", "scoops high and low!"]),
    ("PP", 4, ["board__results", "scoops all three boards!"]),
    ("PP", 1, ["board__results", " · split"]),
])
def test_showdowns_with_splits_sides_and_scoops(monkeypatch: pytest.MonkeyPatch, game: str, seed: int,
                                                shows: list[str]) -> None:
    _stack_deck(monkeypatch, seed)
    table, users = seated_table(game=game)
    _name(users)
    hand = play_passively(table)
    assert hand.result is not None
    pages = _every_viewer(table, users)
    english = pages[: len(users) + 1]
    for text in shows:
        assert all(text in html for html in english), text
    if "scoop" in "".join(shows):
        assert 'class="scoop"' in pages[-1]
    if game != "PP":
        # Every hand turned over is named under its cards, the losers' too (an audit: only the
        # winners' were), in each viewer's language.
        shown = len(hand.result.get("shown") or [])
        assert shown >= 2
        for html in pages:
            assert html.count('class="seat__made"') == shown
        assert all(("low " in html) == (game == "FO/8") for html in english if 'class="seat__made"' in html)


@pytest.mark.django_db
def test_a_table_waiting_for_players() -> None:
    table = services.table_create(creator=None, name="Waiting <room>", small_blind=5, big_blind=10, max_seats=3,
                                  is_public=True)
    first, second = make_user(f"w{table.id}a"), make_user(f"w{table.id}b")
    _name([first, second])
    services.table_take_seat(table_id=table.id, user=first, buy_in=500)
    table.refresh_from_db()
    assert table.next_hand_at is None
    for html in _every_viewer(table, [first]):
        assert "waiting muted" in html and "phase-waiting" in html and "family-pp" in html
    services.table_take_seat(table_id=table.id, user=second, buy_in=500)
    table.refresh_from_db()
    assert table.next_hand_at is not None  # the first deal waits a moment for a third player
    for html in _every_viewer(table, [first, second]):
        assert '<p class="waiting">' in html and "commitment" not in html
    # A table that has played (its last hands listed) says "next", not "first" (found by an
    # audit: each deal after a break was announced as the first hand).
    with translation.override("en"):
        context = selectors.table_context(table_id=table.id, user=first)
        assert context is not None and not context["recent_hands"]
        assert "The first hand is dealt in" in render_table(context)
        context["recent_hands"] = [{"number": 1}]
        assert "The next hand is dealt in" in render_table(context) and "first hand" not in render_table(context)


@pytest.mark.django_db
def test_a_player_on_a_break() -> None:
    table, users = seated_table(game="NT")
    _name(users)
    services.table_act(table_id=table.id, user=users[1], message={"action": "sit_out", "version": table.version})
    table.refresh_from_db()
    pages = _every_viewer(table, users)
    assert 'data-action="im_back"' in pages[1] and 'data-action="im_back"' not in pages[0]
    # The next hand deals them out: on a break, and the table goes on without them.
    play_passively(table)
    services.table_expire(table_id=table.id, now=timezone.now() + dt.timedelta(hours=1))
    table.refresh_from_db()
    pages = _every_viewer(table, users)
    assert "on a break" in pages[0] and 'data-action="im_back"' in pages[1]


@pytest.mark.django_db
def test_a_baseball_session_over() -> None:
    """The standings under the pot once the session's 8 pots are played (drawn by the include)."""
    table, users = seated_table(game="BB")
    play_passively(table)
    for lang in LANGUAGES:
        with translation.override(lang):
            for viewer in [*users, None]:
                context = selectors.table_context(table_id=table.id, user=viewer)
                assert context is not None and context["phase"] == "over"
                context["bb"] = dict(context["bb"], over=True, may_restart=True, seated=viewer is not None)
                html = _same(context)
                assert "bb-standings" in html and "next-hand" not in html


@pytest.mark.django_db
def test_rare_values() -> None:
    """What a walk through hands seldom draws: wins without a side or a split, amounts as text,
    odd labels and keys, a sized raise without a key, plain text in the history's place."""
    table, users = seated_table(game="NT")
    base = selectors.table_context(table_id=table.id, user=users[0])
    assert base is not None
    odd = '<b>"A & B"</b> \u05d0'
    for lang in LANGUAGES:
        with translation.override(lang):
            for changes in [
                {"wins": [{"name": odd, "amount": 30, "category": "", "cards": [], "side": "", "pot": 0},
                          {"name": "Bo", "amount": "2 1/3", "category": odd, "split": True, "side": "low"},
                          {"name": "Cy", "amount": 0, "category": "Flush", "split": False, "side": "high"}],
                 "scoop_name": odd, "phase": "over", "family": "flop", "bounty": {"name": odd, "amount": 1234}},
                {"wins": [{"name": "Al", "amount": 300, "category": "Flush", "side": "nolow", "pot": 0, "pot_label": "main pot"},
                          {"name": "Bo", "amount": 400, "category": odd, "side": "", "pot": 1, "pot_label": odd}],
                 "phase": "over", "family": "flop"},
                {"family": "stud", "community": {"cards": base["mine"] or [], "blanks": 0}, "my_made": ""},
                {"family": "stud", "community": {"cards": base["mine"] or [], "blanks": 0}, "my_made": odd},
                {"scoop_name": odd, "family": "pp", "phase": "over", "bb": {"over": False}},
                {"actions": [{"kind": "call", "amount": 10, "label": odd, "key": ""},
                             {"kind": "fold", "amount": 0, "label": "Fold", "key": "f"}],
                 "sized": {"kind": "raise", "min": 20, "max": 1000, "label": "Raise to 20", "key": ""}},
                {"sized": {"kind": "bet", "min": 10, "max": 990, "label": "Bet 10", "key": "r"}, "pot": 1234567},
                {"side_pots": [150, 100, 1234567], "pot": 1234817},
                {"on_break": True, "break_pending": True}, {"on_break": True, "break_pending": True, "timed_out": True},
                {"bring_in_hint": odd, "family": "stud"},
                {"side_pots": [150, 1840], "pot": 1990},
                {"history_html": odd, "arranging": True, "arranged": True, "phase": "arrange"},
                {"hand": None, "family": "", "phase": "", "my_seat": None},
                {"family": "draw", "mine": base["mine"], "draw_allowed": True},
                {"family": "draw", "mine": [], "draw_allowed": False},
                {"family": "stud", "mine": base["mine"]},
            ]:
                html = _same({**base, **changes})
                assert "<b>" not in html


@pytest.mark.django_db
@pytest.mark.parametrize("game", ["PP", "BB"])
def test_the_page_draws_the_same_fragment(client: Any, game: str) -> None:
    table, users = seated_table(game=game)
    _name(users)
    client.force_login(users[0])
    page = client.get(f"/tables/{table.id}/").content.decode()
    context = selectors.table_context(table_id=table.id, user=users[0])
    assert context is not None
    fragment = REFERENCE.render(Context(context))
    assert '<section class="felt' in fragment and fragment in page


def test_values_print_as_the_template_printed_them() -> None:
    """``_v``'s quick cases (a plain string, an int) give what ``{{ value }}`` gives, and a site
    that groups thousands still gets them grouped (the quick int case is only for one that
    does not)."""
    from django.test import override_settings
    from django.utils.safestring import mark_safe

    from tables.fragment import _v

    template = Template("{{ v }}")
    for value in ("<b>&'\"</b>", mark_safe("<i>ok</i>"), 12345, -7, 0, True, 2.5, None):
        assert _v(value) == template.render(Context({"v": value})), value
    with override_settings(USE_THOUSAND_SEPARATOR=True), translation.override("en"):
        assert _v(1234567) == template.render(Context({"v": 1234567})) == "1,234,567"


@pytest.mark.django_db
def test_the_drawing_language_lasts_one_drawing() -> None:
    """The labels of one drawing are looked up in the language it started in; after it, the
    tags ask Django again (a thread draws for viewers in different languages one after another)."""
    from tables.templatetags.table_cards import _drawing, _t, drawing_language

    table, users = seated_table(3)
    context = selectors.table_context(table_id=table.id, user=users[0])
    assert context is not None
    with translation.override("he"):
        render_table(context)
        assert getattr(_drawing, "language", None) is None
        assert drawing_language() == "he"
    with translation.override("ru"):
        assert drawing_language() == "ru"
        assert _t("Empty seat") == translation.gettext("Empty seat") != "Empty seat"


@pytest.mark.django_db(transaction=True)
def test_the_choices_before_ones_turn_go_to_players_waiting_in_the_betting_only() -> None:
    """"Check/fold" and "Check" are offered to a player dealt in, still in the betting with chips
    behind, whose turn it is not; never to the one to act, a spectator, or after a fold."""
    table, users = seated_table(n=3, game="NT")
    hand, state = current_state(table)
    actor = state.actors()[0]
    html = {i: render_table(selectors.table_context(table_id=table.id, user=user_for_index(hand, i))) for i in range(3)}
    assert all(('data-pre="check_fold"' in html[i]) == (i != actor) for i in range(3))
    assert "data-pre" not in render_table(selectors.table_context(table_id=table.id, user=None))
    services.table_act(table_id=table.id, user=user_for_index(hand, actor), message={"action": "fold", "version": table.version})
    table.refresh_from_db()
    assert "data-pre" not in render_table(selectors.table_context(table_id=table.id, user=user_for_index(hand, actor)))


@pytest.mark.django_db(transaction=True)
def test_facing_a_bet_the_choices_are_fold_and_call_that_much() -> None:
    """Three-handed Hold'em before the flop: the small blind, facing the big blind, is offered
    "Fold" and "Call 5" (the chips its call would put in, as the turn's own call button says);
    the big blind, with nothing to call, "Check/fold" and "Check". After a raise to 30, the big
    blind (the small blind's turn now) is offered "Call 20", and the small blind's turn has a
    call button of 25 that says so in ``data-amount``, which the page matches."""
    import re

    table, users = seated_table(n=3, game="NT")
    hand, state = current_state(table)
    view = state.view_for(None)
    bets = [p["bet"] for p in view["players"]]
    sb, bb = bets.index(table.small_blind), bets.index(table.big_blind)
    actor = state.actors()[0]
    assert actor not in (sb, bb)

    def pre(i: int) -> list[tuple[str, str | None, str]]:
        html = render_table(selectors.table_context(table_id=table.id, user=user_for_index(hand, i)))
        return [(m[0], m[1] or None, m[2]) for m in re.findall(
            r'data-pre="(\w+)"(?: data-amount="(\d+)")? aria-pressed="false">([^<]+)<', html)]

    assert pre(sb) == [("check_fold", None, "Fold"), ("call", "5", "Call 5")]
    assert pre(bb) == [("check_fold", None, "Check/fold"), ("check", None, "Check")]
    services.table_act(table_id=table.id, user=user_for_index(hand, actor), message={"action": "raise", "amount": 30, "version": table.version})
    table.refresh_from_db()
    assert pre(sb) == []
    assert pre(bb) == [("check_fold", None, "Fold"), ("call", "20", "Call 20")]
    html = render_table(selectors.table_context(table_id=table.id, user=user_for_index(hand, sb)))
    assert 'data-action="call" data-amount="25"' in html


@pytest.mark.django_db(transaction=True)
def test_before_a_stud_bring_in_nobody_is_offered_check() -> None:
    """Found by an audit: stud players waiting while the bring-in was still to come were offered
    "Check/fold" and "Check", though the bring-in will make them call or fold. They are offered
    "Fold" and "Call" the bring-in; once it is posted the ordinary rule applies."""
    table, users = seated_table(n=3, game="F7S")
    hand, state = current_state(table)
    actor = state.actors()[0]
    assert [la.kind for la in state.legal_actions(actor)] == ["bring_in", "complete"]
    others = [i for i in range(3) if i != actor]
    for i in others:
        html = render_table(selectors.table_context(table_id=table.id, user=user_for_index(hand, i)))
        assert 'data-pre="check"' not in html and 'data-pre="call" data-amount="5"' in html
    services.table_act(table_id=table.id, user=user_for_index(hand, actor), message={"action": "bring_in", "version": table.version})
    hand, state = current_state(table)
    waiting = next(i for i in others if i not in state.actors())
    table.refresh_from_db()
    html = render_table(selectors.table_context(table_id=table.id, user=user_for_index(hand, waiting)))
    assert 'data-pre="call" data-amount="5"' in html


def test_the_felt_terms_follow_the_table_and_the_language() -> None:
    """The felt's terms (``data-stakes``, speed, rules link...) are made once per language and
    terms and then reused: a change of stakes, game or language draws new ones."""
    from tables.fragment import _terms

    t = SimpleNamespace(game="NT", small_blind=5, big_blind=10, speed="fast", straddles=True, run_twice=False,
                        seven_deuce_bb=0, rabbit_hunt=False)
    with translation.override("en"):
        english = _terms(t)
    with translation.override("ru"):
        russian = _terms(t)
    assert 'data-big-blind="10"' in english and 'data-straddles="on"' in english
    assert 'data-rules="/rules/holdem/"' in english
    assert english != russian and 'data-game="No-limit Hold' in english and 'data-game="No-limit' not in russian
    t.small_blind, t.big_blind = 10, 20
    with translation.override("en"):
        raised = _terms(t)
    assert 'data-big-blind="20"' in raised and raised != english
    t.game = "PO/8"
    with translation.override("en"):
        omaha = _terms(t)
    assert 'data-rules="/rules/omaha/#hi-lo"' in omaha and 'data-straddles="on"' in omaha
    t.game = "FO/8"
    with translation.override("en"):
        assert 'data-straddles="off"' in _terms(t)
    t.game, t.small_blind, t.big_blind = "NT", 5, 10
    with translation.override("en"):
        assert _terms(t) == english
