import pytest

CASES = [
    ("{{ }}", 1),
    ("ok\n{{ a b }}", 2),
    ("{{ a $ b }}", 1),
    ("{{ 'unterminated }}", 1),
    ('{{ "}}" }}', 1),
    ("{{ a < b < c }}", 1),
    ("{{ (a or b }}", 1),
    ("{{ a. }}", 1),
    ("{{ 1.x }}", 1),
    ("{{ in }}", 1),
    ("{{ a and }}", 1),
    ("{{ x", 1),
    ("a\nb\n{{ x }}\n{% if y", 4),
    ("\n{# never closed\n\n", 2),
    ("{% %}", 1),
    ("x\n\n{% include 'a' %}", 3),
    ("{% set x = 1 %}", 1),
    ("{%- if a %}x{% endif %}", 1),
    ("{% if a %}\nx\n{% endif -%}", 3),
    ("{% if %}{% endif %}", 1),
    ("{% if a %}\n{% elif %}\n{% endif %}", 2),
    ("{% if a %}x{% else b %}y{% endif %}", 1),
    ("{% if a %}x{% endif a %}", 1),
    ("{% for x in xs %}x{% endfor xs %}", 1),
    ("{% for x xs %}{% endfor %}", 1),
    ("{% for in xs %}{% endfor %}", 1),
    ("{% for x in %}{% endfor %}", 1),
    ("{% for not in xs %}{% endfor %}", 1),
    ("text\n{% endif %}", 2),
    ("\n\n{% endfor %}", 3),
    ("{% else %}", 1),
    ("{% if a %}\n{% else %}\n{% else %}\n{% endif %}", 3),
    ("{% if a %}\n{% else %}\n{% elif b %}\n{% endif %}", 3),
    ("{% for x in xs %}\n{% else %}\n{% endfor %}", 2),
    ("{% for x in xs %}\n{% if x %}\n{% endfor %}\n{% endif %}", 3),
    ("{% if a %}\nx", 1),
    ("{% if a %}\n{% for x in xs %}\n{% if b %}{% endif %}\n", 2),
    ("{% for x in xs %}{% if a %}{% endif %}\n{% if b %}\n{% endfor %}", 3),
    ("line1\n{{ ok }}\n{% if a %}{% elif b %}\n\n{% else %}", 3),
]


@pytest.mark.parametrize(("source", "lineno"), CASES)
def test_syntax_error_line_numbers(mt, source, lineno):
    with pytest.raises(mt.TemplateSyntaxError) as info:
        mt.Template(source)
    assert info.value.lineno == lineno


def test_error_message_format(mt):
    with pytest.raises(mt.TemplateError) as info:
        mt.Template("a\n\n{{ x|nosuch }}")
    err = info.value
    assert isinstance(err, mt.TemplateSyntaxError)
    assert err.lineno == 3
    assert isinstance(err.message, str) and err.message
    assert str(err) == f"line 3: {err.message}"


def test_constructor_directly(mt):
    err = mt.TemplateSyntaxError("boom", 7)
    assert (err.message, err.lineno, str(err)) == ("boom", 7, "line 7: boom")


def test_errors_raised_at_construction_not_render(mt):
    template = mt.Template("{% if a %}{{ a.b|default(c) }}{% endif %}")
    assert template.render() == ""
    with pytest.raises(mt.TemplateSyntaxError):
        mt.Template("{% if a %}{{ a.b|nosuch }}{% endif %}")
