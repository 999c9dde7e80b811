"""The rules picker: variant, player count, who sits where (human, or an AI and its
level), the AI pace, house rules, seed. What was started last for a game is offered
again next time (``play.settings``); with every seat an AI the game is a demo to watch."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Input, Label, OptionList, Select, Static
from textual.widgets.option_list import Option

from ...ai import DEFAULT_LEVEL, LEVELS
from ...engine import Game, new_game
from ...jsontypes import JsonObject
from ...play import settings as settings_file
from ...play.names import MAX_NAME_CELLS, NAME_CHARS, clean_name
from ...play.net.client import DEFAULT_PORT
from ...play.session import AI, AI_NAMES, HUMAN, SeatConfig, Session
from ..chrome import KeyBar, SafeHeader, SafeOptionList
from ..rule_rows import RuleSelects, chosen_rules, house_rule_rows, mark_house_rules
from ..screen_css import SCREENS_CSS
from ..typed_app import twos_app
from ..variants import available_variants, player_counts_text
from .sizing import SizeGuard

REMOTE = "remote"  #: a seat played from another computer: starting hosts the table

#: where a hosted table listens: this computer only, or every network it is on
BIND_CHOICES = (("127.0.0.1", "this computer only"), ("0.0.0.0", "my local network too"))


def seat_kinds() -> list[tuple[Text, str]]:
    kinds = [(Text("Human"), HUMAN)]
    kinds += [(Text(f"AI · {lvl}"), f"{AI}:{lvl}") for lvl in LEVELS]
    kinds.append((Text("Remote"), REMOTE))
    return kinds


def pace_choices() -> list[tuple[Text, str]]:
    return [(Text(settings_file.PACE_LABELS[p]), p) for p in settings_file.PACES]


class PickerScreen(SizeGuard, Screen[None]):
    CSS_PATH = SCREENS_CSS
    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("ctrl+s", "start", "Start"),
        Binding("f1", "help", "Rules help"),
    ]

    def __init__(self, variant: str | None = None) -> None:
        super().__init__()
        self.variants = available_variants()
        ids = [c.variant_id for c in self.variants]
        if variant is None:  # (the settings file's game, else the game started last)
            variant = self.settings.game or self.settings.last_variant
        self.variant_index = ids.index(variant) if variant in ids else 0
        self.players = self.remembered_players(self.cls)
        #: each seat's name and kind (the kind's value: "human", "remote", "ai:LEVEL")
        self.seat_inputs: list[tuple[Input, Select[str]]] = []
        #: each house rule and its list (the value: the index of the rule's choice)
        self.option_selects: RuleSelects = []
        #: player count -> the house rules chosen for it on this visit (this game)
        self._chosen_here: dict[int, JsonObject] = {}
        self._building = False
        #: builds of the settings under way (the first, on mount, counted from the start)
        self._builds = 1

    @property
    def settled(self) -> bool:
        """No build of the settings under way: the seats and house rules shown are those
        of the game and player count chosen (what tests and tools wait for)."""
        return self._builds == 0

    @property
    def cls(self) -> type[Game]:
        return self.variants[self.variant_index]

    @property
    def settings(self) -> settings_file.Settings:
        found = getattr(self.app, "settings", None)
        return found if isinstance(found, settings_file.Settings) else settings_file.load()

    def remembered_players(self, cls: type[Game]) -> int:
        """The settings file's player count where ``cls`` allows it, else the count last
        started for ``cls``, else its default (never the count of the game looked at
        before)."""
        if self.settings.players in cls.player_counts:
            return self.settings.players
        choice = self.settings.choice_for(cls.variant_id)
        if choice is not None and choice.players in cls.player_counts:
            return choice.players
        return cls.default_players

    def compose(self) -> ComposeResult:
        yield SafeHeader(show_clock=False, icon="♣")
        with Horizontal(id="picker"):
            ol = SafeOptionList(id="variant-list")
            for c in self.variants:
                ol.add_option(
                    Option(
                        Text.assemble((c.name, "bold"), "\n", (player_counts_text(c), "dim")),
                        id=c.variant_id,
                    )
                )
            yield ol
            settings = VerticalScroll(id="settings")
            settings.can_focus = False  # Tab goes from field to field, not to the pane
            with settings:
                yield Static(id="variant-desc")
                with Horizontal(classes="row"):
                    yield Label("Players", classes="row-label")
                    counts = [(Text(str(n)), n) for n in self.cls.player_counts]
                    yield Select(
                        counts, id="players", allow_blank=False, compact=True, value=self.players
                    )
                yield Label(Text("Seats", style="bold"), classes="section")
                yield Vertical(id="seats")
                with Horizontal(classes="row", id="host-row"):
                    yield Label("Host on", classes="row-label")
                    yield Select(
                        [(Text(label), addr) for addr, label in BIND_CHOICES],
                        id="bind",
                        allow_blank=False,
                        compact=True,
                        value=BIND_CHOICES[0][0],
                    )
                    yield Input(
                        value=str(DEFAULT_PORT),
                        id="port",
                        type="integer",
                        max_length=5,
                        compact=True,
                    )
                with Horizontal(classes="row"):
                    yield Label("AI pace", classes="row-label")
                    yield Select(
                        pace_choices(),
                        id="pace",
                        allow_blank=False,
                        compact=True,
                        value=self.settings.ai_pace,
                    )
                yield Label(Text("House rules", style="bold"), classes="section")
                yield Vertical(id="options")
                with Horizontal(classes="row"):
                    yield Label("Seed", classes="row-label")
                    yield Input(placeholder="random", id="seed", type="integer", compact=True)
        yield Static(id="picker-error")
        with Horizontal(id="picker-buttons"):
            yield Button("Start", id="start", variant="success", compact=True)
            yield Button("Rules help (F1)", id="help", compact=True)
            yield Button("Back", id="back", compact=True)
        yield KeyBar()
        yield self.guard()

    async def on_mount(self) -> None:
        self.title = "New game"
        self.check_size(*self.app.size)
        ol = self.query_one("#variant-list", OptionList)
        ol.highlighted = self.variant_index
        ol.focus()
        try:
            await self.rebuild()
        finally:
            self._builds -= 1

    # ----- building the variant's settings ----------------------------------------------
    async def rebuild(self) -> None:
        self._builds += 1
        try:
            await self._rebuild()
        finally:
            self._builds -= 1

    async def _rebuild(self) -> None:
        self._building = True
        cls = self.cls
        self.players = self.remembered_players(cls)
        desc = Text()
        desc.append(cls.name, style="bold")
        desc.append(f" — {cls.summary}\n")
        desc.append(
            f"{player_counts_text(cls)} · {cls.score_label}, "
            f"{'lowest' if cls.low_score_wins else 'highest'} wins",
            style="dim",
        )
        self.query_one("#variant-desc", Static).update(desc)
        players = self.query_one("#players", Select)
        players.set_options([(Text(str(n)), n) for n in cls.player_counts])
        players.value = self.players
        players.disabled = len(cls.player_counts) == 1
        self.seat_inputs = []  # a new game: its own seats (remembered ones, else defaults)
        self._chosen_here = {}
        await self.rebuild_seats()
        await self.rebuild_options()
        self._building = False
        self.update_note()

    async def rebuild_seats(self) -> None:
        box = self.query_one("#seats", Vertical)
        old: list[tuple[str, Any]] = [(i.value, s.value) for i, s in self.seat_inputs]
        if not old:
            choice = self.settings.choice_for(self.cls.variant_id)
            kinds = {f"{AI}:{lvl}" for lvl in LEVELS} | {HUMAN, REMOTE}
            for kept in choice.seats if choice else []:
                kind = kept.get("kind", HUMAN)
                if kind == AI:
                    kind = f"{AI}:{kept.get('level', DEFAULT_LEVEL)}"
                if kind in kinds and kept.get("name"):
                    old.append((clean_name(kept["name"], f"Player {len(old) + 1}"), kind))
            old = [
                self.settings.configured_seat(i, name, kind) for i, (name, kind) in enumerate(old)
            ]
        await box.remove_children()
        rows, self.seat_inputs = [], []
        for seat in range(self.players):
            if seat < len(old):
                name, kind = old[seat]
            else:
                name, kind = self.settings.configured_seat(
                    seat,
                    "Player 1" if seat == 0 else AI_NAMES[seat - 1],
                    HUMAN if seat == 0 else f"{AI}:{DEFAULT_LEVEL}",
                )
            inp = Input(
                value=name,
                max_length=MAX_NAME_CELLS,
                restrict=NAME_CHARS,  # no control characters, even pasted
                compact=True,
                classes="seat-name",
            )
            sel = Select(
                seat_kinds(), value=kind, allow_blank=False, compact=True, classes="seat-kind"
            )
            self.seat_inputs.append((inp, sel))
            rows.append(
                Horizontal(Label(f"Seat {seat + 1}", classes="row-label"), inp, sel, classes="row")
            )
        await box.mount_all(rows)

    async def rebuild_options(self, carry: JsonObject | None = None) -> None:
        """The house rules for this game and player count: those remembered for the count
        (see ``PickerChoice.options_for``), with ``carry`` (the ones just chosen here that
        do not depend on the count) on top."""
        box = self.query_one("#options", Vertical)
        await box.remove_children()
        specs = self.cls.option_specs(self.players)
        choice = self.settings.choice_for(self.cls.variant_id)
        remembered = choice.options_for(self.players, self.cls.option_specs) if choice else {}
        remembered.update(self._chosen_here.get(self.players, {}))
        remembered.update(carry or {})
        rows, self.option_selects = house_rule_rows(specs, remembered)
        await box.mount_all(rows)
        self.mark_house_rules()

    def mark_house_rules(self) -> None:
        """Mark each rule set away from its usual value (see :func:`mark_house_rules`)."""
        mark_house_rules(self.option_selects)

    @on(Select.Changed, ".option-select")
    def _option_changed(self) -> None:
        self.mark_house_rules()

    @on(OptionList.OptionHighlighted, "#variant-list")
    async def _variant(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_index != self.variant_index:
            self.variant_index = event.option_index
            self.query_one("#picker-error", Static).update("")
            await self.rebuild()

    @on(OptionList.OptionSelected, "#variant-list")
    def _variant_chosen(self) -> None:
        self.query_one("#players", Select).focus()

    @on(Select.Changed, "#players")
    async def _players(self, event: Select.Changed) -> None:
        # the Select's value now (not the event's: rebuilding the list for another game
        # sends changes that are already out of date when they arrive)
        value = event.select.value
        if self._building or not isinstance(value, int) or value == self.players:
            return  # (blank while the list is rebuilt for another game)
        before, self.players = self.players, value
        # the rules chosen for the count left are kept for it; those that do not depend
        # on the count come along (a hand size does not: each count has its usual one)
        chosen = self.chosen_options()
        self._chosen_here[before] = chosen
        carry = settings_file.carry_options(chosen, before, self.players, self.cls.option_specs)
        self._builds += 1
        try:
            await self.rebuild_seats()
            await self.rebuild_options(carry)
        finally:
            self._builds -= 1
        self.update_note()

    @on(Select.Changed, ".seat-kind")
    def _seat_kind(self) -> None:
        self.update_note()

    def remote_seats(self) -> tuple[int, ...]:
        """The seats chosen as Remote: players on other computers."""
        return tuple(i for i, (_, sel) in enumerate(self.seat_inputs) if sel.value == REMOTE)

    def update_note(self) -> None:
        """Say when the game will be a demo (every seat an AI), or hosted."""
        remote = bool(self.seat_inputs) and bool(self.remote_seats())
        self.query_one("#host-row").display = remote
        if remote:
            self.query_one("#picker-error", Static).update(
                Text(
                    "Remote seats: starting hosts the table; it shows a code for your "
                    "friends to join with (twos-tui join, or Join a table at home).",
                    style="italic",
                )
            )
        elif self.seat_inputs and all(s.is_ai for s in self.chosen_seats()):
            self.query_one("#picker-error", Static).update(
                Text(
                    "Every seat is an AI: you will watch a demo "
                    "(space pauses, n plays one move, f changes whose hand you see).",
                    style="italic",
                )
            )
        else:
            self.query_one("#picker-error", Static).update("")

    # ----- reading the choices ----------------------------------------------------------
    def chosen_options(self) -> JsonObject:
        """The house rules chosen, by rule id (JSON values: the engine checks them)."""
        return chosen_rules(self.option_selects)

    def chosen_seats(self) -> list[SeatConfig]:
        seats = []
        for i, (inp, sel) in enumerate(self.seat_inputs):
            kind = str(sel.value)
            name = clean_name(inp.value, f"Player {i + 1}")
            if kind.startswith(AI):
                seats.append(SeatConfig(name, AI, kind.partition(":")[2] or DEFAULT_LEVEL))
            else:  # a person: here, or (Remote) on another computer
                seats.append(SeatConfig(name, HUMAN))
        return seats

    def chosen_seed(self) -> int | None:
        text = self.query_one("#seed", Input).value.strip()
        return int(text) if text else None

    def chosen_pace(self) -> str:
        value = self.query_one("#pace", Select).value
        if isinstance(value, str) and value in settings_file.PACES:
            return value
        return settings_file.DEFAULT_PACE

    def problem(self, seats: list[SeatConfig]) -> str | None:
        names = [s.name for s in seats]
        if len(set(names)) != len(names):
            return "Give every seat a different name."
        remote = self.remote_seats()
        if remote:
            if len(remote) == len(seats):
                return "Keep one seat for yourself (Human): the host plays at this screen."
            if not self.chosen_port():
                return "The port is a number from 1024 to 65535."
        return None

    def chosen_port(self) -> int | None:
        text = self.query_one("#port", Input).value.strip()
        return int(text) if text.isdigit() and 1024 <= int(text) <= 65535 else None

    def chosen_bind(self) -> str:
        value = self.query_one("#bind", Select).value
        return value if isinstance(value, str) else BIND_CHOICES[0][0]

    # ----- actions ----------------------------------------------------------------------
    def action_start(self) -> None:
        seats = self.chosen_seats()
        err = self.problem(seats)
        if err is None:
            try:
                session = Session.start(
                    self.cls.variant_id,
                    seats,
                    self.players,
                    self.chosen_options(),
                    self.chosen_seed(),
                    autosave=twos_app(self).autosave,
                )
            except ValueError as e:
                err = str(e)
        if err is not None:
            self.query_one("#picker-error", Static).update(Text(f"✗ {err}", style="bold red"))
            return
        self.remember(seats)
        remote = self.remote_seats()
        if remote:
            twos_app(self).start_hosted(
                session, remote, self.chosen_bind(), self.chosen_port() or DEFAULT_PORT
            )
        else:
            twos_app(self).start_session(session)

    def remember(self, seats: list[SeatConfig]) -> None:
        """Keep this game's choices (and the pace) for next time."""
        st = self.settings
        st.ai_pace = self.chosen_pace()
        st.last_variant = self.cls.variant_id
        kept = [{"name": s.name, "kind": s.kind, "level": s.level} for s in seats]
        for i in self.remote_seats():
            kept[i]["kind"] = REMOTE
        before = st.picker.get(self.cls.variant_id)
        options = self.chosen_options()
        by_players = dict(before.by_players) if before else {}
        by_players[self.players] = options
        st.picker[self.cls.variant_id] = settings_file.PickerChoice(
            self.players, kept, options, by_players
        )
        save = getattr(self.app, "save_settings", None)
        if save is not None:
            save()
        else:
            settings_file.save(st)

    def action_help(self) -> None:
        from .help import HelpScreen

        game = new_game(
            self.cls.variant_id,
            self.players,
            self.chosen_options(),
            0,
            [s.name for s in self.chosen_seats()],
        )
        self.app.push_screen(HelpScreen(game))

    def action_back(self) -> None:
        twos_app(self).go_home()

    @on(Button.Pressed, "#start")
    def _start(self) -> None:
        self.action_start()

    @on(Button.Pressed, "#help")
    def _help(self) -> None:
        self.action_help()

    @on(Button.Pressed, "#back")
    def _back(self) -> None:
        self.action_back()
