"""The public entry point: Markdown text to an HTML fragment."""

from markdown_parser.blocks import render_blocks


def split_lines(markdown: str) -> list[str]:
    """Split text into lines, accepting ``\\n``, ``\\r\\n`` and ``\\r`` line endings."""
    return markdown.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def to_html(markdown: str) -> str:
    """Convert ``markdown`` (the supported subset) to HTML; blocks are joined by ``\\n``."""
    return "\n".join(render_blocks(split_lines(markdown)))
