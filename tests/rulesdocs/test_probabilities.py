"""The stored probability tables match the engine, and the rankings page shows the stored numbers."""

from __future__ import annotations

import math

import pytest

from rules_engine import batch
from rulesdocs import probabilities
from tests.rulesdocs.helpers import LANGS, get, with_attr

# GAMES.md section 1 (straight flush there includes the royals; here they are counted apart).
FIVE = [4, 36, 624, 3744, 5108, 10200, 54912, 123552, 1098240, 1302540]
SEVEN = [4324, 37260, 224848, 3473184, 4047644, 6180020, 6461620, 31433400, 58627800, 23294460]


@pytest.fixture(scope="module")
def stored() -> dict:
    return probabilities.load()


def test_stored_file_is_complete(stored) -> None:
    assert stored["categories"] == [c.label for c in probabilities.CATEGORIES]
    sim = stored["simulation"]
    assert (sim["seed"], sim["deals"], sim["block"]) == (probabilities.SEED, probabilities.DEALS, probabilities.BLOCK)
    assert sim["omaha_deals"] == probabilities.OMAHA_DEALS
    for key in probabilities.SIMULATED:
        entry = stored[key]
        deals = sim["omaha_deals"] if key == "omaha" else sim["deals"]
        per_deal = 1 if key == "omaha" else 3
        assert entry["hands"] == deals * per_deal == sum(entry["counts"]), key
        assert len(entry["blocks"]) == math.ceil(deals / sim["block"]), key
        assert [sum(col) for col in zip(*entry["blocks"], strict=True)] == entry["counts"], key


def test_five_card_table_recomputed(stored) -> None:
    counts = probabilities.five_card_counts()
    assert counts == stored["five_card"]["counts"] == FIVE
    assert stored["five_card"]["hands"] == sum(FIVE) == 2_598_960


def test_seven_card_table_recomputed(stored) -> None:
    """Every seven-card set, again, through the batch enumerator (a few seconds)."""
    counts = batch.category_counts(7)
    assert [counts[c] for c in probabilities.CATEGORIES] == stored["seven_card"]["counts"] == SEVEN
    assert stored["seven_card"]["hands"] == sum(SEVEN) == 133_784_560


@pytest.mark.parametrize("block", [0, 1, probabilities.DEALS // probabilities.BLOCK - 1])
def test_simulation_blocks_replay(stored, block: int) -> None:
    seed = stored["simulation"]["seed"]
    assert probabilities.omaha_block(seed, block) == stored["omaha"]["blocks"][block]
    last = probabilities.OMAHA_DEALS // probabilities.BLOCK - 1
    assert probabilities.omaha_block(seed, last) == stored["omaha"]["blocks"][last]
    for key, rows in probabilities.patchpatch_block(seed, block).items():
        assert rows == stored[key]["blocks"][block], key


def test_as_dealt_patchpatch_boards_are_omaha_hands(stored) -> None:
    """Random arrangement makes every board an Omaha hand: the two columns agree within noise."""
    om, pp = stored["omaha"], stored["patchpatch_dealt"]
    for a, b in zip(om["counts"], pp["counts"], strict=True):
        p1, p2 = a / om["hands"], b / pp["hands"]
        pooled = (a + b) / (om["hands"] + pp["hands"])
        se = math.sqrt(pooled * (1 - pooled) * (1 / om["hands"] + 1 / pp["hands"])) or 1
        assert abs(p1 - p2) < 5 * se, (a, b)


def test_arranging_beats_dealing_and_the_ceiling_beats_both(stored) -> None:
    def at_least_full_house(key: str) -> float:
        e = stored[key]
        return sum(e["counts"][:4]) / e["hands"]

    assert at_least_full_house("patchpatch_dealt") < at_least_full_house("patchpatch_plan") < at_least_full_house(
        "patchpatch_any_two"
    )


def test_plan_arrangement_uses_every_card_once() -> None:
    from rules_engine.cards import parse_cards

    cards = parse_cards("2c 7d Ah 9s Kh 4c Qd 3s 8h Jc 5d 6s")
    flops = [parse_cards("Qh Th 3h"), parse_cards("9c 9d 2h"), parse_cards("Ks Kd 8c")]
    hands = probabilities.plan_arrangement(cards, flops)
    assert sorted(c for h in hands for c in h) == sorted(cards) and all(len(h) == 4 for h in hands)


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGS)
def test_rankings_page_shows_the_stored_numbers(client, stored, lang: str) -> None:
    html = get(client, "rankings", lang).content.decode()
    tables = {a["data-table"]: a for a in with_attr(html, "data-table")}
    assert set(tables) == {"five_card", "by_river", "patchpatch"}
    section = html[html.index('data-table="five_card"') :]
    five_rows = [a for a in with_attr(section, "data-count")][:10]
    assert [int(a["data-count"]) for a in five_rows] == stored["five_card"]["counts"]
    # The side-by-side tables: every cell carries the count it was computed from.
    river = html[html.index('data-table="by_river"') : html.index('data-table="patchpatch"')]
    cells = [int(a["data-count"]) for a in with_attr(river, "data-count")]
    expected = [x for pair in zip(stored["seven_card"]["counts"], stored["omaha"]["counts"], strict=True) for x in pair]
    assert cells == expected
    pp = html[html.index('data-table="patchpatch"') :]
    cells = [int(a["data-count"]) for a in with_attr(pp, "data-count")]
    columns = [stored[k]["counts"] for k in ("patchpatch_dealt", "patchpatch_plan", "patchpatch_any_two")]
    assert cells == [x for row in zip(*columns, strict=True) for x in row]
    # How each table was made is said on the page: the deal count and the seed.
    deals = "200\u00a0000" if lang == "ru" else "200,000"
    assert deals in html and str(stored["simulation"]["seed"]) in html


@pytest.mark.django_db
def test_percentages_are_formatted_per_language(client) -> None:
    en = get(client, "rankings", "en").content.decode()
    ru = get(client, "rankings", "ru").content.decode()
    assert "0.0001539%" in en and "42.26%" in en  # exact: four significant digits
    assert "0,0001539\u00a0%" in ru and "2\u00a0598\u00a0960" in ru
    assert "649,739\u00a0:\u00a01" in en
