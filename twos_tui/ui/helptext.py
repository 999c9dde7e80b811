"""The help text of a game: the variant's Markdown file shipped in the package, with the
house rules of *this* game inserted at the ``<!-- house-rules -->`` marker."""

from __future__ import annotations

from importlib import resources

from ..engine import Game

MARKER = "<!-- house-rules -->"


def _resource(name: str) -> str | None:
    try:
        return resources.files("twos_tui.ui").joinpath("help", name).read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        return None


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
    return "\n".join(out)


def help_markdown(game: Game) -> str:
    """The full help page of ``game`` as Markdown."""
    text = _resource(f"{game.variant_id}.md")
    block = house_rules_block(game)
    if text is None:
        text = f"# {game.name}\n\n{game.summary}\n\n## Rules\n\n{MARKER}\n"
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
