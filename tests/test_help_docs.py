"""The in-app help pages: one Markdown file per variant plus keys.md, shipped in the package.

Checks the structure the help screen relies on (headings, exactly one house-rules marker),
layout limits for an 80-column terminal, and that the text is our own: no run of 8 or more
consecutive words is shared with any of the rule texts in ``shared/seeds``.
"""

from __future__ import annotations

import re
from importlib.resources import files
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from twos_tui.engine import VARIANT_IDS

MARKER = "<!-- house-rules -->"
SECTIONS = ["Rules", "House rules in this game", "Keys", "Worked example", "Tips"]
SEEDS = Path(__file__).resolve().parents[2] / "shared" / "seeds"
RUN = 8  # shortest shared run of words that counts as copying


def help_dir():
    return files("twos_tui.ui") / "help"


def read_help(name: str) -> str:
    return (help_dir() / name).read_text(encoding="utf-8")


ALL_PAGES = [f"{v}.md" for v in VARIANT_IDS] + ["keys.md"]


def headings(text: str) -> list[tuple[int, str]]:
    """(level, text) of every heading, as the Markdown parser sees them."""
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    found = []
    for i, tok in enumerate(tokens):
        if tok.type == "heading_open":
            found.append((int(tok.tag[1]), tokens[i + 1].content.strip()))
    return found


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower().replace("\u2019", "'").replace("'", ""))


def ngrams(seq: list[str], n: int) -> set[tuple[str, ...]]:
    return {tuple(seq[i : i + n]) for i in range(len(seq) - n + 1)}


def test_every_variant_has_a_help_page():
    assert set(VARIANT_IDS) == {
        "twos",
        "big-two",
        "big-two-5r",
        "chinese-poker",
        "2v1",
        "twos-tricks",
    }
    for page in ALL_PAGES:
        assert (help_dir() / page).is_file(), f"missing help page {page}"


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_variant_page_structure(variant):
    text = read_help(f"{variant}.md")
    heads = headings(text)
    assert heads[0][0] == 1 and heads[0][1], f"{variant}: must open with a # title"
    assert [h for h in heads if h[0] == 1] == [heads[0]], f"{variant}: one # title only"
    level2 = [t for lvl, t in heads if lvl == 2]
    assert level2 == SECTIONS, f"{variant}: sections are {level2}"
    # an overview paragraph sits between the title and ## Rules
    overview = text.split("\n## Rules", 1)[0].split("\n", 1)[1].strip()
    assert len(overview.split()) >= 25, f"{variant}: overview too short"
    # exactly one marker, on a line of its own, inside the house-rules section
    assert text.count(MARKER) == 1
    assert MARKER in text.splitlines()
    section = text.split("## House rules in this game", 1)[1].split("\n## ", 1)[0]
    assert section.strip() == MARKER
    # every other section has real content
    for name in ("Rules", "Keys", "Worked example", "Tips"):
        body = text.split(f"\n## {name}\n", 1)[1].split("\n## ", 1)[0]
        assert len(body.split()) >= 15, f"{variant}: section {name} is nearly empty"


def test_keys_page():
    text = read_help("keys.md")
    heads = headings(text)
    assert heads[0] == (1, "Keys")
    for key in ("←", "→", "space", "Enter", "p", "s", "?", "ctrl+p", "escape", "q", "Tab"):
        assert f"**{key}**" in text, f"keys.md does not describe {key}"
    assert MARKER not in text


@pytest.mark.parametrize("page", ALL_PAGES)
def test_layout_fits_the_terminal(page):
    text = read_help(page)
    for n, line in enumerate(text.splitlines(), 1):
        assert len(line) <= 100, f"{page}:{n} is longer than 100 characters"
        if line.lstrip().startswith("|"):
            assert len(line) <= 76, f"{page}:{n}: table wider than 76 columns"
    bad = [ch for ch in text if 0x1F0A0 <= ord(ch) <= 0x1F0FF]
    assert not bad, f"{page} uses playing-card block characters {bad}"
    assert text.endswith("\n") and "\t" not in text


def test_card_notation():
    """Cards in prose are rank + suit glyph; 2v1 uses its own suits."""
    for variant in VARIANT_IDS:
        text = read_help(f"{variant}.md")
        if variant == "2v1":
            assert re.search(r"\b[1-6][☾★♥♣Ω]", text) and "✦" in text
            assert not re.search(r"\b(?:[7-9]|10|[JQKA])[♠♥♦♣]", text)
        else:
            assert re.search(r"(?:\b(?:[2-9]|10)|\b[JQKA])[♠♥♦♣]", text)
            assert not re.search(r"\b(?:[2-9]|10|[JQKA])[SHDC]\b", text), (
                f"{variant}: use suit glyphs, not letter codes"
            )


def test_variant_specific_content():
    assert "Odds" in read_help("twos.md")
    assert "{{bombs}}" in read_help("twos.md")  # one list, the one the hand size allows
    assert "J-Q-K-A-2" in read_help("big-two-5r.md")
    assert "2-3-4-5-6" in read_help("big-two.md")
    two_v_one = read_help("2v1.md")
    for phrase in ("Moons", "Stars", "Hearts", "Clovers", "Horseshoes", "Rainbow", "blindfold"):
        assert phrase in two_v_one
    assert "3♦" in read_help("twos-tricks.md") and "2♦" in read_help("twos-tricks.md")


def test_help_is_in_our_own_words():
    if not SEEDS.is_dir():
        pytest.skip(f"seed texts not found at {SEEDS}")
    seed_runs: set[tuple[str, ...]] = set()
    for seed in sorted(SEEDS.glob("*")):
        if seed.is_file():
            seed_runs |= ngrams(words(seed.read_text(encoding="utf-8")), RUN)
    assert seed_runs, "no seed text was read"
    for page in ALL_PAGES:
        shared = ngrams(words(read_help(page)), RUN) & seed_runs
        assert not shared, f"{page} repeats seed wording: " + "; ".join(
            " ".join(run) for run in sorted(shared)[:5]
        )


def test_copy_check_would_catch_a_pasted_sentence():
    """The originality check itself works: a copied 8-word run is found."""
    if not SEEDS.is_dir():
        pytest.skip(f"seed texts not found at {SEEDS}")
    seed_words = words((SEEDS / "twos-tricks-csatho.txt").read_text(encoding="utf-8"))
    pasted = "Intro text. " + " ".join(seed_words[40:48]) + " and more."
    seed_runs = ngrams(seed_words, RUN)
    assert ngrams(words(pasted), RUN) & seed_runs


async def test_pages_render_in_textual_markdown():
    from textual.app import App, ComposeResult
    from textual.widgets import Markdown

    pages = [read_help(p).replace(MARKER, "- (house rules go here)") for p in ALL_PAGES]

    class HelpApp(App):
        def compose(self) -> ComposeResult:
            yield Markdown(pages[0], id="md")

    app = HelpApp()
    async with app.run_test(size=(80, 24)) as pilot:
        md = app.query_one("#md", Markdown)
        for text in pages:
            await md.update(text)
            await pilot.pause()
            assert md.children, "the Markdown widget rendered nothing"
