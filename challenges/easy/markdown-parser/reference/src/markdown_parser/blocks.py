"""Block-level Markdown: headings, rules, fenced code, lists and paragraphs."""

from __future__ import annotations

import re
from typing import Callable, Optional

from markdown_parser.inline import escape, render_inline

HEADING = re.compile(r"(#{1,6}) +(.*)")
RULE = re.compile(r"(?:\*{3,}|-{3,}|_{3,})[ \t]*")
FENCE_OPEN = re.compile(r"```(.*)")
FENCE_CLOSE = "```"
BULLET_ITEM = re.compile(r"[-*+] +(.*)")
ORDERED_ITEM = re.compile(r"([0-9]{1,9})\. +(.*)")

Lines = list[str]
Parsed = Optional[tuple[str, int]]
BlockParser = Callable[[Lines, int], Parsed]


def is_blank(line: str) -> bool:
    """Return True if ``line`` holds only whitespace."""
    return not line.strip()


def starts_block(line: str) -> bool:
    """Return True if ``line`` opens a non-paragraph block (and so ends a paragraph)."""
    patterns = (HEADING, RULE, FENCE_OPEN, BULLET_ITEM, ORDERED_ITEM)
    return any(pattern.fullmatch(line) for pattern in patterns)


def parse_heading(lines: Lines, start: int) -> Parsed:
    """Parse an ATX heading ``# text`` .. ``###### text``."""
    match = HEADING.fullmatch(lines[start])
    if not match:
        return None
    level = len(match.group(1))
    return f"<h{level}>{render_inline(match.group(2).strip())}</h{level}>", start + 1


def parse_rule(lines: Lines, start: int) -> Parsed:
    """Parse a horizontal rule (``***``, ``---`` or ``___``, three or more)."""
    return ("<hr />", start + 1) if RULE.fullmatch(lines[start]) else None


def parse_fence(lines: Lines, start: int) -> Parsed:
    """Parse a fenced code block; an unclosed fence runs to the end of the document."""
    match = FENCE_OPEN.fullmatch(lines[start])
    if not match:
        return None
    end = start + 1
    while end < len(lines) and lines[end].rstrip() != FENCE_CLOSE:
        end += 1
    code = "".join(escape(line) + "\n" for line in lines[start + 1 : end])
    return f"<pre><code{_language_class(match.group(1))}>{code}</code></pre>", end + 1


def _language_class(info: str) -> str:
    """Return the ``class`` attribute for a fence's info string ('' if there is none)."""
    words = info.split()
    return f' class="language-{escape(words[0])}"' if words else ""


def _collect_items(lines: Lines, start: int, pattern: re.Pattern[str]) -> list[re.Match[str]]:
    """Return the matches of consecutive lines matching ``pattern`` from ``start``."""
    matches: list[re.Match[str]] = []
    for line in lines[start:]:
        match = pattern.fullmatch(line)
        if not match:
            break
        matches.append(match)
    return matches


def _render_list(open_tag: str, close_tag: str, contents: list[str]) -> str:
    """Render list items, one per line, between the list tags."""
    items = [f"<li>{render_inline(content.strip())}</li>" for content in contents]
    return "\n".join([open_tag, *items, close_tag])


def parse_bullet_list(lines: Lines, start: int) -> Parsed:
    """Parse consecutive ``-``/``*``/``+`` items into ``<ul>``."""
    matches = _collect_items(lines, start, BULLET_ITEM)
    if not matches:
        return None
    html = _render_list("<ul>", "</ul>", [m.group(1) for m in matches])
    return html, start + len(matches)


def parse_ordered_list(lines: Lines, start: int) -> Parsed:
    """Parse consecutive ``N.`` items into ``<ol>`` (with ``start`` unless it begins at 1)."""
    matches = _collect_items(lines, start, ORDERED_ITEM)
    if not matches:
        return None
    first = int(matches[0].group(1))
    open_tag = "<ol>" if first == 1 else f'<ol start="{first}">'
    html = _render_list(open_tag, "</ol>", [m.group(2) for m in matches])
    return html, start + len(matches)


def parse_paragraph(lines: Lines, start: int) -> tuple[str, int]:
    """Parse lines up to a blank line or the start of another block."""
    end = start + 1
    while end < len(lines) and not is_blank(lines[end]) and not starts_block(lines[end]):
        end += 1
    text = "\n".join(line.strip() for line in lines[start:end])
    return f"<p>{render_inline(text)}</p>", end


BLOCK_PARSERS: tuple[BlockParser, ...] = (
    parse_fence,
    parse_heading,
    parse_rule,
    parse_bullet_list,
    parse_ordered_list,
)


def parse_block(lines: Lines, start: int) -> tuple[str, int]:
    """Parse the block starting at ``lines[start]``; return its HTML and the next line index."""
    for parser in BLOCK_PARSERS:
        parsed = parser(lines, start)
        if parsed is not None:
            return parsed
    return parse_paragraph(lines, start)


def render_blocks(lines: Lines) -> list[str]:
    """Render every block of ``lines``, skipping blank lines between blocks."""
    blocks: list[str] = []
    index = 0
    while index < len(lines):
        if is_blank(lines[index]):
            index += 1
            continue
        html, index = parse_block(lines, index)
        blocks.append(html)
    return blocks
