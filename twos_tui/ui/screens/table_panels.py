"""The table's side panels and prompt, drawn from an observation: the score panel, the
play log, the line that says whose turn it is, and (2-player Chinese Poker) the offered
hands drawn in the hand's place."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.widgets import Button

from ...engine import Decision
from ...engine.views import AnyView, TricksView
from ...engine.words import says
from ..cardart import face_style
from ..playlog import PlayLog, log_line
from ..widgets import InfoPanel

if TYPE_CHECKING:
    from .table import TableScreen


def render_score(screen: TableScreen, obs: AnyView) -> bool:
    """The score panel: each seat's total (trick games: and this deal's points); True
    when its text changed."""
    g = screen.game
    totals = obs.totals
    word = g.deal_word.capitalize()
    points = obs.points if isinstance(obs, TricksView) else None  # this deal's, so far
    if points is not None and len(points) != len(totals):
        points = None
    now = points is not None
    width = min(14, max(len(n) for n in g.names))
    t = Text()
    head = f"{word} {obs.deal_number}"
    t.append(head, style="bold")
    if now:
        t.append(" " * max(1, width + 1 - len(head)) + "total  deal", style="dim")
    t.append("\n")
    for seat, total in enumerate(totals):
        name = g.names[seat][:width]
        t.append(f"{name:<{width}} {total:>5}")
        if points is not None:
            t.append(f" {points[seat]:>+5d}")
        if seat == screen.seat_on_screen():
            t.append(" ◀")
        t.append("\n")
    target = g.target_text()
    if target and screen.has_class("-tall"):
        t.append(f"\n{target}", style="dim")
    panel = screen.query_one("#score", InfoPanel)
    t.rstrip()
    # what the mark beside a name means (a spectator's screen shows no hand: no mark)
    return panel.show(t, g.score_label, "watching" if screen.spectator else "◀ hand shown")


def buttons_shown(screen: TableScreen) -> tuple[tuple[bool, str], ...]:
    """The table's button row as shown: each button's display and label (the screen
    lays itself out when they change)."""
    return tuple((b.display, str(b.label)) for b in screen.query("#actions Button").results(Button))


def house_rules_note(game: Any) -> str:
    """The house rules set away from their usual values, named briefly (for the table's
    sub-title: the help lists them in full), or "" when every rule is the usual one."""
    changed = [
        spec.label
        for spec in game.option_specs(game.players)
        if spec.id in game.options and game.options[spec.id] != spec.default
    ]
    return "house rules: " + ", ".join(changed) if changed else ""


#: the header's cells beside its title: the icon (8) and the clock's place (10)
HEADER_SIDES = 18
#: the house rules named in a word where their list does not fit the header
RULES_IN_A_WORD = "house rules: see ?"


def fit_sub_title(title: str, parts: list[str], rules: str, width: int) -> str:
    """The table's sub-title for a header ``width`` cells wide: ``parts`` joined, then
    the house rules note ``rules`` when the whole fits the header beside ``title``, else
    :data:`RULES_IN_A_WORD` when that fits, else no note (the help lists the rules):
    the header never cuts the title short for the rules."""
    room = width - HEADER_SIDES - Text(title).cell_len - len(" — ")
    for note in (rules, RULES_IN_A_WORD if rules else "", ""):
        text = " · ".join([*parts, note] if note else parts)
        if Text(text).cell_len <= room:
            return text
    return text


def render_log(screen: TableScreen, obs: AnyView) -> None:
    """The play log: handed the view's history (it draws only what is new)."""
    screen.query_one(PlayLog).show_history(obs.history)


def offered_lines(screen: TableScreen, offered: Mapping[str, Sequence[str]]) -> Text:
    """A hand to choose from (2-player Chinese Poker): the offered hands, one line each."""
    g = screen.game
    lines = Text()
    for letter, codes in sorted(offered.items()):
        if lines.cell_len:
            lines.append("\n")
        lines.append(f"Hand {letter}  ", style="bold")
        for i, c in enumerate(g.sort_cards(list(codes), screen.sort_by)):
            if i:
                lines.append(" ")
            face = g.card_face(c)
            lines.append(face.label, style=face_style(face))
    return lines


def prompt_text(screen: TableScreen, obs: AnyView, seat: int | None, d: Decision | None) -> Text:
    """The line above the hand: whose hand it is and what is asked of them (or whom the
    table waits for). ``seat`` None: a spectator's screen ("Watching — ...")."""
    g = screen.game
    demo = screen.demo_controls
    thinking = screen.ai.thinking
    me = Text()
    if seat is None:
        me.append("Watching", style="bold")
    else:
        me.append(g.names[seat], style="bold")
        if screen.demo:
            me.append(" (AI)", style="dim")
        tags = (obs.seat_tags or ((),) * g.players)[seat]
        if tags:
            me.append(" · " + " · ".join(tags), style="italic")
        clock = screen.clocks.mine(seat)
        if clock:
            me.append(f" · {clock}", style="bold" if seat in g.to_act() else "")
    me.append(" — ")
    held_up = g.waiting_for()
    if d is not None:
        me.append(d.prompt, style="bold yellow")
    elif held_up:
        me.append(held_up, style="italic")
    elif g.deal_over:
        me.append(obs.status or "The deal is over.")
    elif thinking is not None:
        me.append(f"{says(g.names[thinking], 'is thinking')}…", style="italic")
    elif screen.demo and demo.paused:
        me.append("paused", style="italic")
    else:
        waiting = ", ".join(g.names[s] for s in g.to_act())
        me.append(f"waiting for {waiting}…" if waiting else obs.status, style="italic")
    if screen.autopass.on(seat):
        me.append(" · auto-pass until this trick ends (a: off)", style="bold cyan")
    if screen.demo:
        me.append(
            "  [demo: space " + ("runs" if demo.paused else "pauses") + ", n steps, f seat]",
            style="dim",
        )
    return me


__all__ = [
    "buttons_shown",
    "fit_sub_title",
    "house_rules_note",
    "log_line",
    "offered_lines",
    "prompt_text",
    "render_log",
    "render_score",
]
