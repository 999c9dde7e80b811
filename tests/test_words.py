"""Issue 16, item 11: what the app says. Plays read in the order the help gives (a
straight's low 2 first, a full house's three of a kind first), the odds mark only the
chosen game's bombs, one bomb list in the Twos help, and the statistics in the game's
own word for a deal."""

from __future__ import annotations

import re

from twos_tui.engine import Action, new_game
from twos_tui.engine.climbing.combination import reading_order, shown_order
from twos_tui.engine.odds import bomb_shapes, odds_table
from twos_tui.play import stats
from twos_tui.ui.helptext import help_markdown


def test_a_straight_shows_its_low_2_first_and_a_full_house_its_triple_first():
    assert shown_order("straight", ("3S", "4C", "5D", "6D", "7D", "8S", "2S")) == (
        "2S",
        "3S",
        "4C",
        "5D",
        "6D",
        "7D",
        "8S",
    )
    assert shown_order("full-house", ("5H", "5S", "2D", "2H", "2S")) == (
        "2D",
        "2H",
        "2S",
        "5H",
        "5S",
    )
    assert shown_order("run", ("QH", "KD", "AS", "2H")) == ("QH", "KD", "AS", "2H")
    assert reading_order(("3S", "4S", "5S", "6D", "2C")) == ("2C", "3S", "4S", "5S", "6D")
    assert reading_order(("QH", "KD", "AS", "2H")) == ("QH", "KD", "AS", "2H")


def test_the_log_and_the_table_read_a_low_straight_from_its_2():
    g = new_game("big-two", 4, seed=3)
    seat = g.to_act()[0]
    straight = ("3S", "4S", "5S", "6D", "2C")
    for s in range(g.players):
        g.hands[s] = [c for c in g.hands[s] if c not in straight]
    g.hands[seat] = sorted(list(straight) + g.hands[seat][:8], key=lambda c: g.card_sort_key(c))
    g.top, g.top_seat, g.required_card = None, None, None
    g.apply(seat, Action("play", tuple(sorted(straight, key=lambda c: g.card_sort_key(c)))))
    last = g.history[-1]
    assert last["text"].endswith("plays straight 2♣ 3♠ 4♠ 5♠ 6♦"), last["text"]
    obs = g.observation((seat + 1) % g.players)
    assert obs["top"]["cards"] == ["2C", "3S", "4S", "5S", "6D"]
    assert obs["table"][-1]["cards"] == ["2C", "3S", "4S", "5S", "6D"]


def test_a_full_house_reads_triple_first():
    g = new_game("big-two", 4, seed=3)
    seat = g.to_act()[0]
    house = ("5H", "5S", "2D", "2H", "2S")
    for s in range(g.players):
        g.hands[s] = [c for c in g.hands[s] if c not in house]
    g.hands[seat] = sorted(list(house) + g.hands[seat][:8], key=lambda c: g.card_sort_key(c))
    g.top, g.top_seat, g.required_card = None, None, None
    g.apply(seat, Action("play", tuple(sorted(house, key=lambda c: g.card_sort_key(c)))))
    assert g.history[-1]["text"].endswith("plays full house 2♦ 2♥ 2♠ 5♥ 5♠")
    nxt = (seat + 1) % g.players
    assert "2♦ 2♥ 2♠ 5♥ 5♠" in g.decision(nxt).prompt


def test_chinese_poker_deck_marks_only_its_own_bomb():
    marked = {r.label for r in odds_table(13, "chinese") if r.bomb}
    assert marked == {"4x1"}
    assert [r.label for r in bomb_shapes(13, "chinese")] == ["4x1"]
    twos = {r.label for r in odds_table(13, "standard") if r.bomb}
    assert {"4x1", "2x3", "2x4"} <= twos


def test_twos_help_gives_one_bomb_list():
    """The bomb order is the one the hand size allows, the same wherever it is given."""
    for options in ({}, {"bomb_order": "fixed"}, {"hand_size": 17}):
        text = help_markdown(new_game("twos", 3, options))
        lists = re.findall(r"\d×\d+(?:, \d×\d+){3,}", text)
        assert lists and len(set(lists)) == 1, (options, lists)  # one list, however often


def test_stats_say_round_in_2v1_and_skip_a_meaningless_average():
    p = stats.PlayerStats("Ada")
    p.deals.played, p.deals.won = 4, 1
    p.averages["Coins"] = stats.Average("Coins", False, 4, 6)
    lines = "\n".join(stats.player_lines(p, stats.deal_word("2v1")))
    assert "Rounds   4 played" in lines and "per round" in lines
    assert "deal" not in lines.lower()
    p.averages = {"Deals won": stats.Average("Deals won", False, 4, 0)}
    lines = "\n".join(stats.player_lines(p, stats.deal_word("twos")))
    assert "Average deals won per deal" not in lines
    assert "Deals    4 played · 1 won · 25%" in lines


def test_the_odds_screen_with_the_chinese_poker_deck_marks_only_four_of_a_kind():
    from twos_tui.ui.odds_screen import OddsScreen

    screen = OddsScreen(13, "chinese")
    screen.rows = bomb_shapes(13, "chinese")
    chart = screen.chart(80).plain
    assert "4×1" in chart and "2×3" not in chart and "strongest" not in chart
    assert "four of a kind" in screen.note_text()
    screen.show_all = True
    screen.rows = odds_table(13, "chinese")
    chart = screen.chart(80).plain
    marked = [ln for ln in chart.splitlines() if ln.endswith(" bomb") and "no bomb" not in ln]
    assert len(marked) == 1 and "4×1" in marked[0]
