"""Twos (trick-taking) opponents: ``easy``, ``normal`` and ``hard`` (docs/rules.md §6).

Every agent decides from the seat's observation, its legal actions, its decision and its
own generator only.

* ``easy`` (:class:`EasyTwosTricksAgent`) — rules of thumb: catch a 2 with its 3, win a
  trick holding honours with the cheapest card that wins it now, otherwise play low;
  never throws a 2 into a trick that already holds one.
* ``normal`` (:class:`NormalTwosTricksAgent`) — counts every card: knows which 2s are
  safe (their 3 gone or in its own hand), which 3s still guard a live 2, the boss card
  of each suit and the voids the play has shown. Each card is weighed by the chance it
  wins the trick once the later players have answered (from how the unseen cards can
  lie), the points in it, what the card is worth kept (a safe 2 is a sure trick later, a
  guarding 3 a chance to catch, an honour a point), and, when it loses, who gets the
  honours it throws (a trailing player rather than the leader).
* ``hard`` (:class:`HardTwosTricksAgent`) — determinised search: each iteration deals the
  unseen cards again consistently with the voids shown
  (:func:`~twos_tui.engine.tricks.knowledge.determinize`), plays every candidate card
  and finishes the deal on the lean simulation with fast heuristic players, all
  candidates on the same deal and random stream. A candidate's score is its share of
  the top score plus a little of its margin; weak candidates are dropped as evidence
  builds up, and the best one when the time budget ends is played.
"""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING, Any, cast

from ..engine.bitmask import bits
from ..engine.cards import display
from ..engine.observation import TwosTricksObservation
from ..engine.observer import ObsIn, as_tricks
from ..engine.protocol import Action, Decision
from ..engine.tricks import knowledge as T
from ..engine.tricks.cards import (
    CODES,
    FULL,
    HONOUR_OF,
    INDEX,
    SUIT_MASK,
    THREE_OF,
    TWO_OF,
    TWOS,
    mask_of,
)
from ..engine.tricks.judger import resolve
from ..engine.tricks.state import TricksState
from ..engine.views import TricksView
from .base import SuggestingAgent

if TYPE_CHECKING:
    from . import Suggestion

P = 4
#: cards of a suit above each card (same suit, not the 2)
ABOVE: tuple[int, ...] = tuple(
    (SUIT_MASK[c // 13] & ~TWOS) & ~((1 << (c + 1)) - 1) for c in range(52)
)
ORDER: tuple[int, ...] = tuple(c % 13 for c in range(52))  # 0 = the 3 … 11 = ace, 12 = 2


def is_two(c: int) -> bool:
    return c % 13 == 12


class Table:
    """What the deciding seat knows, as masks, and the odds of where unseen cards lie.

    ``possible[s]``: the cards seat ``s`` may hold; ``count[s]``: how many it holds.
    With ``exact`` the possible masks *are* the hands (a simulated deal)."""

    __slots__ = ("me", "hand", "trick", "leader", "possible", "count", "points", "exact", "gone")

    def __init__(
        self,
        me: int,
        hand: int,
        trick: list[int],
        leader: int,
        possible: list[int],
        count: list[int],
        points: list[int],
        exact: bool,
        gone: int,
    ) -> None:
        self.me = me
        self.hand = hand
        self.trick = trick
        self.leader = leader
        self.possible = possible
        self.count = count
        self.points = points
        self.exact = exact
        self.gone = gone  # cards out of everyone's hands (played, or on the table)

    def top_rival(self) -> int:
        """The other seat with the most points (match total and this deal)."""
        pts = self.points
        return max((s for s in range(P) if s != self.me), key=lambda s: (pts[s], -s))

    def later(self) -> list[int]:
        n = len(self.trick)
        return [(self.me + i) % P for i in range(1, P - n)]

    def p_holds(self, seat: int, mask: int) -> float:
        """Chance ``seat`` holds at least one card of ``mask``."""
        m = self.possible[seat] & mask
        if not m:
            return 0.0
        if self.exact:
            return 1.0
        none = 1.0
        for c in bits(m):
            total = 0
            for s in range(P):
                if s != self.me and self.possible[s] >> c & 1:
                    total += self.count[s]
            q = self.count[seat] / total if total else 0.0
            none *= 1.0 - q
        return 1.0 - none

    def p_void(self, seat: int, suit: int) -> float:
        """Chance ``seat`` holds no card of ``suit``."""
        if self.exact:
            return 0.0 if self.possible[seat] & SUIT_MASK[suit] else 1.0
        return 1.0 - self.p_holds(seat, SUIT_MASK[suit])


def safe_two(c: int, hand: int, gone: int) -> bool:
    """A 2 no 3 can catch any more: its 3 is played or in ``hand``."""
    three = 1 << THREE_OF[c // 13]
    return bool((gone | hand) & three)


class Weights:
    """The knobs of the normal player (tuned in the arena)."""

    give_leader = 0.8  # cost of an honour thrown to the score leader
    give_other = 0.4  # … to someone else
    two_keep = 2.2  # what a safe 2 is worth kept
    two_keep_unsafe = 1.0
    three_keep = 1.2  # a 3 whose 2 is still out
    honour_keep = 0.35
    boss_keep = 0.3
    lead_cost = 0.1  # winning means leading the next trick
    use_two_min = 1.5  # least points a trick must promise before a 2 goes in
    opp_two = 0.5  # chance an opponent spends a 2 to take a trick worth points
    opp_high = 0.85  # chance an opponent holding a higher card plays it


def evaluate(t: Table, c: int, w: Weights) -> tuple[float, float, float]:
    """``(expected value, chance of winning, points if won)`` of playing ``c``."""
    trick = t.trick
    cards = trick + [c]
    pos, pts, _, victims = resolve(cards)
    n = len(trick)
    hand = t.hand & ~(1 << c)
    gone = t.gone
    hon = sum(HONOUR_OF[x] for x in cards)
    catch_gain = 0
    if pts:
        catch_gain = pts * bin(victims).count("1")
    winner_card = cards[pos]
    later = t.later()
    # chance the trick stays mine after the later players
    if pos != n:
        p_win = 0.0
    elif pts == 3:
        p_win = 1.0  # a 3 that caught its 2: nothing beats it
    else:
        p_win = 1.0
        if is_two(winner_card):
            suit = winner_card // 13
            three = 1 << THREE_OF[suit]
            led = cards[0] // 13
            if not ((gone | hand) & three):
                for s in later:
                    ph = t.p_holds(s, three)
                    if ph:
                        can = 1.0 if suit == led else t.p_void(s, led)
                        p_win *= 1.0 - ph * can
        else:
            led = cards[0] // 13
            above = ABOVE[winner_card]
            worth = hon + 0.5
            for s in later:
                ph = t.p_holds(s, above)
                if ph:
                    p_win *= 1.0 - ph * w.opp_high
                p2 = t.p_holds(s, TWOS)
                if p2:
                    p_win *= 1.0 - p2 * w.opp_two * min(1.0, worth / 2.0)
    # what the card is worth kept
    keep = hold_value(c, t, w)
    win_value = hon + catch_gain - w.lead_cost
    # when another seat takes the trick: my honour is its point, my 2 may be caught
    lose_cost = 0.0
    if HONOUR_OF[c]:
        # an honour thrown away is a point for the winner: worst to the leader
        winner = (t.leader + pos) % P
        lose_cost += w.give_leader if winner == t.top_rival() else w.give_other
    if is_two(c):
        if pos == n:
            lose_cost += 3.0  # winning now, it can only lose to its own 3: a catch
        elif victims >> n & 1:
            lose_cost += pts  # caught at once
    value = p_win * win_value - (1.0 - p_win) * lose_cost - keep
    return value, p_win, win_value


def hold_value(c: int, t: Table, w: Weights) -> float:
    if is_two(c):
        return w.two_keep if safe_two(c, t.hand, t.gone) else w.two_keep_unsafe
    order = ORDER[c]
    suit = c // 13
    v = 0.01 * order
    if order == 0 and not (t.gone & (1 << TWO_OF[suit])) and not (t.hand >> TWO_OF[suit] & 1):
        v += w.three_keep  # a 3 guarding its live 2
    if HONOUR_OF[c]:
        v += w.honour_keep
        if not (ABOVE[c] & ~t.gone & ~t.hand):
            v += w.boss_keep
    return v


def normal_card(t: Table, legal: int, w: Weights) -> tuple[int, str]:
    """The normal player's card and a short reason tag."""
    cards = bits(legal)
    if len(cards) == 1:
        return cards[0], "only"
    trick = t.trick
    # a catch: the 3 of the first 2 in the trick
    if trick:
        first2 = next((x for x in trick if is_two(x)), -1)
        if first2 >= 0:
            three = THREE_OF[first2 // 13]
            if legal >> three & 1 and not any(x == three for x in trick):
                return three, "catch"
    best = None
    best_v = -1e9
    for c in cards:
        v, p_win, _ = evaluate(t, c, w)
        if is_two(c) and trick and any(is_two(x) for x in trick) and (legal & ~TWOS):
            v -= 5.0  # never throw a 2 into a trick that holds one
        if v > best_v + 1e-9:
            best, best_v = c, v
    assert best is not None
    return best, "value"


def trick_cards(obs: TricksView) -> list[int]:
    """The cards of the trick on the table, in play order."""
    return [INDEX[p[1]] for p in obs.trick]


def table_from_obs(obs: TricksView) -> Table:
    me = obs.me
    hand = mask_of(obs.hand)
    trick = trick_cards(obs)
    played = mask_of(obs.played)
    gone = played
    for c in trick:
        gone |= 1 << c
    unseen = FULL & ~(gone | hand)
    vm = T.voids(_raw(obs))
    possible = [0] * P
    for s in range(P):
        if s == me:
            continue
        m = unseen
        for su in range(4):
            if vm[s] >> su & 1:
                m &= ~SUIT_MASK[su]
        possible[s] = m
    count = list(obs.hand_counts)
    standing = [a + b for a, b in zip(obs.totals, obs.points, strict=True)]
    return Table(me, hand, trick, obs.leader, possible, count, standing, False, gone)


# ===== agents =================================================================================
class _Base(SuggestingAgent):
    name = "twos-tricks"


def _tricks(obs: ObsIn) -> TricksView:
    """The observation as what it is: a Twos-tricks seat's (the registry gives these
    agents no other variant)."""
    return as_tricks(obs)


def _raw(obs: TricksView) -> TwosTricksObservation:
    """The observation's JSON form, for the integer core's sampler (it reads that)."""
    return cast(TwosTricksObservation, obs.to_json())


def _legal_mask(legal: list[Action]) -> int:
    return mask_of(a.cards[0] for a in legal)


def _play(c: int) -> Action:
    return Action("play", (CODES[c],))


def _name(c: int) -> str:
    return display(CODES[c])


class EasyTwosTricksAgent(_Base):
    """Rules of thumb a beginner can beat (see the module text)."""

    name = "easy"

    def suggest(
        self, obs: ObsIn, legal: list[Action], decision: Decision, rng: random.Random
    ) -> Suggestion:
        from . import Suggestion

        lm = _legal_mask(legal)
        cards = bits(lm)
        trick = trick_cards(_tricks(obs))
        if not trick:
            plain = [c for c in cards if not is_two(c) and ORDER[c] != 0] or cards
            c = min(plain, key=lambda x: (ORDER[x], x))
            return Suggestion(_play(c), f"Lead a low card, {_name(c)}.")
        first2 = next((x for x in trick if is_two(x)), -1)
        if first2 >= 0 and lm >> THREE_OF[first2 // 13] & 1:
            c = THREE_OF[first2 // 13]
            return Suggestion(_play(c), f"Catch the {_name(first2)} with your {_name(c)}.")
        hon = sum(HONOUR_OF[x] for x in trick)
        winners = [c for c in cards if resolve(trick + [c])[0] == len(trick)]
        plain_winners = [c for c in winners if not is_two(c)]
        if hon and plain_winners:
            c = min(plain_winners, key=lambda x: ORDER[x])
            return Suggestion(_play(c), f"Take the honours with {_name(c)}.")
        has_two = first2 >= 0
        pool = [c for c in cards if not is_two(c)] or cards
        if has_two:
            pool = [c for c in pool if not is_two(c)] or pool
        c = min(pool, key=lambda x: (HONOUR_OF[x], ORDER[x], x))
        return Suggestion(_play(c), f"Play low: {_name(c)}.")


class NormalTwosTricksAgent(_Base):
    """Counts cards and weighs each play (see the module text)."""

    name = "normal"

    def __init__(self, weights: Weights | None = None, **kw: Any) -> None:
        self.w = weights or Weights()

    def suggest(
        self, obs: ObsIn, legal: list[Action], decision: Decision, rng: random.Random
    ) -> Suggestion:
        from . import Suggestion

        lm = _legal_mask(legal)
        if len(legal) == 1:
            c = bits(lm)[0]
            return Suggestion(_play(c), f"{_name(c)} is your only legal card.")
        t = table_from_obs(_tricks(obs))
        c, tag = normal_card(t, lm, self.w)
        return Suggestion(_play(c), explain(t, c, tag, self.w))


def explain(t: Table, c: int, tag: str, w: Weights) -> str:
    """One line, in a player's words, about why ``c``."""
    name = _name(c)
    trick = t.trick
    if tag == "catch":
        first2 = next(x for x in trick if is_two(x))
        return f"Play {name}: it catches the {_name(first2)} for 3 points and takes the trick."
    value, p_win, win_value = evaluate(t, c, w)
    hon = sum(HONOUR_OF[x] for x in trick)
    if is_two(c):
        safe = safe_two(c, t.hand, t.gone)
        three = _name(THREE_OF[c // 13])
        if not trick:
            return (
                f"Lead {name}: the {three} is gone, so nothing can beat it."
                if safe
                else f"Lead {name} now, before its {three} can catch it later."
            )
        if safe:
            return f"Play {name}: the {three} is gone, so it takes these {hon} points safely."
        return f"Play {name} to take the trick ({p_win:.0%} the {three} does not show up)."
    if not trick:
        if p_win >= 0.6:
            return f"Lead {name}: it should take the trick ({p_win:.0%})."
        return f"Lead {name}: a low card costs nothing; keep your strong cards for later."
    if p_win >= 0.5:
        what = f"the {hon} honour{'s' if hon != 1 else ''} in it" if hon else "the lead"
        return f"Play {name}: it should win this trick ({p_win:.0%}) and {what}."
    keep = []
    for x in bits(t.hand):
        if is_two(x) and safe_two(x, t.hand, t.gone):
            keep.append(_name(x))
    tail = f"; keep {keep[0]} for a trick worth more" if keep else ""
    # "cannot win" only when nothing could make this card win the trick
    lost = p_win <= 0.0
    if HONOUR_OF[c]:
        if lost:
            return (
                f"Throw {name}: you cannot win this trick and it is your least useful card{tail}."
            )
        return (
            f"Throw {name}: this trick is unlikely to be yours ({p_win:.0%}) and it is your "
            f"least useful card{tail}."
        )
    if lost:
        return f"Play low with {name}: this trick is not yours{tail}."
    return f"Play low with {name}: this trick is unlikely to be yours ({p_win:.0%}){tail}."


# ===== fast policy for the simulation =========================================================
_ROLLOUT_W = Weights()


#: what a card is worth kept, before the 2 / 3 adjustments: rank, honour
_KEEP_BASE: tuple[float, ...] = tuple(
    0.01 * ORDER[c] + (_ROLLOUT_W.honour_keep if HONOUR_OF[c] else 0.0) for c in range(52)
)
_BIT = tuple(1 << c for c in range(52))


def rollout_card(s: TricksState, rng: random.Random) -> int:
    """A quick, sensible card for the seat to play in a simulated deal. It plays like the
    normal player on the sampled hands (which are a guess anyway): catch a 2 with its
    3, take tricks worth points when no later hand can beat the card, keep safe 2s,
    guarding 3s and bosses, throw low otherwise."""
    seat = s.current
    hands = s.hands
    hand = hands[seat]
    trick = s.trick
    n = len(trick)
    if n:
        led = trick[0] // 13
        sm = hand & SUIT_MASK[led]
        lm = sm | (hand & TWOS) if sm else hand
    else:
        led = -1
        lm = hand
    if not lm & (lm - 1):
        return lm.bit_length() - 1
    gone = s.played
    hon = 0
    first2 = -1
    best_led = -1
    for x in trick:
        gone |= _BIT[x]
        hon += HONOUR_OF[x]
        if first2 < 0 and x % 13 == 12:
            first2 = x
        elif x // 13 == led and x > best_led and first2 < 0:
            best_led = x
    if first2 >= 0:
        three = first2 - 12
        if lm >> three & 1:
            return three
        three_in = any(x == three for x in trick)
    else:
        three_in = False
    later = [hands[(seat + i) % 4] for i in range(1, 4 - n)]
    others = 0
    for h in later:
        others |= h
    mine_gone = gone | hand
    w = _ROLLOUT_W
    best, best_v = -1, -1e9
    for c in bits(lm):
        two = c % 13 == 12
        # does c take the trick now, and can a later hand still beat it?
        if first2 >= 0:
            win = False  # a 2 is winning (or its 3 caught it): c cannot beat that
            if three_in:
                win = False
        elif two:
            three = _BIT[THREE_OF[c // 13]]
            if n and any(x == THREE_OF[c // 13] for x in trick):
                win = False
            else:
                win = True
                if not mine_gone & three and others & three:
                    for h in later:
                        if h & three and (c // 13 == led or led < 0 or not h & SUIT_MASK[led]):
                            win = False
                            break
        elif n and (c // 13 != led or c < best_led):
            win = False
        else:
            win = True
            above = ABOVE[c]
            lsuit = SUIT_MASK[c // 13]
            worth = hon + HONOUR_OF[c]
            for h in later:
                if h & above and (worth or not h & lsuit & ~above):
                    win = False
                    break
                if worth >= 2 and h & TWOS and not h & lsuit:
                    win = False
                    break
        # what c is worth kept
        if two:
            keep = w.two_keep if mine_gone & _BIT[THREE_OF[c // 13]] else w.two_keep_unsafe
        else:
            keep = _KEEP_BASE[c]
            o = c % 13
            if o == 0 and not mine_gone & _BIT[c + 12]:
                keep += w.three_keep
            elif HONOUR_OF[c] and not ABOVE[c] & ~mine_gone:
                keep += w.boss_keep
        if win:
            v = hon + HONOUR_OF[c] - 0.1 - keep
            if two and hon + HONOUR_OF[c] < w.use_two_min and len(later) > 0:
                v -= 1.0
        else:
            v = -keep - (0.4 if HONOUR_OF[c] else 0.0) - (2.0 if two and n else 0.0)
        if v > best_v:
            best, best_v = c, v
    return best


def playout(s: TricksState, rng: random.Random) -> None:
    """Play ``s`` to the end of the deal with :func:`rollout_card`."""
    while not s.over and s.hands[s.current]:
        s.play(rollout_card(s, rng))


def reward(s: TricksState, me: int) -> float:
    """Share of the top score (ties shared) plus a little of the margin."""
    pts = s.points
    best_other = max(pts[i] for i in range(P) if i != me)
    mine = pts[me]
    top = max(pts)
    share = 0.0
    if mine == top:
        share = 1.0 / sum(1 for x in pts if x == top)
    return share + 0.02 * (mine - best_other)


def low_card_reads(obs: TricksView) -> list[int]:
    """Per seat, the unseen cards it probably does not hold: a seat that followed suit
    and lost the trick plays its lowest card of the suit as a rule, so lower cards of
    that suit (not the 3s, which players keep to catch a 2) are unlikely in its hand."""
    deal = obs.deal_number
    out = [0] * obs.players
    trick: list[tuple[int, int]] = []
    for h in obs.history:
        if h.deal != deal:
            continue
        k = h.kind
        if k == "play" and h.card is not None:
            seat = h.seat
            assert seat is not None  # a play names its player
            trick.append((seat, INDEX[h.card]))
        elif k == "trick":
            if trick:
                led = trick[0][1] // 13
                winner = h.winner
                for seat, c in trick[1:]:
                    if seat != winner and c // 13 == led and not is_two(c):
                        below = SUIT_MASK[led] & ((1 << c) - 1) & ~(1 << THREE_OF[led])
                        out[seat] |= below
            trick = []
    return out


LOW_READ_WEIGHT = 0.35


class HardTwosTricksAgent(_Base):
    """Determinised search over the rest of the deal (see the module text)."""

    name = "hard"

    def __init__(self, budget_s: float = 0.4, iterations: int | None = None, **kw: Any) -> None:
        self.budget_s = budget_s
        self.iterations = iterations
        self.helper = NormalTwosTricksAgent()

    def suggest(
        self, obs: ObsIn, legal: list[Action], decision: Decision, rng: random.Random
    ) -> Suggestion:
        from . import Suggestion

        act = self.choose(obs, legal, decision, rng)
        # the move is the search's; the reason is the normal AI's when it would play the
        # same card (its claims are about the position), else what the search did
        base = self.helper.suggest(obs, legal, decision, random.Random(0))
        if base.action == act:
            return Suggestion(act, base.reason)
        return Suggestion(
            act,
            f"Play {display(act.cards[0])}: played out over many deals of the cards you "
            "cannot see, it does best for you.",
        )

    def choose(
        self, obs: ObsIn, legal: list[Action], decision: Decision, rng: random.Random
    ) -> Action:
        if len(legal) == 1:
            return legal[0]
        start = time.perf_counter()
        tobs = _tricks(obs)
        raw = _raw(tobs)
        me = tobs.me
        cards = [INDEX[a.cards[0]] for a in legal]
        vm = T.voids(raw)
        reads = low_card_reads(tobs)

        def weight(seat: int, card: int) -> float:
            return LOW_READ_WEIGHT if reads[seat] >> card & 1 else 1.0

        k = len(cards)
        total = [0.0] * k
        count = [0] * k
        alive = list(range(k))
        deadline = start + self.budget_s
        cap = self.iterations
        it = 0
        while True:
            if cap is not None:
                if it >= cap:
                    break
            elif it > 0 and time.perf_counter() >= deadline:
                break
            it += 1
            try:
                world = T.determinize(raw, rng, weight=weight, void_masks=vm)
            except ValueError:
                break
            seed = rng.getrandbits(32)
            for i in alive:
                w = world.copy()
                w.play(cards[i])
                playout(w, random.Random(seed))
                total[i] += reward(w, me)
                count[i] += 1
            if len(alive) > 2 and it % 6 == 0:
                alive = _cull(alive, total, count)
        if not any(count):
            return self.helper.choose(obs, legal, decision, rng)
        best = max(alive, key=lambda i: (total[i] / count[i] if count[i] else -9.0, -i))
        return _play(cards[best])


def _cull(alive: list[int], total: list[float], count: list[int]) -> list[int]:
    means = {i: total[i] / count[i] for i in alive if count[i]}
    if not means:
        return alive
    top = max(means.values())
    n = min(count[i] for i in alive)
    margin = 2.5 * 0.6 / max(1.0, n**0.5)
    kept = [i for i in alive if means.get(i, top) >= top - margin]
    return kept if len(kept) >= 2 else sorted(alive, key=lambda i: -means.get(i, 0))[:2]
