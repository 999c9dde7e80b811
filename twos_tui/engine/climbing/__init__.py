"""The climbing games (Twos, Big Two, Big Two five-round, Chinese Poker): their one rules
core, in integers, and the protocol shells over it (docs/rules.md §1 to §4).

The search plays thousands of deals a second and needs no card codes, reasons, log or
JSON; players need all of them. So the rules are written once, as integers (a card is
``4 * rank + suit`` in the variant's own order, a hand a bit mask, a move a small tuple),
and each protocol game holds one core state and adds the words. By role, like RLCard's
dealer/judger/round split and OpenSpiel's game/state/observer:

The core (no card codes, no text):

* :mod:`.core` — :class:`~.core.SimState`, one deal in play (hands as masks, the seat to
  act, the play to beat, who passed, the card the first play must hold) with the trick
  flow in ``legal``/``play``, and :class:`~.core.Rules`, the base every variant's rules
  subclass: how a mask classifies, how a hand's moves are listed, how moves compare
  (:func:`~.core.beats`), who starts a deal;
* :mod:`.rules_twos`, :mod:`.rules_big_two` (Big Two and its five-round edition),
  :mod:`.rules_chinese_poker` — each variant's ``Rules`` subclass and its tables;
  :mod:`.poker_cards` — the card tables the two poker games share;
* :mod:`.rules` — :func:`~.rules.rules_for`, a variant's rules for a player count and
  house rules (cached, shared), and :func:`~.rules.state_from_game` (tests and
  benchmarks only: it copies every hand);
* :mod:`.determinize` — what one seat may infer: complete deals that fit its view, for
  the search.

The shell (the protocol of :mod:`..protocol`: codes, reasons, log, JSON, no rules):

* :mod:`.game` — :class:`~.game.ClimbingGame`, what every climbing game shares: the
  turn, checking and playing an action on the core, the play log, the end of a deal, the
  JSON; :mod:`.combination` — a play as players read it (its kind, how its cards are
  shown);
* :mod:`.game_twos`, :mod:`.game_poker` (what Big Two and Chinese Poker share: card
  order, entries, penalties), :mod:`.game_big_two`, :mod:`.game_big_two_5r`,
  :mod:`.game_chinese_poker` — each variant's game class: its options, its deal, its
  scoring, its words;
* :mod:`.view` — :class:`~.view.ClimbingView`, what one seat sees, built from the core.

``tests/test_climbing_core.py`` checks the core alone against the frozen behaviour
corpus; ``tests/test_sim.py`` checks that a game and a core state read from it stay
together move for move; ``benchmarks/bench_sim.py`` compares random deals through the
protocol and on the core.
"""
