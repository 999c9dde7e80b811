"""A learned move scorer for the climbing games (Twos, Big Two, Big Two five-round,
Chinese Poker): a small network, trained by self-play on the fast simulation path, that
gives each legal move the chance that the seat wins the deal after making it.

* :mod:`.features` builds the network's inputs from what one seat knows — its hand, the
  cards played this deal, every seat's card count, the play to beat and who made it, who
  passed since — and nothing else (:func:`.features.view_of_observation` reads an
  observation; the trainer builds the same view from its own bookkeeping);
* :mod:`.net` loads shipped weights (``weights/*.npz``, checked on load) and scores moves
  in numpy;
* :mod:`.train` is the self-play trainer (``python -m twos_tui.ai.learn.train``); each
  weight file has a ``.json`` beside it with the command, seeds, data and time that made
  it;
* :mod:`.agents` and :mod:`.search` hold the agents that use it: ``expert`` (the network
  alone) and ``guided`` (a search guided by it; ``hard`` in Twos, see ``ai.HARD_SEARCH``).

numpy is imported here, so nothing outside the AI imports this package at start-up.
"""
