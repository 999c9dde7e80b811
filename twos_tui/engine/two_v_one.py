"""2v1: three players, an 18-card deck, one lone player against a duo (docs/rules.md §5).

A match is a series of *rounds* (one round = one deal of the protocol). A round:

1. **Bidding** from the player left of the rainbow holder: pass, 3 or 4 (the exact number
   of the 5 hands the bidder will take). A 3 may be overcalled by 4 by each other player
   in turn; a 4 ends the bidding. When a 3 stands, its bidder may raise it to 4 before the
   duo discard (phase ``raise``).
2. **Exchange** when nobody bids: every player chooses two cards at once (the rainbow
   holder must include the rainbow); nobody sees another's choice until all three have
   chosen; then each pair goes to the left neighbour and the bidding starts again. After
   the rainbow has been passed three times the bidding may not end without a bid: the
   last player to speak must bid (``forced``).
3. **Discard**: each duo member lays one card face down, out of play for the round.
4. **Five hands.** The lone player leads in two steps: ``Action("lead", (card,))`` lays
   the face-up card (never the rainbow), then ``Action("hide", (card,))`` the face-down
   one. The duo then ``follow`` (one card each; led suit if they hold it; the rainbow only
   when void), the lone's left neighbour first; after a led 2 (blindfold) both duo members
   choose at once, face down, and their cards are revealed together. The pairs are
   valued (:func:`pair_value`), the lone player wins ties. The winning side chooses which
   of the lone's two cards goes back to the lone hand (``Action("keep", value=code)``);
   the lone player's choice is secret. A played rainbow is always discarded (the other
   card returns at once), and after the fifth hand nothing returns.
5. **Score**: exact bid → lone +2 coins, otherwise each duo member +1. First to 7 coins
   (option); if two players reach it in the same round, one more round is played in which
   only they may bid, and its winner (the lone player if exact, else the other tied
   player) wins the match.

Choices where the text is silent (docs/rules.md §5.10): when the duo win a hand, the duo
member on the lone player's left decides which card returns; a forced bid falls to the last
eligible player to speak in the bidding when nobody has bid before; a player who passed
before a 3 was bid may still overcall it with 4 (the text: "each other player ... may
choose to bid 4").
"""

from __future__ import annotations

from itertools import combinations
from typing import Any, ClassVar

from .cards import HIDDEN, CardFace, standard_face
from .protocol import Action, Choice, DealResult, Decision, Game, OptionSpec

# ----- the deck: one table ------------------------------------------------------------
#: The whole 18-card deck (docs/rules.md §5.1 reconstruction; correct it here and only here).
DECK_TABLE: dict[str, Any] = {
    # letter, name, glyph (single width), colour hint, values in the suit
    "suits": (
        ("M", "Moons", "☾", "blue", (1, 2, 4, 5)),
        ("S", "Stars", "★", "yellow", (1, 2, 3, 5)),
        ("H", "Hearts", "♥", "red", (2, 3, 6)),
        ("C", "Clovers", "♣", "green", (3, 4, 5)),
        ("U", "Horseshoes", "Ω", "magenta", (1, 4, 6)),
    ),
    #: cards of this value carry the blindfold
    "blindfold_value": 2,
    #: code, name, rank text, glyph, colour hint; no suit and no value of its own
    "rainbow": ("RB", "Rainbow", "R", "✦", "white"),
}

RAINBOW: str = DECK_TABLE["rainbow"][0]
BLINDFOLD: int = DECK_TABLE["blindfold_value"]
SUIT_ORDER: tuple[str, ...] = tuple(row[0] for row in DECK_TABLE["suits"])
SUIT_NAMES: dict[str, str] = {row[0]: row[1] for row in DECK_TABLE["suits"]}
SUIT_GLYPHS: dict[str, str] = {row[0]: row[2] for row in DECK_TABLE["suits"]}
SUIT_COLOURS: dict[str, str] = {row[0]: row[3] for row in DECK_TABLE["suits"]}
#: code -> (value, suit letter); the rainbow is (0, "")
CARDS: dict[str, tuple[int, str]] = {
    f"{v}{row[0]}": (v, row[0]) for row in DECK_TABLE["suits"] for v in row[4]
}
CARDS[RAINBOW] = (0, "")
DECK: tuple[str, ...] = tuple(CARDS)
HANDS_PER_ROUND = 5
DEAL_SIZE = 6

_GLYPH_TO_SUIT = {g: s for s, g in SUIT_GLYPHS.items()}


def card_value(code: str) -> int:
    return CARDS[code][0]


def card_suit(code: str) -> str:
    """The suit letter, ``""`` for the rainbow."""
    return CARDS[code][1]


def label(code: str) -> str:
    """Player-readable text of a card: ``"4☾"``, ``"R✦"``."""
    if code == RAINBOW:
        return DECK_TABLE["rainbow"][2] + DECK_TABLE["rainbow"][3]
    v, s = CARDS[code]
    return f"{v}{SUIT_GLYPHS[s]}"


def labels(codes) -> str:
    return " ".join(label(c) for c in codes)


def parse(text: Any) -> str:
    """The code of a card string (``"4M"``, ``"4m"``, ``"4☾"``, ``"RB"``, ``"R✦"``)."""
    if not isinstance(text, str):
        raise ValueError(f"{text!r} is not a card")
    t = text.strip().upper()
    if t in ("RB", "R✦", "✦", "RAINBOW"):
        return RAINBOW
    if len(t) >= 2:
        code = t[:-1] + _GLYPH_TO_SUIT.get(t[-1], t[-1])
        if code in CARDS:
            return code
    raise ValueError(
        f"{text!r} is not a 2v1 card: write value then suit letter, "
        "like 4M (moon), 3S (star), 6H, 5C, 1U (horseshoe) or RB (rainbow)"
    )


def pair_value(a: str, b: str) -> int:
    """Value of two cards played together: same suit or same value → the sum; with the
    rainbow → twice the other card; otherwise the higher card."""
    if a == RAINBOW:
        return 2 * card_value(b)
    if b == RAINBOW:
        return 2 * card_value(a)
    (va, sa), (vb, sb) = CARDS[a], CARDS[b]
    if sa == sb or va == vb:
        return va + vb
    return max(va, vb)


def pair_reason(a: str, b: str) -> str:
    if RAINBOW in (a, b):
        return "rainbow doubles"
    (va, sa), (vb, sb) = CARDS[a], CARDS[b]
    if sa == sb:
        return "same suit"
    if va == vb:
        return "same value"
    return "high card"


def must_follow(hand: list[str], led_suit: str) -> list[str]:
    """The cards of ``hand`` a duo member may play to a lead of ``led_suit``."""
    suited = [c for c in hand if CARDS[c][1] == led_suit]
    return suited if suited else list(hand)


# ----- the game -------------------------------------------------------------------------
class TwoVOneGame(Game):
    variant_id: ClassVar[str] = "2v1"
    name: ClassVar[str] = "2v1"
    summary: ClassVar[str] = (
        "Three players, 18 cards: one bids to take exactly 3 or 4 of 5 hands against the other two."
    )
    family: ClassVar[str] = "trick"
    player_counts: ClassVar[tuple[int, ...]] = (3,)
    default_players: ClassVar[int] = 3
    low_score_wins: ClassVar[bool] = False
    score_label: ClassVar[str] = "Coins"
    ACTION_SHAPES: ClassVar[dict[str, tuple[bool, str | None]]] = {
        "bid": (False, "int"),
        "raise": (False, "int"),
        "exchange": (True, None),
        "discard": (True, None),
        "lead": (True, None),
        "hide": (True, None),
        "follow": (True, None),
        "keep": (False, "card"),
    }
    PHASES: ClassVar[tuple[str, ...]] = (
        "bid",
        "raise",
        "exchange",
        "discard",
        "lead",
        "hide",
        "follow",
        "keep",
        "over",
    )

    @classmethod
    def option_specs(cls, players: int | None = None) -> tuple[OptionSpec, ...]:
        return (
            OptionSpec(
                "coins_to_win",
                "Coins to win",
                "The match ends when a player has this many coins (two players "
                "reaching it in the same round play one more round to decide).",
                ((7, "7 coins"), (5, "5 coins (short)"), (10, "10 coins (long)")),
                7,
            ),
        )

    def __init__(self, players=None, options=None, seed=0, names=None) -> None:
        super().__init__(players, options, seed, names)
        self._reset_round_state()
        self.eligible = [True] * self.players  # who may bid (all, except in a play-off)
        self.playoff = False
        self.winners: list[int] = []
        self.start_deal()

    def _reset_round_state(self) -> None:
        n = self.players
        self.phase = "bid"
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.dealer = 0
        self.rainbow_origin = 0
        self.rainbow_passes = 0
        self.bid_queue: list[int] = []
        self.bids: list[list[int]] = []  # [seat, 0|3|4] this bidding round
        self.high_bid: int | None = None
        self.high_seat: int | None = None
        self.pending: list[list[str] | None] = [None] * n  # exchange choices (hidden)
        self.received: list[list[str]] = [[] for _ in range(n)]
        self.lone: int | None = None
        self.bid: int | None = None
        self.raised = False
        self.duo_discards: list[str | None] = [None] * n
        self.hand_no = 0
        self.lead_up: str | None = None
        self.lead_down: str | None = None
        self.follows: list[str | None] = [None] * n
        self.blind = False
        self.keep_seat: int | None = None
        self.hands_won = [0, 0]  # lone, duo
        self.pile: list[str] = []  # cards collected after each hand
        self.last_hand: dict[str, Any] | None = None
        self.seen: list[set[str]] = [set() for _ in range(n)]

    # ----- rounds ------------------------------------------------------------------------
    def start_deal(self) -> None:
        n = self.players
        self.deal_number += 1
        self.deal_over = False
        self._reset_round_state()
        self.dealer = (self.deal_number + 1) % n
        deck = list(DECK)
        self.rng.shuffle(deck)
        for i in range(n):
            seat = (self.dealer + 1 + i) % n
            self.hands[seat] = self._sorted(deck[i * DEAL_SIZE : (i + 1) * DEAL_SIZE])
            self.seen[seat].update(self.hands[seat])
        self.rainbow_origin = self.rainbow_holder()
        title = "Play-off round" if self.playoff else f"Round {self.deal_number}"
        self.log(
            f"{title}: {self.names[self.dealer]} deals six cards each.", self.dealer, kind="deal"
        )
        self._start_bidding()

    def next_deal(self) -> None:
        if not self.deal_over or self.match_over:
            raise ValueError("the round is not over" if not self.deal_over else "the match is over")
        self.start_deal()

    def rainbow_holder(self) -> int | None:
        for i, h in enumerate(self.hands):
            if RAINBOW in h:
                return i
        return None

    def _sorted(self, cards) -> list[str]:
        return sorted(cards, key=lambda c: self.card_sort_key(c, "suit"))

    def _reveal(self, *cards: str) -> None:
        for s in self.seen:
            s.update(cards)

    # ----- bidding -------------------------------------------------------------------------
    @property
    def forced(self) -> bool:
        return self.rainbow_passes >= self.players

    def _start_bidding(self) -> None:
        n = self.players
        self.phase = "bid"
        holder = self.rainbow_holder()
        assert holder is not None
        self.bids = []
        self.high_bid = None
        self.high_seat = None
        self.bid_queue = [
            s for s in ((holder + 1) % n, (holder + 2) % n, holder) if self.eligible[s]
        ]
        text = (
            f"{self.names[holder]} has the rainbow; {self.names[self.bid_queue[0]]} speaks first."
        )
        if self.forced:
            text += " The rainbow has gone round: this time somebody must bid."
        self.log(text, holder, kind="rainbow")

    def _bid_options(self, seat: int) -> list[int]:
        opts = []
        if self._may_pass_bid(seat):
            opts.append(0)
        if self.high_bid is None:
            opts.append(3)
        opts.append(4)
        return opts

    def _may_pass_bid(self, seat: int) -> bool:
        return not (self.forced and self.high_bid is None and self.bid_queue[-1] == seat)

    def _apply_bid(self, seat: int, value: int) -> None:
        n = self.players
        self.bids.append([seat, value])
        if value == 0:
            self.bid_queue.pop(0)
            self.log(f"{self.names[seat]} passes.", seat, kind="bid", bid=0)
        elif value == 3:
            self.high_bid, self.high_seat = 3, seat
            self.bid_queue = [s for s in ((seat + 1) % n, (seat + 2) % n) if self.eligible[s]]
            self.log(f"{self.names[seat]} bids 3.", seat, kind="bid", bid=3)
        else:
            self.high_bid, self.high_seat = 4, seat
            self.bid_queue = []
            self.log(f"{self.names[seat]} bids 4.", seat, kind="bid", bid=4)
        if not self.bid_queue:
            self._end_bidding()

    def _end_bidding(self) -> None:
        if self.high_bid is None:
            self.phase = "exchange"
            self.pending = [None] * self.players
            self.log(
                "Nobody bids: everyone passes two cards to the left "
                "(the rainbow holder must include it).",
                None,
                kind="exchange",
            )
            return
        self.lone, self.bid = self.high_seat, self.high_bid
        self.log(
            f"{self.names[self.lone]} plays alone, bidding {self.bid}.", self.lone, kind="lone"
        )
        if self.bid == 3:
            self.phase = "raise"
        else:
            self._start_discard()

    def _apply_exchange(self, seat: int, cards: tuple[str, ...]) -> None:
        n = self.players
        self.pending[seat] = list(cards)
        self.log(f"{self.names[seat]} has chosen two cards.", seat, kind="exchange-ready")
        if any(p is None for p in self.pending):
            return
        moving = [list(p) for p in self.pending]  # type: ignore[arg-type]
        for s in range(n):
            for c in moving[s]:
                self.hands[s].remove(c)
        for s in range(n):
            to = (s + 1) % n
            self.hands[to] = self._sorted(self.hands[to] + moving[s])
            self.received[to] = self._sorted(moving[s])
            self.seen[to].update(moving[s])
        self.pending = [None] * n
        self.rainbow_passes += 1
        self.log(
            f"The cards change hands (the rainbow has moved {self.rainbow_passes} "
            f"time{'s' if self.rainbow_passes != 1 else ''}).",
            None,
            kind="exchange-done",
        )
        self._start_bidding()

    # ----- discard and play -----------------------------------------------------------------
    def duo(self) -> tuple[int, ...]:
        if self.lone is None:
            return ()
        n = self.players
        return ((self.lone + 1) % n, (self.lone + 2) % n)

    def _start_discard(self) -> None:
        self.phase = "discard"
        self.duo_discards = [None] * self.players

    def _start_hand(self) -> None:
        self.phase = "lead"
        self.hand_no += 1
        self.lead_up = self.lead_down = None
        self.follows = [None] * self.players
        self.blind = False
        self.keep_seat = None

    def _resolve_hand(self) -> None:
        assert self.lone is not None and self.lead_up and self.lead_down
        up, down = self.lead_up, self.lead_down
        d1, d2 = (self.follows[s] for s in self.duo())
        assert d1 and d2
        self._reveal(down, d1, d2)
        lone_v, duo_v = pair_value(up, down), pair_value(d1, d2)
        lone_wins = lone_v >= duo_v
        self.hands_won[0 if lone_wins else 1] += 1
        winner = "lone" if lone_wins else "duo"
        self.last_hand = {
            "hand": self.hand_no,
            "lone": [up, down],
            "duo": [[s, self.follows[s]] for s in self.duo()],
            "lone_value": lone_v,
            "duo_value": duo_v,
            "lone_reason": pair_reason(up, down),
            "duo_reason": pair_reason(d1, d2),
            "winner": winner,
            "returned": None,
            "returned_public": True,
        }
        tie = " (a tie goes to the lone player)" if lone_v == duo_v else ""
        side = self.names[self.lone] if lone_wins else "The duo"
        self.log(
            f"{self.names[self.lone]} turns over {label(down)}: {label(up)} {label(down)} "
            f"= {lone_v} ({pair_reason(up, down)}) against {label(d1)} {label(d2)} = "
            f"{duo_v} ({pair_reason(d1, d2)}). {side} win{'s' if lone_wins else ''} "
            f"hand {self.hand_no}{tie}.",
            self.lone,
            kind="hand",
            winner=winner,
            lone_value=lone_v,
            duo_value=duo_v,
            hand=self.hand_no,
            lone_cards=[up, down],
            duo_cards=[[s, self.follows[s]] for s in self.duo()],
        )
        self.pile.extend([d1, d2])
        self.follows = [None] * self.players
        if self.hand_no >= HANDS_PER_ROUND:
            self.pile.extend([up, down])
            self._clear_lead()
            self._end_round()
        elif RAINBOW in (up, down):
            back = up if down == RAINBOW else down
            self.pile.append(RAINBOW)
            self.hands[self.lone] = self._sorted(self.hands[self.lone] + [back])
            self.last_hand["returned"] = back
            self.log(
                f"The rainbow is spent; {label(back)} goes back to {self.names[self.lone]}'s hand.",
                self.lone,
                kind="return",
                card=back,
            )
            self._clear_lead()
            self._start_hand()
        else:
            self.phase = "keep"
            self.keep_seat = self.lone if lone_wins else self.duo()[0]

    def _clear_lead(self) -> None:
        self.lead_up = self.lead_down = None

    def _apply_keep(self, seat: int, card: str) -> None:
        assert self.lone is not None and self.lead_up and self.lead_down and self.last_hand
        other = self.lead_down if card == self.lead_up else self.lead_up
        self.hands[self.lone] = self._sorted(self.hands[self.lone] + [card])
        self.pile.append(other)
        self.last_hand["returned"] = card
        if seat == self.lone:
            self.last_hand["returned_public"] = False
            self.log(
                f"{self.names[seat]} secretly keeps one of the two cards.", seat, kind="return"
            )
        else:
            self.log(
                f"{self.names[seat]} sends {label(card)} back to {self.names[self.lone]}'s hand.",
                seat,
                kind="return",
                card=card,
            )
        self._clear_lead()
        self._start_hand()

    def _end_round(self) -> None:
        assert self.lone is not None and self.bid is not None
        n = self.players
        self.phase = "over"
        self.keep_seat = None
        self.deal_over = True
        took = self.hands_won[0]
        exact = took == self.bid
        changes = [0] * n
        if exact:
            changes[self.lone] = 2
            round_winners = [self.lone]
            summary = f"{self.names[self.lone]} took exactly {took} hands as bid and gains 2 coins."
        else:
            for s in self.duo():
                changes[s] = 1
            round_winners = list(self.duo())
            summary = (
                f"{self.names[self.lone]} bid {self.bid} but took {took}: "
                f"{self.names[self.duo()[0]]} and {self.names[self.duo()[1]]} "
                f"gain a coin each."
            )
        totals = [t + c for t, c in zip(self.totals, changes, strict=False)]
        self.totals = totals
        target = self.options["coins_to_win"]
        details: list[str] = []
        if self.playoff:
            contenders = [s for s in round_winners if self.eligible[s]]
            if len(contenders) == 1:
                self.match_over = True
                self.winners = contenders
            else:  # several contenders won this play-off round together: play again
                self.eligible = [s in contenders for s in range(n)]
        else:
            reached = [s for s in range(n) if totals[s] >= target]
            if len(reached) == 1:
                self.match_over = True
                self.winners = reached
            elif len(reached) > 1:
                self.playoff = True
                self.eligible = [s in reached for s in range(n)]
        if self.playoff and not self.match_over:
            who = " and ".join(self.names[s] for s in range(n) if self.eligible[s])
            details.append(
                f"{who} share the lead at {target}+ coins: one more round, "
                "in which only they may bid."
            )
        self.results.append(
            DealResult(self.deal_number, round_winners, changes, list(totals), summary, details)
        )
        self.log(summary, self.lone, kind="deal-end")
        for d in details:
            self.log(d, None, kind="deal-end")
        if self.match_over:
            self.log(
                f"Match over: {self.names[self.winners[0]]} wins.",
                self.winners[0],
                kind="match-end",
            )

    def match_winners(self) -> list[int]:
        if self.winners:
            return list(self.winners)
        return super().match_winners()

    def target_text(self) -> str:
        return f"First to {self.options['coins_to_win']} coins wins."

    # ----- protocol ---------------------------------------------------------------------------
    def to_act(self) -> tuple[int, ...]:
        if self.deal_over or self.match_over:
            return ()
        p = self.phase
        if p == "bid":
            return (self.bid_queue[0],)
        if p == "exchange":
            return tuple(s for s in range(self.players) if self.pending[s] is None)
        if p in ("raise", "lead", "hide"):
            return (self.lone,)  # type: ignore[return-value]
        if p == "discard":
            return tuple(s for s in self.duo() if self.duo_discards[s] is None)
        if p == "follow":
            waiting = tuple(s for s in self.duo() if self.follows[s] is None)
            return waiting if self.blind else waiting[:1]
        if p == "keep":
            return (self.keep_seat,)  # type: ignore[return-value]
        return ()

    def _turn_reason(self, seat: int) -> str | None:
        if self.match_over:
            return "The match is over."
        if self.deal_over:
            return "The round is over."
        if not 0 <= seat < self.players:
            return f"There is no seat {seat}."
        acting = self.to_act()
        if seat in acting:
            return None
        if self.phase == "exchange" and self.pending[seat] is not None:
            return "You have already chosen your two cards; waiting for the others."
        if self.phase == "discard" and seat in self.duo() and self.duo_discards[seat]:
            return "You have already discarded; waiting for your partner."
        if self.phase == "follow" and self.blind and self.follows[seat] is not None:
            return "You have already chosen your card; waiting for your partner."
        who = " and ".join(self.names[s] for s in acting)
        return f"It is not your turn: waiting for {who}."

    def _cards(self, seat: int, raw, count: int, what: str) -> tuple[str, ...] | str:
        """Codes of a selection from ``seat``'s hand, or a reason (a ``str``)."""
        raw = tuple(raw or ())
        if len(raw) != count:
            need = "one card" if count == 1 else f"exactly {count} cards"
            return f"{what.capitalize()} {need} (you chose {len(raw)})."
        codes = []
        for r in raw:
            try:
                codes.append(parse(r))
            except ValueError as e:
                return str(e)
        if len(set(codes)) != len(codes):
            return f"{label(codes[0])} is chosen twice."
        for c in codes:
            if c not in self.hands[seat]:
                return f"{label(c)} is not in your hand."
        return tuple(codes)

    def check(self, seat: int, action: Action) -> str | None:
        reason = self.malformed(seat, action) or self._turn_reason(seat)
        if reason:
            return reason
        p = self.phase
        if action.kind != p:
            return f"Now is the time to {self._phase_verb()}, not to {action.kind}."
        if p == "bid":
            v = action.value
            if type(v) is not int or v not in (0, 3, 4):
                return "Bid 3 or 4 (hands you will take exactly), or pass (0)."
            if v == 0 and not self._may_pass_bid(seat):
                return (
                    "The rainbow has been passed round three times: nobody has bid, "
                    "so you must bid 3 or 4."
                )
            if v == 3 and self.high_bid is not None:
                return "3 has been bid already: overcall with 4 or pass."
            if v in (3, 4) and not self.eligible[seat]:
                return "Only the players tied for the lead may bid in this round."
            return None
        if p == "raise":
            if type(action.value) is not int or action.value not in (3, 4):
                return "Keep your bid at 3 or raise it to 4."
            return None
        if p == "exchange":
            got = self._cards(seat, action.cards, 2, "pass")
            if isinstance(got, str):
                return got
            if RAINBOW in self.hands[seat] and RAINBOW not in got:
                return "You hold the rainbow: it must be one of the two cards you pass."
            return None
        if p == "discard":
            got = self._cards(seat, action.cards, 1, "discard")
            return got if isinstance(got, str) else None
        if p == "lead":
            got = self._cards(seat, action.cards, 1, "lead")
            if isinstance(got, str):
                return got
            if got[0] == RAINBOW:
                return "The rainbow may not be led face up (it may be your face-down card)."
            return None
        if p == "hide":
            got = self._cards(seat, action.cards, 1, "lay face down")
            return got if isinstance(got, str) else None
        if p == "follow":
            got = self._cards(seat, action.cards, 1, "play")
            if isinstance(got, str):
                return got
            assert self.lead_up
            led = card_suit(self.lead_up)
            if got[0] not in must_follow(self.hands[seat], led):
                holding = [c for c in self.hands[seat] if card_suit(c) == led]
                if got[0] == RAINBOW:
                    return (
                        f"The rainbow has no suit: you may play it only when you hold no "
                        f"{SUIT_NAMES[led]}, and you hold {labels(holding)}."
                    )
                return (
                    f"You must follow the led suit, {SUIT_NAMES[led]}: you hold {labels(holding)}."
                )
            return None
        if p == "keep":
            try:
                code = parse(action.value)
            except ValueError as e:
                return str(e)
            if code not in (self.lead_up, self.lead_down):
                return (
                    f"Choose one of the lone player's two cards: "
                    f"{label(self.lead_up or '')} or {label(self.lead_down or '')}."
                )
            return None
        return "Nothing to do now."

    def _phase_verb(self) -> str:
        return {
            "bid": "bid or pass",
            "raise": "keep or raise the bid",
            "exchange": "choose two cards to pass left",
            "discard": "discard one card face down",
            "lead": "lead a card face up",
            "hide": "lay a card face down",
            "follow": "play a card",
            "keep": "choose the card that goes back to the lone hand",
        }.get(self.phase, "wait")

    def _apply(self, seat: int, action: Action) -> None:
        p = self.phase
        if p == "bid":
            self._apply_bid(seat, int(action.value))  # type: ignore[arg-type]
        elif p == "raise":
            if action.value == 4:
                self.bid = 4
                self.raised = True
                self.log(f"{self.names[seat]} raises the bid to 4.", seat, kind="raise")
            else:
                self.log(f"{self.names[seat]} stays at 3.", seat, kind="raise")
            self._start_discard()
        elif p == "exchange":
            self._apply_exchange(seat, tuple(parse(c) for c in action.cards))
        elif p == "discard":
            card = parse(action.cards[0])
            self.hands[seat].remove(card)
            self.duo_discards[seat] = card
            self.log(f"{self.names[seat]} discards a card face down.", seat, kind="discard")
            if all(self.duo_discards[s] is not None for s in self.duo()):
                self._start_hand()
        elif p == "lead":
            card = parse(action.cards[0])
            self.hands[seat].remove(card)
            self.lead_up = card
            self._reveal(card)
            self.phase = "hide"
            self.log(
                f"Hand {self.hand_no}: {self.names[seat]} leads {label(card)} face up.",
                seat,
                kind="lead",
                card=card,
            )
        elif p == "hide":
            card = parse(action.cards[0])
            self.hands[seat].remove(card)
            self.lead_down = card
            self.phase = "follow"
            assert self.lead_up
            self.blind = card_value(self.lead_up) == BLINDFOLD
            text = f"{self.names[seat]} lays a second card face down."
            if self.blind:
                text += " A blindfold card was led: the duo choose face down, together."
            self.log(text, seat, kind="hide")
        elif p == "follow":
            card = parse(action.cards[0])
            self.hands[seat].remove(card)
            self.follows[seat] = card
            if self.blind:
                self.log(f"{self.names[seat]} lays a card face down.", seat, kind="follow")
                if all(self.follows[s] is not None for s in self.duo()):
                    d = self.duo()
                    self._reveal(*(self.follows[s] for s in d))  # type: ignore[misc]
                    self.log(
                        f"The duo reveal: {self.names[d[0]]} {label(self.follows[d[0]])}, "
                        f"{self.names[d[1]]} {label(self.follows[d[1]])}.",
                        None,
                        kind="reveal",
                    )
            else:
                self._reveal(card)
                self.log(f"{self.names[seat]} plays {label(card)}.", seat, kind="follow", card=card)
            if all(self.follows[s] is not None for s in self.duo()):
                self._resolve_hand()
        elif p == "keep":
            self._apply_keep(seat, parse(action.value))

    def legal_actions(self, seat: int) -> list[Action]:
        if self.deal_over or self.match_over or seat not in self.to_act():
            return []
        p = self.phase
        hand = self.hands[seat]
        if p == "bid":
            return [
                Action("bid", value=v)
                for v in self._bid_options(seat)
                if v == 0 or self.eligible[seat]
            ]
        if p == "raise":
            return [Action("raise", value=3), Action("raise", value=4)]
        if p == "exchange":
            pairs = combinations(hand, 2)
            if RAINBOW in hand:
                return [Action("exchange", pr) for pr in pairs if RAINBOW in pr]
            return [Action("exchange", pr) for pr in pairs]
        if p == "discard":
            return [Action("discard", (c,)) for c in hand]
        if p == "lead":
            return [Action("lead", (c,)) for c in hand if c != RAINBOW]
        if p == "hide":
            return [Action("hide", (c,)) for c in hand]
        if p == "follow":
            assert self.lead_up
            return [Action("follow", (c,)) for c in must_follow(hand, card_suit(self.lead_up))]
        if p == "keep":
            return [Action("keep", value=self.lead_up), Action("keep", value=self.lead_down)]
        return []

    def decision(self, seat: int) -> Decision | None:
        if self.deal_over or self.match_over or seat not in self.to_act():
            return None
        p = self.phase
        if p == "bid":
            words = {0: ("Pass", "p"), 3: ("Bid 3", "3"), 4: ("Bid 4", "4")}
            choices = tuple(
                Choice(words[a.value][0], a, words[a.value][1])  # type: ignore[index]
                for a in self.legal_actions(seat)
            )
            if self.high_bid is None:
                prompt = "Bid the exact number of hands (of 5) you will take alone, or pass."
                if not self._may_pass_bid(seat):
                    prompt = "The rainbow has gone round: nobody has bid, so you must bid."
            else:
                prompt = f"{self.names[self.high_seat]} bids 3: overcall with 4, or pass."  # type: ignore[index]
            return Decision(seat, "bid", prompt, None, None, choices)
        if p == "raise":
            return Decision(
                seat,
                "raise",
                "Your 3 stands: keep it, or raise to 4 before the duo discard.",
                None,
                None,
                (
                    Choice("Keep 3", Action("raise", value=3), "3"),
                    Choice("Raise to 4", Action("raise", value=4), "4"),
                ),
            )
        if p == "exchange":
            prompt = "Nobody bid: choose two cards to pass to your left."
            if RAINBOW in self.hands[seat]:
                prompt += " The rainbow must be one of them."
            return Decision(seat, "exchange", prompt, (2, 2), "exchange", (), hidden=True)
        if p == "discard":
            return Decision(
                seat,
                "discard",
                "Discard one card face down; it is out of play this round.",
                (1, 1),
                "discard",
                (),
                hidden=True,
            )
        if p == "lead":
            return Decision(
                seat,
                "lead",
                f"Hand {self.hand_no} of {HANDS_PER_ROUND}: choose "
                "the card to lead face up (not the rainbow).",
                (1, 1),
                "lead",
            )
        if p == "hide":
            return Decision(
                seat, "hide", "Now choose the card to lay face down beside it.", (1, 1), "hide"
            )
        if p == "follow":
            assert self.lead_up
            led = SUIT_NAMES[card_suit(self.lead_up)]
            prompt = f"Play one card: follow {led} if you can."
            if self.blind:
                prompt = f"Blindfold! Choose one card face down (follow {led} if you can)."
            return Decision(seat, "follow", prompt, (1, 1), "follow", (), hidden=self.blind)
        if p == "keep":
            assert self.lone is not None and self.lead_up and self.lead_down
            cards = (self.lead_up, self.lead_down)
            if seat == self.lone:
                prompt = "You won the hand: secretly choose the card you take back."
                choices = tuple(
                    Choice(f"Keep {label(c)}", Action("keep", value=c), str(i + 1))
                    for i, c in enumerate(cards)
                )
            else:
                prompt = (
                    f"The duo won the hand: choose which card goes back to "
                    f"{self.names[self.lone]}'s hand."
                )
                choices = tuple(
                    Choice(f"Return {label(c)}", Action("keep", value=c), str(i + 1))
                    for i, c in enumerate(cards)
                )
            return Decision(seat, "keep", prompt, None, None, choices, hidden=seat == self.lone)
        return None

    # ----- card accounting -----------------------------------------------------------------
    def deck_cards(self) -> list[str]:
        return list(DECK)

    def card_census(self) -> list[str]:
        out = [c for h in self.hands for c in h]
        out += [c for c in self.duo_discards if c is not None]
        out += [c for c in (self.lead_up, self.lead_down) if c is not None]
        out += [c for c in self.follows if c is not None]
        out += self.pile
        return out

    def hidden_from(self, seat: int) -> set[str]:
        """Every card ``seat`` has not seen this round (never in its hand, never shown
        face up): other hands, face-down cards, the others' choices, the duo discards."""
        return set(DECK) - self.seen[seat]

    # ----- display helpers -------------------------------------------------------------------
    def card_face(self, code: str) -> CardFace:
        if code == HIDDEN:
            return standard_face(code)
        code = parse(code)
        if code == RAINBOW:
            _, name, rank, glyph, colour = DECK_TABLE["rainbow"]
            return CardFace(code, rank, glyph, name.lower(), colour)
        v, s = CARDS[code]
        return CardFace(code, str(v), SUIT_GLYPHS[s], SUIT_NAMES[s].lower(), SUIT_COLOURS[s])

    def card_sort_key(self, code: str, by: str = "rank") -> tuple:
        v, s = CARDS[code]
        si = SUIT_ORDER.index(s) if s else len(SUIT_ORDER)
        if code == RAINBOW:
            v = 9
        return (si, v) if by == "suit" else (v, si)

    # ----- observation ------------------------------------------------------------------------
    def status_line(self) -> str:
        if self.match_over:
            return f"The match is over: {self.names[self.winners[0]]} wins."
        if self.deal_over:
            return "The round is over."
        p = self.phase
        acting = " and ".join(self.names[s] for s in self.to_act())
        if p == "bid":
            return f"Bidding: {acting} to bid or pass."
        if p == "exchange":
            return f"Exchange: waiting for {acting} to choose two cards."
        lone = self.names[self.lone] if self.lone is not None else "?"
        score = f"{lone} (bid {self.bid}) {self.hands_won[0]} – duo {self.hands_won[1]}"
        if p == "raise":
            return f"{lone} may raise the bid of 3 to 4."
        if p == "discard":
            return f"{lone} bids {self.bid}. The duo discard: waiting for {acting}."
        if p in ("lead", "hide"):
            return f"Hand {self.hand_no}: {lone} to lead. {score}."
        if p == "follow":
            return f"Hand {self.hand_no}: {acting} to play. {score}."
        if p == "keep":
            return f"Hand {self.hand_no}: {acting} to choose the card that returns. {score}."
        return ""

    def _seat_tags(self, seat: int) -> list[str]:
        tags = []
        if seat == self.dealer:
            tags.append("dealer")
        if self.phase in ("bid", "exchange") and seat == self.rainbow_holder():
            tags.append("rainbow")
        if self.playoff and self.eligible[seat]:
            tags.append("may bid")
        if self.lone is not None:
            tags.append("lone" if seat == self.lone else "duo")
            if seat == self.lone:
                tags.append(f"bid {self.bid}")
        elif self.phase == "bid":
            last = [v for s, v in self.bids if s == seat]
            if last:
                tags.append("passed" if last[-1] == 0 else f"bid {last[-1]}")
        if self.phase == "exchange" and self.pending[seat] is not None:
            tags.append("ready")
        if self.phase == "discard" and self.duo_discards[seat] is not None:
            tags.append("discarded")
        return tags

    def _table(self, seat: int) -> list[dict[str, Any]]:
        n = self.players
        table: list[dict[str, Any]] = []
        if self.phase == "exchange":
            for s in range(n):
                p = self.pending[s]
                if p is not None:
                    table.append(
                        {
                            "seat": s,
                            "cards": list(p) if s == seat else [HIDDEN] * 2,
                            "label": "passing left",
                        }
                    )
            return table
        if self.phase in ("hide", "follow", "keep") and self.lone is not None and self.lead_up:
            cards = [self.lead_up]
            if self.lead_down is not None:
                shown = self.phase == "keep" or seat == self.lone
                cards.append(self.lead_down if shown else HIDDEN)
            lab = "led"
            if self.phase == "keep" and self.last_hand:
                lab = f"lone {self.last_hand['lone_value']}"
            table.append({"seat": self.lone, "cards": cards, "label": lab})
            if self.phase == "keep" and self.last_hand:
                for s, c in self.last_hand["duo"]:
                    table.append(
                        {"seat": s, "cards": [c], "label": f"duo {self.last_hand['duo_value']}"}
                    )
            else:
                for s in self.duo():
                    c = self.follows[s]
                    if c is not None:
                        face_up = (not self.blind) or s == seat
                        table.append(
                            {
                                "seat": s,
                                "cards": [c if face_up else HIDDEN],
                                "label": "face down" if self.blind else "played",
                            }
                        )
        return table

    def observation(self, seat: int) -> dict[str, Any]:
        n = self.players
        last = None
        if self.last_hand is not None:
            last = dict(self.last_hand)
            last["duo"] = [list(x) for x in last["duo"]]
            last["lone"] = list(last["lone"])
            if not last["returned_public"] and seat != self.lone:
                last["returned"] = None
        history = [
            dict(h)
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
            "coins": list(self.totals),
            "coins_to_win": self.options["coins_to_win"],
            "table": self._table(seat),
            "seat_tags": [self._seat_tags(s) for s in range(n)],
            "history": history,
            "status": self.status_line(),
            "deal_over": self.deal_over,
            "match_over": self.match_over,
            "options": dict(self.options),
            # 2v1 keys
            "phase": self.phase,
            "bids": [list(b) for b in self.bids],
            "high_bid": self.high_bid,
            "high_seat": self.high_seat,
            "rainbow_holder": self.rainbow_holder() if self.phase in ("bid", "exchange") else None,
            "rainbow_passes": self.rainbow_passes,
            "forced": self.forced,
            "eligible": list(self.eligible),
            "playoff": self.playoff,
            "lone": self.lone,
            "bid": self.bid,
            "duo": list(self.duo()),
            "hand_no": self.hand_no,
            "hands_per_round": HANDS_PER_ROUND,
            "hands_won": {"lone": self.hands_won[0], "duo": self.hands_won[1]},
            "lead": self.lead_up,
            "led_suit": card_suit(self.lead_up) if self.lead_up else None,
            "blindfold": self.blind,
            "my_choice": list(self.pending[seat]) if self.pending[seat] else None,
            "my_discard": self.duo_discards[seat],
            "my_face_down": (
                self.lead_down
                if seat == self.lone
                else (self.follows[seat] if self.blind else None)
            ),
            "received": [c for c in self.received[seat] if c in self.hands[seat]],
            # what this seat passed left in the last exchange of this round
            "passed": list(self.received[(seat + 1) % n]),
            "last_hand": last,
            "keep_seat": self.keep_seat,
            "winners": list(self.winners),
        }

    # ----- tests and tutorials ---------------------------------------------------------------
    def set_deal(self, hands: list[list[str]]) -> None:
        """Replace the current round's deal with ``hands`` (six cards each, the whole
        deck) and start the bidding again."""
        codes = [[parse(c) for c in h] for h in hands]
        if sorted(c for h in codes for c in h) != sorted(DECK):
            raise ValueError("the hands must hold the whole deck exactly once")
        self._reset_round_state()
        self.dealer = (self.deal_number + 1) % self.players
        self.hands = [self._sorted(h) for h in codes]
        for s in range(self.players):
            self.seen[s].update(self.hands[s])
        self.rainbow_origin = self.rainbow_holder()
        self._start_bidding()

    def set_position(
        self,
        hands: list[list[str]],
        lone: int,
        bid: int,
        *,
        hand_no: int = 1,
        hands_won: tuple[int, int] = (0, 0),
        out: list[str] | None = None,
    ) -> None:
        """Put the current round straight into play: ``hands`` per seat, the lone seat
        and bid, the hand about to be led. Cards not in a hand go to ``out`` (the duo
        discards and earlier hands; default: all the rest into the pile)."""
        codes = [[parse(c) for c in h] for h in hands]
        used = [c for h in codes for c in h]
        rest = [c for c in DECK if c not in used]
        if len(set(used)) != len(used):
            raise ValueError("a card is in two hands")
        self._reset_round_state()
        self.dealer = (self.deal_number + 1) % self.players
        self.hands = [self._sorted(h) for h in codes]
        for s in range(self.players):
            self.seen[s].update(self.hands[s])
        self.lone, self.bid, self.high_bid, self.high_seat = lone, bid, bid, lone
        self.pile = list(out if out is not None else rest)
        self.hand_no = hand_no - 1
        self.hands_won = list(hands_won)
        self._reveal(*self.pile)
        self._start_hand()

    # ----- JSON --------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        d = self._base_json()
        d.update(
            {
                "phase": self.phase,
                "hands": [list(h) for h in self.hands],
                "dealer": self.dealer,
                "rainbow_origin": self.rainbow_origin,
                "rainbow_passes": self.rainbow_passes,
                "bid_queue": list(self.bid_queue),
                "bids": [list(b) for b in self.bids],
                "high_bid": self.high_bid,
                "high_seat": self.high_seat,
                "pending": [list(p) if p is not None else None for p in self.pending],
                "received": [list(r) for r in self.received],
                "lone": self.lone,
                "bid": self.bid,
                "raised": self.raised,
                "duo_discards": list(self.duo_discards),
                "hand_no": self.hand_no,
                "lead_up": self.lead_up,
                "lead_down": self.lead_down,
                "follows": list(self.follows),
                "blind": self.blind,
                "keep_seat": self.keep_seat,
                "hands_won": list(self.hands_won),
                "pile": list(self.pile),
                "last_hand": self.last_hand,
                "seen": [sorted(s) for s in self.seen],
                "eligible": list(self.eligible),
                "playoff": self.playoff,
                "winners": list(self.winners),
            }
        )
        return d

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TwoVOneGame:
        g = cls._blank(data)
        g._reset_round_state()
        g.phase = data["phase"]
        g.hands = [list(h) for h in data["hands"]]
        g.dealer = data["dealer"]
        g.rainbow_origin = data["rainbow_origin"]
        g.rainbow_passes = data["rainbow_passes"]
        g.bid_queue = list(data["bid_queue"])
        g.bids = [list(b) for b in data["bids"]]
        g.high_bid, g.high_seat = data["high_bid"], data["high_seat"]
        g.pending = [list(p) if p is not None else None for p in data["pending"]]
        g.received = [list(r) for r in data["received"]]
        g.lone, g.bid, g.raised = data["lone"], data["bid"], data["raised"]
        g.duo_discards = list(data["duo_discards"])
        g.hand_no = data["hand_no"]
        g.lead_up, g.lead_down = data["lead_up"], data["lead_down"]
        g.follows = list(data["follows"])
        g.blind = data["blind"]
        g.keep_seat = data["keep_seat"]
        g.hands_won = list(data["hands_won"])
        g.pile = list(data["pile"])
        lh = data["last_hand"]
        g.last_hand = (
            None
            if lh is None
            else {**lh, "lone": list(lh["lone"]), "duo": [list(x) for x in lh["duo"]]}
        )
        g.seen = [set(s) for s in data["seen"]]
        g.eligible = list(data["eligible"])
        g.playoff = data["playoff"]
        g.winners = list(data["winners"])
        return g

    @classmethod
    def validate_json(cls, data: Any) -> None:
        from . import validate as v

        v.validate_base(cls, data)
        d = data
        n = d["players"]
        deck = frozenset(DECK)
        phase = v.one_of(v.field(d, "phase"), "phase", cls.PHASES)
        hands = v.hands(v.field(d, "hands"), "hands", n, deck)
        v.seat(v.field(d, "dealer"), "dealer", n)
        v.opt_seat(v.field(d, "rainbow_origin"), "rainbow_origin", n)
        v.integer(v.field(d, "rainbow_passes"), "rainbow_passes", 0, 10_000)
        queue = v.seats(v.field(d, "bid_queue"), "bid_queue", n, 3)
        for i, b in enumerate(v.array(v.field(d, "bids"), "bids", None, 1_000)):
            b = v.array(b, f"bids[{i}]", 2)
            v.seat(b[0], f"bids[{i}][0]", n)
            v.one_of(b[1], f"bids[{i}][1]", (0, 3, 4))
        v.one_of(v.field(d, "high_bid"), "high_bid", (None, 3, 4))
        v.opt_seat(v.field(d, "high_seat"), "high_seat", n)
        pending = v.array(v.field(d, "pending"), "pending", n)
        for i, p in enumerate(pending):
            if p is not None:
                v.cards(p, f"pending[{i}]", deck, 2)
        for i, r in enumerate(v.array(v.field(d, "received"), "received", n)):
            v.cards(r, f"received[{i}]", deck)
        lone = v.opt_seat(v.field(d, "lone"), "lone", n)
        bid = v.one_of(v.field(d, "bid"), "bid", (None, 3, 4))
        v.boolean(v.field(d, "raised"), "raised")
        discards = v.array(v.field(d, "duo_discards"), "duo_discards", n)
        for i, c in enumerate(discards):
            v.opt_card(c, f"duo_discards[{i}]", deck)
        v.integer(v.field(d, "hand_no"), "hand_no", 0, HANDS_PER_ROUND)
        up = v.opt_card(v.field(d, "lead_up"), "lead_up", deck)
        down = v.opt_card(v.field(d, "lead_down"), "lead_down", deck)
        follows = v.array(v.field(d, "follows"), "follows", n)
        for i, c in enumerate(follows):
            v.opt_card(c, f"follows[{i}]", deck)
        v.boolean(v.field(d, "blind"), "blind")
        keep_seat = v.opt_seat(v.field(d, "keep_seat"), "keep_seat", n)
        for i, x in enumerate(v.array(v.field(d, "hands_won"), "hands_won", 2)):
            v.integer(x, f"hands_won[{i}]", 0, HANDS_PER_ROUND)
        pile = v.cards(v.field(d, "pile"), "pile", deck)
        lh = v.field(d, "last_hand")
        if lh is not None:
            lh = v.obj(lh, "last_hand")
            v.cards(v.field(lh, "lone", "last_hand"), "last_hand.lone", deck, 2)
            for i, x in enumerate(v.array(v.field(lh, "duo", "last_hand"), "last_hand.duo", 2)):
                x = v.array(x, f"last_hand.duo[{i}]", 2)
                v.seat(x[0], f"last_hand.duo[{i}][0]", n)
                v.card(x[1], f"last_hand.duo[{i}][1]", deck)
            for key in ("hand", "lone_value", "duo_value"):
                v.integer(v.field(lh, key, "last_hand"), f"last_hand.{key}")
            for key in ("lone_reason", "duo_reason"):
                v.text(v.field(lh, key, "last_hand"), f"last_hand.{key}")
            v.one_of(v.field(lh, "winner", "last_hand"), "last_hand.winner", ("lone", "duo"))
            v.opt_card(v.field(lh, "returned", "last_hand"), "last_hand.returned", deck)
            v.boolean(v.field(lh, "returned_public", "last_hand"), "last_hand.returned_public")
        for i, x in enumerate(v.array(v.field(d, "seen"), "seen", n)):
            v.cards(x, f"seen[{i}]", deck)
        for i, x in enumerate(v.array(v.field(d, "eligible"), "eligible", n)):
            v.boolean(x, f"eligible[{i}]")
        v.boolean(v.field(d, "playoff"), "playoff")
        v.seats(v.field(d, "winners"), "winners", n, 3)
        v.census(
            "cards",
            [c for h in hands for c in h]
            + [c for c in discards if c is not None]
            + [c for c in (up, down) if c is not None]
            + [c for c in follows if c is not None]
            + pile,
            DECK,
        )
        # the phase and the state agree
        if d["deal_over"] != (phase == "over"):
            state = "over" if d["deal_over"] else "going on"
            raise v.fail("phase", f"{phase!r} does not fit a round that is {state}")
        if phase == "bid" and not queue:
            raise v.fail("bid_queue", "bidding with nobody left to speak")
        if phase in ("raise", "discard", "lead", "hide", "follow", "keep", "over") and (
            lone is None or bid is None
        ):
            raise v.fail("lone", f"the {phase} phase needs a lone player and a bid")
        if phase in ("hide", "follow", "keep") and up is None:
            raise v.fail("lead_up", f"the {phase} phase needs a led card")
        if phase in ("follow", "keep") and down is None:
            raise v.fail("lead_down", f"the {phase} phase needs a face-down card")
        if phase == "keep" and keep_seat is None:
            raise v.fail("keep_seat", "nobody chooses the card to keep")
