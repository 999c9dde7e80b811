"""Shared test set-up.

* No test ever reads or writes the real user data directory.
* Hypothesis profiles: ``ci`` (the default; deterministic, no example database, no
  deadline) and ``quick`` (the same with a tenth of the examples, for the quick loop:
  ``HYPOTHESIS_PROFILE=quick pytest -m "not slow"``). Tests that fix their own number of
  examples (the property tests over random deals) say so in their own settings.
"""

import os
import tempfile

import pytest
from hypothesis import HealthCheck, settings

# a per-run data directory unless a test points TWOS_TUI_HOME somewhere else itself
os.environ["TWOS_TUI_HOME"] = tempfile.mkdtemp(prefix="twos-tui-tests-")
# and never the developer's own settings file (``--config``'s variable) or NO_COLOR
os.environ.pop("TWOS_TUI_CONFIG", None)
os.environ.pop("NO_COLOR", None)

settings.register_profile(
    "ci",
    derandomize=True,
    database=None,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("quick", settings.get_profile("ci"), max_examples=10)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(autouse=True)
def fresh_settings():
    """Every test starts with a new player's settings (no state.json, no config.toml in
    the tests' data folder): a test that saves a setting (the
    hint level, the pace) must not change what the next test in the same process meets
    (a hint test once read "from normal" where a new player gets "from hard")."""
    from twos_tui.play.paths import config_path
    from twos_tui.play.settings import settings_path

    if os.environ.get("TWOS_TUI_HOME") and not os.environ.get("TWOS_TUI_CONFIG"):
        for path in (settings_path(), config_path()):  # (the app's records, the settings)
            if path.exists():
                path.unlink()


@pytest.fixture(autouse=True)
def no_key_guard_wait(monkeypatch):
    """Screens that hide or reveal a hand drop keys for a moment after they appear
    (``KeyGuard.GUARD``); tests take them without waiting: only keys pressed before the
    screen appeared are dropped. The tests of the guard set it themselves."""
    from twos_tui.ui.screens.dialogs import KeyGuard

    monkeypatch.setattr(KeyGuard, "GUARD", 0.0)


# ----- PostgreSQL (the lobby server's shared database) -----------------------------------
@pytest.fixture(scope="session")
def pg_cluster():
    """A throwaway PostgreSQL cluster for this test process (``tools/pg_cluster.py``),
    stopped and deleted at the end; the test is skipped, saying why in one line, where
    none can start here (``.ci/run`` installs PostgreSQL where it can)."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
    from pg_cluster import Cluster, why_not

    reason = why_not()
    if reason is not None:
        pytest.skip(reason)
    try:
        import psycopg  # noqa: F401
    except ImportError:
        pytest.skip("psycopg is not installed: the PostgreSQL tests are skipped")
    cluster = Cluster()
    try:
        cluster.start()
    except RuntimeError as e:
        cluster.stop()
        pytest.skip(f"PostgreSQL could not start here ({e}): the PostgreSQL tests are skipped")
    yield cluster
    cluster.stop()


@pytest.fixture
def pg_dsn(pg_cluster):
    """The address of a new, empty database in the throwaway cluster, dropped after the
    test."""
    import uuid

    import psycopg

    name = f"t_{uuid.uuid4().hex[:12]}"
    base = pg_cluster.dsn
    with psycopg.connect(base, autocommit=True) as c:
        c.execute(f"CREATE DATABASE {name}")
    yield base.rsplit("/", 1)[0] + "/" + name
    with psycopg.connect(base, autocommit=True) as c:
        c.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


# ----- the quick loop ---------------------------------------------------------------------
#: Tests the quick loop (``pytest -m "not slow"``) leaves to the full suite, by name: a whole
#: test (every parameter) or one case (``name[param]``). Tests may also carry
#: ``@pytest.mark.slow`` themselves; this list keeps the marks out of files that are busy
#: elsewhere. Each takes about two seconds or more on two busy cores. A name here that
#: matches no test in a collected file stops the run, so the list cannot go stale.
SLOW = frozenset(
    {
        "test_help_docs.py::test_pages_render_in_textual_markdown",
        "test_hardening_engine.py::test_property_malformed_actions_get_a_reason",
        "test_hardening_engine.py::test_property_mutated_saves_are_refused_or_playable",
        "test_hardening_ui.py::test_palette_then_pass_screen_then_palette_again",
        "test_hardening_ui.py::test_the_app_starts_with_every_crafted_and_mutated_save",
        "test_hardening_ui.py::test_delete_on_continue_asks_first",
        "test_hardening_ui.py::test_a_full_disk_gives_a_notice_and_play_goes_on",
        "test_history.py::test_match_end_is_recorded_with_its_winners",
        "test_history_concurrent.py::test_two_app_instances_record_at_once",
        "test_history_concurrent.py::test_bursts_from_two_processes_while_a_third_holds_the_lock",
        "test_climbing_ai.py::test_levels_play_whole_matches_legally[big-two-4-options2]",
        "test_properties.py::test_full_matches_end_and_replay[twos-3]",
        "test_twos.py::test_random_deals_under_house_rules[3-options0]",
        "test_twos.py::test_random_deals_under_house_rules[3-options1]",
        "test_ui_play.py::test_autosave_and_continue",
        "test_ui_play.py::test_illegal_play_shows_the_engines_reason[big-two-1]",
        "test_ui_play.py::test_illegal_play_shows_the_engines_reason[twos-tricks-3]",
        "test_ui_screens.py::test_picker_lists_every_variant_and_starts_the_chosen_rules",
        "test_ui_screens.py::test_home_shows_name_version_and_menu",
        "test_ui_screens.py::test_command_palette_entries",
        "test_ui_screens.py::test_picker_refuses_two_seats_with_one_name",
        "test_ui_snapshots.py::test_snapshot_help",
        "test_ui_snapshots.py::test_snapshot_picker",
        "test_ui_snapshots.py::test_snapshot_twos_table_selection",
        "test_ui_stats.py::test_a_deal_played_in_the_app_is_in_stats_and_replays",
        "test_ui_stats.py::test_undo_against_the_ai_goes_back_to_your_turn",
        "test_ui_stats.py::test_undo_is_refused_where_another_human_would_see_it",
        "test_ui_stats.py::test_snapshot_replay",
        "test_ui_stats.py::test_replay_id_opens_the_replay",
        "test_ui_stats.py::test_key_hints_can_be_clicked",
        "test_ui_stats.py::test_every_game_replays_on_screen[big-two-5r]",
        "test_ui_stats.py::test_every_game_replays_on_screen[chinese-poker]",
        "test_ui_stats.py::test_every_game_replays_on_screen[2v1]",
        "test_ui_stats.py::test_every_game_replays_on_screen[twos-tricks]",
    }
)


@pytest.hookimpl(tryfirst=True)  # before -m deselects anything
def pytest_collection_modifyitems(config, items):
    found = set()
    for item in items:
        for name in (f"{item.path.name}::{item.name}", f"{item.path.name}::{item.originalname}"):
            if name in SLOW:
                item.add_marker(pytest.mark.slow)
                found.add(name)
    if any("::" in str(arg) for arg in config.args):
        return  # single tests were asked for: the rest of their files is not here
    files = {item.path.name for item in items}
    stale = sorted(n for n in SLOW - found if n.split("::")[0] in files)
    if stale:
        raise pytest.UsageError(
            "tests/conftest.py SLOW names tests that do not exist: " + ", ".join(stale)
        )
