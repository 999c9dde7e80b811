"""Create a lobby table: the game, the players, who sits where (you, a free seat for a
person, or an AI and its level), who may sit (anyone, or those with the code), rated or
not, the turn clock, and the house rules with the rules picker's own rows
(:mod:`..rule_rows`). It answers a :class:`CreateTable` for the lobby to send; nothing
is started here."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, Label, Select, Static

from ...ai import LEVELS
from ...engine import Game, variant_class
from ...jsontypes import JsonObject
from ...play import settings as settings_file
from ...play.lobby.model import CreateTable
from ..chrome import KeyBar, focus_first
from ..rule_rows import RuleSelects, chosen_rules, house_rule_rows, mark_house_rules
from ..screen_css import SCREENS_CSS
from .lobby_dialogs import game_choices, player_choices

PERSON = "person"  #: a seat left free for a person
#: the turn clocks offered: a time per move plus a bank (seconds), or none
CLOCKS: tuple[tuple[str, tuple[float, float] | None], ...] = (
    ("20 s a move + 2 min bank", (20.0, 120.0)),
    ("40 s a move + 5 min bank", (40.0, 300.0)),
    ("No clock", None),
)


def seat_choices() -> list[tuple[Text, str]]:
    return [(Text("A person (free seat)"), PERSON)] + [(Text(f"AI · {lvl}"), lvl) for lvl in LEVELS]


class CreateTableScreen(ModalScreen[CreateTable | None]):
    """The rules picker's choices for a lobby table; answers the ``CreateTable``."""

    CSS_PATH = SCREENS_CSS
    BINDINGS = [
        Binding("escape", "cancel", "Back"),
        Binding("ctrl+s", "create", "Create"),
    ]

    def __init__(self, game: str) -> None:
        super().__init__()
        self.game = game
        self.players = self.cls.default_players
        self.seat_selects: list[Select[str]] = []
        self.option_selects: RuleSelects = []
        #: builds of the seats and rules under way (tests wait for none)
        self.builds = 1

    @property
    def cls(self) -> type[Game]:
        return variant_class(self.game)

    @property
    def settled(self) -> bool:
        return self.builds == 0

    def compose(self) -> ComposeResult:
        with Vertical(id="create-box", classes="lobby-box"):
            yield Static(Text("Create a table", style="bold"), classes="lobby-box-title")
            with VerticalScroll(id="create-settings"):
                with Horizontal(classes="row"):
                    yield Label("Game", classes="row-label")
                    yield Select(
                        game_choices(),
                        id="create-game",
                        allow_blank=False,
                        compact=True,
                        value=self.game,
                    )
                with Horizontal(classes="row"):
                    yield Label("Players", classes="row-label")
                    yield Select(
                        player_choices(self.game),
                        id="create-players",
                        allow_blank=False,
                        compact=True,
                        value=self.players,
                    )
                yield Label(Text("Seats", style="bold"), classes="section")
                yield Vertical(id="create-seats")
                with Horizontal(classes="row"):
                    yield Label("Who sits", classes="row-label")
                    yield Select(
                        [
                            (Text("Anyone (public)"), True),
                            (Text("Those with the code (private)"), False),
                        ],
                        id="create-public",
                        allow_blank=False,
                        compact=True,
                        value=True,
                    )
                with Horizontal(classes="row"):
                    yield Label("Rated", classes="row-label")
                    yield Select(
                        [(Text("Rated"), True), (Text("Not rated"), False)],
                        id="create-rated",
                        allow_blank=False,
                        compact=True,
                        value=True,
                    )
                with Horizontal(classes="row"):
                    yield Label("Clock", classes="row-label")
                    yield Select(
                        [(Text(label), i) for i, (label, _) in enumerate(CLOCKS)],
                        id="create-clock",
                        allow_blank=False,
                        compact=True,
                        value=0,
                    )
                yield Label(Text("House rules", style="bold"), classes="section")
                yield Vertical(id="create-options")
            with Horizontal(classes="lobby-buttons"):
                yield Button("Create (ctrl+s)", id="create-ok", variant="success", compact=True)
                yield Button("Back (Esc)", id="create-cancel", compact=True)
        yield KeyBar()

    async def on_mount(self) -> None:
        focus_first(self, "#create-game")
        try:
            await self.rebuild()
        finally:
            self.builds -= 1

    # ----- the seats and rules of the game and count chosen ---------------------------
    async def rebuild(self) -> None:
        self.builds += 1
        try:
            await self.rebuild_seats()
            await self.rebuild_options()
        finally:
            self.builds -= 1

    async def rebuild_seats(self) -> None:
        box = self.query_one("#create-seats", Vertical)
        old = [str(s.value) for s in self.seat_selects]
        await box.remove_children()
        rows: list[Widget] = [
            Horizontal(Label("Seat 1", classes="row-label"), Label("You"), classes="row")
        ]
        self.seat_selects = []
        for seat in range(1, self.players):
            kind = old[seat - 1] if seat - 1 < len(old) else PERSON
            sel = Select(
                seat_choices(), value=kind, allow_blank=False, compact=True, classes="seat-kind"
            )
            self.seat_selects.append(sel)
            rows.append(
                Horizontal(Label(f"Seat {seat + 1}", classes="row-label"), sel, classes="row")
            )
        await box.mount_all(rows)

    async def rebuild_options(self) -> None:
        """The rules picker's house-rule rows, set as last started for this game and
        count (as the picker offers them)."""
        box = self.query_one("#create-options", Vertical)
        await box.remove_children()
        choice = settings_file.load().choice_for(self.game)
        remembered: JsonObject = (
            choice.options_for(self.players, self.cls.option_specs) if choice else {}
        )
        rows, self.option_selects = house_rule_rows(self.cls.option_specs(self.players), remembered)
        await box.mount_all(rows)
        mark_house_rules(self.option_selects)

    @on(Select.Changed, ".option-select")
    def _option_changed(self) -> None:
        mark_house_rules(self.option_selects)

    @on(Select.Changed, "#create-game")
    async def _game(self, event: Select.Changed) -> None:
        game = event.value
        if not isinstance(game, str) or game == self.game:
            return
        self.game = game
        self.players = self.cls.default_players
        players = self.query_one("#create-players", Select)
        players.set_options(player_choices(game))
        players.value = self.players
        self.seat_selects = []
        await self.rebuild()

    @on(Select.Changed, "#create-players")
    async def _players(self, event: Select.Changed) -> None:
        value = event.select.value
        if not isinstance(value, int) or value == self.players:
            return
        self.players = value
        await self.rebuild()

    # ----- the answer -------------------------------------------------------------------
    def chosen(self) -> CreateTable:
        """The table asked for: the house rules set away from their usual values (none:
        the usual rules), each seat a person's (None) or an AI's level."""
        rules: list[tuple[str, str | int | bool]] = []
        specs = {s.id: s for s in self.cls.option_specs(self.players)}
        for rule, value in chosen_rules(self.option_selects).items():
            if isinstance(value, str | int | bool) and value != specs[rule].default:
                rules.append((rule, value))
        ai: list[str | None] = [None]
        for sel in self.seat_selects:
            ai.append(None if sel.value == PERSON else str(sel.value))
        public = self.query_one("#create-public", Select).value
        rated = self.query_one("#create-rated", Select).value
        clock = self.query_one("#create-clock", Select).value
        return CreateTable(
            game=self.game,
            players=self.players,
            rules=tuple(rules),
            public=public is not False,
            ai_seats=tuple(ai),
            rated=rated is not False,
            clock=CLOCKS[clock][1] if isinstance(clock, int) else CLOCKS[0][1],
        )

    @on(Button.Pressed, "#create-ok")
    def action_create(self) -> None:
        if self.settled:
            self.dismiss(self.chosen())

    @on(Button.Pressed, "#create-cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
