"""Where the CSS of the screens other than home is: ``screens.tcss``, listed in the
``CSS_PATH`` of each of them. The app's own ``CSS_PATH`` (``app.tcss``) holds only the
home screen's rules, so the start reads and parses only those; Textual reads this file
once, when the first screen that lists it opens, and keeps it for the rest of the run."""

from __future__ import annotations

from pathlib import Path

#: an absolute path: a subclass in another folder (``PuzzleTableScreen``) finds it too
SCREENS_CSS = str(Path(__file__).with_name("screens.tcss"))
