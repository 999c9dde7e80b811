"""``twos-tui arena``: agents play seeded deals against each other, duplicate-style.

Each seeded deal is played once per rotation of the agents round the table, so every
agent holds every hand from every seat: ``--deals N`` plays ``N`` deals in all (rounded
up to a whole number of rotations). Deal ``k`` of a run with seed ``S`` starts a fresh
match with seed ``S * 1_000_003 + k // rotations`` and plays its first deal; the agent in
seat ``i`` gets the generator ``ai_rng(deal seed, i)``. A run is therefore reproducible
from its seed, whatever ``--jobs`` is — except for agents that stop on a clock (``hard``
with a time budget), which is why ``--hard-iterations`` exists.

Figures per agent (agents with the same spec are pooled):

* ``win_rate``: the share of the hands it held that were among the deal's winners, with
  a Wilson 95% interval; ``chance`` is what a seat would get on average (the mean of
  ``winners / players`` over the deals played);
* ``avg_score``: the seat's change of score in a deal (deals won, penalty points, coins,
  or trick points, as the variant scores; ``score`` says whether it is a penalty), with a
  normal-approximation 95% interval ``avg_score_ci95``;
* 2v1: ``avg_score`` is coins a round; ``coin_share`` is its share of the 2 coins every
  round hands out (chance 1/3); ``lone_rounds`` and ``lone_exact_rate`` (how often its
  lone bids landed exactly);
* Twos (trick-taking): ``top_share``, the share of deals it ended with the top score
  (ties shared);
* climbing games: ``left_10``/``left_11``, the share of its hands it ended holding 10 or
  more (11 or more) cards: the heavy penalties of Big Two, its five-round edition and
  Chinese Poker start there;
* ``decision_ms``: median / p95 / max milliseconds of the agent's ``choose`` calls that had
  more than one legal action.

**Paired comparison** (``paired``): the first agent against each other one, on the same
hands. Every seat of every seeded deal is held by each agent once in the rotations; for
each such hand the first agent's result with it is set against the other agent's (its
mean, where the other held it in several rotations): the mean difference in deals won
(points of win rate) and in score change (penalty or points a deal), each with a
normal-approximation 95% interval over the hands. Luck of the deal cancels out, so the
interval is much narrower than the two agents' own intervals would suggest.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NotRequired, TypedDict

from .ai import BASELINES, EXTRA_LEVELS, LEVELS, agent_for, ai_rng, normalize_level
from .ai.options import OptionValue, parse_options
from .engine import new_game, variant_class
from .engine.climbing.game import ClimbingGame
from .engine.two_v_one.game import TwoVOneGame

if TYPE_CHECKING:
    from .cli_common import Subcommands

MAX_MOVES_PER_DEAL = 20_000
SEED_STRIDE = 1_000_003

#: house rules by id
Options = dict[str, OptionValue]


class AgentKw(TypedDict, total=False):
    """What an agent of one level is made with (``hard``'s search limits)."""

    budget_s: float
    iterations: int
    play_for_penalty: bool  #: the climbing games' hard: False plays for the deal won


class DealOutcome(TypedDict):
    """One deal of a run: the winners, each seat's change, each seat's decision times
    (ms, decisions with a choice only); 2v1: the lone player and whether it won."""

    winners: list[int]
    changes: list[int]
    times: list[list[float]]
    left: NotRequired[list[int]]  #: climbing games: the cards each seat ended with
    lone: NotRequired[int | None]
    exact: NotRequired[bool]


class DecisionTimes(TypedDict):
    median: float
    p95: float
    max: float
    decisions: int


class AgentRow(TypedDict):
    """An agent's figures over a run (``--json``: one of the report's ``agents``)."""

    name: str
    hands: int
    win_rate: float
    win_ci95: list[float]
    chance: float
    avg_score: float
    avg_score_ci95: list[float]
    decision_ms: DecisionTimes
    left_10: NotRequired[float]  #: climbing games: share of hands ended with 10+ cards
    left_11: NotRequired[float]  #: ... and with 11+
    coin_share: NotRequired[float]  #: 2v1
    coin_share_chance: NotRequired[float]
    lone_rounds: NotRequired[int]
    lone_exact_rate: NotRequired[float | None]
    top_share: NotRequired[float]  #: twos-tricks
    top_share_ci95: NotRequired[list[float]]


class PairedRow(TypedDict):
    """One agent against another on the same hands (see the module docstring)."""

    agent: str
    vs: str
    hands: int
    win_diff: float
    win_diff_ci95: list[float]
    score_diff: float
    score_diff_ci95: list[float]


class ArenaReport(TypedDict):
    """A run's report (what ``--json`` prints)."""

    variant: str
    players: int
    deals: int
    seed: int
    rotations: int
    score: str  #: "penalty" (lower is better) or "points"
    options: Options
    seconds: float
    agents: list[AgentRow]
    paired: list[PairedRow]


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_ci(total: float, total_sq: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """A normal-approximation 95% interval of a mean from its sum and sum of squares."""
    if n <= 1:
        m = total / n if n else 0.0
        return (m, m)
    m = total / n
    var = max(0.0, (total_sq - n * m * m) / (n - 1))
    half = z * math.sqrt(var / n)
    return (m - half, m + half)


def parse_seats(text: str, players: int) -> list[str]:
    """``"hard,normal"`` -> one agent spec per seat. A single name fills every seat; a
    shorter list is repeated from its last entry."""
    specs = [s.strip() for s in text.split(",") if s.strip()]
    if not specs:
        raise ValueError("--seats needs at least one agent (e.g. hard,normal,normal)")
    for s in specs:
        normalize_level(s)
    if len(specs) > players:
        raise ValueError(f"{len(specs)} agents for {players} seats")
    while len(specs) < players:
        specs.append(specs[-1])
    return specs


@dataclass
class _Tally:
    hands: int = 0
    wins: float = 0.0
    score: float = 0.0
    score_sq: float = 0.0
    chance: float = 0.0
    times_ms: list[float] = field(default_factory=list)
    lone_rounds: int = 0
    lone_exact: int = 0
    top_share: float = 0.0
    left_10: int = 0
    left_11: int = 0


def play_deal(
    variant: str,
    players: int,
    specs: list[str],
    deal_seed: int,
    options: Options | None = None,
    agent_kw: dict[str, AgentKw] | None = None,
) -> DealOutcome:
    """One deal with ``specs[i]`` in seat ``i``: per-seat outcome and decision times."""
    agent_kw = agent_kw or {}
    g = new_game(variant, players, dict(options or {}), deal_seed)
    agents = [agent_for(variant, s, **agent_kw.get(s, {})) for s in specs]
    rngs = [ai_rng(deal_seed, i) for i in range(players)]
    times: list[list[float]] = [[] for _ in range(players)]
    clock = time.perf_counter
    moves = 0
    while not g.deal_over:
        for seat in g.to_act():
            legal = g.legal_actions(seat)
            if not legal:
                continue
            obs = g.observe(seat)
            dec = g.decision(seat)
            assert dec is not None
            t = clock()
            act = agents[seat].choose(obs, legal, dec, rngs[seat])
            dt = (clock() - t) * 1000
            if len(legal) > 1:
                times[seat].append(dt)
            g.apply(seat, act)
            moves += 1
            if g.deal_over:
                break
        if moves > MAX_MOVES_PER_DEAL:
            raise RuntimeError(f"{variant} deal with seed {deal_seed} did not end")
    res = g.results[-1]
    out: DealOutcome = {
        "winners": list(res.winners),
        "changes": list(res.changes),
        "times": times,
    }
    if isinstance(g, ClimbingGame):
        out["left"] = list(g.cards_left())
    if isinstance(g, TwoVOneGame):
        out["lone"] = g.lone
        out["exact"] = g.lone in res.winners
    return out


#: one deal of a run: variant, players, seat specs, deal seed, options, agent_kw, index
_Task = tuple[str, int, list[str], int, Options | None, dict[str, AgentKw] | None, int]


def _task(args: _Task) -> tuple[int, list[str], DealOutcome]:
    variant, players, specs, deal_seed, options, agent_kw, index = args
    return index, specs, play_deal(variant, players, specs, deal_seed, options, agent_kw)


def run_arena(
    variant: str,
    seats: list[str],
    deals: int,
    seed: int = 1,
    players: int | None = None,
    jobs: int = 1,
    options: Options | None = None,
    agent_kw: dict[str, AgentKw] | None = None,
    progress: Callable[[int, int], object] | None = None,
) -> ArenaReport:
    """Play ``deals`` deals (rounded up to whole rotations) and return the figures."""
    cls = variant_class(variant)
    players = players or cls.default_players
    if players not in cls.player_counts:
        counts = ", ".join(map(str, cls.player_counts))
        raise ValueError(f"{cls.name} is for {counts} players, not {players}")
    if deals < 1:
        raise ValueError("--deals must be at least 1")
    if len(seats) != players:
        raise ValueError(f"{len(seats)} agents for {players} seats")
    cls.resolve_options(players, dict(options or {}))  # unknown options fail early
    rotations = players
    groups = -(-deals // rotations)
    tasks: list[_Task] = []
    for k in range(groups):
        deal_seed = seed * SEED_STRIDE + k
        for rot in range(rotations):
            specs = [seats[(i - rot) % players] for i in range(players)]
            tasks.append((variant, players, specs, deal_seed, options, agent_kw, len(tasks)))
    results: list[tuple[int, list[str], DealOutcome]] = []
    start = time.perf_counter()
    jobs = max(1, min(jobs, len(tasks), os.cpu_count() or 1))
    if jobs > 1:
        import multiprocessing as mp

        with mp.get_context("spawn").Pool(jobs) as pool:
            for i, res in enumerate(pool.imap_unordered(_task, tasks, chunksize=1)):
                results.append(res)
                if progress:
                    progress(i + 1, len(tasks))
    else:
        for i, task in enumerate(tasks):
            results.append(_task(task))
            if progress:
                progress(i + 1, len(tasks))
    elapsed = time.perf_counter() - start
    results.sort(key=lambda r: r[0])

    tallies: dict[str, _Tally] = defaultdict(_Tally)
    # per (deal group, seat): each agent's (won, change) with that hand, for the pairing
    hands: dict[tuple[int, int], dict[str, list[tuple[float, float]]]] = defaultdict(
        lambda: defaultdict(list)
    )
    for index, specs, out in results:
        winners = set(out["winners"])
        changes = out["changes"]
        chance = len(winners) / players
        best = max(changes)
        tops = [s for s in range(players) if changes[s] == best]
        for seat, spec in enumerate(specs):
            t = tallies[spec]
            t.hands += 1
            t.wins += seat in winners
            t.score += changes[seat]
            t.score_sq += changes[seat] ** 2
            t.chance += chance
            t.times_ms.extend(out["times"][seat])
            if seat in tops:
                t.top_share += 1 / len(tops)
            if out.get("lone") == seat:
                t.lone_rounds += 1
                t.lone_exact += bool(out.get("exact"))
            left = out.get("left")
            if left is not None:
                t.left_10 += left[seat] >= 10
                t.left_11 += left[seat] >= 11
            hands[(index // rotations, seat)][spec].append(
                (float(seat in winners), float(changes[seat]))
            )

    agents = []
    for spec in dict.fromkeys(seats):
        t = tallies[spec]
        times = sorted(t.times_ms)
        row: AgentRow = {
            "name": spec,
            "hands": t.hands,
            "win_rate": round(t.wins / t.hands, 4),
            "win_ci95": [round(x, 4) for x in wilson(t.wins, t.hands)],
            "chance": round(t.chance / t.hands, 4),
            "avg_score": round(t.score / t.hands, 4),
            "avg_score_ci95": [round(x, 4) for x in mean_ci(t.score, t.score_sq, t.hands)],
            "decision_ms": {
                "median": round(statistics.median(times), 3) if times else 0.0,
                "p95": round(times[min(len(times) - 1, int(0.95 * len(times)))], 3)
                if times
                else 0.0,
                "max": round(times[-1], 3) if times else 0.0,
                "decisions": len(times),
            },
        }
        if cls.family == "climbing":
            row["left_10"] = round(t.left_10 / t.hands, 4)
            row["left_11"] = round(t.left_11 / t.hands, 4)
        if variant == "2v1":
            # every round hands out exactly 2 coins: the share of them, chance 1/3
            row["coin_share"] = round(t.score / (2 * t.hands), 4)
            row["coin_share_chance"] = round(1 / players, 4)
            row["lone_rounds"] = t.lone_rounds
            row["lone_exact_rate"] = (
                round(t.lone_exact / t.lone_rounds, 4) if t.lone_rounds else None
            )
        if variant == "twos-tricks":
            row["top_share"] = round(t.top_share / t.hands, 4)
            row["top_share_ci95"] = [round(x, 4) for x in wilson(t.top_share, t.hands)]
        agents.append(row)
    return {
        "paired": paired_rows(list(dict.fromkeys(seats)), hands),
        "variant": variant,
        "players": players,
        "deals": len(tasks),
        "seed": seed,
        "rotations": rotations,
        "score": "penalty" if cls.low_score_wins else "points",
        "options": dict(options or {}),
        "seconds": round(elapsed, 2),
        "agents": agents,
    }


def paired_rows(
    names: list[str], hands: dict[tuple[int, int], dict[str, list[tuple[float, float]]]]
) -> list[PairedRow]:
    """The first of ``names`` against each other one, over the hands both held."""
    rows: list[PairedRow] = []
    if len(names) < 2:
        return rows
    first = names[0]
    for other in names[1:]:
        n = 0
        w = w2 = d = d2 = 0.0
        for by_agent in hands.values():
            a, b = by_agent.get(first), by_agent.get(other)
            if not a or not b:
                continue
            dw = statistics.fmean(x[0] for x in a) - statistics.fmean(x[0] for x in b)
            ds = statistics.fmean(x[1] for x in a) - statistics.fmean(x[1] for x in b)
            n += 1
            w += dw
            w2 += dw * dw
            d += ds
            d2 += ds * ds
        if not n:
            continue
        rows.append(
            {
                "agent": first,
                "vs": other,
                "hands": n,
                "win_diff": round(w / n, 4),
                "win_diff_ci95": [round(x, 4) for x in mean_ci(w, w2, n)],
                "score_diff": round(d / n, 4),
                "score_diff_ci95": [round(x, 4) for x in mean_ci(d, d2, n)],
            }
        )
    return rows


def format_report(r: ArenaReport) -> str:
    lines = [
        f"{r['variant']} ({r['players']} players): {r['deals']} deals, seed {r['seed']}, "
        f"seats rotated {r['rotations']} ways, {r['seconds']} s",
        "avg score: "
        + (
            "penalty a deal (lower is better)"
            if r["score"] == "penalty"
            else "points a deal (higher is better)"
        ),
        "",
    ]
    extra = ""
    if r["variant"] == "2v1":
        extra = "  coin share  lone exact"
    elif r["variant"] == "twos-tricks":
        extra = "  top score"
    elif r["agents"] and "left_10" in r["agents"][0]:
        extra = "  10+ cards  11+ cards"
    lines.append(
        f"{'agent':<10} {'hands':>6}  {'win rate':>8}  {'95% interval':>15}  {'chance':>6}"
        f"  {'avg score':>9}{extra}  {'ms median / p95 / max':>24}"
    )
    for a in r["agents"]:
        lo, hi = a["win_ci95"]
        d = a["decision_ms"]
        more = ""
        if r["variant"] == "2v1":
            rate = a["lone_exact_rate"]
            more = f"  {a['coin_share']:>10.1%}  {'—' if rate is None else f'{rate:.1%}':>10}"
        elif r["variant"] == "twos-tricks":
            more = f"  {a['top_share']:>9.1%}"
        elif "left_10" in a:
            more = f"  {a['left_10']:>9.1%}  {a.get('left_11', 0.0):>9.1%}"
        lines.append(
            f"{a['name']:<10} {a['hands']:>6}  {a['win_rate']:>8.1%}  "
            f"{f'{lo:.1%}–{hi:.1%}':>15}  {a['chance']:>6.1%}  {a['avg_score']:>9.3f}{more}"
            f"  {d['median']:>8.2f} / {d['p95']:>7.2f} / {d['max']:>7.2f}"
        )
    if r.get("paired"):
        unit = "penalty" if r["score"] == "penalty" else "points"
        lines += ["", "paired, on the same hands (difference, 95% interval):"]
        for p in r["paired"]:
            wl, wh = p["win_diff_ci95"]
            sl, sh = p["score_diff_ci95"]
            lines.append(
                f"{p['agent']} - {p['vs']} over {p['hands']} hands: win rate "
                f"{p['win_diff'] * 100:+.1f} points [{wl * 100:+.1f}, {wh * 100:+.1f}], "
                f"{unit} a deal {p['score_diff']:+.3f} [{sl:+.3f}, {sh:+.3f}]"
            )
    return "\n".join(lines)


def add_arena_parser(sub: Subcommands) -> None:
    p = sub.add_parser(
        "arena",
        help="AI agents play seeded deals against each other (duplicate-style)",
        description="Agents: " + ", ".join(LEVELS + EXTRA_LEVELS + BASELINES) + ".",
    )
    p.add_argument("--variant", required=True, help="the game to play (twos, big-two, ...)")
    p.add_argument(
        "--seats",
        required=True,
        help="one agent per seat, comma-separated (e.g. hard,normal,normal,normal)",
    )
    from .cli_common import SEED, int_range

    p.add_argument(
        "--deals",
        type=int_range(1, 10_000_000),
        default=400,
        help="deals to play (default 400; rounded up so every agent plays every seat of a deal)",
    )
    p.add_argument("--seed", type=SEED, default=1, help="seed of the first deal (default 1)")
    p.add_argument(
        "--players", type=int_range(1, 8), default=None, help="seats (default: the game's own)"
    )
    p.add_argument(
        "--jobs",
        type=int_range(1, 256),
        default=1,
        help="worker processes (default 1; at most one per CPU core is used)",
    )
    p.add_argument("--option", action="append", metavar="ID=VALUE", help="a house rule")
    p.add_argument(
        "--hard-budget",
        type=float,
        default=None,
        metavar="S",
        help="seconds a hard decision may take (default: the agent's own)",
    )
    p.add_argument(
        "--hard-iterations",
        type=int,
        default=None,
        metavar="N",
        help="stop hard's search after N iterations (reproducible runs)",
    )
    p.add_argument("--json", action="store_true", help="print the report as JSON")


def run_arena_cli(args: argparse.Namespace) -> int:
    import sys

    try:
        cls = variant_class(args.variant)
        players = cls.default_players if args.players is None else args.players
        if players not in cls.player_counts:
            counts = ", ".join(map(str, cls.player_counts))
            raise ValueError(f"{cls.name} is for {counts} players, not {players}")
        seats = parse_seats(args.seats, players)
        if not 1 <= args.jobs <= 256:
            raise ValueError("--jobs must be between 1 and 256")
        cores = max(1, os.cpu_count() or 1)
        if args.jobs > cores:
            print(
                f"twos-tui arena: --jobs {args.jobs} is more than this computer's "
                f"{cores} CPU core{'s' if cores != 1 else ''}; using {cores}",
                file=sys.stderr,
            )
            args.jobs = cores
        if not 1 <= args.deals <= 10_000_000:
            raise ValueError("--deals must be between 1 and 10,000,000")
        options = parse_options(args.option)
        hard_kw: AgentKw = {}
        if args.hard_budget is not None:
            if not 0 < args.hard_budget <= 60:
                raise ValueError("--hard-budget must be above 0 and at most 60 seconds")
            hard_kw["budget_s"] = args.hard_budget
        if args.hard_iterations is not None:
            if args.hard_iterations < 1:
                raise ValueError("--hard-iterations must be at least 1")
            hard_kw["iterations"] = args.hard_iterations
        from .progress import progress_bar

        # a bar on stderr while the deals are played (a terminal only; never stdout)
        with progress_bar("Playing", "deals") as bar:
            r = run_arena(
                args.variant,
                seats,
                args.deals,
                args.seed,
                players,
                args.jobs,
                options,
                {"hard": hard_kw} if hard_kw else None,
                progress=bar,
            )
    except ValueError as e:
        print(f"twos-tui arena: {e}", file=sys.stderr)
        return 2
    print(json.dumps(r) if args.json else format_report(r))
    return 0
