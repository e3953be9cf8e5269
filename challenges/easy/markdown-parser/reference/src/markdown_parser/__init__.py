"""Convert a small, precisely defined subset of Markdown to HTML.

    >>> from markdown_parser import to_html
    >>> to_html("# Hi\\n\\nSome *text*.")
    '<h1>Hi</h1>\\n<p>Some <em>text</em>.</p>'
"""

from markdown_parser.converter import to_html

__all__ = ["to_html"]
