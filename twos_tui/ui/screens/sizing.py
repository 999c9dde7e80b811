"""Below a usable size a screen says how big the window must be instead of drawing a
partial table. Screens mix in :class:`SizeGuard` and yield :meth:`SizeGuard.guard` in
their ``compose``; ``app.tcss`` hides everything else while the screen has the class
``-too-small``."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.widget import Widget
from textual.widgets import Static

MIN_WIDTH = 60
MIN_HEIGHT = 20


class SizeGuard:
    """Mixin for a :class:`~textual.screen.Screen`."""

    min_size: tuple[int, int] = (MIN_WIDTH, MIN_HEIGHT)

    def guard(self) -> Static:
        return Static(id="too-small")

    def too_small(self, width: int, height: int) -> bool:
        w, h = self.min_size
        return width < w or height < h

    def check_size(self, width: int, height: int) -> None:
        assert isinstance(self, Widget), "SizeGuard is mixed into a screen"
        small = self.too_small(width, height)
        self.set_class(small, "-too-small")
        if small:
            w, h = self.min_size
            self.query_one("#too-small", Static).update(
                Text(
                    f"Make the window at least {w}×{h} to play.\nIt is {width}×{height} now.",
                    justify="center",
                )
            )

    def on_resize(self, event: events.Resize) -> None:
        self.check_size(event.size.width, event.size.height)
