"""A position taken from a game in progress (for the puzzle generator)."""

from __future__ import annotations

from ..engine import Game
from ..engine.positions import Position
from ..jsontypes import JsonObject

#: names at a puzzle table: the solver's seat is "You"
OTHER_NAMES = ("Ada", "Bo", "Cy")


def table_names(players: int, seat: int) -> list[str]:
    others = iter(OTHER_NAMES)
    return ["You" if i == seat else next(others) for i in range(players)]


def capture(g: Game, seat: int) -> Position:
    """The position of ``g`` now, with ``seat`` to act (names: :func:`table_names`)."""
    d = g.to_json()
    names = table_names(g.players, seat)
    hands = [list(h) for h in d["hands"]]
    common = (g.variant_id, hands, seat)
    options = dict(d["options"])
    if g.family == "climbing":
        top = None
        if d["top"] is not None:
            top = {"seat": d["top"][0], "cards": list(d["top"][1])}
        # Twos with short hands: what is out of play must be said
        out = list(d["out_of_play"]) if d["out_of_play"] else None
        played = None
        if out is not None:  # the rest are the cards played (the play on the table aside)
            on_table = set(top["cards"]) if top else set()
            played = [c for c in d["discards"] if c not in on_table]
        return Position(
            *common,
            options=options,
            names=names,
            top=top,
            played=played,
            out_of_play=out,
        )
    if g.variant_id == "twos-tricks":
        trick = [{"seat": s, "card": c} for s, c in d["trick"]]
        return Position(*common, options=options, names=names, trick=trick)
    extra: JsonObject = {
        k: d[k] for k in ("phase", "lone", "bid", "hands_won", "duo_discards", "hand_no")
    }
    for k in ("lead_up", "lead_down", "follows", "blind", "keep_seat", "raised", "last_hand"):
        extra[k] = d[k]
    return Position(*common, options=options, names=names, extra=extra)
