"""Make the puzzles in ``twos_tui/puzzles/data/`` from real AI games.

For each game, seeded matches are played by the ``normal`` AI at every seat. At each
turn where the hands are small enough for the solver to look at every deal of the hidden
cards, the position is captured and solved; it becomes a candidate when exactly one move
reaches the goal. For every candidate the ``normal`` and ``hard`` AIs are asked what
they would play; candidates where they disagree, or where the ``normal`` AI goes wrong,
come first (those teach something the AI itself can miss), then the others, one puzzle
per deal at most, the themes mixed.

    .venv/bin/python tools/make_puzzles.py                 # every game, the recorded seeds
    .venv/bin/python tools/make_puzzles.py big-two --count 30 --seeds 1-400

The seeds used and the command are written into each puzzle's ``source``. Each game's
mining stops at ``--limit-s``, so how many seeds it covers depends on the machine; the
puzzles shipped were made with (on a shared two-core machine, 2026-11-25):

    tools/make_puzzles.py twos --count 34 --seeds 1-400 --limit-s 240
    tools/make_puzzles.py big-two --count 34 --seeds 1-400 --limit-s 1100   # and big-two-5r
    tools/make_puzzles.py chinese-poker --count 34 --seeds 1-400 --limit-s 1100
    tools/make_puzzles.py twos-tricks --count 34 --seeds 1-300 --limit-s 400
    tools/make_puzzles.py 2v1 --count 34 --seeds 1-800 --limit-s 1300
    tools/make_puzzles.py 2v1 --append --count 34 --seeds 163-600 --limit-s 420
    tools/make_puzzles.py GAME --prune S --retext   # S: 0.15 (climbing), 0.08, 0.1
"""

from __future__ import annotations

import argparse
import json
import pathlib
import random
import sys
import time
from collections import Counter
from typing import Any

from twos_tui.ai import agent_for, ai_rng
from twos_tui.engine import VARIANT_IDS, Action, Game, new_game
from twos_tui.engine.climbing.combination import Combination, describe_kind
from twos_tui.engine.positions import Position, PositionError, build_game
from twos_tui.puzzles.capture import capture
from twos_tui.puzzles.model import Puzzle, check_puzzle, unique_first
from twos_tui.puzzles.solver import (
    Goal,
    Move,
    TooBig,
    count_worlds,
    describe_move,
    first_moves,
    solve,
)

DATA = pathlib.Path(__file__).resolve().parents[1] / "twos_tui" / "puzzles" / "data"

#: per game: the tables played (players, options) and the recorded seed range
CONFIGS: dict[str, list[tuple[int, dict[str, Any]]]] = {
    "twos": [(2, {"hand_size": 26}), (3, {"hand_size": 17})],
    "big-two": [(4, {})],
    "big-two-5r": [(4, {})],
    "chinese-poker": [(4, {}), (3, {})],
    "twos-tricks": [(4, {})],
    "2v1": [(3, {})],
}
SEEDS = {v: (1, 400) for v in VARIANT_IDS}
MAX_WORLDS = 400
WORLDS = {"2v1": 200}  # the most deals of the hidden cards per game, where it differs
DEALS_PER_SEED = 3
MAX_NODES = 6000  # keeps each puzzle's proof quick (the test proves them all)

WORDS = {2: "two", 3: "three", 4: "four", 5: "five"}

HINTS = {
    "control": "Lead something nobody can beat, and stay on lead.",
    "lead-order": "Which of your plays can the others beat? Decide which to get rid of first.",
    "take-over": "Take the lead back now, with your strongest answer.",
    "beat-low": "Beat it, but keep your strength for later.",
    "patience": "You do not have to play now: passing can be the strongest move.",
    "bomb": "A bomb beats any ordinary play, and then you lead.",
    "last-tricks": "Count the cards still out, suit by suit, before you choose.",
    "catch": "A 3 catches the 2 of its own suit; the first 2 in a trick catches later 2s.",
    "duck": "Sometimes the best card loses this trick so that you win the next ones.",
    "exact-bid": "You must take exactly the hands you bid: not one more, not one fewer.",
}


def agent_move(g: Game, seat: int, level: str, seed: int) -> Action:
    kw = {"iterations": 150} if level == "hard" else {}
    agent = agent_for(g.variant_id, level, **kw)
    d = g.decision(seat)
    assert d is not None
    return agent.choose(g.observation(seat), g.legal_actions(seat), d, ai_rng(seed, seat))


def small_enough(g: Game, seat: int) -> bool:
    d = g.__dict__
    hands = d["hands"]
    mine = len(hands[seat])
    if g.family == "climbing":
        return 2 <= mine <= 7
    if g.variant_id == "twos-tricks":
        return 2 <= mine <= 3
    return (
        d.get("phase") in ("lead", "keep")
        and d.get("lone") == seat
        and 3 <= d.get("hand_no", 0) <= 4
    )


# ----- goals per game ---------------------------------------------------------------------
def candidate(g: Game, seat: int) -> tuple[Goal, Move, int, int] | None:
    """(goal, the one answer, par, number of moves) or None."""
    n_moves = len(first_moves(g, seat))
    if n_moves < (3 if g.family == "climbing" else 2):
        return None
    if g.family == "climbing":
        for turns in (2, 3, 4):
            goal = Goal("out", seat, 1, turns)
            sol = solve(g, goal, MAX_NODES, MAX_WORLDS)
            wins = sol.winners(1)
            if unique_first(sol.values, 1) is not None:
                return goal, wins[0], turns, n_moves
            if wins:
                return None
        return None
    if g.variant_id == "twos-tricks":
        for kind in ("points", "tricks"):
            sol = solve(g, Goal(kind, seat, 0), MAX_NODES, WORLDS.get(g.variant_id, MAX_WORLDS))
            best = sol.best
            wins = sol.winners(best)
            if unique_first(sol.values, best) is not None and best > 0:
                left = len(g.__dict__["hands"][seat])
                return Goal(kind, seat, best), wins[0], left, n_moves
        return None
    goal = Goal("bid", seat, 1)
    sol = solve(g, goal, MAX_NODES, WORLDS["2v1"])
    wins = sol.winners(1)
    if unique_first(sol.values, 1) is not None:
        return goal, wins[0], hands_left(g), n_moves
    return None


def hands_left(g: Game) -> int:
    """2v1: the hands still to play after the one being decided (at "keep"), or from
    the one about to be led."""
    d = g.__dict__
    return (5 if d["phase"] == "keep" else 6) - d["hand_no"]


def theme_of(g: Game, seat: int, goal: Goal, answer: Move) -> str:
    d = g.__dict__
    first = answer[0]
    if g.family == "climbing":
        if first.kind == "pass":
            return "patience"
        combo: Combination | None = g.classify(first.cards)  # type: ignore[attr-defined]
        assert combo is not None
        if combo.is_bomb:
            return "bomb"
        if d["top"] is None:
            # can any card the seat cannot see beat it? (then it is about the order)
            return "control" if _unbeatable(g, seat, first) else "lead-order"
        return "take-over" if _unbeatable(g, seat, first) else "beat-low"
    if g.variant_id == "twos-tricks":
        card = first.cards[0]
        if card[:-1] in ("2", "3"):
            return "catch"
        trick_after = [*d["trick"], (seat, card)]
        from twos_tui.engine.tricks.game import resolve_trick

        if len(trick_after) == g.players:
            idx, _ = resolve_trick(trick_after)
            if trick_after[idx][0] != seat:
                return "duck"
        return "last-tricks"
    return "exact-bid"


def _unbeatable(g: Game, seat: int, action: Action) -> bool:
    from twos_tui.puzzles.solver import clone

    w = clone(g)
    w.apply(seat, action)
    if w.deal_over:
        return True
    # every deal of the hidden cards: no other seat could beat it
    from twos_tui.puzzles.solver import worlds

    for ww in worlds(w, seat, MAX_WORLDS):
        for s in range(ww.players):
            if s == seat:
                continue
            ww.current = s  # type: ignore[attr-defined]
            if any(a.kind == "play" for a in ww.legal_actions(s)):
                return False
    return True


def goal_text(g: Game, goal: Goal, par: int, names: list[str]) -> str:
    if goal.kind == "out":
        when = f"in {WORDS.get(par, str(par))} turns" if par > 1 else "now"
        if count_worlds(g, goal.seat) == 1:
            others = [n for i, n in enumerate(names) if i != goal.seat]
            who = others[0] if len(others) == 1 else "the others"
            plays = "plays" if len(others) == 1 else "play"
            text = f"Go out {when}, whatever {who} {plays}."
        else:
            text = f"Go out {when}, whatever the others hold and whatever they play."
        hs = g.options.get("hand_size")
        if g.variant_id == "twos" and hs == 26:
            text += " (Two players, the whole pack dealt: you can count every card.)"
        elif g.variant_id == "twos" and hs == 17:
            text += " (17 cards each: one card is out of play.)"
        return text
    if goal.kind == "points":
        left = par
        return (
            f"Make sure of at least {goal.target} point{'s' if goal.target != 1 else ''} "
            f"from the last {WORDS.get(left, str(left))} tricks, whatever the others hold."
        )
    if goal.kind == "tricks":
        left = par
        many = "all" if goal.target == left else str(goal.target)
        return (
            f"Win {many} of the last {WORDS.get(left, str(left))} tricks, whatever the others hold."
        )
    d = g.__dict__
    need = d["bid"] - d["hands_won"][0]
    left = "the last hand" if par == 1 else f"the {WORDS.get(par, str(par))} hands left"
    more = "none" if need == 0 else f"exactly {need} more"
    if need == 1 and par == 1:
        more, left = "the last hand", "too"
    elif need == par:
        more = "both" if par == 2 else "all"
    if d["phase"] == "keep":
        return (
            f"You bid {d['bid']} and have now taken {d['hands_won'][0]}: choose the card "
            f"that comes back to your hand so that you take {more} of {left}, "
            "whatever the duo hold.".replace("of too", "too")
        )
    return (
        f"You bid {d['bid']} and have taken {d['hands_won'][0]}: take {more} of {left}, "
        "whatever the duo hold. Lead a card face up, then one face down.".replace("of too", "too")
    )


def hint_for(g: Game, theme: str, answer: Move) -> str:
    first = answer[0]
    extra = ""
    if g.family == "climbing" and first.kind == "play":
        combo = g.classify(first.cards)  # type: ignore[attr-defined]
        if combo is not None:
            extra = f" Your move is a {describe_kind(combo.kind)}."
    elif g.family == "climbing":
        extra = " Your move plays no card."
    return HINTS[theme] + extra


def mine(variant: str, seeds: range, cmd: str, limit_s: float) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for players, options in CONFIGS[variant]:
        t0 = time.monotonic()
        for seed in seeds:
            if time.monotonic() - t0 > limit_s / len(CONFIGS[variant]):
                print(f"{variant} {players}p: time is up after seed {seed - 1}", file=sys.stderr)
                break
            g = new_game(variant, players, options, seed)
            agents = [agent_for(variant, "normal") for _ in range(players)]
            rngs = [ai_rng(seed, s) for s in range(players)]
            ply = 0
            taken_this_deal = False
            tries = 0
            deals = 1
            while ply < 1500:
                if g.deal_over:
                    if g.match_over or deals >= DEALS_PER_SEED:
                        break
                    g.next_deal()
                    deals += 1
                    taken_this_deal = False
                    tries = 0
                acting = g.to_act()
                if (
                    len(acting) == 1
                    and not taken_this_deal
                    and tries < 30
                    and small_enough(g, acting[0])
                ):
                    seat = acting[0]
                    tries += 1
                    got = _try(g, seat, variant, seed, ply, cmd, players)
                    if got is not None:
                        found.append(got)
                        taken_this_deal = variant != "2v1"  # 2v1: a round has 5 hands
                for s in acting:
                    d = g.decision(s)
                    if d is None:
                        continue
                    a = agents[s].choose(g.observation(s), g.legal_actions(s), d, rngs[s])
                    g.apply(s, a)
                    ply += 1
                    if g.deal_over:
                        break
            print(f"{variant} {players}p seed {seed}: {len(found)} found", file=sys.stderr)
    return found


def trim(pos: Position, rng: random.Random) -> Position:
    """Endgame sampling: each other seat keeps 1 to 3 of its cards (chosen by the
    seeded ``rng``); the rest count as played, in the open."""
    hands = [list(h) for h in pos.hands]
    played = list(pos.played or [])
    for i, h in enumerate(hands):
        if i == pos.to_act:
            continue
        k = min(len(h), rng.randint(1, 3))
        keep = sorted(rng.sample(range(len(h)), k))
        played += [c for j, c in enumerate(h) if j not in keep]
        hands[i] = [h[j] for j in keep]
    return Position(
        pos.variant,
        hands,
        pos.to_act,
        options=pos.options,
        names=pos.names,
        top=pos.top,
        played=played if pos.out_of_play is not None else None,
        out_of_play=pos.out_of_play,
    )


def _try(
    g: Game, seat: int, variant: str, seed: int, ply: int, cmd: str, players: int
) -> dict[str, Any] | None:
    try:
        pos = capture(g, seat)
        if g.family == "climbing":
            pos = trim(pos, random.Random(f"{seed}:{ply}"))
        pg = build_game(pos)
        if count_worlds(pg, seat) > WORLDS.get(variant, MAX_WORLDS):
            return None
        got = candidate(pg, seat)
    except (TooBig, PositionError) as e:
        if isinstance(e, PositionError):
            print(f"seed {seed} ply {ply}: {e}", file=sys.stderr)
        return None
    if got is None:
        return None
    goal, answer, par, n_moves = got
    normal = agent_move(pg, seat, "normal", seed)
    hard = agent_move(pg, seat, "hard", seed)
    theme = theme_of(pg, seat, goal, answer)
    normal_ok = normal == answer[0]
    hard_ok = hard == answer[0]
    score = (0 if normal_ok else 2) + (1 if normal != hard else 0)
    difficulty = 1 if n_moves <= 4 and par <= 2 else 3 if (n_moves >= 9 or par >= 4) else 2
    if not normal_ok:
        difficulty = min(3, difficulty + 1)
    names = pos.names or []
    return {
        "score": score,
        "puzzle": {
            "id": "",
            "variant": variant,
            "position": pos.to_json(),
            "goal": goal.to_json(),
            "text": goal_text(pg, goal, par, names),
            "theme": theme,
            "difficulty": difficulty,
            "par": par,
            "answer": [a.to_json() for a in answer],
            "hint": hint_for(pg, theme, answer),
            "source": {
                "seed": seed,
                "players": players,
                "ply": ply,
                "moves": n_moves,
                "normal": describe_move((normal,), lambda c: pg.card_face(c).label),
                "hard": describe_move((hard,), lambda c: pg.card_face(c).label),
                "normal_right": normal_ok,
                "hard_right": hard_ok,
                "command": cmd,
            },
        },
    }


def pick(found: list[dict[str, Any]], count: int) -> list[dict[str, Any]]:
    """The best ``count``: teaching ones first, themes mixed."""
    found = sorted(found, key=lambda f: -f["score"])
    chosen: list[dict[str, Any]] = []
    themes: Counter[str] = Counter()
    pool = list(found)
    while pool and len(chosen) < count:
        best = min(
            range(len(pool)),
            key=lambda i: (themes[pool[i]["puzzle"]["theme"]], -pool[i]["score"], i),
        )
        f = pool.pop(best)
        chosen.append(f)
        themes[f["puzzle"]["theme"]] += 1
    chosen.sort(key=lambda f: (f["puzzle"]["difficulty"], f["puzzle"]["source"]["seed"]))
    return chosen


def retext(variant: str) -> None:
    """Write each puzzle's goal and hint again from its position (after a change of
    wording here; the positions and answers stay)."""
    path = DATA / f"{variant}.json"
    raw = json.loads(path.read_text("utf-8"))
    for d in raw:
        p = Puzzle.from_json(d)
        g = p.game()
        if variant == "2v1":
            d["par"] = p.par = hands_left(g)
        d["text"] = goal_text(g, p.goal, p.par, list(g.names))
        d["hint"] = hint_for(g, p.theme, p.answer)
    path.write_text(json.dumps(raw, indent=1, ensure_ascii=False) + "\n", "utf-8")
    print(f"{variant}: {len(raw)} puzzles reworded")


def prune(variant: str, seconds: float, keep: int = 30) -> None:
    """Drop the puzzles slowest to prove (over ``seconds`` each), the slowest first,
    while more than ``keep`` remain, so that the test suite's proof stays quick; the
    rest are numbered again in order."""
    path = DATA / f"{variant}.json"
    raw = json.loads(path.read_text("utf-8"))
    timed = []
    for d in raw:
        t0 = time.process_time()
        problem = check_puzzle(Puzzle.from_json(d))
        timed.append((time.process_time() - t0, problem, d))
    for _t, problem, _d in timed:
        if problem is not None:
            print("dropped:", problem, file=sys.stderr)
    good = [(t, d) for t, problem, d in timed if problem is None]
    slow = sorted((x for x in good if x[0] > seconds), key=lambda x: -x[0])
    drop = {id(d) for _, d in slow[: max(0, len(good) - keep)]}
    kept = [d for _, d in good if id(d) not in drop]
    for i, d in enumerate(kept, 1):
        d["id"] = f"{variant}-{i:02d}"
    path.write_text(json.dumps(kept, indent=1, ensure_ascii=False) + "\n", "utf-8")
    total = sum(t for t, d in good if id(d) not in drop)
    print(
        f"{variant}: {len(kept)} puzzles kept ({len(good) - len(kept)} slow ones dropped), "
        f"{total:.1f} s of CPU to prove them"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("variants", nargs="*", default=list(VARIANT_IDS))
    ap.add_argument("--retext", action="store_true", help="only reword the puzzles made")
    ap.add_argument("--append", action="store_true", help="add to the puzzles made")
    ap.add_argument(
        "--prune",
        type=float,
        default=None,
        metavar="S",
        help="only drop the puzzles that take over S seconds to prove (keeping 30)",
    )
    ap.add_argument("--count", type=int, default=32)
    ap.add_argument("--seeds", default=None, help="FIRST-LAST (default: the recorded range)")
    ap.add_argument("--limit-s", type=float, default=900.0, help="time per game")
    args = ap.parse_args(argv)
    DATA.mkdir(parents=True, exist_ok=True)
    if args.retext or args.prune is not None:
        for variant in args.variants:
            if args.prune is not None:
                prune(variant, args.prune)
            if args.retext:
                retext(variant)
        return 0
    for variant in args.variants:
        lo, hi = SEEDS[variant]
        if args.seeds:
            a, _, b = args.seeds.partition("-")
            lo, hi = int(a), int(b or a)
        cmd = f"tools/make_puzzles.py {variant} --count {args.count} --seeds {lo}-{hi}"
        found = mine(variant, range(lo, hi + 1), cmd, args.limit_s)
        chosen = pick(found, args.count)
        puzzles = []
        for i, f in enumerate(chosen, 1):
            p = f["puzzle"]
            p["id"] = f"{variant}-{i:02d}"
            problem = check_puzzle(Puzzle.from_json(p))
            if problem is not None:
                print("dropped:", problem, file=sys.stderr)
                continue
            puzzles.append(p)
        path = DATA / f"{variant}.json"
        if args.append and path.exists():
            puzzles = json.loads(path.read_text("utf-8")) + puzzles
            for i, p in enumerate(puzzles, 1):
                p["id"] = f"{variant}-{i:02d}"
        path.write_text(json.dumps(puzzles, indent=1, ensure_ascii=False) + "\n", "utf-8")
        print(f"{variant}: {len(puzzles)} puzzles from {len(found)} candidates -> {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
