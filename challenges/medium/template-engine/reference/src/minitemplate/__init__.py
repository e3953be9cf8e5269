"""minitemplate: a small template language with HTML autoescaping."""

from .errors import TemplateError, TemplateRenderError, TemplateSyntaxError
from .markup import Markup, escape
from .template import Template

__all__ = [
    "Markup",
    "Template",
    "TemplateError",
    "TemplateRenderError",
    "TemplateSyntaxError",
    "escape",
]
