import pytest

from minitemplate.errors import TemplateSyntaxError
from minitemplate.lexer import BLOCK, COMMENT, TEXT, VAR, Token, tokenize, tokenize_expression


def test_tokenize_mixed_source():
    tokens = tokenize("a{{ x }}\n{% if y %}{# note #}b")
    assert tokens == [
        Token(TEXT, "a", 1),
        Token(VAR, " x ", 1),
        Token(TEXT, "\n", 1),
        Token(BLOCK, " if y ", 2),
        Token(COMMENT, " note ", 2),
        Token(TEXT, "b", 2),
    ]


def test_line_numbers_count_newlines_inside_tags():
    tokens = tokenize("{#\n\n#}{{ x }}")
    assert tokens[1].lineno == 3


def test_lone_braces_are_text():
    assert tokenize("{ x } }}") == [Token(TEXT, "{ x } }}", 1)]


@pytest.mark.parametrize("source", ["{{ x", "a\n{% if", "{# never closed"])
def test_unclosed_tags(source):
    with pytest.raises(TemplateSyntaxError) as info:
        tokenize(source)
    assert info.value.lineno == source.count("\n") + 1


def test_expression_tokens():
    kinds = [(t.kind, t.value) for t in tokenize_expression("a.b|join(', ') >= 1.5", 1)]
    assert kinds == [
        ("name", "a"), ("op", "."), ("name", "b"), ("op", "|"), ("name", "join"),
        ("op", "("), ("string", "', '"), ("op", ")"), ("op", ">="), ("float", "1.5"),
    ]


def test_expression_bad_character():
    with pytest.raises(TemplateSyntaxError, match="line 4"):
        tokenize_expression("a $ b", 4)
