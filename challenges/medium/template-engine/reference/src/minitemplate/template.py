"""The public :class:`Template` class."""

from __future__ import annotations

from typing import Any

from .parser import parse
from .renderer import Renderer


class Template:
    """A compiled template.

    The source is parsed once, in the constructor, which raises
    :class:`~minitemplate.errors.TemplateSyntaxError` for malformed input.
    """

    def __init__(self, source: str, autoescape: bool = True) -> None:
        self.source = source
        self.autoescape = autoescape
        self._nodes = parse(source)

    def render(self, /, **context: Any) -> str:
        """Render the template with ``context`` as its variables."""
        return Renderer(self.autoescape).render(self._nodes, context)
