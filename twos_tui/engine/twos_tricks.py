"""Twos, the trick-taking game (docs/rules.md §6): four players, wild twos caught by threes.

* 52 cards, 13 each. The player left of the dealer leads the first trick; the trick
  winner leads the next; the deal passes to the left.
* Follow suit if you can; a 2 may be played at any time (it is wild). A led 2 calls its
  own suit. A 2 still belongs to its suit: a player whose only card of the led suit is its
  2 holds that suit, so must play that 2 (or another 2). That is how a player can be
  forced to put a 2 into a trick that already holds one.
* Within a suit A is high, then K … 4, and 3 is low.
* Winner: if the trick holds a 2, the first 2 played wins, unless the 3 of its own suit is
  in the trick (played before or after it): then that 3 wins. Otherwise the highest card
  of the led suit wins.
* Points, to the trick winner only: each A, K, Q, J in the trick is 1; a winning first 2
  catches every later 2 (+2 to the winner, −2 to each victim); a winning 3 catches its own
  2 (+3 / −3). A catch by a card that does not win the trick scores nothing: in
  ``A♥ 2♣ 3♣ 2♠`` the 3♣ wins and takes 3 from the 2♣ player, and the 2♣'s catch of the
  2♠ does not count because the 2♣ did not win.
* Match: 4 deals (option: 1, 2 or 8 deals, or first to a target score); highest total wins.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar, Self, cast

from .cards import (
    HIDDEN,
    SUIT_GLYPH,
    SUIT_NAME,
    CardError,
    CardFace,
    display,
    display_cards,
    full_deck,
    parse_card,
    rank_of,
    standard_face,
    suit_of,
)
from .observation import LastTrickView, TwosTricksObservation
from .protocol import Action, DealResult, Decision, Game, OptionSpec
from .words import says, whom
from .words import verb as verb_of

HONOURS = frozenset((11, 12, 13, 14))
#: display order of the suits in a hand (alternating colours)
SUIT_ORDER = ("S", "H", "C", "D")
HAND_SIZE = 13
TRICKS_PER_DEAL = 13


def trick_rank(code: str) -> int:
    """Order of a card within its suit: 3 low … A (14) high; a 2 above everything."""
    r = rank_of(code)
    return 15 if r == 2 else r


def holds_suit(hand: Iterable[str], suit: str) -> bool:
    """Whether ``hand`` holds a card of ``suit`` (its 2 included)."""
    return any(c[-1] == suit for c in hand)


def playable(hand: list[str], led_suit: str | None) -> list[str]:
    """The cards of ``hand`` that may be played to a trick led in ``led_suit``."""
    if led_suit is None or not holds_suit(hand, led_suit):
        return list(hand)
    return [c for c in hand if c[-1] == led_suit or c[:-1] == "2"]


def resolve_trick(plays: list[tuple[int, str]]) -> tuple[int, list[tuple[int, int, int]]]:
    """Index (in ``plays``) of the winning play, and the scoring catches as
    ``(catcher seat, victim seat, points)``. ``plays`` are ``(seat, card)`` in order."""
    led = suit_of(plays[0][1])
    twos = [i for i, (_, c) in enumerate(plays) if rank_of(c) == 2]
    if twos:
        first = twos[0]
        three = "3" + suit_of(plays[first][1])
        for i, (_, c) in enumerate(plays):
            if c == three:
                return i, [(plays[i][0], plays[first][0], 3)]
        return first, [(plays[first][0], plays[i][0], 2) for i in twos[1:]]
    best = max(
        (i for i, (_, c) in enumerate(plays) if suit_of(c) == led),
        key=lambda i: rank_of(plays[i][1]),
    )
    return best, []


def honour_points(cards: Iterable[str]) -> int:
    return sum(1 for c in cards if rank_of(c) in HONOURS)


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
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.current = 0
        self.leader = 0
        self.trick: list[tuple[int, str]] = []  # (seat, card) in play order
        self.taken: list[list[str]] = [[] for _ in range(n)]
        self.tricks_taken = [0] * n
        self.points = [0] * n  # this deal
        self.honours = [0] * n
        self.catch_points = [0] * n
        self.trick_number = 1
        self.last_trick: LastTrickView | None = None

    # ----- deals ---------------------------------------------------------------------------
    def start_deal(self, first: bool = False) -> None:
        n = self.players
        self.deal_number += 1
        self.deal_over = False
        if not first:
            self.dealer = (self.dealer + 1) % n
        self._reset_deal_state()
        deck = full_deck()
        self.rng.shuffle(deck)
        for i in range(n):
            seat = (self.dealer + 1 + i) % n
            self.hands[seat] = self._sorted(deck[i * HAND_SIZE : (i + 1) * HAND_SIZE])
        self.leader = self.current = (self.dealer + 1) % n
        self.log(
            f"Deal {self.deal_number}: {says(self.names[self.dealer], 'deals')}; "
            f"{says(self.names[self.current], 'leads')}.",
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
        self.hands = [self._sorted(h) for h in codes]
        self.taken[0] = [c for c in full_deck() if c not in set(used)]
        self.leader = self.current = (self.dealer + 1) % self.players if leader is None else leader

    def _sorted(self, cards: Iterable[str]) -> list[str]:
        return sorted(cards, key=lambda c: self.card_sort_key(c, "suit"))

    @property
    def led_suit(self) -> str | None:
        return suit_of(self.trick[0][1]) if self.trick else None

    # ----- protocol ---------------------------------------------------------------------------
    def to_act(self) -> tuple[int, ...]:
        if self.deal_over or self.match_over:
            return ()
        return (self.current,)

    def legal_actions(self, seat: int) -> list[Action]:
        if self.deal_over or self.match_over or seat != self.current:
            return []
        return [Action("play", (c,)) for c in playable(self.hands[seat], self.led_suit)]

    def check(self, seat: int, action: Action) -> str | None:
        bad = self.malformed(seat, action)
        if bad is None and (seat != self.current or self.deal_over or self.match_over):
            bad = self.turn_reason(seat)  # (the seat to play needs no to_act() call)
        if bad is not None:
            return bad
        if action.kind != "play":
            return f"Play one card ('{action.kind}' is not a move in this game)."
        if len(action.cards) != 1:
            return f"Play exactly one card (you chose {len(action.cards)})."
        try:
            card = parse_card(action.cards[0])
        except CardError as e:
            return str(e)
        hand = self.hands[seat]
        if card not in hand:
            return f"{display(card)} is not in your hand."
        led = self.led_suit
        if card not in playable(hand, led):
            assert led is not None
            have = [c for c in hand if c[-1] == led]
            return (
                f"You must follow {SUIT_NAME[led]} (you hold {display_cards(have)}); "
                f"only a 2 may be played instead."
            )
        return None

    def _apply(self, seat: int, action: Action) -> None:
        card = parse_card(action.cards[0])
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        verb = "leads" if len(self.trick) == 1 else "plays"
        self.log(f"{says(self.names[seat], verb)} {display(card)}.", seat, kind="play", card=card)
        if len(self.trick) < self.players:
            self.current = (seat + 1) % self.players
            return
        self._finish_trick()

    def _finish_trick(self) -> None:
        plays = list(self.trick)
        idx, catches = resolve_trick(plays)
        winner, win_card = plays[idx]
        cards = [c for _, c in plays]
        hon = honour_points(cards)
        self.taken[winner].extend(cards)
        self.tricks_taken[winner] += 1
        self.honours[winner] += hon
        self.points[winner] += hon
        parts = []
        for catcher, victim, pts in catches:
            self.catch_points[catcher] += pts
            self.catch_points[victim] -= pts
            self.points[catcher] += pts
            self.points[victim] -= pts
            victim_card = next(c for s, c in plays if s == victim)
            parts.append(
                f"{verb_of(self.names[winner], 'catches')} {display(victim_card)} from "
                f"{whom(self.names[victim])} (+{pts}/−{pts})"
            )
        text = (
            f"{says(self.names[winner], 'wins')} trick {self.trick_number} with {display(win_card)}"
        )
        if hon:
            text += f", {hon} honour{'s' if hon > 1 else ''}"
        if parts:
            text += ", " + ", ".join(parts)
        self.log(text + ".", winner, kind="trick", winner=winner)
        self.last_trick = {
            "number": self.trick_number,
            "plays": [[s, c] for s, c in plays],
            "winner": winner,
            "winning_card": win_card,
            "honours": hon,
            "catches": [list(x) for x in catches],
        }
        self.trick = []
        self.leader = self.current = winner
        if not any(self.hands):
            self._end_deal()
        else:
            self.trick_number += 1

    def _end_deal(self) -> None:
        n = self.players
        self.deal_over = True
        changes = list(self.points)
        self.totals = [t + c for t, c in zip(self.totals, changes, strict=False)]
        best = max(changes)
        winners = [s for s in range(n) if changes[s] == best]
        summary = (
            f"Deal {self.deal_number}: "
            + ", ".join(f"{self.names[s]} {changes[s]:+d}" for s in range(n))
            + "."
        )
        details = [
            f"{self.names[s]}: {_count(self.tricks_taken[s], 'trick')}, "
            f"{_count(self.honours[s], 'honour')}, catches {self.catch_points[s]:+d}"
            for s in range(n)
        ]
        length = self.options["game_length"]
        if length:
            self.match_over = self.deal_number >= length
        else:
            self.match_over = max(self.totals) >= self.options["target_score"]
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
        led = self.led_suit
        if led is None:
            prompt = f"Trick {self.trick_number}: lead any card."
        elif holds_suit(self.hands[seat], led):
            prompt = f"Follow {SUIT_NAME[led]} (or play a 2)."
        else:
            prompt = f"No {SUIT_NAME[led]}: play any card."
        return Decision(seat, "play", prompt, (1, 1), "play")

    # ----- card accounting ---------------------------------------------------------------------
    def deck_cards(self) -> list[str]:
        return full_deck()

    def card_census(self) -> list[str]:
        return (
            [c for h in self.hands for c in h]
            + [c for _, c in self.trick]
            + [c for t in self.taken for c in t]
        )

    def hidden_from(self, seat: int) -> set[str]:
        return {c for i, h in enumerate(self.hands) if i != seat for c in h}

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
        who = self.names[self.current]
        led = self.led_suit
        if led is None:
            return f"Trick {self.trick_number}: {who} to lead."
        return f"Trick {self.trick_number}, {SUIT_NAME[led]} led: {who} to play."

    def _seat_tags(self, seat: int) -> list[str]:
        tags = []
        if seat == self.dealer:
            tags.append("dealer")
        if seat == self.leader and not self.deal_over:
            tags.append("leads")
        return tags

    def observation(self, seat: int) -> TwosTricksObservation:
        n = self.players
        led = self.led_suit
        history = [
            h.copy()
            for h in self.history
            if h.get("deal") == self.deal_number or h.get("kind") in ("deal-end", "match-end")
        ]
        return {
            "variant": self.variant_id,
            "family": self.family,
            "seat": seat,
            "players": n,
            "names": list(self.names),
            "hand": list(self.hands[seat]),
            "hand_counts": [len(h) for h in self.hands],
            "to_act": list(self.to_act()),
            "dealer": self.dealer,
            "deal_number": self.deal_number,
            "totals": list(self.totals),
            "table": [
                {"seat": s, "cards": [c], "label": "led" if i == 0 else ""}
                for i, (s, c) in enumerate(self.trick)
            ],
            "seat_tags": [self._seat_tags(s) for s in range(n)],
            "history": history,
            "status": self.status_line(),
            "deal_over": self.deal_over,
            "match_over": self.match_over,
            "options": dict(self.options),
            "deal_scores": self.deal_scores(),
            # trick keys
            "leader": self.leader,
            "led_suit": led,
            "led_suit_glyph": SUIT_GLYPH[led] if led else None,
            "trick": [[s, c] for s, c in self.trick],
            "trick_by_seat": [next((c for s, c in self.trick if s == i), None) for i in range(n)],
            "trick_number": self.trick_number,
            "tricks_taken": list(self.tricks_taken),
            "points": list(self.points),
            "honours": list(self.honours),
            "catch_points": list(self.catch_points),
            "last_trick": (
                None
                if self.last_trick is None
                else {
                    **self.last_trick,
                    "plays": [list(p) for p in self.last_trick["plays"]],
                    "catches": [list(x) for x in self.last_trick["catches"]],
                }
            ),
            "played": sorted(
                (c for t in self.taken for c in t), key=lambda c: self.card_sort_key(c, "suit")
            ),
        }

    # ----- JSON --------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        d = self._base_json()
        d.update(
            {
                "hands": [list(h) for h in self.hands],
                "dealer": self.dealer,
                "current": self.current,
                "leader": self.leader,
                "trick": [list(p) for p in self.trick],
                "taken": [list(t) for t in self.taken],
                "tricks_taken": list(self.tricks_taken),
                "points": list(self.points),
                "honours": list(self.honours),
                "catch_points": list(self.catch_points),
                "trick_number": self.trick_number,
                "last_trick": self.last_trick,
            }
        )
        return d

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        g = cls._blank(data)
        g._reset_deal_state()
        g.hands = [list(h) for h in data["hands"]]
        g.dealer = data["dealer"]
        g.current = data["current"]
        g.leader = data["leader"]
        g.trick = [(s, c) for s, c in data["trick"]]
        g.taken = [list(t) for t in data["taken"]]
        g.tricks_taken = list(data["tricks_taken"])
        g.points = list(data["points"])
        g.honours = list(data["honours"])
        g.catch_points = list(data["catch_points"])
        g.trick_number = data["trick_number"]
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
        from . import validate as v

        v.validate_base(cls, data)
        d = data
        n = d["players"]
        deck_list = full_deck()
        deck = frozenset(deck_list)
        hands = v.hands(v.field(d, "hands"), "hands", n, deck)
        v.seat(v.field(d, "dealer"), "dealer", n)
        current = v.seat(v.field(d, "current"), "current", n)
        leader = v.seat(v.field(d, "leader"), "leader", n)
        trick = v.array(v.field(d, "trick"), "trick", None, n - 1)
        for i, p in enumerate(trick):
            p = v.array(p, f"trick[{i}]", 2)
            if v.seat(p[0], f"trick[{i}][0]", n) != (leader + i) % n:
                raise v.fail(f"trick[{i}]", "played out of turn")
            v.card(p[1], f"trick[{i}][1]", deck)
        taken = v.hands(v.field(d, "taken"), "taken", n, deck)
        for key in ("tricks_taken", "points", "honours", "catch_points"):
            for i, x in enumerate(v.array(v.field(d, key), key, n)):
                v.integer(x, f"{key}[{i}]")
        v.integer(v.field(d, "trick_number"), "trick_number", 1, TRICKS_PER_DEAL)
        lt = v.field(d, "last_trick")
        if lt is not None:
            lt = v.obj(lt, "last_trick")
            v.integer(v.field(lt, "number", "last_trick"), "last_trick.number", 1, TRICKS_PER_DEAL)
            for i, p in enumerate(
                v.array(v.field(lt, "plays", "last_trick"), "last_trick.plays", n)
            ):
                p = v.array(p, f"last_trick.plays[{i}]", 2)
                v.seat(p[0], f"last_trick.plays[{i}][0]", n)
                v.card(p[1], f"last_trick.plays[{i}][1]", deck)
            v.seat(v.field(lt, "winner", "last_trick"), "last_trick.winner", n)
            v.card(v.field(lt, "winning_card", "last_trick"), "last_trick.winning_card", deck)
            v.integer(v.field(lt, "honours", "last_trick"), "last_trick.honours")
            for i, c in enumerate(
                v.array(v.field(lt, "catches", "last_trick"), "last_trick.catches", None, 8)
            ):
                c = v.array(c, f"last_trick.catches[{i}]", 3)
                v.seat(c[0], f"last_trick.catches[{i}][0]", n)
                v.seat(c[1], f"last_trick.catches[{i}][1]", n)
                v.integer(c[2], f"last_trick.catches[{i}][2]")
        v.census(
            "cards",
            [c for h in hands for c in h] + [p[1] for p in trick] + [c for t in taken for c in t],
            deck_list,
        )
        if d["deal_over"]:
            if any(hands) or trick:
                raise v.fail("deal_over", "the deal is over but cards are still in play")
            return
        if current != (leader + len(trick)) % n:
            raise v.fail("current", f"seat {current} is not next to play in this trick")
        if not hands[current]:
            raise v.fail("hands", f"seat {current} must play but has no cards")
