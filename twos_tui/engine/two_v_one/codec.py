"""A 2v1 game as JSON: writing the whole state (the core's round as card codes, and what
the game keeps beside it), reading it back into a core, and checking saved data before
it is read (docs/rules.md §5). The JSON is the same as before the core was the state:
saves of every version load."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from .core import CODES, INDEX, bits, mask_of
from .deck import DECK, HANDS_PER_ROUND

if TYPE_CHECKING:
    from .game import LastHand, TwoVOneGame


def state_json(g: TwoVOneGame) -> dict[str, Any]:
    """The round and match state of ``g`` (added to the protocol's base JSON)."""
    lh = g.last_hand
    return {
        "phase": g.phase,
        "hands": [list(h) for h in g.hands],
        "dealer": g.dealer,
        "rainbow_origin": g.rainbow_origin,
        "rainbow_passes": g.rainbow_passes,
        "bid_queue": list(g.bid_queue),
        "bids": [list(b) for b in g.bids],
        "high_bid": g.high_bid,
        "high_seat": g.high_seat,
        "pending": [list(p) if p is not None else None for p in g.pending],
        "received": [list(r) for r in g.received],
        "lone": g.lone,
        "bid": g.bid,
        "raised": g.raised,
        "duo_discards": list(g.duo_discards),
        "hand_no": g.hand_no,
        "lead_up": g.lead_up,
        "lead_down": g.lead_down,
        "follows": list(g.follows),
        "blind": g.blind,
        "keep_seat": g.keep_seat,
        "hands_won": list(g.hands_won),
        "pile": list(g.pile),
        "last_hand": (
            None
            if lh is None
            else {**lh, "lone": list(lh["lone"]), "duo": [list(x) for x in lh["duo"]]}
        ),
        "seen": [sorted(CODES[i] for i in bits(s)) for s in g.seen],
        "eligible": list(g.eligible),
        "playoff": g.playoff,
        "winners": list(g.winners),
    }


def load_state(g: TwoVOneGame, data: dict[str, Any]) -> None:
    """Set ``g``'s round and match state from :func:`state_json` output (validated): the
    core's round, and what the game keeps beside it."""
    core = g.core
    core.phase = data["phase"]
    core.hands = [mask_of(h) for h in data["hands"]]
    core.rainbow_passes = data["rainbow_passes"]
    core.bid_queue = list(data["bid_queue"])
    core.high_bid = data["high_bid"] or 0
    core.high_seat = _seat(data["high_seat"])
    core.eligible = tuple(data["eligible"])
    core.pending = [mask_of(p) if p else 0 for p in data["pending"]]
    core.lone = _seat(data["lone"])
    core.bid = data["bid"] or 0
    core.discards = [_card(c) for c in data["duo_discards"]]
    core.hand_no = data["hand_no"]
    core.up, core.down = _card(data["lead_up"]), _card(data["lead_down"])
    core.follows = [_card(c) for c in data["follows"]]
    core.blind = data["blind"]
    core.keep_seat = _seat(data["keep_seat"])
    core.won = list(data["hands_won"])
    core.pile = mask_of(data["pile"])
    if data["deal_over"] and g.results:
        core.changes = list(g.results[-1].changes)
    g.dealer = data["dealer"]
    g.rainbow_origin = data["rainbow_origin"]
    g.bids = [list(b) for b in data["bids"]]
    g.pending = [list(p) if p is not None else None for p in data["pending"]]
    g.received = [list(r) for r in data["received"]]
    g.raised = data["raised"]
    g.pile = list(data["pile"])
    lh = data["last_hand"]
    g.last_hand = (
        None
        if lh is None  # (validated: the keys of a LastHand)
        else cast(
            "LastHand", {**lh, "lone": list(lh["lone"]), "duo": [(s, c) for s, c in lh["duo"]]}
        )
    )
    g.seen = [mask_of(s) for s in data["seen"]]
    g.eligible = list(data["eligible"])
    g.playoff = data["playoff"]
    g.winners = list(data["winners"])


def _seat(s: int | None) -> int:
    return -1 if s is None else s


def _card(c: str | None) -> int:
    return INDEX[c] if c else -1


def validate(cls: type[TwoVOneGame], data: Any) -> None:
    """Raise :class:`~..protocol.GameDataError` unless ``data`` is a consistent saved
    2v1 game."""
    from .. import validate as v

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
