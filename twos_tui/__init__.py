"""twos-tui: climbing and trick card games in the terminal."""

__version__ = "0.1.0"
