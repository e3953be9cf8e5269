"""Hidden acceptance tests for easy/markdown-parser."""

from __future__ import annotations

import subprocess
import sys

import pytest


def md(source: str) -> str:
    from markdown_parser import to_html

    return to_html(source)


def run_cli(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "markdown_parser", *args], input=stdin,
                          capture_output=True, timeout=30)


# ------------------------------------------------------------------------------------ headings


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5, 6])
def test_heading_levels(level):
    assert md("#" * level + " Hello world") == f"<h{level}>Hello world</h{level}>"


def test_heading_content_is_stripped_and_inline_rendered():
    assert md("##   A *b* `c`   ") == "<h2>A <em>b</em> <code>c</code></h2>"


@pytest.mark.parametrize("source", ["####### seven", "#hashtag", "  # indented"])
def test_not_headings(source):
    assert md(source) == f"<p>{source.strip()}</p>"


# ------------------------------------------------------------------------------------ paragraphs


def test_single_paragraph():
    assert md("Just some text.") == "<p>Just some text.</p>"


def test_paragraph_lines_are_stripped_and_joined_with_newline():
    assert md("  first line  \nsecond line\t\n   third") == "<p>first line\nsecond line\nthird</p>"


def test_paragraphs_separated_by_blank_lines():
    assert md("one\n\n\n  \ntwo\n\nthree") == "<p>one</p>\n<p>two</p>\n<p>three</p>"


def test_heading_interrupts_paragraph():
    assert md("para\n# Head\nmore") == "<p>para</p>\n<h1>Head</h1>\n<p>more</p>"


def test_empty_and_blank_documents():
    assert md("") == ""
    assert md("\n \n\t\n") == ""


def test_crlf_and_trailing_newlines():
    assert md("# T\r\n\r\nline a\r\nline b\r\n\r\n") == "<h1>T</h1>\n<p>line a\nline b</p>"


# ------------------------------------------------------------------------------------ rules


@pytest.mark.parametrize("rule", ["---", "***", "___", "----------", "***  "])
def test_horizontal_rules(rule):
    assert md(rule) == "<hr />"


def test_two_dashes_is_not_a_rule():
    assert md("--") == "<p>--</p>"


def test_rule_after_text_is_not_a_setext_heading():
    assert md("Title\n---\nnext") == "<p>Title</p>\n<hr />\n<p>next</p>"


# ------------------------------------------------------------------------------------ lists


def test_bullet_list_with_mixed_markers():
    assert md("- one\n* two\n+ three") == (
        "<ul>\n<li>one</li>\n<li>two</li>\n<li>three</li>\n</ul>")


def test_list_items_are_stripped_and_inline_rendered():
    assert md("-   **a**  \n- [b](c)") == (
        '<ul>\n<li><strong>a</strong></li>\n<li><a href="c">b</a></li>\n</ul>')


def test_ordered_list_from_one():
    assert md("1. a\n2. b\n3. c") == "<ol>\n<li>a</li>\n<li>b</li>\n<li>c</li>\n</ol>"


def test_ordered_list_start_attribute_and_later_numbers_ignored():
    assert md("3. c\n3. d\n10. e") == '<ol start="3">\n<li>c</li>\n<li>d</li>\n<li>e</li>\n</ol>'


def test_blank_line_ends_a_list():
    assert md("- a\n\n- b") == "<ul>\n<li>a</li>\n</ul>\n<ul>\n<li>b</li>\n</ul>"


def test_bullet_then_ordered_are_separate_lists():
    assert md("- a\n1. b") == "<ul>\n<li>a</li>\n</ul>\n<ol>\n<li>b</li>\n</ol>"


def test_list_interrupts_paragraph_and_text_after_list_is_paragraph():
    assert md("intro\n- a\nafter") == "<p>intro</p>\n<ul>\n<li>a</li>\n</ul>\n<p>after</p>"


def test_marker_without_space_is_text():
    assert md("-a\n1.b") == "<p>-a\n1.b</p>"


# ------------------------------------------------------------------------------------ code blocks


def test_fenced_code_block_with_language():
    source = "```python\ndef f(a, b):\n\n    return a < b and *x*\n```"
    assert md(source) == (
        '<pre><code class="language-python">def f(a, b):\n\n    return a &lt; b and *x*\n'
        "</code></pre>")


def test_fenced_code_block_without_language_keeps_markdown_literal():
    assert md("```\n# not heading\n- not list\n```") == (
        "<pre><code># not heading\n- not list\n</code></pre>")


def test_empty_fence():
    assert md("```\n```") == "<pre><code></code></pre>"


def test_unclosed_fence_runs_to_end():
    assert md("```js\nlet x = 1;\n\nfoo") == (
        '<pre><code class="language-js">let x = 1;\n\nfoo\n</code></pre>')


def test_fence_interrupts_paragraph_and_is_followed_by_blocks():
    assert md("text\n```\ncode & more\n```   \n# H") == (
        "<p>text</p>\n<pre><code>code &amp; more\n</code></pre>\n<h1>H</h1>")


# ------------------------------------------------------------------------------------ inline


@pytest.mark.parametrize(
    "source, expected",
    [
        ("**strong** and __also__", "<strong>strong</strong> and <strong>also</strong>"),
        ("*em* and _also_", "<em>em</em> and <em>also</em>"),
        ("**bold *and em* inside**", "<strong>bold <em>and em</em> inside</strong>"),
        ("*em **and bold** inside*", "<em>em <strong>and bold</strong> inside</em>"),
        ("a **b** c **d**", "a <strong>b</strong> c <strong>d</strong>"),
        ("*across\nlines*", "<em>across\nlines</em>"),
    ],
)
def test_emphasis(source, expected):
    assert md(source) == f"<p>{expected}</p>"


@pytest.mark.parametrize(
    "source",
    ["snake_case_variable_name", "2 * 3 * 4", "**not closed", "a * spaced * b", "a_b and c_d",
     "price *"],
)
def test_literal_delimiters(source):
    assert md(source) == f"<p>{source}</p>"


def test_code_span_is_escaped_and_not_processed():
    assert md("Use `a < b && *c* [x](y)` here") == (
        "<p>Use <code>a &lt; b &amp;&amp; *c* [x](y)</code> here</p>")


def test_unmatched_backtick_is_literal():
    assert md("a ` b") == "<p>a ` b</p>"


def test_links():
    assert md("See [the docs](https://example.com/docs) and [x](/y).") == (
        '<p>See <a href="https://example.com/docs">the docs</a> and <a href="/y">x</a>.</p>')


def test_link_text_emphasis_and_url_escaping():
    assert md('[**go** here](http://e.com/?a=1&b="2")') == (
        '<p><a href="http://e.com/?a=1&amp;b=&quot;2&quot;"><strong>go</strong> here</a></p>')


def test_link_url_with_underscores_and_stars_is_untouched():
    assert md("[a](http://x.org/_p_/*q*)") == '<p><a href="http://x.org/_p_/*q*">a</a></p>'


@pytest.mark.parametrize("source", ["[text](has space)", "[](empty)", "[no url]()", "[a] (b)"])
def test_not_links(source):
    assert md(source) == f"<p>{source}</p>"


def test_html_is_escaped_everywhere():
    assert md("# <h>\n\n<script>alert('x' & \"y\")</script>\n\n- <li>") == (
        "<h1>&lt;h&gt;</h1>\n"
        "<p>&lt;script&gt;alert(&#x27;x&#x27; &amp; &quot;y&quot;)&lt;/script&gt;</p>\n"
        "<ul>\n<li>&lt;li&gt;</li>\n</ul>")


# ------------------------------------------------------------------------------------ document


def test_full_document():
    source = (
        "# Title\n"
        "\n"
        "Intro with *emphasis*\n"
        "and a [link](http://a.b).\n"
        "\n"
        "## List\n"
        "- one\n"
        "- two\n"
        "\n"
        "1. first\n"
        "2. second\n"
        "\n"
        "***\n"
        "```sh\n"
        "echo \"hi\"\n"
        "```\n"
        "Bye.\n"
    )
    assert md(source) == (
        "<h1>Title</h1>\n"
        '<p>Intro with <em>emphasis</em>\nand a <a href="http://a.b">link</a>.</p>\n'
        "<h2>List</h2>\n"
        "<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n"
        "<ol>\n<li>first</li>\n<li>second</li>\n</ol>\n"
        "<hr />\n"
        '<pre><code class="language-sh">echo &quot;hi&quot;\n</code></pre>\n'
        "<p>Bye.</p>"
    )


# ------------------------------------------------------------------------------------ CLI


def test_cli_file(tmp_path):
    path = tmp_path / "doc.md"
    path.write_text("# Hi\n\n*there*\n", encoding="utf-8")
    p = run_cli(str(path))
    assert p.returncode == 0, p.stderr
    assert p.stdout == b"<h1>Hi</h1>\n<p><em>there</em></p>\n"


def test_cli_stdin_without_argument():
    p = run_cli(stdin=b"- a\n- b\n")
    assert p.returncode == 0, p.stderr
    assert p.stdout == b"<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n"


def test_cli_dash_reads_stdin():
    p = run_cli("-", stdin=b"---")
    assert p.returncode == 0 and p.stdout == b"<hr />\n"


def test_cli_utf8():
    p = run_cli(stdin="# Café ☕\n\nnaïve – 日本".encode("utf-8"))
    assert p.returncode == 0, p.stderr
    assert p.stdout.decode("utf-8") == "<h1>Café ☕</h1>\n<p>naïve – 日本</p>\n"


def test_cli_empty_input():
    p = run_cli(stdin=b"")
    assert p.returncode == 0 and p.stdout == b"\n"


def test_cli_missing_file(tmp_path):
    p = run_cli(str(tmp_path / "missing.md"))
    assert p.returncode == 1
    assert p.stdout == b""
    assert p.stderr.decode("utf-8").startswith("error: ")
