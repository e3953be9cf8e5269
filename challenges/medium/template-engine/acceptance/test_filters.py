import pytest


def test_upper_lower(render):
    assert render("{{ v|upper }} {{ v|lower }} [{{ n|upper }}] {{ 5|lower }}", v="MiXed Ü") == (
        "MIXED Ü mixed ü [] 5")


def test_case_filters_and_escaping(mt, render):
    assert render("{{ v|upper }}", v="<b>") == "&lt;B&gt;"
    assert render("{{ v|safe|upper }}", v="<b>") == "<B>"
    assert render("{{ m|lower }}", m=mt.Markup("<I>")) == "<i>"


def test_default_only_replaces_none(render):
    out = render("{{ a|default('x') }}|{{ b|default('x') }}|{{ c|default('x') }}|{{ d|default('x') }}",
                 b="", c=0, d=None)
    assert out == "x||0|x"


def test_default_argument_is_an_expression(render):
    assert render("{{ a|default(b.c) }}", b={"c": "deep"}) == "deep"
    assert render("{{ a|default(b or 'z')|upper }}") == "Z"
    assert render("{{ a|default(false) }}") == "False"


def test_length(render):
    assert render("{{ xs|length }} {{ s|length }} {{ d|length }} {{ missing|length }}",
                  xs=[1, 2, 3], s="hello", d={"a": 1}) == "3 5 1 0"


def test_length_of_number_is_render_error(mt, render):
    template = mt.Template("{{ n|length }}")
    with pytest.raises(mt.TemplateRenderError):
        template.render(n=5)


def test_join(render):
    assert render("{{ xs|join(', ') }}", xs=["a", 1, None, 2.5]) == "a, 1, , 2.5"
    assert render("{{ xs|join }}", xs=["a", "b"]) == "ab"
    assert render("[{{ missing|join('-') }}]") == "[]"
    assert render("{{ s|join('.') }}", s="abc") == "a.b.c"
    assert render("{{ xs|join(sep) }}", xs=[1, 2], sep="+") == "1+2"


def test_join_result_is_escaped_as_a_whole(render):
    assert render("{{ xs|join('<br>') }}", xs=["<a>", "b"]) == "&lt;a&gt;&lt;br&gt;b"
    assert render("{{ xs|join('<br>')|safe }}", xs=["a", "b"]) == "a<br>b"


def test_join_of_number_is_render_error(mt):
    with pytest.raises(mt.TemplateRenderError):
        mt.Template("{{ n|join(',') }}").render(n=3)


def test_filter_chains(render):
    assert render("{{ name|default('anon')|upper|length }}") == "4"
    assert render("{{ xs|join(' ')|upper }}", xs=["a", "b"]) == "A B"


@pytest.mark.parametrize("source", [
    "{{ x|nosuch }}", "{{ x|default }}", "{{ x|default(1, 2) }}", "{{ x|upper(1) }}",
    "{{ x|length('a') }}", "{{ x|join(',', ';') }}", "{{ x| }}", "{{ x|escape('y') }}",
])
def test_filter_syntax_errors(mt, source):
    with pytest.raises(mt.TemplateSyntaxError) as info:
        mt.Template(source)
    assert info.value.lineno == 1
