"""Running an AI seat's decision away from the interface.

:func:`decide` asks the seat's agent for its move on a worker thread, so the event loop
keeps reading keys and drawing while the AI thinks. The agent is given a *copy* of the
seat's generator; the seat's own generator takes the copy's state only when the move is
used, so a decision that is thrown away (the table was left, or a simultaneous human
choice changed the position) leaves the game exactly as replayable as before.

Why a thread is enough: the agents are Python and hold the GIL while they think, but
CPython hands the GIL to a waiting thread every ``sys.getswitchinterval()`` seconds
(5 ms by default); the event loop then gets its turn. ``benchmarks/bench_ui.py
--thinking`` measures key-to-screen latency while an agent burns the CPU for 0.4 s.
"""

from __future__ import annotations

import asyncio
import random

from ..ai import Agent, ai_rng
from ..engine import Action, Decision
from ..engine.views import AnyView
from ..play.session import Session

#: what an agent is asked with: the seat's view, its legal actions and its decision
Inputs = tuple[AnyView, list[Action], Decision]


def prepare(session: Session, seat: int) -> tuple[Agent, Inputs, random.Random]:
    """The agent, its inputs and a copy of the seat's generator."""
    inputs = session.ai_inputs(seat)
    own = session.ai_rngs.setdefault(seat, ai_rng(session.game.seed, seat))
    rng = random.Random()
    rng.setstate(own.getstate())
    return session.agent(seat), inputs, rng


def commit(session: Session, seat: int, rng: random.Random) -> None:
    """The seat's generator moves on as the copy did."""
    session.ai_rngs[seat].setstate(rng.getstate())


def choose(agent: Agent, inputs: Inputs, rng: random.Random) -> Action:
    obs, legal, decision = inputs
    return agent.choose(obs, legal, decision, rng)


async def decide(session: Session, seat: int, sync: bool = False) -> tuple[Action, random.Random]:
    """The move of AI ``seat`` and the generator it leaves behind (give it to
    :func:`commit` when the move is played): on a thread, or right here (``sync``, for
    tests)."""
    agent, inputs, rng = prepare(session, seat)
    if sync:
        return choose(agent, inputs, rng), rng
    return await asyncio.to_thread(choose, agent, inputs, rng), rng
