"""The command line's own options and its shell completion (issue 32): ``completion
bash|zsh|fish`` (shtab, a static script: tried in a real bash), ``--verbose`` and
``--log-file`` (the log in the user log folder), ``--no-color`` and ``--config``, and
that ``--help`` stays light (neither shtab nor tomlkit imported)."""

from __future__ import annotations

import json
import logging
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from twos_tui import cli
from twos_tui.cli import command_in
from twos_tui.engine import VARIANT_IDS
from twos_tui.play import logs

BASH = shutil.which("bash")


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("TWOS_TUI_HOME", str(tmp_path))
    for name in ("TWOS_TUI_CONFIG", "NO_COLOR"):  # (unset, and unset again after the test)
        monkeypatch.setenv(name, "")
        monkeypatch.delenv(name)
    root = logging.getLogger()
    level = root.level
    yield tmp_path
    logs.stop()  # (a later test's log lines go to no file of this test's)
    root.setLevel(level)


def script(shell: str, capsys) -> str:
    assert cli.main(["completion", shell]) == 0
    return capsys.readouterr().out


def complete(script_path: Path, words: list[str], cwd: Path | None = None) -> list[str]:
    """What bash offers for the last of ``words`` (the completion function driven as
    bash drives it: COMP_WORDS, COMP_CWORD, COMP_LINE, COMP_POINT)."""
    line = " ".join(words)
    code = (
        f"source {shlex.quote(str(script_path))}\n"
        f"COMP_WORDS=({' '.join(shlex.quote(w) for w in words)})\n"
        f"COMP_CWORD={len(words) - 1}\nCOMP_LINE={shlex.quote(line)}\nCOMP_POINT={len(line)}\n"
        '_shtab_twos_tui\nprintf "%s\\n" "${COMPREPLY[@]}"\n'
    )
    out = subprocess.run(
        [BASH, "--norc", "--noprofile", "-c", code],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
        cwd=cwd,
    ).stdout
    return sorted(w for w in out.splitlines() if w)


@pytest.mark.skipif(BASH is None, reason="no bash here")
def test_bash_completes_subcommands_variants_and_options(tmp_path, capsys):
    path = tmp_path / "twos-tui.bash"
    path.write_text(script("bash", capsys), encoding="utf-8")
    registered = subprocess.run(
        [
            BASH,
            "--norc",
            "--noprofile",
            "-c",
            f"source {shlex.quote(str(path))}; complete -p twos-tui",
        ],  # noqa: E501
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout
    assert registered.strip() == "complete -o bashdefault -F _shtab_twos_tui twos-tui"
    assert complete(path, ["twos-tui", "pl"]) == ["play"]
    assert complete(path, ["twos-tui", "co"]) == ["completion"]
    assert complete(path, ["twos-tui", "play", "big"]) == ["big-two", "big-two-5r"]
    assert complete(path, ["twos-tui", "play", ""]) == sorted(VARIANT_IDS)
    # after a top-level option and its value, the command and its game still complete
    assert complete(path, ["twos-tui", "--config", "my.toml", "learn", "tw"]) == [
        "twos",
        "twos-tricks",
    ]
    assert complete(path, ["twos-tui", "--no"]) == ["--no-color"]
    assert complete(path, ["twos-tui", "completion", ""]) == ["bash", "fish", "zsh"]


@pytest.mark.skipif(BASH is None, reason="no bash here")
def test_bash_completes_file_names_after_config_and_log_file(tmp_path, capsys):
    path = tmp_path / "twos-tui.bash"
    path.write_text(script("bash", capsys), encoding="utf-8")
    (tmp_path / "mine.toml").write_text("")
    assert complete(path, ["twos-tui", "--config", "mi"], cwd=tmp_path) == ["mine.toml"]
    assert complete(path, ["twos-tui", "--log-file", "twos"], cwd=tmp_path) == ["twos-tui.bash"]


@pytest.mark.parametrize("shell", ["zsh", "fish"])
def test_zsh_and_fish_scripts_know_the_commands_and_games(shell, capsys):
    text = script(shell, capsys)
    assert "twos-tui" in text
    dashes = "--" if shell == "zsh" else ""  # (fish: complete -l no-color)
    for word in ["play", "learn", "completion", *VARIANT_IDS]:
        assert word in text, word
    for option in ["config", "log-file", "verbose", "no-color"]:
        assert f"{dashes}{option}" in text, option


def _loaded_after(argv: list[str]) -> set[str]:
    code = (
        "import contextlib, io, json, sys\nfrom twos_tui.cli import main\n"
        "with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):\n"
        f"    main({argv!r})\n"
        "print(json.dumps(sorted(sys.modules)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    ).stdout
    return set(json.loads(out.strip().splitlines()[-1]))


def test_help_loads_neither_shtab_nor_tomlkit():
    loaded = _loaded_after(["--help"])
    assert not {m for m in loaded if m.split(".")[0] in ("shtab", "tomlkit", "tomllib")}
    assert "twos_tui.completion" not in loaded
    # (and the completion does load shtab: the test above would pass on a typo)
    assert "shtab" in _loaded_after(["completion", "bash"])


def test_the_top_options_value_is_not_taken_for_the_command():
    assert command_in(["--config", "play", "learn"]) == "learn"
    assert command_in(["--log-file", "x.log", "--verbose", "odds"]) == "odds"
    assert command_in(["--conf", "a.toml", "play"]) == "play"  # (argparse takes prefixes)
    assert command_in(["--config=a.toml", "play"]) == "play"
    assert command_in(["--no-color", "play"]) == "play"
    assert command_in(["--config", "a.toml"]) is None


@pytest.mark.parametrize(
    "argv",
    [
        ["--config", "a.toml", "play", "twos", "--players", "3"],
        ["--verbose", "--log-file", "x.log", "--no-color", "learn", "twos"],
        ["--no-color", "completion", "fish"],
    ],
)
def test_top_options_parse_the_same_with_only_the_commands_parser_built(argv):
    light = cli.build_parser(command_in(argv)).parse_args(argv)
    assert vars(light) == vars(cli.build_parser().parse_args(argv))


def test_the_log_goes_to_the_user_log_folder_at_info(home):
    assert cli.main(["odds", "--hand-size", "5", "--json"]) == 0
    logging.getLogger("twos_tui.test").info("an info line")
    logging.getLogger("twos_tui.test").debug("a debug line")
    text = (home / "logs" / "twos-tui.log").read_text(encoding="utf-8")
    assert "INFO twos_tui.test: an info line" in text
    assert "a debug line" not in text


def test_verbose_and_log_file(home, tmp_path, capsys):
    path = tmp_path / "elsewhere" / "mine.log"
    assert cli.main(["--verbose", "--log-file", str(path), "odds", "--hand-size", "5"]) == 0
    logging.getLogger("twos_tui.test").debug("a debug line")
    assert "DEBUG twos_tui.test: a debug line" in path.read_text(encoding="utf-8")
    assert not (home / "logs" / "twos-tui.log").exists()


def test_a_log_file_that_cannot_be_written_is_one_line(tmp_path, capsys):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    assert cli.main(["--log-file", str(blocker / "x.log"), "odds", "--hand-size", "5"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    assert err.startswith("twos-tui: error: cannot write the log to ") and "x.log" in err


def test_crash_details_go_to_crash_log_in_the_log_folder(home):
    from twos_tui.ui.app import _crashed

    _crashed("Traceback: RuntimeError: a bug")
    assert "RuntimeError: a bug" in (home / "logs" / "crash.log").read_text(encoding="utf-8")
    assert not (home / "crash.log").exists()


def test_no_color_is_set_for_the_app(monkeypatch):
    import twos_tui.ui.app as app_mod

    seen = []

    def fake_run_app(**kw: object) -> int:
        seen.append(app_mod.make_app(ai_pause=0).no_color)
        return 0

    monkeypatch.setattr(app_mod, "run_app", fake_run_app)
    assert cli.main(["learn"]) == 0
    assert seen == [False]
    assert cli.main(["--no-color", "learn"]) == 0
    assert seen == [False, True]
    assert os.environ["NO_COLOR"] == "1"  # (and the programs it starts inherit it)


def test_config_names_the_settings_file_for_the_app_and_its_children(monkeypatch, tmp_path):
    import twos_tui.ui.app as app_mod
    from twos_tui.play.paths import config_path

    seen = []
    monkeypatch.setattr(app_mod, "run_app", lambda **kw: seen.append(config_path()) or 0)
    assert cli.main(["--config", str(tmp_path / "mine.toml"), "learn"]) == 0
    assert seen == [tmp_path / "mine.toml"]
    assert os.environ["TWOS_TUI_CONFIG"] == str(tmp_path / "mine.toml")


def test_the_stderr_log_writes_to_stderr_as_it_is_now(monkeypatch):
    """A headless host's log lines go to ``sys.stderr`` as it is when a line is logged:
    the stream it was when the handler was made may be closed since (a test's captured
    stderr: every later line was a "--- Logging error ---", and a later test read that
    where it expected the host's first line)."""
    import io

    from twos_tui.play import logs

    root = logging.getLogger()
    before = list(root.handlers)
    first = io.StringIO()
    monkeypatch.setattr(sys, "stderr", first)
    try:
        logs.also_to_stderr()
        logging.getLogger("twos_tui.test").info("one")
        first.close()
        second = io.StringIO()
        monkeypatch.setattr(sys, "stderr", second)
        logging.getLogger("twos_tui.test").info("two")
        assert second.getvalue().endswith(" two\n")
    finally:
        for h in list(root.handlers):
            if h not in before:
                root.removeHandler(h)
