"""Record (or replay) the frozen behaviour corpus of the rules engines (issue 28).

The corpus pins down what today's engines do, so a rewrite of the rules can be checked
against it move for move. It is made only through the public engine API
(``twos_tui.engine``): matches of every variant, at every player count the variant
takes, under house-rule combinations that change play, with moves chosen from
``legal_actions`` by one seeded ``random.Random`` (threaded through the whole recording;
nothing reads the global generator) and, for four moves in five, by the easy AI (given
that same generator), so play looks like a real game and matches end in a sane number of
moves.

At every position it records ``to_act``, every seat's ``decision`` (as JSON) and
``legal_actions`` (a sorted set of their JSON), every seat's ``observation``, the reason
``check`` gives for a sample of illegal actions (random card subsets, a card the seat does
not hold, a pass or another move kind where none is allowed, a wrong seat, misspelt
codes), ``describe`` of the chosen action, then the action, the log lines it wrote,
the deal's result when a deal ends, and ``to_json()`` after it.

A few matches per variant are kept whole (every item as data); the rest keep one
BLAKE2b digest per item per position. A mismatch names the match, the position and the
item (and, for a whole record, the first field that differs).

    python tools/record_corpus.py               # write tests/corpus/behaviour.json.xz
    python tools/record_corpus.py --check       # replay it on this code, say what differs
    python tools/record_corpus.py --saves-only  # write tests/corpus/saves/

Re-record only for an intended change of behaviour, listed in the CHANGELOG (see
CONTRIBUTING.md, "The frozen behaviour corpus").
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import lzma
import random
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from twos_tui.engine import VARIANT_IDS, Action, load_game, new_game, variant_class
from twos_tui.engine.protocol import Game

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "corpus" / "behaviour.json.xz"
FORMAT = 1
CORPUS_SEED = 28  #: the seed of the one generator a recording threads through
MIN_MATCHES = 40  #: matches per variant, at least
FULL_PER_VARIANT = 2  #: matches per variant kept whole (the rest as digests)
FULL_MIN_POSITIONS = 40  #: a match kept whole plays at least this many positions
AI_SHARE = 0.8  #: the share of moves the easy AI chooses (the rest: uniform over legal)
DIGEST_BYTES = 8
#: the items of one position, in the order they are compared
ITEMS = (
    "to_act",
    "decisions",
    "legal",
    "observations",
    "illegal",
    "describe",
    "action",
    "log",
    "result",
    "json",
)

#: house rules that only say how long a match lasts or how big a hand is: each value is
#: played once at each player count (in an order drawn by the generator); after that a
#: match takes the value in SHORTEST (the observation and the JSON hold the whole log, so
#: a position costs time in proportion to the match so far: long matches are few). Every
#: other option changes how a deal is played and is covered in every combination with
#: the others, at every player count.
LENGTH_OPTIONS = frozenset(
    (
        "hand_size",
        "deals_to_win",
        "penalty_deals",
        "target",
        "coins_to_win",
        "target_score",
        "game_length",
    )
)
#: the value that makes a match shortest (``hand_size`` keeps cycling through its values)
SHORTEST: dict[str, Any] = {
    "deals_to_win": 1,
    "penalty_deals": 1,
    "target": 50,
    "coins_to_win": 5,
    "target_score": 20,
    "game_length": 1,
}
#: a cap on the moves of one match (none of the recorded matches comes near it)
MAX_ACTIONS = 5000


# ----- canonical JSON and digests --------------------------------------------------------
def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def digest(value: Any) -> str:
    return hashlib.blake2b(canonical(value).encode(), digest_size=DIGEST_BYTES).hexdigest()


def plain(value: Any) -> Any:
    """``value`` as JSON data (tuples become lists), as a saved corpus holds it."""
    return json.loads(canonical(value))


def first_difference(want: Any, got: Any, where: str = "") -> str:
    """The path of the first field where ``got`` differs from ``want``, and both values."""
    if isinstance(want, dict) and isinstance(got, dict):
        for k in sorted(set(want) | set(got), key=str):
            if k not in got:
                return f"{where}.{k}: missing now (was {canonical(want[k])[:200]})"
            if k not in want:
                return f"{where}.{k}: new (now {canonical(got[k])[:200]})"
            if want[k] != got[k]:
                return first_difference(want[k], got[k], f"{where}.{k}")
    if isinstance(want, list) and isinstance(got, list):
        for i, (a, b) in enumerate(zip(want, got, strict=False)):
            if a != b:
                return first_difference(a, b, f"{where}[{i}]")
        if len(want) != len(got):
            return f"{where}: {len(want)} entries recorded, {len(got)} now"
    return (
        f"{where or '(whole item)'}: recorded {canonical(want)[:200]}, now {canonical(got)[:200]}"
    )


# ----- the matches -----------------------------------------------------------------------
@dataclass(frozen=True)
class MatchSpec:
    id: str
    variant: str
    players: int
    options: dict[str, Any]
    seed: int
    names: list[str]


#: options that count only when another option has a value (Twos' scoring, the trick
#: game's length): their values are played at matches where they count
ONLY_WHEN: dict[str, tuple[str, Any]] = {
    "deals_to_win": ("scoring", "deals"),
    "penalty_deals": ("scoring", "penalty"),
    "target_score": ("game_length", 0),
}


def _counts(oid: str, options: dict[str, Any]) -> bool:
    if oid not in ONLY_WHEN:
        return True
    other, value = ONLY_WHEN[oid]
    return options.get(other) == value


def configurations(variant: str, rng: random.Random) -> list[tuple[int, dict[str, Any]]]:
    """``(players, options)`` of every match of ``variant``: at each player count, every
    combination of the options that change play (the full product), repeated until the
    variant has at least :data:`MIN_MATCHES`; the length and size options take each of
    their values in turn (round robin per player count, in an order drawn by ``rng``),
    so every value of every option is played at every player count at least once."""
    cls = variant_class(variant)
    per_count: list[list[tuple[int, dict[str, Any]]]] = []
    for players in cls.player_counts:
        specs = cls.option_specs(players)
        play = [s for s in specs if s.id not in LENGTH_OPTIONS]
        combos = [
            dict(zip([s.id for s in play], values, strict=True))
            for values in itertools.product(*[[v for v, _ in s.choices] for s in play])
        ]
        per_count.append([(players, c) for c in combos])
    # enough rounds of the product that the variant has MIN_MATCHES and every length
    # value comes up at each player count
    rounds = 1
    while sum(len(c) for c in per_count) * rounds < MIN_MATCHES:
        rounds += 1
    out: list[tuple[int, dict[str, Any]]] = []
    for combos in per_count:
        players = combos[0][0]
        specs = cls.option_specs(players)
        sizes = [s for s in specs if s.id in LENGTH_OPTIONS and s.id not in SHORTEST]
        need = max([len(s.choices) for s in sizes] + [len(combos) * rounds])
        cycles = {}
        for s in sizes:
            values = [v for v, _ in s.choices]
            rng.shuffle(values)
            cycles[s.id] = values
        for i in range(need):
            options = dict(combos[i % len(combos)][1])
            for s in sizes:
                options[s.id] = cycles[s.id][i % len(cycles[s.id])]
            out.append((players, options))
    # the options of match length: each value once in the variant, at matches spread
    # evenly over it (so over its player counts), the shortest value everywhere else
    lengths: dict[str, list[Any]] = {}
    for players in cls.player_counts:
        for s in cls.option_specs(players):
            if s.id in SHORTEST:
                lengths.setdefault(s.id, [v for v, _ in s.choices])
    for oid in sorted(lengths, key=lambda o: o in ONLY_WHEN):
        values = lengths[oid]
        rng.shuffle(values)
        where = [i for i, (_, o) in enumerate(out) if _counts(oid, o)]
        if len(where) < len(values):  # too few matches where it counts: make some
            other, value = ONLY_WHEN[oid]
            rest = [i for i in range(len(out)) if i not in where]
            for i in rest[:: max(1, len(rest) // len(values))][: len(values) - len(where)]:
                out[i][1][other] = value
            where = [i for i, (_, o) in enumerate(out) if _counts(oid, o)]
        at = {where[i * len(where) // len(values)]: v for i, v in enumerate(values)}
        for i, (_, options) in enumerate(out):
            options[oid] = at.get(i, SHORTEST[oid])
    return out


def match_specs(rng: random.Random) -> list[MatchSpec]:
    specs = []
    for variant in VARIANT_IDS:
        for i, (players, options) in enumerate(configurations(variant, rng)):
            names = [f"P{s + 1}-{variant}" for s in range(players)]
            specs.append(
                MatchSpec(
                    f"{variant}#{i:03d}", variant, players, options, rng.randrange(10**9), names
                )
            )
    return specs


# ----- one position ----------------------------------------------------------------------
def action_json(a: Action) -> dict[str, Any]:
    return plain(a.to_json())


def illegal_sample(
    game: Game, legal: dict[int, list[Action]], hands: list[list[str]], pos_key: str
) -> list[tuple[int, Action]]:
    """Actions to ask ``check`` about: from a generator seeded by the position's key
    (so the same sample is drawn again at replay) and the seats' own hands (from their
    observations, themselves part of the corpus)."""
    rng = random.Random(pos_key)
    acting = game.to_act()
    deck = game.deck_cards()
    out: list[tuple[int, Action]] = []
    kinds = sorted(type(game).ACTION_SHAPES)
    seats = list(acting) if acting else [rng.randrange(game.players)]
    for seat in seats:
        hand = hands[seat]
        legal_set = {canonical(action_json(a)) for a in legal.get(seat, [])}
        legal_kinds = {a.kind for a in legal.get(seat, [])}
        submit_kinds = sorted(legal_kinds - {"pass"}) or kinds
        # random subsets of the hand, as each kind that takes cards
        for _ in range(3):
            if not hand:
                break
            n = rng.randint(1, min(5, len(hand)))
            cards = tuple(rng.sample(hand, n))
            a = Action(rng.choice(submit_kinds), cards)
            if canonical(action_json(a)) not in legal_set:
                out.append((seat, a))
        # a card the seat does not hold
        others = [c for c in deck if c not in hand]
        if others:
            out.append((seat, Action(rng.choice(submit_kinds), (rng.choice(others),))))
        # a pass where none is allowed; every other kind it may not make now
        for kind in kinds:
            if kind in legal_kinds:
                continue
            takes_cards, value_type = type(game).ACTION_SHAPES[kind]
            cards = (
                tuple(rng.sample(hand, min(len(hand), rng.randint(1, 3))))
                if takes_cards and hand
                else ()
            )
            value: Any = None
            if value_type == "int":
                value = rng.randint(0, 12)
            elif value_type == "word":
                value = rng.choice(["left", "right", "high", "low", "trump", "x"])
            elif value_type == "card":
                value = rng.choice(deck)
            out.append((seat, Action(kind, cards, value)))
        # a misspelt card code, an unknown move
        if hand:
            c = rng.choice(hand)
            out.append((seat, Action(submit_kinds[0], (c.lower().replace("10", "T"),))))
        out.append((seat, Action("fold")))
    # a wrong seat: another seat making an acting seat's legal move
    if acting:
        seat = acting[0]
        idle = [s for s in range(game.players) if s not in acting]
        if idle and legal.get(seat):
            out.append((rng.choice(idle), rng.choice(legal[seat])))
    return out


class Tails:
    """The growing lists of a match (the log in each observation and in ``to_json``, the
    action list) kept as what is new since the last position, so a position's items stay
    small and a match is recorded and replayed in linear time. A list whose earlier part
    changed is kept whole, marked ``rewritten`` (so it differs from the record)."""

    def __init__(self) -> None:
        self.prev: dict[str, list[Any]] = {}

    def __call__(self, key: str, items: list[Any]) -> dict[str, Any]:
        prev = self.prev.get(key, [])
        self.prev[key] = list(items)
        if items[: len(prev)] != prev:
            return {"rewritten": items}
        return {"n": len(items), "new": items[len(prev) :]}


GROWING = ("history", "actions")


def _shorten(value: Any, key: str, tails: Tails) -> Any:
    if not isinstance(value, dict):
        return value
    out = dict(value)
    for k in GROWING:
        if isinstance(out.get(k), list):
            out[k] = tails(f"{key}.{k}", out[k])
    return out


def state_items(
    game: Game, pos_key: str, tails: Tails
) -> tuple[dict[str, Any], dict[int, list[Action]]]:
    """The items of the state before a move (plain JSON data)."""
    seats = range(game.players)
    acting = game.to_act()
    legal = {s: game.legal_actions(s) for s in seats}
    decisions = []
    for s in seats:
        d = game.decision(s)
        decisions.append(d.to_json() if d is not None else None)
    observations = [game.observation(s) for s in seats]
    hands = [list(o.get("hand") or []) for o in observations]
    sample = illegal_sample(game, legal, hands, pos_key)
    items = {
        "to_act": list(acting),
        "decisions": decisions,
        "legal": [sorted(canonical(action_json(a)) for a in legal[s]) for s in seats],
        "observations": [_shorten(o, f"obs{s}", tails) for s, o in enumerate(observations)],
        "illegal": [[s, action_json(a), game.check(s, a)] for s, a in sample],
    }
    return plain(items), legal


def after_items(game: Game, log_before: int, result: bool, tails: Tails) -> dict[str, Any]:
    return plain(
        {
            "log": game.history[log_before:],
            "result": game.last_result.to_json() if result and game.last_result else None,
            "json": _shorten(game.to_json(), "json", tails),
        }
    )


# ----- recording -------------------------------------------------------------------------
def choose(
    game: Game, seat: int, legal: list[Action], rng: random.Random, agents: dict[str, Any]
) -> Action:
    if rng.random() < AI_SHARE:
        from twos_tui.ai import agent_for

        agent = agents.get(game.variant_id)
        if agent is None:
            agent = agents[game.variant_id] = agent_for(game.variant_id, "easy")
        decision = game.decision(seat)
        assert decision is not None
        return agent.choose(game.observation(seat), legal, decision, rng)  # type: ignore[no-any-return]
    return rng.choice(legal)


def record_match(
    spec: MatchSpec, rng: random.Random, agents: dict[str, Any]
) -> list[dict[str, Any]]:
    """Every position of one match, whole."""
    game = new_game(spec.variant, spec.players, spec.options, spec.seed, spec.names)
    positions: list[dict[str, Any]] = []
    tails = Tails()
    first = after_items(game, 0, False, tails)
    positions.append({"start": first["json"], "log": first["log"]})
    while True:
        key = f"{spec.id}:{len(positions)}"
        items, legal = state_items(game, key, tails)
        acting = game.to_act()
        log_before = len(game.history)
        if acting:
            seat = rng.choice(acting)
            action = choose(game, seat, legal[seat], rng, agents)
            items["describe"] = game.describe(seat, action)
            items["action"] = [seat, action_json(action)]
            game.apply(seat, action)
        elif game.deal_over and not game.match_over:
            items["describe"] = None
            items["action"] = "next_deal"
            game.next_deal()
        else:
            items["describe"] = None
            items["action"] = "end"
            items.update(after_items(game, log_before, False, tails))
            positions.append(items)
            break
        items.update(after_items(game, log_before, game.deal_over, tails))
        positions.append(items)
        if len(positions) > MAX_ACTIONS:
            raise RuntimeError(f"{spec.id} runs past {MAX_ACTIONS} moves")
    return positions


def record(progress: bool = False) -> dict[str, Any]:
    """The corpus: every match as digests, then the :data:`FULL_PER_VARIANT` shortest
    matches of each variant that play at least :data:`FULL_MIN_POSITIONS` positions
    (at different player counts where it has several) recorded again, whole, from the
    generator's state at their start (their digests must come out the same)."""
    rng = random.Random(CORPUS_SEED)
    matches = []
    states: dict[str, Any] = {}
    for spec in match_specs(rng):
        t = time.perf_counter()
        states[spec.id] = rng.getstate()
        positions = record_match(spec, rng, {})
        matches.append(
            {
                "id": spec.id,
                "variant": spec.variant,
                "players": spec.players,
                "options": spec.options,
                "seed": spec.seed,
                "names": spec.names,
                "start": digest(positions[0]),
                "full": False,
                "actions": [p["action"] for p in positions[1:]],
                "digests": ["".join(digest(p[k]) for k in ITEMS) for p in positions[1:]],
            }
        )
        if progress:
            print(
                f"{spec.id}: {len(positions) - 1} positions, {time.perf_counter() - t:.2f}s",
                file=sys.stderr,
            )
    for variant in VARIANT_IDS:
        ms = sorted(
            (m for m in matches if m["variant"] == variant),
            key=lambda m: (len(m["actions"]) < FULL_MIN_POSITIONS, len(m["actions"])),
        )
        chosen: list[dict[str, Any]] = []
        for m in ms:
            if len(chosen) < FULL_PER_VARIANT and m["players"] not in {
                c["players"] for c in chosen
            }:
                chosen.append(m)
        for m in ms:
            if len(chosen) < FULL_PER_VARIANT and m not in chosen:
                chosen.append(m)
        for m in chosen:
            spec = MatchSpec(m["id"], variant, m["players"], m["options"], m["seed"], m["names"])
            again = random.Random()
            again.setstate(states[m["id"]])
            positions = record_match(spec, again, {})
            digests = ["".join(digest(p[k]) for k in ITEMS) for p in positions[1:]]
            if digests != m["digests"] or digest(positions[0]) != m["start"]:
                raise RuntimeError(f"{m['id']} did not record the same twice")
            m["full"] = True
            m["positions"] = positions
            del m["actions"], m["digests"]
    return {"format": FORMAT, "corpus_seed": CORPUS_SEED, "items": list(ITEMS), "matches": matches}


# ----- replay ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Mismatch:
    match: str
    position: int
    item: str
    detail: str

    def __str__(self) -> str:
        return f"{self.match}, position {self.position}, {self.item}: {self.detail}"


def _action_of(recorded: Any) -> Action:
    return Action.from_json(recorded)


def replay_match(entry: dict[str, Any]) -> Mismatch | None:
    """Play a recorded match again on this code; the first difference, or ``None``."""
    mid = entry["id"]
    game = new_game(
        entry["variant"], entry["players"], entry["options"], entry["seed"], entry["names"]
    )
    tails = Tails()
    start = after_items(game, 0, False, tails)
    start = {"start": start["json"], "log": start["log"]}
    full = entry["full"]
    if full:
        want0 = entry["positions"][0]
        if start != want0:
            return Mismatch(mid, 0, "start", first_difference(want0, start))
        steps = entry["positions"][1:]
    else:
        if digest(start) != entry["start"]:
            return Mismatch(mid, 0, "start", "its digest differs (the new game's JSON or log)")
        steps = entry["actions"]
    width = 2 * DIGEST_BYTES
    for i, step in enumerate(steps, start=1):
        key = f"{mid}:{i}"
        got, _ = state_items(game, key, tails)
        recorded_action = step["action"] if full else step
        log_before = len(game.history)
        if recorded_action == "end":
            got["describe"] = None
            got["action"] = "end"
            got.update(after_items(game, log_before, False, tails))
        elif recorded_action == "next_deal":
            got["describe"] = None
            got["action"] = "next_deal"
            if game.to_act() or not game.deal_over or game.match_over:
                got["action"] = "(no next deal now)"
            else:
                game.next_deal()
            got.update(after_items(game, log_before, game.deal_over, tails))
        else:
            seat, a = recorded_action
            action = _action_of(a)
            got["describe"] = _describe(game, seat, action)
            got["action"] = [seat, action_json(action)]
            try:
                game.apply(seat, action)
            except ValueError as e:
                got["action"] = f"refused: {e}"
            got.update(after_items(game, log_before, game.deal_over, tails))
        for k in ITEMS:
            if full:
                if step[k] != got[k]:
                    return Mismatch(mid, i, k, first_difference(step[k], got[k]))
            else:
                j = ITEMS.index(k) * width
                if digest(got[k]) != step_digest(entry, i)[j : j + width]:
                    return Mismatch(mid, i, k, "its digest differs (the item changed)")
        if isinstance(got["action"], str) and got["action"] not in ("end", "next_deal"):
            return Mismatch(mid, i, "action", got["action"])
    # a saved game of every position loads to the same state (checked at the end only)
    reloaded = load_game(game.to_json()).to_json()
    if plain(reloaded) != plain(game.to_json()):
        return Mismatch(mid, len(steps), "json", "load_game(to_json()) is not a fixed point")
    return None


def step_digest(entry: dict[str, Any], i: int) -> str:
    return str(entry["digests"][i - 1])


def _describe(game: Game, seat: int, action: Action) -> Any:
    return game.describe(seat, action)


def load_corpus(path: Path = CORPUS) -> dict[str, Any]:
    with lzma.open(path, "rt", encoding="utf-8") as f:
        data: dict[str, Any] = json.load(f)
    return data


def write_corpus(data: dict[str, Any], path: Path = CORPUS) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    raw = canonical(data).encode()
    path.write_bytes(lzma.compress(raw, preset=9 | lzma.PRESET_EXTREME))


def replay_all(data: dict[str, Any]) -> Iterator[tuple[str, Mismatch | None]]:
    for entry in data["matches"]:
        yield entry["id"], replay_match(entry)


# ----- save files ------------------------------------------------------------------------
SAVES = ROOT / "tests" / "corpus" / "saves"
#: (file name, variant, seats (h: a person at this screen, a: the easy AI, r: remote),
#: moves to play (``None``: to the end of the first deal), house rules)
SAVE_CASES: tuple[tuple[str, str, str, int | None, dict[str, Any]], ...] = (
    ("twos-solo-start", "twos", "haa", 0, {}),
    ("twos-solo-mid", "twos", "haa", 17, {"scoring": "penalty", "penalty_deals": 2}),
    ("twos-hotseat-deal-end", "twos", "hh", None, {"hand_size": 8, "deals_to_win": 2}),
    ("big-two-solo-mid", "big-two", "haaa", 23, {"target": 50}),
    ("big-two-hotseat-deal-end", "big-two", "hha", None, {"passing": "locked", "target": 50}),
    ("big-two-5r-solo-mid", "big-two-5r", "haaa", 30, {}),
    ("big-two-5r-solo-deal-end", "big-two-5r", "haaa", None, {"passing": "locked"}),
    ("chinese-poker-solo-mid", "chinese-poker", "haaa", 2, {"target": 50}),
    (
        "chinese-poker-hotseat-deal-end",
        "chinese-poker",
        "hh",
        None,
        {"bomb_compare": "quad", "target": 50},
    ),
    ("2v1-solo-exchange", "2v1", "haa", 1, {"coins_to_win": 5}),
    ("2v1-solo-mid", "2v1", "haa", 12, {}),
    ("2v1-hotseat-deal-end", "2v1", "hhh", None, {"coins_to_win": 5}),
    ("twos-tricks-solo-mid", "twos-tricks", "haaa", 21, {"game_length": 2}),
    ("twos-tricks-solo-deal-end", "twos-tricks", "haaa", None, {"game_length": 0}),
)
#: hosted tables: (file name, variant, seats, moves, house rules)
HOSTED_CASES: tuple[tuple[str, str, str, int | None, dict[str, Any]], ...] = (
    ("twos-hosted", "twos", "hra", 9, {"hand_size": 7, "deals_to_win": 2}),
    ("big-two-hosted", "big-two", "hrra", 14, {"target": 50}),
    ("big-two-5r-hosted", "big-two-5r", "hrar", None, {}),
    ("chinese-poker-hosted", "chinese-poker", "hrr", 1, {"target": 50}),
    ("2v1-hosted", "2v1", "hra", 6, {"coins_to_win": 5}),
    ("twos-tricks-hosted", "twos-tricks", "hrra", 11, {"game_length": 1}),
)


def play_session(session: Any, moves: int | None, rng: random.Random) -> None:
    """Play ``moves`` moves (``None``: to the end of the deal) through the session as the
    app does (the AI seats by their AI, the people's seats by ``rng``), autosaving after
    each."""
    done = 0
    while not session.game.deal_over and (moves is None or done < moves):
        g = session.game
        seat = rng.choice(g.to_act())
        if session.seats[seat].is_ai:
            action = session.ai_choose(seat)
        else:
            action = rng.choice(g.legal_actions(seat))
        session.apply(seat, action)
        done += 1
    session.flush()


def record_saves(folder: Path = SAVES) -> list[Path]:
    """Save files as the app writes them (a :class:`Session`'s autosave) and hosted tables'
    saves with their table files (a :class:`HostedTable`'s), from seeded games, into
    ``folder``. ``$TWOS_TUI_HOME`` is pointed at a new temporary folder meanwhile."""
    import os
    import shutil
    import tempfile

    home = tempfile.mkdtemp(prefix="twos-tui-corpus-")
    old = os.environ.get("TWOS_TUI_HOME")
    os.environ["TWOS_TUI_HOME"] = home
    try:
        from twos_tui.play import saves
        from twos_tui.play.net.server import HostedTable, sidecar_path
        from twos_tui.play.session import AI, HUMAN, SeatConfig, Session

        rng = random.Random(CORPUS_SEED)
        folder.mkdir(parents=True, exist_ok=True)
        written = []
        for name, variant, seats, moves, options in SAVE_CASES:
            configs = [
                SeatConfig(f"Seat {i + 1}", AI if k == "a" else HUMAN, "easy")
                for i, k in enumerate(seats)
            ]
            session = Session.start(variant, configs, len(seats), options, rng.randrange(10**6))
            play_session(session, moves, rng)
            session.close()
            target = folder / f"{name}.json"
            shutil.copyfile(saves.save_path(session.save_id), target)
            written.append(target)
        kinds = {"h": "human", "a": "ai", "r": "remote"}
        for name, variant, seats, moves, options in HOSTED_CASES:
            table = HostedTable.create(
                variant,
                [kinds[k] for k in seats],
                options=options,
                seed=rng.randrange(10**6),
                level="easy",
            )
            play_session(table.session, moves, rng)
            table.session.close()
            sid = table.session.save_id
            target = folder / f"{name}.json"
            shutil.copyfile(saves.save_path(sid), target)
            shutil.copyfile(sidecar_path(sid), folder / f"{name}.table.json")
            written.append(target)
        return written
    finally:
        if old is None:
            os.environ.pop("TWOS_TUI_HOME", None)
        else:
            os.environ["TWOS_TUI_HOME"] = old
        shutil.rmtree(home, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--check", action="store_true", help="replay the corpus, say what differs")
    p.add_argument("--out", type=Path, default=CORPUS)
    p.add_argument("-v", "--verbose", action="store_true")
    p.add_argument(
        "--saves-only",
        action="store_true",
        help="write tests/corpus/saves only (the saves of the version that wrote them: "
        "never re-written to make a load pass)",
    )
    args = p.parse_args(argv)
    if args.saves_only:
        for path in record_saves():
            print(path.relative_to(ROOT))
        return 0
    if args.check:
        bad = 0
        for mid, m in replay_all(load_corpus(args.out)):
            if m is not None:
                bad += 1
                print(m)
            elif args.verbose:
                print(f"{mid}: same")
        print("every match replays the same" if not bad else f"{bad} matches differ")
        return 1 if bad else 0
    t = time.perf_counter()
    data = record(progress=args.verbose)
    write_corpus(data, args.out)
    n = sum(len(m.get("positions", ())) or len(m["actions"]) for m in data["matches"])
    print(
        f"{len(data['matches'])} matches, {n} positions, {args.out.stat().st_size} bytes, "
        f"{time.perf_counter() - t:.0f}s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
