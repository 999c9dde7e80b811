"""Twos, the trick-taking game (docs/rules.md §6): its one rules core and its shell.

The rules are written once, on integers (a card is an index ``0..51``, a hand a bit
mask), and the search plays that core directly; the protocol game is a shell over it.
By role, like RLCard's dealer/judger/round split and OpenSpiel's game/state/observer:

* :mod:`.cards` — the integer cards: indices, suit masks, codes ↔ masks, hand order;
* :mod:`.judger` — what may be played (follow suit, a 2 at any time), who wins a trick
  and what it catches, the honours, who wins a deal and when the match ends;
* :mod:`.state` — :class:`~.state.TricksState`, one deal in play (hands, the trick,
  points); :meth:`~.state.TricksState.play` is the whole trick flow;
* :mod:`.dealer` — the shuffle and the deal of a new state;
* :mod:`.knowledge` — what one seat knows (the cards it has seen, the voids the play
  has shown) and :func:`~.knowledge.determinize`, a full deal that fits it, for search;
* :mod:`.game` — :class:`~.game.TwosTricksGame`, the protocol shell: card codes ↔
  masks, the reasons, the log, the observation and the JSON, no rules of its own;
* :mod:`.view` — :class:`~.view.TricksView`, what one seat sees (the game builds it);
* :mod:`.saves` — the checks a saved game's JSON must pass before it loads.
"""
