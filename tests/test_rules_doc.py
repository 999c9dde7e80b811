"""``docs/rules.md``, the rules reference the code cites.

* Every ``docs/rules.md §N.M`` cited in the package or the tests names a section that
  exists, and nothing cites the old rulings file any more.
* Every game has its numbered section, and every house rule of every game (for every
  player count) is in that game's house-rules table with its choices and its default.
* The page is in our own words: no run of 8 or more words is shared with the rule texts
  in ``shared/seeds`` (skipped when they are not beside the checkout; point
  ``TWOS_TUI_SEEDS`` at them to run it anyway).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from twos_tui.engine import VARIANT_IDS, variant_class

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "rules.md"
SEEDS = Path(os.environ.get("TWOS_TUI_SEEDS", ROOT.parent / "shared" / "seeds"))
RUN = 8  # shortest shared run of words that counts as copying (as for the help pages)

CITATION = re.compile(r"docs/rules\.md\s+§\s*(\d+(?:\.\d+)*)")
HEADING = re.compile(r"^(#{2,4})\s+(\d+(?:\.\d+)*)\.?\s+(.+?)\s*$", re.M)


def rules_text() -> str:
    return RULES.read_text(encoding="utf-8")


def section_numbers(text: str) -> set[str]:
    return {m.group(2) for m in HEADING.finditer(text)}


def game_sections(text: str) -> dict[str, str]:
    """Variant id -> the text of its top-level section (``## N. Name — `id` ``)."""
    out: dict[str, str] = {}
    tops = [m for m in HEADING.finditer(text) if m.group(1) == "##"]
    for i, m in enumerate(tops):
        end = tops[i + 1].start() if i + 1 < len(tops) else len(text)
        ident = re.search(r"`([a-z0-9-]+)`\s*$", m.group(3))
        if ident:
            out[ident.group(1)] = text[m.start() : end]
    return out


def citations(paths) -> list[tuple[str, int, str]]:
    found = []
    for path in paths:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for m in CITATION.finditer(line):
                shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
                found.append((str(shown), n, m.group(1)))
    return found


def source_files() -> list[Path]:
    return sorted((ROOT / "twos_tui").rglob("*.py")) + sorted((ROOT / "tests").glob("*.py"))


def test_sections_are_numbered_in_order():
    text = rules_text()
    numbers = [m.group(2) for m in HEADING.finditer(text)]
    assert numbers, "docs/rules.md has no numbered sections"
    assert len(numbers) == len(set(numbers)), "a section number is used twice"
    for n in numbers:
        parent = n.rsplit(".", 1)[0]
        assert "." not in n or parent in numbers, f"§{n} has no §{parent} above it"


def test_every_cited_section_exists():
    cited = citations(source_files())
    # the engine cites the reference: the move from the old rulings file is complete
    assert any(path.startswith("twos_tui/engine/") for path, _, _ in cited)
    sections = section_numbers(rules_text())
    missing = [f"{path}:{n} cites §{sec}" for path, n, sec in cited if sec not in sections]
    assert not missing, "docs/rules.md has no such section: " + "; ".join(missing)


def test_nothing_cites_the_rulings_file():
    stale = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in source_files()
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"RULINGS\s*§", line)
    ]
    assert not stale, "cite docs/rules.md §N.M instead: " + ", ".join(stale)


def test_citation_check_would_catch_a_missing_section(tmp_path):
    bogus = tmp_path / "mod.py"
    cite = "docs/rules.md"  # kept apart from the numbers so that this file cites nothing
    bogus.write_text(f'"""See {cite} §99.9 and {cite} §1.3."""\n', encoding="utf-8")
    cited = [sec for _, _, sec in citations([bogus])]
    assert cited == ["99.9", "1.3"]
    sections = section_numbers(rules_text())
    assert [sec for sec in cited if sec not in sections] == ["99.9"]


def test_every_game_has_a_section():
    sections = game_sections(rules_text())
    assert set(VARIANT_IDS) <= set(sections), set(VARIANT_IDS) - set(sections)


def _shown(value) -> str:
    return f"`{value}`"


def _option_row(section: str, option_id: str) -> str:
    rows = [
        line for line in section.splitlines() if line.startswith("|") and f"(`{option_id}`)" in line
    ]
    assert len(rows) == 1, f"house rule {option_id!r}: {len(rows)} table rows"
    return rows[0]


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_every_house_rule_is_listed_with_its_default(variant):
    section = game_sections(rules_text())[variant]
    cls = variant_class(variant)
    listed = set()
    for players in cls.player_counts:
        for spec in cls.option_specs(players):
            listed.add(spec.id)
            row = _option_row(section, spec.id)
            default_cell = row.rstrip(" |").rsplit("|", 1)[1]
            assert _shown(spec.default) in default_cell, (
                f"{variant}: {spec.id} default {spec.default!r} ({players} players) is not "
                f"in the Default column: {default_cell.strip()}"
            )
            values = [v for v, _ in spec.choices]
            wanted = values if len(values) <= 8 else [min(values), max(values)]
            for v in wanted:
                assert _shown(v) in row, f"{variant}: {spec.id} choice {v!r} is not listed"
    # and the table lists no house rule the game does not have
    table_ids = set(re.findall(r"^\|[^|\n]*\(`([a-z0-9_]+)`\)", section, re.M))
    assert table_ids == listed


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower().replace("\u2019", "'").replace("'", ""))


#: a run made only of these is a list of ranks or values (3 4 5 ... J Q K A 2), not wording
RANK_WORDS = {str(n) for n in range(1, 14)} | {"j", "q", "k", "a"}


def ngrams(seq: list[str], n: int) -> set[tuple[str, ...]]:
    runs = {tuple(seq[i : i + n]) for i in range(len(seq) - n + 1)}
    return {run for run in runs if not set(run) <= RANK_WORDS}


def test_rules_are_in_our_own_words():
    if not SEEDS.is_dir():
        pytest.skip(f"seed texts not found at {SEEDS} (set TWOS_TUI_SEEDS to check)")
    seed_runs: set[tuple[str, ...]] = set()
    for seed in sorted(SEEDS.glob("*.txt")):
        seed_runs |= ngrams(words(seed.read_text(encoding="utf-8")), RUN)
    assert seed_runs, "no seed text was read"
    shared = ngrams(words(rules_text()), RUN) & seed_runs
    assert not shared, "docs/rules.md repeats seed wording: " + "; ".join(
        " ".join(run) for run in sorted(shared)[:5]
    )


def test_copy_check_would_catch_a_pasted_sentence():
    if not SEEDS.is_dir():
        pytest.skip(f"seed texts not found at {SEEDS} (set TWOS_TUI_SEEDS to check)")
    seed_words = words((SEEDS / "big-two-five-rounds.txt").read_text(encoding="utf-8"))
    pasted = "Our text. " + " ".join(seed_words[30:38]) + " and more."
    assert ngrams(words(pasted), RUN) & ngrams(seed_words, RUN)
