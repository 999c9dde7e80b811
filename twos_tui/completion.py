"""``twos-tui completion bash|zsh|fish``: a shell completion script, made from the command
line's own parser by shtab (subcommands, options, each game's id and every other fixed
choice; file names where an option takes a path).

shtab writes a static script once, when the player installs it: nothing of twos-tui runs
when the shell completes, and nothing is added to the program's start (argcomplete, the
other choice, runs the program on every Tab and has it check for completion at each
start). shtab is imported here only: ``twos-tui --help`` never loads it."""

from __future__ import annotations

import argparse

SHELLS = ("bash", "zsh", "fish")

#: where each shell looks for a completion script (``install_help``)
INSTALL = {
    "bash": "twos-tui completion bash > ~/.local/share/bash-completion/completions/twos-tui",
    "zsh": "twos-tui completion zsh > ~/.zfunc/_twos-tui"
    "   (with fpath+=~/.zfunc before compinit in ~/.zshrc)",
    "fish": "twos-tui completion fish > ~/.config/fish/completions/twos-tui.fish",
}


def install_help() -> str:
    lines = [f"  {shell}: {how}" for shell, how in INSTALL.items()]
    return "install it (then open a new shell):\n" + "\n".join(lines)


def _paths_complete_as_files(parser: argparse.ArgumentParser, file: object) -> None:
    """Options whose value is a file (``--config PATH``, ``--log-file PATH``, ...)
    complete file names."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                _paths_complete_as_files(sub, file)
        elif action.metavar in ("PATH", "FILE") or action.dest == "output":
            action.complete = file  # type: ignore[attr-defined]  # (shtab reads it)


def completion_script(parser: argparse.ArgumentParser, shell: str) -> str:
    """The completion script of ``parser`` (the whole command line) for ``shell``."""
    import shtab

    _paths_complete_as_files(parser, shtab.FILE)
    script: str = shtab.complete(parser, shell=shell)
    return script if script.endswith("\n") else script + "\n"
