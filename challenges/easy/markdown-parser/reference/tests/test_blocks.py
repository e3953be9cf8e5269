"""Block-level conversion tests."""

import pytest

from markdown_parser import to_html


@pytest.mark.parametrize("level", range(1, 7))
def test_headings(level):
    assert to_html("#" * level + " Title  ") == f"<h{level}>Title</h{level}>"


def test_not_headings():
    assert to_html("####### seven") == "<p>####### seven</p>"
    assert to_html("#nospace") == "<p>#nospace</p>"


def test_paragraphs_are_split_by_blank_lines():
    assert to_html("one\n  two  \n\n\nthree") == "<p>one\ntwo</p>\n<p>three</p>"


@pytest.mark.parametrize("rule", ["---", "***", "___", "-----  "])
def test_rules(rule):
    assert to_html(rule) == "<hr />"


def test_rule_interrupts_paragraph():
    assert to_html("text\n---") == "<p>text</p>\n<hr />"


def test_bullet_list():
    assert to_html("- a\n* b\n+ c") == "<ul>\n<li>a</li>\n<li>b</li>\n<li>c</li>\n</ul>"


def test_blank_line_splits_lists():
    assert to_html("- a\n\n- b") == "<ul>\n<li>a</li>\n</ul>\n<ul>\n<li>b</li>\n</ul>"


def test_ordered_lists():
    assert to_html("1. a\n2. b") == "<ol>\n<li>a</li>\n<li>b</li>\n</ol>"
    assert to_html("5. e\n9. f") == '<ol start="5">\n<li>e</li>\n<li>f</li>\n</ol>'


def test_list_after_paragraph():
    assert to_html("intro\n- a") == "<p>intro</p>\n<ul>\n<li>a</li>\n</ul>"


def test_fenced_code():
    source = "```python\nx = 1 < 2\n\n  *y*\n```\nafter"
    assert to_html(source) == (
        '<pre><code class="language-python">x = 1 &lt; 2\n\n  *y*\n</code></pre>\n<p>after</p>'
    )


def test_fence_without_language_and_unclosed():
    assert to_html("```\n# not a heading") == "<pre><code># not a heading\n</code></pre>"
    assert to_html("```\n```") == "<pre><code></code></pre>"


def test_empty_and_blank_input():
    assert to_html("") == ""
    assert to_html(" \n\t\n") == ""


def test_crlf_line_endings():
    assert to_html("# A\r\n\r\nb\rc") == "<h1>A</h1>\n<p>b\nc</p>"
