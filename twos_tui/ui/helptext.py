"""The help text of a game: the variant's Markdown page shipped in ``twos_tui/ui/help``,
written as a small template so that every rule paragraph and the worked example follow
the house rules of *this* game, then the chosen rules listed at the
``<!-- house-rules -->`` marker.

Template syntax (HTML comments, so the pages stay readable Markdown):

* ``<!-- if passing=locked -->`` … ``<!-- elif … -->`` … ``<!-- else -->`` …
  ``<!-- end -->`` on lines of their own (they nest). A condition is one or more
  ``name=value`` / ``name!=value`` clauses joined by ``and``; a value may list
  alternatives with ``|`` (``players=2|3``).
* ``{{name}}`` in the text is replaced by the value.

Names are the game's option ids (with their current values), ``players`` and the few
facts :func:`template_vars` derives from the engine. An unknown name is an error, so a
typo in a page fails the tests instead of showing the wrong rule.
"""

from __future__ import annotations

import re
from importlib import resources

from ..engine import Game

MARKER = "<!-- house-rules -->"
NUMBER_WORDS = {2: "two", 3: "three", 4: "four"}

_DIRECTIVE = re.compile(r"^\s*<!--\s*(if|elif|else|end)\b(.*?)-->\s*$")
_VAR = re.compile(r"\{\{\s*([a-z0-9_]+)\s*\}\}")


class TemplateError(ValueError):
    """A help page uses an unknown name or unbalanced directives."""


def _resource(name: str) -> str | None:
    try:
        return resources.files("twos_tui.ui").joinpath("help", name).read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        return None


def template_vars(game: Game) -> dict[str, str]:
    """Every name a help page may use, as text."""
    out: dict[str, object] = dict(game.options)  #: each made text at the end
    out["players"] = game.players
    out["players_word"] = NUMBER_WORDS.get(game.players, str(game.players))
    out["target_text"] = game.target_text()
    hand = game.options.get("hand_size", getattr(game, "hand_size", None))
    if isinstance(hand, int):
        out["hand_size"] = hand
        deck = len(game.deck_cards())
        out["left_out"] = max(0, deck - hand * game.players)
    bomb_order = getattr(game, "bomb_order_text", None)
    if callable(bomb_order):
        shapes = list(bomb_order())
        out["bombs"] = ", ".join(shapes) if shapes else "none (the hands are too small)"
        if "4×1" in shapes and "2×3" in shapes:
            out["quad_over_2x3"] = "yes" if shapes.index("4×1") > shapes.index("2×3") else "no"
        else:
            out["quad_over_2x3"] = "none"
    return {k: str(v) for k, v in out.items()}


def _holds(condition: str, values: dict[str, str]) -> bool:
    clauses = [c.strip() for c in condition.split(" and ") if c.strip()]
    if not clauses:
        raise TemplateError("a condition is empty")
    for clause in clauses:
        negate = "!=" in clause
        name, _, wanted = clause.partition("!=" if negate else "=")
        name, wanted = name.strip(), wanted.strip()
        if name not in values:
            raise TemplateError(f"unknown name {name!r} in a help page condition")
        match = values[name] in [w.strip() for w in wanted.split("|")]
        if match == negate:
            return False
    return True


def render_template(text: str, values: dict[str, str]) -> str:
    """``text`` with its directives resolved and its ``{{names}}`` filled in."""
    out: list[str] = []
    # each level: (the enclosing block is shown, a branch was taken, this branch shows)
    stack: list[tuple[bool, bool, bool]] = []
    showing = True
    for line in text.splitlines():
        m = _DIRECTIVE.match(line)
        if m is None or line.strip() == MARKER:
            if showing:
                out.append(line)
            continue
        word, arg = m.group(1), m.group(2).strip()
        if word == "if":
            this = showing and _holds(arg, values)
            stack.append((showing, this, this))
            showing = this
        elif word in ("elif", "else"):
            if not stack:
                raise TemplateError(f"<!-- {word} --> without <!-- if -->")
            parent, taken, _ = stack.pop()
            this = parent and not taken and (word == "else" or _holds(arg, values))
            stack.append((parent, taken or this, this))
            showing = this
        else:  # end
            if not stack:
                raise TemplateError("<!-- end --> without <!-- if -->")
            showing = stack.pop()[0]
    if stack:
        raise TemplateError("an <!-- if --> is never closed with <!-- end -->")

    def fill(m: re.Match[str]) -> str:
        name = m.group(1)
        if name not in values:
            raise TemplateError(f"unknown name {{{{{name}}}}} in a help page")
        return values[name]

    text = _VAR.sub(fill, "\n".join(out))
    # an optional sentence left out can leave two blank lines behind
    return re.sub(r"\n{3,}", "\n\n", text) + "\n"


def house_rules_block(game: Game) -> str:
    """The rules as chosen for ``game``, then what each option means."""
    out = [f"**This game:** {game.players} players. {game.target_text()}".rstrip(), ""]
    lines = game.rules_summary()
    if lines:
        out.append("**House rules as chosen:**")
        out.append("")
        out.extend(f"- {line}" for line in lines)
        out.append("")
    specs = game.option_specs(game.players)
    if specs:
        out.append("**What the house rules mean** (change them in the rules picker):")
        out.append("")
        for s in specs:
            default = " (the default)" if game.options.get(s.id) == s.default else ""
            out.append(
                f"- *{s.label}* — {s.description} "
                f"Now: **{s.label_of(game.options.get(s.id))}**{default}."
            )
        out.append("")
    else:
        out.append("This game has no house-rule options: everyone plays it as above.")
        out.append("")
    return "\n".join(out)


def help_markdown(game: Game) -> str:
    """The full help page of ``game`` as Markdown, following its house rules."""
    text = _resource(f"{game.variant_id}.md")
    block = house_rules_block(game)
    if text is None:
        text = f"# {game.name}\n\n{game.summary}\n\n## Rules\n\n{MARKER}\n"
    text = render_template(text, template_vars(game))
    if MARKER in text:
        text = text.replace(MARKER, block, 1)
    elif "## Keys" in text:
        text = text.replace("## Keys", block + "\n## Keys", 1)
    else:
        text = text.rstrip() + "\n\n" + block
    if "## Keys" not in text:
        keys = _resource("keys.md")
        if keys:
            text = text.rstrip() + "\n\n" + keys
    return text


def keys_markdown() -> str:
    return _resource("keys.md") or ""
