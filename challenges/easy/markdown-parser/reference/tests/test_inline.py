"""Inline conversion tests."""

import pytest

from markdown_parser import to_html


@pytest.mark.parametrize(
    "source, expected",
    [
        ("**b** and __b__", "<strong>b</strong> and <strong>b</strong>"),
        ("*e* and _e_", "<em>e</em> and <em>e</em>"),
        ("*a **b** c*", "<em>a <strong>b</strong> c</em>"),
        ("**x** y **z**", "<strong>x</strong> y <strong>z</strong>"),
        ("__multi\nline__", "<strong>multi\nline</strong>"),
        ("snake_case_name", "snake_case_name"),
        ("2 * 3 * 4", "2 * 3 * 4"),
        ("a ** b", "a ** b"),
        ("`a < *b*`", "<code>a &lt; *b*</code>"),
        ("[x *y*](http://e.com/a?b=1&c=2)", '<a href="http://e.com/a?b=1&amp;c=2">x <em>y</em></a>'),
        ("[](empty) [no url]()", "[](empty) [no url]()"),
        ("<i>&\"'", "&lt;i&gt;&amp;&quot;&#x27;"),
        ("unclosed `tick and *star", "unclosed `tick and *star"),
    ],
)
def test_inline(source, expected):
    assert to_html(source) == f"<p>{expected}</p>"


def test_inline_in_headings_and_items():
    assert to_html("## **B** `c`") == "<h2><strong>B</strong> <code>c</code></h2>"
    assert to_html("- [l](u)") == '<ul>\n<li><a href="u">l</a></li>\n</ul>'
