"""Exceptions raised by minitemplate."""

from __future__ import annotations


class TemplateError(Exception):
    """Base class of all template errors."""


class TemplateSyntaxError(TemplateError):
    """A template could not be parsed; ``lineno`` is the 1-based line of the offending tag."""

    def __init__(self, message: str, lineno: int) -> None:
        super().__init__(f"line {lineno}: {message}")
        self.message = message
        self.lineno = lineno


class TemplateRenderError(TemplateError):
    """A well-formed template failed while rendering (e.g. ``length`` of a number)."""
