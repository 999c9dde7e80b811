"""The play layer: a match being played (who sits where, the AI seats, autosave) and the
user's data (saves). It sits between the UI and the AI/engine: the UI, the command line
and the tests all use it, and nothing here imports textual or rich (a test checks).

Arrows run one way only: ``ui -> play -> ai -> engine``.
"""
