"""Home: New game, Continue, Join, Rules, Learn, Odds, Stats, Quit; the name and version."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ... import __version__
from ...play.saves import SaveInfo, move_to_damaged, scan_saves
from ..chrome import KeyBar, SafeOptionList
from ..home_menu import HomeMenu, MenuEntry
from ..screen_css import SCREENS_CSS
from ..typed_app import twos_app

LOGO = """\
 ┌─────┐ ┌─────┐
 │2    │ │2    │
 │  ♠  │ │  ♥  │   t w o s - t u i
 │    2│ │    2│
 └─────┘ └─────┘"""


class HomeScreen(Screen[None]):
    BINDINGS = [
        Binding("n", "new", "New game"),
        Binding("c", "continue_game", "Continue"),
        Binding("j", "join", "Join"),
        Binding("r", "rules", "Rules"),
        Binding("l", "learn", "Learn"),
        Binding("p", "puzzles", "Puzzles"),
        Binding("o", "odds", "Odds"),
        Binding("s", "stats", "Stats"),
        Binding("q", "quit", "Quit"),
    ]

    def compose(self) -> ComposeResult:
        # (no container: the screen centres the three, which keeps the start light)
        yield Static(Text(LOGO, style="bold"), id="logo")
        yield Static(
            Text(f"version {__version__} · climbing and trick card games", style="dim"),
            id="version",
        )
        # (Continue is left out from the start when there is nothing to continue: hidden
        # on mount instead, the menu was laid out twice)
        self.has_saves = bool(continue_entries())
        hidden = set() if self.has_saves else {"continue"}
        yield HomeMenu(menu_rows(), hidden=hidden, id="home-buttons")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one(HomeMenu).focus()

    def on_screen_resume(self) -> None:
        self.refresh_saves()  # (a save made or removed meanwhile: Continue follows)

    def refresh_saves(self) -> None:
        has_saves = bool(continue_entries())
        self.query_one(HomeMenu).set_hidden("continue", not has_saves)
        if has_saves != self.has_saves:
            self.has_saves = has_saves
            self.refresh_bindings()

    has_saves = False  #: Continue has something to list (as of the last refresh_saves)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "continue_game":
            return self.has_saves  # no saves: no Continue, in the menu or the footer
        return True

    def action_new(self) -> None:
        twos_app(self).open_picker()

    def action_continue_game(self) -> None:
        if continue_entries():
            self.app.push_screen(ContinueScreen())

    def action_join(self) -> None:
        from .join import JoinScreen

        self.app.push_screen(JoinScreen(twos_app(self).player_name()))

    def action_rules(self) -> None:
        self.app.push_screen(RulesListScreen())

    def action_learn(self) -> None:
        twos_app(self).open_learn()

    def action_puzzles(self) -> None:
        from .puzzles import PuzzlesScreen

        self.app.push_screen(PuzzlesScreen())

    def action_odds(self) -> None:
        twos_app(self).open_odds()

    def action_stats(self) -> None:
        twos_app(self).open_stats()

    async def action_quit(self) -> None:
        self.app.exit(0)

    @on(HomeMenu.Chosen)
    async def _chosen(self, event: HomeMenu.Chosen) -> None:
        await self.run_action(MENU_ACTIONS[event.entry])


#: each entry of the menu, and the action (of the screen) it runs
MENU_ACTIONS = {
    "new": "new",
    "continue": "continue_game",
    "join": "join",
    "learn": "learn",
    "puzzles": "puzzles",
    "rules": "rules",
    "odds": "odds",
    "stats": "stats",
    "quit": "quit",
}


def menu_rows() -> list[list[MenuEntry]]:
    """The home menu: New game alone, then pairs, so that every entry fits 80x24 with
    Continue shown."""
    return [
        [MenuEntry("new", "New game (n)", "primary")],
        [MenuEntry("continue", "Continue (c)"), MenuEntry("join", "Join (j)")],
        [MenuEntry("learn", "Learn (l)"), MenuEntry("puzzles", "Puzzles (p)")],
        [MenuEntry("rules", "Rules (r)"), MenuEntry("odds", "Odds (o)")],
        [MenuEntry("stats", "Stats (s)"), MenuEntry("quit", "Quit (q)", "error")],
    ]


def continue_entries() -> list[SaveInfo]:
    """What Continue lists: the unfinished games (newest first), then the saves that
    cannot be opened (damaged, or from a newer version)."""
    infos = scan_saves()
    return [s for s in infos if s.ok and not s.match_over] + [s for s in infos if not s.ok]


def deal_word(variant_id: str) -> str:
    """What the game calls a deal ("round" in 2v1); "deal" for a game this build lacks."""
    try:
        from ...engine import variant_class  # (the engine is not needed at the home screen)

        return variant_class(variant_id).deal_word
    except (ValueError, ImportError, AttributeError):
        return "deal"


def save_label(info: SaveInfo, locked: bool = False) -> Text:
    """Two lines a person recognises: the game and who plays, then deal, score, when.
    Everything from the file is plain text (cleaned by the play layer), never markup."""
    if info.ok:
        t = Text()
        t.append(info.variant_name, style="bold")
        t.append(f"  {info.opponents()}")
        t.append("\n")
        word = deal_word(info.variant).capitalize()
        t.append(f"  {word} {info.deal_number} · {info.score()} · {info.when()}", style="dim")
        if locked:
            t.append("  · open in another window", style="italic")
        return t
    t = Text()
    t.append(info.display_name, style="bold")
    t.append("\n")
    kind = "newer version" if info.status == "newer" else "damaged"
    t.append(f"  {kind}: {info.problem}", style="dim")
    return t


class ContinueScreen(Screen[None]):
    """Unfinished saved games, the latest first; Enter resumes one. Saves that cannot
    be opened are listed apart with the reason; d deletes (after a yes), m moves a
    damaged save into the damaged/ folder."""

    CSS_PATH = SCREENS_CSS

    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("d", "delete", "Delete save"),
        Binding("m", "move_aside", "Move damaged aside"),
    ]

    def compose(self) -> ComposeResult:
        yield Static(Text("Continue a saved game", style="bold"), id="continue-title")
        yield SafeOptionList(id="saves")
        yield Static(
            Text("Enter: open · d: delete · m: move a damaged save aside · Esc: back"),
            id="continue-help",
        )
        yield KeyBar()

    def on_mount(self) -> None:
        self.reload()

    def reload(self) -> None:
        from ...play.locks import holder

        ol = self.query_one(OptionList)
        keep = self.highlighted_info()
        ol.clear_options()
        self.saves = continue_entries()
        self.by_id: dict[str, SaveInfo] = {}
        if not self.saves:
            if self.app.screen is self:
                self.dismiss(None)
            return
        heading_done = False
        for i, s in enumerate(self.saves):
            oid = f"save-{i}"
            if not s.ok and not heading_done:
                heading_done = True
                ol.add_option(None)
                ol.add_option(
                    Option(Text("Saves that cannot be opened", style="bold"), disabled=True)
                )
            self.by_id[oid] = s
            ol.add_option(Option(save_label(s, s.ok and holder(s.save_id) is not None), id=oid))
        target = 0
        if keep is not None:
            for i, opt in enumerate(ol.options):
                info = self.by_id.get(opt.id or "")
                if info is not None and info.path == keep.path:
                    target = i
                    break
        ol.highlighted = target
        ol.focus()

    def highlighted_info(self) -> SaveInfo | None:
        ol = self.query_one(OptionList)
        if ol.highlighted is None or not getattr(self, "by_id", None):
            return None
        try:
            opt = ol.get_option_at_index(ol.highlighted)
        except Exception:
            return None
        return self.by_id.get(opt.id or "")

    def action_back(self) -> None:
        self.dismiss(None)

    def action_delete(self) -> None:
        from .save_dialogs import ConfirmDelete

        info = self.highlighted_info()
        if info is None:
            return
        what = save_label(info).plain if info.ok else f"{info.display_name} ({info.problem})"

        def answer(yes: bool | None) -> None:
            from ...play.locks import SaveLocked, delete_locked_save

            if yes:
                try:
                    delete_locked_save(info.save_id)
                except SaveLocked as e:
                    # open at a table (here or in another app): deleting it would lose
                    # that game, whose next autosave would go nowhere
                    self.app.notify(
                        f"Not deleted. {e.who()}: close it there first.",
                        severity="warning",
                        markup=False,
                    )
                else:
                    self.app.notify("Save deleted.", markup=False)
            self.reload()

        self.app.push_screen(ConfirmDelete(what), answer)

    def action_move_aside(self) -> None:
        info = self.highlighted_info()
        if info is None or info.status != "damaged":
            return
        try:
            dest = move_to_damaged(info.path)
        except OSError as e:
            self.app.notify(f"Could not move it: {e.strerror or e}", severity="error", markup=False)
        else:
            self.app.notify(f"Moved to {dest.parent.name}/{dest.name}", markup=False)
        self.reload()

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        from .save_dialogs import DamagedSaveDialog

        info = self.by_id.get(event.option.id or "")
        if info is None:
            return
        if info.ok:
            twos_app(self).resume(info)
            return

        def answer(choice: str | None) -> None:
            if choice == "move":
                self.action_move_aside()
            elif choice == "delete":
                self.action_delete()

        self.app.push_screen(
            DamagedSaveDialog(info.display_name, info.problem or "", info.status == "newer"), answer
        )


class RulesListScreen(Screen[None]):
    """Every variant; Enter opens its help with the default house rules."""

    CSS_PATH = SCREENS_CSS

    BINDINGS = [Binding("escape", "back", "Back")]

    def compose(self) -> ComposeResult:
        from ..variants import available_variants

        yield Static(Text("Rules: pick a game", style="bold"), id="rules-title")
        ol = SafeOptionList(id="rules-list")
        for cls in available_variants():
            ol.add_option(
                Option(Text.assemble((cls.name, "bold"), f" — {cls.summary}"), id=cls.variant_id)
            )
        yield ol
        yield KeyBar()

    def on_mount(self) -> None:
        ol = self.query_one(OptionList)
        ol.highlighted = 0
        ol.focus()

    def action_back(self) -> None:
        self.dismiss(None)

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        from ...engine import new_game
        from .help import HelpScreen

        if event.option.id is not None:  # every entry has its game's id
            self.app.push_screen(HelpScreen(new_game(event.option.id, seed=0)))
