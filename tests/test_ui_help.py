"""Help that follows the rules chosen: the small template language of the help pages,
and for every game and every house-rule choice, rule paragraphs (and worked examples)
that change with it."""

from __future__ import annotations

import pytest

from twos_tui.engine import Action, new_game, variant_class
from twos_tui.ui.helptext import TemplateError, help_markdown, render_template
from twos_tui.ui.variants import available_variants


def test_template_if_elif_else_nesting_and_names():
    text = "\n".join(
        [
            "a {{x}}",
            "<!-- if x=1 -->",
            "one",
            "<!-- if y=b|c -->",
            "y is b or c",
            "<!-- end -->",
            "<!-- elif x=2 and y!=a -->",
            "two",
            "<!-- else -->",
            "other",
            "<!-- end -->",
            "z",
        ]
    )
    assert render_template(text, {"x": "1", "y": "c"}) == "a 1\none\ny is b or c\nz\n"
    assert render_template(text, {"x": "1", "y": "a"}) == "a 1\none\nz\n"
    assert render_template(text, {"x": "2", "y": "b"}) == "a 2\ntwo\nz\n"
    assert render_template(text, {"x": "2", "y": "a"}) == "a 2\nother\nz\n"


@pytest.mark.parametrize(
    "text",
    [
        "{{nope}}",
        "<!-- if nope=1 -->\n<!-- end -->",
        "<!-- if x=1 -->",
        "<!-- end -->",
        "<!-- else -->",
    ],
)
def test_template_mistakes_are_errors(text):
    with pytest.raises(TemplateError):
        render_template(text, {"x": "1"})


def cases():
    """(variant, players, options) for every non-default choice of every option, with
    the options it depends on set so that it matters."""
    needs = {"penalty_deals": {"scoring": "penalty"}, "target_score": {"game_length": 0}}
    out = []
    for cls in available_variants():
        for players in cls.player_counts:
            for spec in cls.option_specs(players):
                for value, _ in spec.choices:
                    if value != spec.default:
                        base = dict(needs.get(spec.id, {}))
                        out.append((cls.variant_id, players, spec.id, base, value))
    return out


def rules_part(text: str) -> str:
    """Everything but the house-rules list (which always names the choices)."""
    head, rest = text.split("## House rules in this game", 1)
    return head + rest.split("\n## ", 1)[1]


@pytest.mark.parametrize(
    "variant,players,option,base,value",
    cases(),
    ids=[f"{v}-{p}p-{o}={val}" for v, p, o, _, val in cases()],
)
def test_every_choice_changes_the_rules_text(variant, players, option, base, value):
    default = help_markdown(new_game(variant, players, base, 0))
    chosen = help_markdown(new_game(variant, players, {**base, option: value}, 0))
    for text in (default, chosen):
        assert "{{" not in text and "<!--" not in text.replace("<!-- house-rules -->", "")
    assert rules_part(default) != rules_part(chosen), f"{option}={value} changes nothing"


EXAMPLES = [
    ("twos", 3, {"passing": "locked"}),
    ("twos", 3, {"run_suits": "same-suit"}),
    ("twos", 3, {"opening": "lowest"}),
    ("twos", 2, {}),  # two players: the example says it shows three
    ("twos", 3, {"hand_size": 5}),  # hands too small for a six-card bomb
    ("big-two", 4, {"flush_order": "suit"}),
    ("big-two", 4, {"straight_23456": "high"}),
    ("big-two-5r", 4, {"passing": "locked"}),
    ("chinese-poker", 4, {"bomb_compare": "quad"}),
]


@pytest.mark.parametrize("variant,players,options", EXAMPLES)
def test_worked_examples_follow_the_rules(variant, players, options):
    def example(text: str) -> str:
        return text.split("## Worked example", 1)[1].split("\n## ", 1)[0]

    reference = {"twos": 3}.get(variant, players)
    default = help_markdown(new_game(variant, reference, {}, 0))
    chosen = help_markdown(new_game(variant, players, options, 0))
    assert example(default) != example(chosen)


def test_twos_lock_out_example_never_says_you_are_still_in():
    locked = help_markdown(new_game("twos", 3, {"passing": "locked"}, 0))
    assert "still in the trick" not in locked
    assert "sit out" in locked.split("## Worked example")[1]
    free = help_markdown(new_game("twos", 3, {}, 0))
    assert "still in the trick" in free


def test_twos_example_follows_the_bomb_order():
    """With 20-card hands four of a kind is weaker than a 2×3 (rarer is stronger)."""
    g = new_game("twos", 2, {}, 0)
    order = g.bomb_order_text()
    text = help_markdown(g)
    if order.index("4×1") < order.index("2×3"):
        assert "ranks below 2×3" in text
    else:
        assert "ranks above" in text
    assert ", ".join(order) in text


PASS_OPTION_WORDS = ("by default a pass", "locked", "shuts you out", "keeps you out", "sit out")


@pytest.mark.parametrize("variant", ["chinese-poker", "twos-tricks", "2v1"])
def test_no_passing_house_rule_where_the_engine_has_none(variant):
    """Chinese Poker's page once said "By default a pass …" although the game has no
    passing option: a page speaks of such a rule only where the engine offers it."""
    cls = variant_class(variant)
    for players in cls.player_counts:
        assert all(s.id != "passing" for s in cls.option_specs(players))
        text = rules_part(help_markdown(new_game(variant, players, {}, 0))).lower()
        for words in PASS_OPTION_WORDS:
            assert words not in text, (variant, players, words)


def test_chinese_poker_help_says_how_the_opening_passes_end():
    """As the engine plays it: anyone may pass the opening; if all pass, the dealer leads."""
    for players in (2, 3, 4):
        g = new_game("chinese-poker", players, {}, 0)
        text = " ".join(help_markdown(g).split())
        assert "if everyone passes, the dealer must lead" in text
        assert "the leader of a trick must play" in text
        # the engine agrees: after everyone passes the opening, the dealer may not pass
        while g.phase != "play":
            seat = g.to_act()[0]
            g.apply(seat, g.legal_actions(seat)[0])
        for _ in range(players):
            seat = g.to_act()[0]
            g.apply(seat, Action("pass"))
        assert list(g.to_act()) == [g.dealer]
        assert g.check(g.dealer, Action("pass")) is not None
