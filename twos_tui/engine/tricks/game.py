"""Twos, the trick-taking game (docs/rules.md §6): the protocol shell over the one core.

Four players, 52 cards, 13 each; the player left of the dealer leads the first trick,
the trick winner the next; the deal passes to the left. The rules (follow suit, the
wild 2 caught by its 3, the trick winner, honours and catches, the end of a match) are
the core's (:mod:`.judger`, :mod:`.state`, :mod:`.dealer`): this class keeps the match
(seed, names, log, totals, results), translates card codes ↔ masks, words the prompts
and reasons, writes the log and the JSON and builds each seat's observation from the
core's state. Match: 4 deals (option: 1, 2 or 8 deals, or first to a target score);
highest total wins.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any, ClassVar, Self, cast

from .._view_common import TableEntry as TableEntryView
from .._view_common import ViewCache, slot_maker
from ..cards import (
    HIDDEN,
    SUIT_GLYPH,
    SUIT_NAME,
    SUITS,
    CardFace,
    display,
    display_cards,
    full_deck,
    parse_card,
    rank_of,
    standard_face,
)
from ..observation import LastTrickView, LogEntry, TwosTricksObservation
from ..protocol import Action, DealResult, Decision, Game, OptionSpec
from ..words import says, whom
from ..words import verb as verb_of
from . import judger
from .cards import CODES, INDEX, codes_of, codes_tuple, mask_of
from .dealer import deal
from .state import TricksState
from .view import TrickLastView, TricksView

#: display order of the suits in a hand (alternating colours)
SUIT_ORDER = ("S", "H", "C", "D")
TRICKS_PER_DEAL = 13
_PLAY = "play"
#: the play of each card (actions are frozen: one object per card serves every game)
_PLAY_OF: dict[str, Action] = {code: Action(_PLAY, (code,)) for code in CODES}


def trick_rank(code: str) -> int:
    """Order of a card within its suit: 3 low … A (14) high; a 2 above everything."""
    r = rank_of(code)
    return 15 if r == 2 else r


def holds_suit(hand: Iterable[str], suit: str) -> bool:
    """Whether ``hand`` holds a card of ``suit`` (its 2 included)."""
    return bool(judger.led_suit_cards(mask_of(hand), SUITS.index(suit)))


def playable(hand: list[str], led_suit: str | None) -> list[str]:
    """The cards of ``hand`` that may be played to a trick led in ``led_suit`` (in the
    hand's order), as the core judges them."""
    led = -1 if led_suit is None else SUITS.index(led_suit)
    legal = judger.legal_mask(mask_of(hand), led)
    return [c for c in hand if legal >> INDEX[c] & 1]


def resolve_trick(plays: list[tuple[int, str]]) -> tuple[int, list[tuple[int, int, int]]]:
    """Index (in ``plays``) of the winning play, and the scoring catches as
    ``(catcher seat, victim seat, points)``. ``plays`` are ``(seat, card)`` in order."""
    pos, pts, _, victims = judger.resolve([INDEX[c] for _, c in plays])
    winner = plays[pos][0]
    return pos, [(winner, plays[i][0], pts) for i in range(len(plays)) if victims >> i & 1]


#: "Ann plays" for one name (pure, and asked at every card)
_says_one = functools.lru_cache(maxsize=512)(says)


def _count(n: int, word: str) -> str:
    """``1 trick``, ``2 tricks``."""
    return f"{n} {word}{'' if n == 1 else 's'}"


class TwosTricksGame(Game):
    variant_id: ClassVar[str] = "twos-tricks"
    name: ClassVar[str] = "Twos (tricks)"
    summary: ClassVar[str] = (
        "Four players take tricks; any 2 is wild but falls to its own 3. Score honours and catches."
    )
    family: ClassVar[str] = "trick"
    player_counts: ClassVar[tuple[int, ...]] = (4,)
    default_players: ClassVar[int] = 4
    low_score_wins: bool = False
    score_label: str = "Points"
    #: what the views keep between calls (:meth:`_view`)
    _vc: _TricksCache | None = None
    ACTION_SHAPES: ClassVar[dict[str, tuple[bool, str | None]]] = {"play": (True, None)}

    @classmethod
    def option_specs(cls, players: int | None = None) -> tuple[OptionSpec, ...]:
        return (
            OptionSpec(
                "game_length",
                "Game length",
                "How many deals make a match, or play until someone reaches the target score.",
                (
                    (4, "4 deals"),
                    (1, "1 deal"),
                    (2, "2 deals"),
                    (8, "8 deals"),
                    (0, "Until the target score"),
                ),
                4,
            ),
            OptionSpec(
                "target_score",
                "Target score",
                "When playing to a target: the match ends after the deal in which "
                "someone reaches it; the highest total wins.",
                ((20, "20 points"), (30, "30 points"), (50, "50 points")),
                20,
            ),
        )

    def __init__(
        self,
        players: int | None = None,
        options: dict[str, Any] | None = None,
        seed: int = 0,
        names: list[str] | None = None,
    ) -> None:
        super().__init__(players, options, seed, names)
        n = self.players
        self.dealer = n - 1  # so that seat 0 leads the first deal
        self._reset_deal_state()
        self.start_deal(first=True)

    def _reset_deal_state(self) -> None:
        n = self.players
        self.core = TricksState()
        self.taken: list[list[str]] = [[] for _ in range(n)]
        self.last_trick: LastTrickView | None = None
        self._hcache: tuple[list[LogEntry], int, int, list[LogEntry]] | None = None

    # ----- the core's state, in card codes (read-only views) ---------------------------------
    @property
    def hands(self) -> list[list[str]]:
        return [codes_of(h) for h in self.core.hands]

    @property
    def trick(self) -> list[tuple[int, str]]:
        """``(seat, card)`` of the trick so far, in play order."""
        c = self.core
        return [((c.leader + i) % 4, CODES[x]) for i, x in enumerate(c.trick)]

    @property
    def current(self) -> int:
        return self.core.current

    @property
    def leader(self) -> int:
        return self.core.leader

    @property
    def points(self) -> list[int]:
        """This deal's points per seat."""
        return self.core.points

    @property
    def honours(self) -> list[int]:
        return self.core.honours

    @property
    def catch_points(self) -> list[int]:
        return self.core.catches

    @property
    def tricks_taken(self) -> list[int]:
        return self.core.tricks_taken

    @property
    def trick_number(self) -> int:
        return self.core.trick_number

    @property
    def led_suit(self) -> str | None:
        t = self.core.trick
        return SUITS[t[0] // 13] if t else None

    # ----- deals ---------------------------------------------------------------------------
    def start_deal(self, first: bool = False) -> None:
        n = self.players
        self.deal_number += 1
        self.deal_over = False
        if not first:
            self.dealer = (self.dealer + 1) % n
        self._reset_deal_state()
        self.core = deal(self.rng, self.dealer)
        self.log(
            f"Deal {self.deal_number}: {says(self.names[self.dealer], 'deals')}; "
            f"{says(self.names[self.core.current], 'leads')}.",
            self.dealer,
            kind="deal",
        )

    def next_deal(self) -> None:
        if not self.deal_over or self.match_over:
            raise ValueError("the deal is not over" if not self.deal_over else "the match is over")
        self.reseed_for_next_deal()
        self.start_deal()

    def set_hands(self, hands: list[list[str]], leader: int | None = None) -> None:
        """For tests and tutorials: replace the deal with ``hands`` (any sizes) and let
        ``leader`` lead. The cards in no hand go to seat 0's pile of taken cards so that
        every card stays accounted for; they score nothing."""
        codes = [[parse_card(c) for c in h] for h in hands]
        used = [c for h in codes for c in h]
        if len(set(used)) != len(used):
            raise ValueError("a card is in two hands")
        self._reset_deal_state()
        c = self.core
        c.hands = [mask_of(h) for h in codes]
        self.taken[0] = [x for x in full_deck() if x not in set(used)]
        c.played = mask_of(self.taken[0])
        c.leader = c.current = (self.dealer + 1) % self.players if leader is None else leader

    # ----- protocol ---------------------------------------------------------------------------
    def to_act(self) -> tuple[int, ...]:
        if self.deal_over or self.match_over:
            return ()
        return (self.core.current,)

    def legal_actions(self, seat: int) -> list[Action]:
        c = self.core
        if self.deal_over or self.match_over or seat != c.current:
            return []
        return [_PLAY_OF[x] for x in codes_of(c.legal())]

    def malformed(self, seat: Any, action: Any) -> str | None:
        """As :meth:`Game.malformed`; a play of one card code by a seat is well formed at
        a glance (the usual case), anything else is asked of the base."""
        if self._plain_play(seat, action):
            return None
        return super().malformed(seat, action)

    def _plain_play(self, seat: Any, action: Any) -> bool:
        return (
            type(action) is Action
            and type(seat) is int
            and 0 <= seat < self.players
            and action.kind == _PLAY
            and action.value is None
            and type(action.cards) is tuple
            and len(action.cards) == 1
            and type(action.cards[0]) is str
            and action.cards[0] in INDEX
        )

    def check(self, seat: int, action: Action) -> str | None:
        c = self.core
        bad = None if self._plain_play(seat, action) else self.malformed(seat, action)
        if bad is None and (seat != c.current or self.deal_over or self.match_over):
            bad = self.turn_reason(seat)  # (the seat to play needs no to_act() call)
        if bad is not None:
            return bad
        if action.kind != _PLAY:
            return f"Play one card ('{action.kind}' is not a move in this game)."
        if len(action.cards) != 1:
            return f"Play exactly one card (you chose {len(action.cards)})."
        card = action.cards[0]  # a card code of the deck: malformed() said so
        bit = 1 << INDEX[card]
        hand = c.hands[seat]
        if not hand & bit:
            return f"{display(card)} is not in your hand."
        if not c.legal() & bit:
            led = c.trick[0] // 13
            return (
                f"You must follow {SUIT_NAME[SUITS[led]]} "
                f"(you hold {display_cards(codes_of(judger.led_suit_cards(hand, led)))}); "
                f"only a 2 may be played instead."
            )
        return None

    def _apply(self, seat: int, action: Action) -> None:
        code = action.cards[0]
        card = INDEX.get(code)
        if card is None:
            code = parse_card(code)
            card = INDEX[code]
        c = self.core
        leader = c.leader
        cards = [*c.trick, card]
        verb = "leads" if len(cards) == 1 else "plays"
        result = c.play(card)
        text = f"{_says_one(self.names[seat], verb)} {display(code)}."
        self.log(text, seat, kind="play", card=code)
        if result is not None:
            self._finish_trick(leader, cards, result)

    def _finish_trick(
        self, leader: int, cards: list[int], result: tuple[int, int, int, int]
    ) -> None:
        """Word, log and record the trick the core has just judged and scored."""
        pos, pts, _, victims = result
        n = self.players
        plays = [((leader + i) % n, CODES[x]) for i, x in enumerate(cards)]
        winner, win_card = plays[pos]
        catches = judger.catches(leader, pos, pts, victims, n)
        hon = judger.honours(cards)
        self.taken[winner].extend(code for _, code in plays)
        parts = []
        for _, victim, p in catches:
            victim_card = next(code for s, code in plays if s == victim)
            parts.append(
                f"{verb_of(self.names[winner], 'catches')} {display(victim_card)} from "
                f"{whom(self.names[victim])} (+{p}/−{p})"
            )
        number = self.core.trick_number - (0 if self.core.over else 1)
        text = f"{says(self.names[winner], 'wins')} trick {number} with {display(win_card)}"
        if hon:
            text += f", {hon} honour{'s' if hon > 1 else ''}"
        if parts:
            text += ", " + ", ".join(parts)
        self.log(text + ".", winner, kind="trick", winner=winner)
        self.last_trick = {
            "number": number,
            "plays": [[s, code] for s, code in plays],
            "winner": winner,
            "winning_card": win_card,
            "honours": hon,
            "catches": [list(x) for x in catches],
        }
        if self.core.over:
            self._end_deal()

    def _end_deal(self) -> None:
        n = self.players
        c = self.core
        self.deal_over = True
        changes = list(c.points)
        self.totals = [t + x for t, x in zip(self.totals, changes, strict=False)]
        winners = judger.deal_winners(changes)
        summary = (
            f"Deal {self.deal_number}: "
            + ", ".join(f"{self.names[s]} {changes[s]:+d}" for s in range(n))
            + "."
        )
        details = [
            f"{self.names[s]}: {_count(c.tricks_taken[s], 'trick')}, "
            f"{_count(c.honours[s], 'honour')}, catches {c.catches[s]:+d}"
            for s in range(n)
        ]
        self.match_over = judger.match_over(
            self.options["game_length"], self.options["target_score"], self.deal_number, self.totals
        )
        self.results.append(
            DealResult(self.deal_number, winners, changes, list(self.totals), summary, details)
        )
        self.log(summary, None, kind="deal-end")
        if self.match_over:
            won = [self.names[s] for s in self.match_winners()]
            self.log(f"Match over: {says(won, 'wins')}.", None, kind="match-end")

    def target_text(self) -> str:
        length = self.options["game_length"]
        if length:
            return f"{length} deal{'s' if length > 1 else ''}; highest total wins."
        return f"First to {self.options['target_score']} points; highest total wins."

    def decision(self, seat: int) -> Decision | None:
        if seat not in self.to_act():
            return None
        c = self.core
        if not c.trick:
            prompt = f"Trick {c.trick_number}: lead any card."
        else:
            led = c.trick[0] // 13
            name = SUIT_NAME[SUITS[led]]
            if judger.led_suit_cards(c.hands[seat], led):
                prompt = f"Follow {name} (or play a 2)."
            else:
                prompt = f"No {name}: play any card."
        return Decision(seat, _PLAY, prompt, (1, 1), _PLAY)

    # ----- card accounting ---------------------------------------------------------------------
    def deck_cards(self) -> list[str]:
        return full_deck()

    def card_census(self) -> list[str]:
        return (
            [x for h in self.core.hands for x in codes_of(h)]
            + [code for _, code in self.trick]
            + [x for t in self.taken for x in t]
        )

    def hidden_from(self, seat: int) -> set[str]:
        return {x for i, h in enumerate(self.core.hands) if i != seat for x in codes_of(h)}

    # ----- display -------------------------------------------------------------------------------
    def card_face(self, code: str) -> CardFace:
        return standard_face(code if code == HIDDEN else parse_card(code))

    def card_sort_key(self, code: str, by: str = "rank") -> tuple[int, ...]:
        si = SUIT_ORDER.index(code[-1])
        r = trick_rank(code)
        return (si, r) if by == "suit" else (r, si)

    def status_line(self) -> str:
        if self.match_over:
            return "The match is over."
        if self.deal_over:
            return "The deal is over."
        c = self.core
        who = self.names[c.current]
        if not c.trick:
            return f"Trick {c.trick_number}: {who} to lead."
        led = SUIT_NAME[SUITS[c.trick[0] // 13]]
        return f"Trick {c.trick_number}, {led} led: {who} to play."

    def _seat_tags(self, seat: int) -> list[str]:
        tags = []
        if seat == self.dealer:
            tags.append("dealer")
        if seat == self.core.leader and not self.deal_over:
            tags.append("leads")
        return tags

    def _deal_history(self) -> list[LogEntry]:
        """The log entries a seat sees: this deal's, and every deal's and the match's end.
        Kept as the log grows (the filter runs over new entries only)."""
        hist = self.history
        dn = self.deal_number
        cache = self._hcache
        if cache is None or cache[0] is not hist or cache[1] != dn or cache[2] > len(hist):
            kept: list[LogEntry] = []
            start = 0
        else:
            kept, start = cache[3], cache[2]
        for i in range(start, len(hist)):
            h = hist[i]
            if h.get("deal") == dn or h.get("kind") in ("deal-end", "match-end"):
                kept.append(h)
        self._hcache = (hist, dn, len(hist), kept)
        return kept

    def observation(self, seat: int) -> TwosTricksObservation:
        """The JSON form of :meth:`_view`."""
        return cast(TwosTricksObservation, self._view(seat).to_json())

    def _view(self, seat: int) -> TricksView:
        """``seat``'s typed view, built from the core's state (the log and the score
        sheet copied once an entry, as they grow)."""
        vc = self._vc
        if vc is None:
            vc = self._vc = _TricksCache()
        n = self.players
        c = self.core
        leader = c.leader
        over = self.deal_over or self.match_over
        trick: list[tuple[int, str]] = []
        table: list[TableEntryView] = []
        by_seat: list[str | None] = [None] * n
        for i, x in enumerate(c.trick):
            s, code = (leader + i) % n, CODES[x]
            trick.append((s, code))
            key = (s, x, i == 0)
            entry = _ENTRIES.get(key)
            if entry is None:
                entry = _ENTRIES[key] = TableEntryView(s, (code,), "led" if i == 0 else "")
            table.append(entry)
            by_seat[s] = code
        led = SUITS[c.trick[0] // 13] if c.trick else None
        tags: list[tuple[str, ...]] = [()] * n
        tags[self.dealer] = ("dealer",)
        if not self.deal_over:
            tags[leader] = (*tags[leader], "leads")
        lt = self.last_trick
        if lt is None:
            last = None
        elif vc.last_of is lt:
            last = vc.last
        else:
            last = vc.last = TrickLastView(
                lt["number"],
                tuple((cast(int, p[0]), cast(str, p[1])) for p in lt["plays"]),
                lt["winner"],
                lt["winning_card"],
                lt["honours"],
                tuple((x[0], x[1], x[2]) for x in lt["catches"]),
            )
            vc.last_of = lt
        return _new_view(
            variant=self.variant_id,
            family=self.family,
            seat=seat,
            players=n,
            names=tuple(self.names),
            hand=vc.codes(c.hands[seat]),
            hand_counts=tuple(map(int.bit_count, c.hands)),
            to_act=() if over else (c.current,),
            dealer=self.dealer,
            deal_number=self.deal_number,
            totals=tuple(self.totals),
            table=tuple(table),
            seat_tags=tuple(tags),
            history=vc.history.of(self._deal_history()),
            status=self.status_line(),
            deal_over=self.deal_over,
            match_over=self.match_over,
            options=dict(self.options),
            deal_scores=vc.scores.of(self.results),
            leader=leader,
            led_suit=led,
            led_suit_glyph=SUIT_GLYPH[led] if led else None,
            trick=tuple(trick),
            trick_by_seat=tuple(by_seat),
            trick_number=c.trick_number,
            tricks_taken=tuple(c.tricks_taken),
            points=tuple(c.points),
            honours=tuple(c.honours),
            catch_points=tuple(c.catches),
            last_trick=last,
            played=vc.codes(c.played),
        )

    # ----- search (the puzzle solver) --------------------------------------------------------
    def clone_for_search(self) -> Self:
        """An independent copy for a search: the rules state copied, no log or actions."""
        g = object.__new__(type(self))
        d = g.__dict__
        d.update(self.__dict__)
        g.history = []
        g.actions = []
        g.core = self.core.copy()
        g.taken = [t[:] for t in self.taken]
        g.totals = self.totals[:]
        g.results = self.results[:]
        g._hcache = None
        g._vc = None
        return g

    def search_key(self) -> tuple[object, ...]:
        """What tells two states apart for a search (not the log)."""
        c = self.core
        return (
            tuple(c.hands),
            tuple(c.trick),
            c.leader,
            c.current,
            tuple(c.points),
            tuple(c.tricks_taken),
            self.deal_over,
        )

    def set_hand(self, seat: int, cards: Iterable[str]) -> None:
        """For a search over hidden cards: ``seat`` holds ``cards`` instead."""
        self.core.hands[seat] = mask_of(cards)

    # ----- JSON --------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        c = self.core
        d = self._base_json()
        d.update(
            {
                "hands": [codes_of(h) for h in c.hands],
                "dealer": self.dealer,
                "current": c.current,
                "leader": c.leader,
                "trick": [[s, code] for s, code in self.trick],
                "taken": [list(t) for t in self.taken],
                "tricks_taken": list(c.tricks_taken),
                "points": list(c.points),
                "honours": list(c.honours),
                "catch_points": list(c.catches),
                "trick_number": c.trick_number,
                "last_trick": self.last_trick,
            }
        )
        return d

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        g = cls._blank(data)
        g._reset_deal_state()
        g.dealer = data["dealer"]
        c = g.core
        c.hands = [mask_of(h) for h in data["hands"]]
        c.current = data["current"]
        c.leader = data["leader"]
        c.trick = [INDEX[code] for _, code in data["trick"]]
        g.taken = [list(t) for t in data["taken"]]
        c.played = mask_of(x for t in g.taken for x in t)
        c.tricks_taken = list(data["tricks_taken"])
        c.points = list(data["points"])
        c.honours = list(data["honours"])
        c.catches = list(data["catch_points"])
        c.trick_number = data["trick_number"]
        c.over = g.deal_over
        lt = data["last_trick"]
        g.last_trick = (
            None
            if lt is None
            else cast(
                LastTrickView,
                {  # validated
                    **lt,
                    "plays": [list(p) for p in lt["plays"]],
                    "catches": [list(x) for x in lt["catches"]],
                },
            )
        )
        return g

    @classmethod
    def validate_json(cls, data: Any) -> None:
        from .saves import validate_json

        validate_json(cls, data)


__all__ = ["TRICKS_PER_DEAL", "TwosTricksGame", "playable", "resolve_trick"]


_new_view = slot_maker(TricksView)

#: a card on the table beside a seat, led or not (each made once: a view is frozen)
_ENTRIES: dict[tuple[int, int, bool], TableEntryView] = {}


class _TricksCache(ViewCache):
    """A trick game's copies between views (see :class:`~.._view_common.ViewCache`)."""

    __slots__ = ("last", "last_of", "seen")

    def __init__(self) -> None:
        super().__init__()
        self.last: TrickLastView | None = None
        self.last_of: object = None
        #: the codes of the masks asked for lately (hands, the cards taken), kept a deal
        self.seen: dict[int, tuple[str, ...]] = {}

    def codes(self, mask: int) -> tuple[str, ...]:
        """The codes of ``mask`` in hand order (:func:`.cards.codes_tuple`), remembered."""
        got = self.seen.get(mask)
        if got is None:
            if len(self.seen) > 256:
                self.seen.clear()
            got = self.seen[mask] = codes_tuple(mask)
        return got
