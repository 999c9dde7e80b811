"""The protocol shell shared by the climbing (shedding) games: combinations as players
read them, the play log and the trick's record, the end of a deal, the JSON.

The rules live once, in the integer core (:mod:`.core`, with one :class:`~.core.Rules`
per variant in the ``rules_*`` modules), and so does the state: a game holds one
:class:`~.core.SimState` (``self.core``: hands as card masks, the seat to act, the play
to beat, who passed, the card the first play must hold, the opening) that the core's
``legal``/``play``/``can_pass`` and its dealing rule (``Rules.start``: who starts, which
card must open) drive. ``hands``, ``current``, ``top``, ``passed``... are read from it.
A variant subclasses :class:`ClimbingGame` and supplies ``classify_cards(cards,
options)`` (classmethod), ``enumerate_combos(seat, top)``, ``deal_cards()`` (shuffles
with ``self.rng``, sets ``self.dealer`` and the undealt cards, then
:meth:`ClimbingGame.start_core`), ``score_deal(winner)`` and ``card_sort_key``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any, ClassVar, Self, cast

from ..cards import CardError, display, display_cards, parse_card
from ..observation import ClimbingLastTrick, ClimbingObservation, TrickMove
from ..protocol import PASS, Action, Choice, DealResult, Decision, Game
from ..words import is_you, says, whose
from .combination import (
    Combination,
    _show,
    describe_kind,
    show_combo,
    shown_order,
)
from .core import Move, Rules, SimState
from .view import NO_KEYS, ClimbingCache, ClimbingView, ViewKeys, view_of


class ClimbingGame(Game):
    family: ClassVar[str] = "climbing"
    ACTION_SHAPES: ClassVar[dict[str, tuple[bool, str | None]]] = {
        "play": (True, None),
        "pass": (False, None),
    }
    #: (seat, cards, codes, combo) of the last check
    _checked: tuple[int, tuple[str, ...], tuple[str, ...], Combination] | None = None
    #: what the views keep between calls (:meth:`_view`)
    _vc: ClimbingCache | None = None
    #: penalty per deal unless the subclass scores otherwise
    low_score_wins: bool = True

    def __init__(
        self,
        players: int | None = None,
        options: dict[str, Any] | None = None,
        seed: int = 0,
        names: list[str] | None = None,
    ) -> None:
        super().__init__(players, options, seed, names)
        self._init_core()
        self.trick: list[TrickMove] = []  # plays and passes of the current trick
        #: the trick finished last (its plays and passes, and who won it), public
        self.last_trick: ClimbingLastTrick | None = None
        self.out_of_play: list[str] = []  # undealt cards (hidden from everyone)
        self.discards: list[str] = []  # cards played this deal (public)
        self.start_deal()

    def _init_core(self) -> None:
        from .rules import rules_for

        #: the rules core of this variant, options and player count
        self.rules_core: Rules = rules_for(self.variant_id, self.players, self.options)
        #: the rules state of the deal: hands (card masks), the seat to act, the play to
        #: beat and who made it, who passed, the card the first play must hold, the
        #: opening and its passes, the dealer. Everything below reads it.
        self.core = SimState(self.rules_core, [0] * self.players, 0)
        #: per seat: (a hand mask, its card codes), the last asked
        self._hc: list[tuple[int, tuple[str, ...]]] = [(-1, ())] * self.players
        #: (the core's top move, its Combination), the last asked
        self._tc: tuple[Move, Combination] | None = None
        #: the status line and the seat tags, by what they depend on
        self._sl: tuple[tuple[str, Move | None], str] | None = None
        self._tags: dict[tuple[int, int, int], tuple[tuple[str, ...], ...]] = {}

    # ----- the state, read from the core ----------------------------------------------------
    def hand_codes(self, seat: int) -> tuple[str, ...]:
        """``seat``'s cards as codes, in hand order (remembered while the hand stays)."""
        m = self.core.hands[seat]
        got = self._hc[seat]
        if got[0] == m:
            return got[1]
        codes = self.rules_core.codes_of(m)
        self._hc[seat] = (m, codes)
        return codes

    def set_hand(self, seat: int, codes: Iterable[str]) -> None:
        """Give ``seat`` exactly the cards ``codes`` (puzzles, tests, a hand chosen)."""
        self.core.hands[seat] = self.rules_core.mask_of(codes)
        self.core.memo[seat] = None

    def clone_for_search(self) -> Self:
        """An independent copy for a search (the puzzles' solver): the core state copied,
        no log or actions."""
        g = object.__new__(type(self))
        g.__dict__.update(self.__dict__)
        g.history = []
        g.actions = []
        g.core = self.core.copy()
        g.trick = self.trick[:]
        g.discards = self.discards[:]
        g.out_of_play = self.out_of_play[:]
        g.totals = self.totals[:]
        g.results = self.results[:]
        g._hc = self._hc[:]
        g._tags = {}
        g._vc = None
        g._checked = None
        return g

    def search_key(self) -> tuple[object, ...]:
        """What tells two states apart for a search (not the log)."""
        c = self.core
        return (
            tuple(c.hands),
            c.cur,
            c.top_seat,
            c.top,
            c.passed,
            self.deal_over,
            c.opening,
            c.open_passes,
        )

    @property
    def hands(self) -> list[list[str]]:
        """Every seat's cards as codes (a copy; ``hands[seat] = cards`` sets a hand)."""
        return _Hands(self, [list(self.hand_codes(s)) for s in range(self.players)])

    @hands.setter
    def hands(self, hands: Sequence[Iterable[str]]) -> None:
        for seat, h in enumerate(hands):
            self.set_hand(seat, h)

    @property
    def current(self) -> int:
        return self.core.cur

    @current.setter
    def current(self, seat: int) -> None:
        self.core.cur = seat

    @property
    def dealer(self) -> int:
        return self.core.dealer

    @dealer.setter
    def dealer(self, seat: int) -> None:
        self.core.dealer = seat

    @property
    def top(self) -> Combination | None:
        """The play to beat (``None``: a free lead)."""
        mv = self.core.top
        if mv is None:
            return None
        tc = self._tc
        if tc is not None and tc[0] is mv:
            return tc[1]
        combo = self.combination_of(mv)
        self._tc = (mv, combo)
        return combo

    @top.setter
    def top(self, combo: Combination | None) -> None:
        self.core.top = None if combo is None else self.rules_core.move_of_codes(combo.cards)

    @property
    def top_seat(self) -> int | None:
        """Who made the play to beat."""
        ts = self.core.top_seat
        return None if ts < 0 else ts

    @top_seat.setter
    def top_seat(self, seat: int | None) -> None:
        self.core.top_seat = -1 if seat is None else seat

    @property
    def passed(self) -> list[bool]:
        """Per seat: passed in this trick."""
        p = self.core.passed
        return [bool(p >> i & 1) for i in range(self.players)]

    @passed.setter
    def passed(self, passed: Sequence[bool]) -> None:
        self.core.passed = sum(1 << i for i, p in enumerate(passed) if p)

    @property
    def required_card(self) -> str | None:
        """The card the first play of the deal must include."""
        req = self.core.req
        return self.rules_core.codes[req.bit_length() - 1] if req else None

    @required_card.setter
    def required_card(self, code: str | None) -> None:
        self.core.req = 0 if code is None else self.rules_core.mask_of((code,))

    @property
    def opening(self) -> bool:
        """Nobody has played yet this deal."""
        return self.core.opening

    @opening.setter
    def opening(self, value: bool) -> None:
        self.core.opening = value

    def combination_of(self, mv: Move) -> Combination:
        """The :class:`Combination` of a core move."""
        return self.classify_cards(self.rules_core.codes_of(mv[0]), self.options) or _no_combo(mv)

    # ----- variant hooks ---------------------------------------------------------------
    @classmethod
    def classify_cards(cls, cards: tuple[str, ...], options: dict[str, Any]) -> Combination | None:
        raise NotImplementedError

    def enumerate_combos(self, seat: int, top: Combination | None) -> list[Combination]:
        raise NotImplementedError

    def deal_cards(self) -> None:
        """Shuffle with ``self.rng``, set ``self.dealer``, ``self.out_of_play`` and the
        core's state (:meth:`start_core`)."""
        raise NotImplementedError

    def start_core(self, hands: list[int]) -> None:
        """The core's state at the start of a deal of ``hands`` (card masks) by
        ``self.dealer``: the core says who starts and which card must open."""
        self.core = self.rules_core.start(hands, self.dealer)

    def score_deal(self, winner: int) -> DealResult:
        raise NotImplementedError

    @property
    def locked_out(self) -> bool:
        """House rule: a pass keeps the player out until the next trick."""
        return self.options.get("passing") == "locked"

    def can_pass(self, seat: int) -> bool:
        """May ``seat`` (the seat to play) pass now? The core says."""
        return self.core.can_pass()

    # ----- deal flow ----------------------------------------------------------------------
    def start_deal(self) -> None:
        self.deal_number += 1
        self.deal_over = False
        self.trick = []
        self.last_trick = None
        self.discards = []
        self.deal_cards()
        self.log(
            f"Deal {self.deal_number}: {says(self.names[self.dealer], 'deals')}; "
            f"{says(self.names[self.current], 'starts')}."
        )

    def next_deal(self) -> None:
        if not self.deal_over or self.match_over:
            raise ValueError("the deal is not over" if not self.deal_over else "the match is over")
        self.reseed_for_next_deal()
        self.start_deal()

    def to_act(self) -> tuple[int, ...]:
        if self.deal_over or self.match_over:
            return ()
        return (self.core.cur,)

    # ----- legality ------------------------------------------------------------------
    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.to_act():
            return []
        combos = self.enumerate_combos(seat, self.top)
        if self.required_card is not None:
            combos = [c for c in combos if self.required_card in c.cards]
        acts = [Action("play", c.cards) for c in combos]
        if self.can_pass(seat):
            acts.append(PASS)
        return acts

    def parse_selection(self, seat: int, cards: Iterable[object]) -> tuple[str, ...]:
        """Codes of a selection, or raise ValueError with the reason."""
        if not cards:
            raise ValueError("Select at least one card to play, or pass.")
        codes = []
        for c in cards:
            try:
                codes.append(parse_card(c))
            except CardError as e:
                raise ValueError(str(e)) from None
        if len(set(codes)) != len(codes):
            dup = next(c for c in codes if codes.count(c) > 1)
            raise ValueError(f"{display(dup)} is chosen twice.")
        hand = set(self.hand_codes(seat))
        for c in codes:
            if c not in hand:
                raise ValueError(f"{display(c)} is not in your hand.")
        return tuple(codes)

    def classify(self, cards: tuple[str, ...]) -> Combination | None:
        return self.classify_cards(cards, self.options)

    def check(self, seat: int, action: Action) -> str | None:
        bad = self.malformed(seat, action)
        if bad is None and (seat != self.current or self.deal_over or self.match_over):
            bad = self.turn_reason(seat)  # (the seat to play needs no to_act() call)
        if bad is not None:
            return bad
        if action.kind == "pass":
            if not self.can_pass(seat):
                return "You lead this trick: play something (there is nothing to pass on)."
            return None
        if action.kind != "play":
            return f"'{action.kind}' is not a move in {self.name}: play cards or pass."
        combo = self.lookup_play(seat, action.cards) if action.cards else None
        if combo is not None:
            codes = combo.cards
        else:
            try:
                codes = self.parse_selection(seat, action.cards)
            except ValueError as e:
                return str(e)
            combo = self.classify(codes)
            if combo is None:
                return self.why_not_combination(codes)
        if self.required_card is not None and self.required_card not in codes:
            return f"The first play of the deal must include {display(self.required_card)}."
        if self.top is not None and not combo.beats(self.top):
            return self.why_not_beating(combo, self.top)
        # remembered for _apply, which follows at once (apply = check + _apply)
        self._checked = (seat, action.cards, codes, combo)
        return None

    def describe(self, seat: int, action: Action) -> str | None:
        if action.kind != "play" or not action.cards or self.check(seat, action) is not None:
            return None
        combo = self.lookup_play(seat, action.cards)
        if combo is None:
            try:
                combo = self.classify(self.parse_selection(seat, action.cards))
            except ValueError:
                return None
        if combo is None:
            return None
        what = f"{describe_kind(combo.kind)} {show_combo(combo)}"
        if self.top is None or self.top_seat is None:
            return f"{what} — a new lead"
        beaten = describe_kind(self.top.kind)
        how = "bombs" if combo.is_bomb and not self.top.is_bomb else "beats"
        return f"{what} — {how} {whose(self.names[self.top_seat])} {beaten}"

    def lookup_play(self, seat: int, cards: object) -> Combination | None:
        """Fast path for :meth:`check`: the combination ``cards`` make if they are
        exactly a known play from ``seat``'s hand (e.g. one listed by
        ``legal_actions``), else ``None`` (then the cards are parsed and classified)."""
        return None

    def why_not_combination(self, codes: tuple[str, ...]) -> str:
        return f"{display_cards(codes)} is not a combination you can play in {self.name}."

    def why_not_beating(self, combo: Combination, top: Combination) -> str:
        if combo.power < top.power:
            return (
                f"{describe_kind(top.kind).capitalize()} on the table "
                "can only be beaten by a stronger bomb."
            )
        if combo.slot != top.slot:
            return (
                f"The table holds a {describe_kind(top.kind)} of {len(top.cards)}: "
                f"a {describe_kind(combo.kind)} of {len(combo.cards)} does not follow that pattern."
            )
        if top.strict is not None and combo.strict != top.strict:
            return (
                f"A {top.strict} {describe_kind(top.kind)} "
                f"can only be beaten by another {top.strict} one."
            )
        return f"{show_combo(combo)} does not beat {show_combo(top)}."

    # ----- applying -------------------------------------------------------------------
    def _apply(self, seat: int, action: Action) -> None:
        if action.kind == "pass":
            self._pass(seat)
            return
        memo, self._checked = self._checked, None
        combo: Combination | None
        if memo is not None and memo[0] == seat and memo[1] is action.cards:
            codes, combo = memo[2], memo[3]
        else:
            codes = self.parse_selection(seat, action.cards)
            combo = self.classify(codes)
        assert combo is not None
        mv = self.rules_core.move_of_codes(codes)
        assert mv is not None
        self._play(seat, mv, codes, combo, None)

    def _pass(self, seat: int) -> None:
        """``seat`` passes: the core's trick flow, then the trick and the log."""
        core = self.core
        open_table = core.top_seat < 0
        core.play(None)
        self.trick.append({"seat": seat, "pass": True})
        # self.log(...), inlined: passes are half the moves
        self.history.append(
            {
                "seat": seat,
                "text": _passes(self.names[seat]),
                "deal": self.deal_number,
                "kind": "pass",
            }
        )
        if open_table:  # a pass on the empty opening table (Chinese Poker)
            if core.open_passes >= self.players:
                dealer = core.dealer
                self.log(f"Everyone passed: {self.names[dealer]} must lead.", dealer, kind="trick")
        elif core.top is None:
            self._new_trick(core.cur)

    def _play(
        self, seat: int, mv: Move, codes: Sequence[str], combo: Combination, text: str | None
    ) -> None:
        """``seat`` plays the core move ``mv`` (the cards ``codes``, the combination
        ``combo``; ``text``: what the log says after the name, if known): the core's
        trick flow, then the discards, the trick and the log."""
        core = self.core
        core.play(mv)
        self.discards.extend(codes)
        kind = combo.kind
        shown = list(shown_order(kind, combo.cards))
        self.trick.append({"seat": seat, "cards": shown, "kind": kind})
        is_bomb = combo.power > 0
        name = self.names[seat]
        if text is None:
            text = f" plays {describe_kind(kind)} {_show(shown)}" + (" — BOMB!" if is_bomb else "")
        self.history.append(
            {
                "seat": seat,
                "text": says(name, text[1:]) if is_you(name) else name + text,
                "deal": self.deal_number,
                "kind": "play",
                "cards": list(shown),
                "combo": kind,
                "bomb": is_bomb,
            }
        )
        if core.winner >= 0:
            self._end_deal(seat)
        elif core.top is None:  # everyone else is locked out: a new trick
            self._new_trick(core.cur)

    def _new_trick(self, leader: int) -> None:
        """The core has ended the trick: keep it as the last trick and say so."""
        self.last_trick = {"plays": self.trick, "winner": leader}
        self.trick = []
        self.log(
            f"Everyone else passed: {says(self.names[leader], 'leads a new trick')}.",
            leader,
            kind="trick",
        )

    def _end_deal(self, winner: int) -> None:
        self.deal_over = True
        result = self.score_deal(winner)
        self.results.append(result)
        self.totals = list(result.totals)
        self.log(result.summary, winner, kind="deal-end")
        if self.match_over:
            won = [self.names[i] for i in self.match_winners()]
            self.log(f"Match over: {says(won, 'wins')}.", None, kind="match-end")

    def cards_left(self) -> list[int]:
        """How many cards each seat holds."""
        return [h.bit_count() for h in self.core.hands]

    # ----- card accounting -----------------------------------------------------------
    def deck_cards(self) -> list[str]:
        from ..cards import full_deck

        return full_deck()

    def card_census(self) -> list[str]:
        return [c for s in range(self.players) for c in self.hand_codes(s)] + (
            self.discards + self.out_of_play
        )

    def hidden_from(self, seat: int) -> set[str]:
        hidden = set(self.out_of_play)
        if self.deal_over:
            return hidden  # the hands left are shown when the deal ends (``hands_left``)
        for i in range(self.players):
            if i != seat:
                hidden.update(self.hand_codes(i))
        # the card that must open the deal is announced with its holder
        hidden.discard(self.required_card)
        return hidden

    # ----- decisions and observations ----------------------------------------------
    def decision(self, seat: int) -> Decision | None:
        if seat not in self.to_act():
            return None
        if self.top is None:
            prompt = "Lead any combination."
            if self.required_card:
                prompt = f"Lead: your play must include {display(self.required_card)}."
        else:
            assert self.top_seat is not None
            prompt = (
                f"Beat {whose(self.names[self.top_seat])} {describe_kind(self.top.kind)} "
                f"{show_combo(self.top)}, or pass."
            )
        choices = (Choice("Pass", PASS, "p"),) if self.can_pass(seat) else ()
        n = self.core.hands[seat].bit_count()
        return Decision(seat, "play", prompt, (1, n), "play", choices)

    def status_line(self) -> str:
        if self.match_over:
            return "The match is over."
        if self.deal_over:
            return "The deal is over."
        core = self.core
        who = self.names[core.cur]
        key = (who, core.top)
        got = self._sl
        if got is not None and got[0] == key:
            return got[1]
        top = self.top
        if top is None:
            text = f"{who} to lead."
        else:
            text = f"{who} to beat {describe_kind(top.kind)} {show_combo(top)}."
        self._sl = (key, text)
        return text

    def seat_tags(self, seat: int) -> list[str]:
        return list(self.all_seat_tags()[seat])

    def all_seat_tags(self) -> tuple[tuple[str, ...], ...]:
        """Every seat's tags ("dealer", "passed", "on top"), remembered while the
        dealer, the play to beat and the passes stay."""
        core = self.core
        passed = core.passed if core.top is not None else 0
        key = (core.dealer, core.top_seat, passed)
        got = self._tags.get(key)
        if got is None:
            if len(self._tags) > 256:
                self._tags.clear()
            got = self._tags[key] = tuple(
                tuple(
                    t
                    for t, on in (
                        ("dealer", s == key[0]),
                        ("passed", passed >> s & 1),
                        ("on top", s == key[1]),
                    )
                    if on
                )
                for s in range(self.players)
            )
        return got

    def observation(self, seat: int) -> ClimbingObservation:
        """The JSON form of :meth:`_view` (what the corpus records and the network
        sends)."""
        return cast(ClimbingObservation, self._view(seat).to_json())

    def _view_keys(self, seat: int) -> ViewKeys:
        """A variant's own keys of ``seat``'s view: ``(bomb_order, score_label, phase,
        hand_choice, offered_hands)``, ``None`` where the variant has none."""
        return NO_KEYS

    def _view(self, seat: int) -> ClimbingView:
        """``seat``'s typed view, built from the state (see :func:`.view.view_of`)."""
        return view_of(self, seat)

    # ----- JSON -----------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        d = self._base_json()
        d.update(
            {
                "hands": [list(self.hand_codes(s)) for s in range(self.players)],
                "dealer": self.dealer,
                "current": self.current,
                "top": ([self.top_seat, list(self.top.cards)] if self.top else None),
                "passed": list(self.passed),
                "trick": [dict(p) for p in self.trick],
                "last_trick": (
                    None
                    if self.last_trick is None
                    else {
                        "plays": [dict(p) for p in self.last_trick["plays"]],
                        "winner": self.last_trick["winner"],
                    }
                ),
                "required_card": self.required_card,
                "opening": self.opening,
                "out_of_play": list(self.out_of_play),
                "discards": list(self.discards),
            }
        )
        d.update(self.extra_json())
        return d

    def extra_json(self) -> dict[str, Any]:
        """Variant-specific state for :meth:`to_json`."""
        return {}

    def load_extra_json(self, d: dict[str, Any]) -> None:
        """Restore what :meth:`extra_json` saved."""

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        g = cls._blank(data)
        g._init_core()
        g.hands = data["hands"]
        g.dealer = data["dealer"]
        g.current = data["current"]
        if data["top"] is None:
            g.top_seat = None
        else:
            g.top_seat = data["top"][0]
            g.core.top = g.rules_core.move_of_codes(data["top"][1])
        g.passed = data["passed"]
        g.trick = [cast(TrickMove, dict(p)) for p in data["trick"]]  # validated
        lt = data.get("last_trick")  # saves made before it was kept have none
        g.last_trick = (
            None
            if lt is None
            else {"plays": [cast(TrickMove, dict(p)) for p in lt["plays"]], "winner": lt["winner"]}
        )
        g.required_card = data["required_card"]
        g.opening = data["opening"]
        g.out_of_play = list(data["out_of_play"])
        g.discards = list(data["discards"])
        g.load_extra_json(data)
        return g

    @classmethod
    def validate_json(cls, data: Any) -> None:
        from ..validate import validate_climbing

        super().validate_json(data)
        validate_climbing(cls, data, [], False)


class _Hands(list[list[str]]):
    """:attr:`ClimbingGame.hands`: the hands as card codes, a copy made from the core;
    ``hands[seat] = cards`` gives the seat those cards (in the core)."""

    def __init__(self, game: ClimbingGame, hands: list[list[str]]) -> None:
        super().__init__(hands)
        self._game = game

    def __setitem__(self, seat: Any, cards: Any) -> None:
        if type(seat) is not int:
            raise TypeError("set one seat's hand at a time")
        self._game.set_hand(seat, cards)
        super().__setitem__(seat, list(self._game.hand_codes(seat)))


def _no_combo(mv: Move) -> Combination:
    raise ValueError(f"the core's move {mv!r} is not a combination of this variant")


@lru_cache(maxsize=512)
def _passes(name: str) -> str:
    """The log's line for a pass by ``name`` (passes are half the moves)."""
    return says(name, "passes") + "."
