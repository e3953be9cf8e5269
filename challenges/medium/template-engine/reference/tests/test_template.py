from types import SimpleNamespace

import pytest

from minitemplate import Markup, Template, TemplateRenderError, TemplateSyntaxError, escape


def render(source, **context):
    return Template(source).render(**context)


class TestOutput:
    def test_plain_text(self):
        assert render("hello\n  world\n") == "hello\n  world\n"

    def test_variables_and_literals(self):
        assert render("{{ name }} {{ 3 }} {{ 2.5 }} {{ 'q' }} {{ true }} {{ none }}", name="Ann") == (
            "Ann 3 2.5 q True "
        )

    def test_undefined_renders_empty(self):
        assert render("[{{ missing }}][{{ missing.deep.path }}]") == "[][]"

    def test_dotted_lookup_prefers_keys(self):
        obj = SimpleNamespace(name="obj", inner={"items": "key wins"})
        assert render("{{ o.name }} {{ o.inner.items }}", o=obj) == "obj key wins"

    def test_private_attributes_hidden(self):
        assert render("{{ o._secret }}", o=SimpleNamespace(_secret="x")) == ""

    def test_comments_removed(self):
        assert render("a{# {{ ignored }}\n #}b") == "ab"

    def test_render_is_repeatable(self):
        template = Template("{{ x }}")
        assert [template.render(x=1), template.render(x=2), template.render()] == ["1", "2", ""]


class TestEscaping:
    def test_autoescape_default(self):
        assert render("{{ v }}", v="<a href=\"x\">'&'</a>") == (
            "&lt;a href=&quot;x&quot;&gt;&#x27;&amp;&#x27;&lt;/a&gt;"
        )

    def test_markup_and_safe_not_escaped(self):
        assert render("{{ a }}{{ b|safe }}", a=Markup("<i>"), b="<b>") == "<i><b>"

    def test_escape_filter_is_idempotent(self):
        assert render("{{ v|escape }}", v="<") == "&lt;"
        assert render("{{ v|escape|escape }}", v="&") == "&amp;"

    def test_autoescape_off(self):
        template = Template("{{ v }}{{ v|escape }}", autoescape=False)
        assert template.render(v="<") == "<&lt;"

    def test_escape_function(self):
        assert escape(None) == ""
        assert isinstance(escape("x"), Markup)


class TestFilters:
    def test_case_filters(self):
        assert render("{{ v|upper }} {{ v|lower }}", v="MiXed") == "MIXED mixed"

    def test_case_filters_keep_safe(self):
        assert render("{{ v|safe|upper }}", v="<b>") == "<B>"

    def test_default(self):
        assert render("{{ a|default('x') }}|{{ b|default('x') }}|{{ c|default(d) }}", b="", d=5) == "x||5"

    def test_length(self):
        assert render("{{ xs|length }} {{ missing|length }}", xs=[1, 2, 3]) == "3 0"

    def test_join(self):
        assert render("{{ xs|join(', ') }}|{{ xs|join }}|{{ none|join('-') }}", xs=[1, None, "b"]) == (
            "1, , b|1b|"
        )

    def test_join_result_is_escaped(self):
        assert render("{{ xs|join('<br>') }}", xs=["a", "b"]) == "a&lt;br&gt;b"

    def test_chained_filters_with_parenthesised_argument(self):
        assert render("{{ name|default(('a' or 'b'))|upper }}") == "A"

    @pytest.mark.parametrize("source", ["{{ 5|length }}", "{{ 5|join }}"])
    def test_render_errors(self, source):
        with pytest.raises(TemplateRenderError):
            render(source)


class TestConditions:
    @pytest.mark.parametrize(
        ("n", "expected"), [(0, "zero"), (1, "one"), (5, "many"), (None, "zero")]
    )
    def test_if_elif_else(self, n, expected):
        source = "{% if not n %}zero{% elif n == 1 %}one{% else %}many{% endif %}"
        assert render(source, n=n) == expected

    def test_boolean_operators(self):
        source = "{% if a and b or c %}yes{% else %}no{% endif %}"
        assert render(source, a=1, b=0, c=1) == "yes"
        assert render(source, a=1, b=0, c=0) == "no"

    def test_or_returns_operand(self):
        assert render("{{ name or 'anon' }}") == "anon"

    def test_comparisons(self):
        source = "{{ a < b }} {{ a <= a }} {{ b > a }} {{ a >= b }} {{ a != b }} {{ 'x' == 'x' }}"
        assert render(source, a=1, b=2) == "True True True False True True"

    def test_incomparable_ordering_is_false(self):
        assert render("{{ missing > 0 }} {{ 'a' < 1 }}") == "False False"

    def test_filter_binds_tighter_than_comparison(self):
        assert render("{% if xs|length > 1 %}many{% endif %}", xs=[1, 2]) == "many"


class TestLoops:
    def test_loop_variables(self):
        source = "{% for x in xs %}{{ loop.index }}/{{ loop.length }}:{{ x }}{% if loop.last %}.{% else %},{% endif %}{% endfor %}"
        assert render(source, xs=["a", "b", "c"]) == "1/3:a,2/3:b,3/3:c."

    def test_first_and_index0(self):
        source = "{% for x in xs %}{% if loop.first %}[{% endif %}{{ loop.index0 }}{% endfor %}"
        assert render(source, xs="ab") == "[01"

    def test_nested_loops_and_scoping(self):
        source = (
            "{% for row in rows %}{% for c in row %}{{ loop.index }}{% endfor %}"
            "-{{ loop.index }};{% endfor %}{{ row }}"
        )
        assert render(source, rows=[[1, 2], [3]], row="outer") == "12-1;1-2;outer"

    def test_empty_and_missing_iterables(self):
        assert render("[{% for x in xs %}{{ x }}{% endfor %}]", xs=[]) == "[]"
        assert render("[{% for x in nothing %}{{ x }}{% endfor %}]") == "[]"

    def test_whitespace_is_kept(self):
        source = "<ul>\n{% for x in xs %}  <li>{{ x }}</li>\n{% endfor %}</ul>"
        assert render(source, xs=["a", "b"]) == "<ul>\n  <li>a</li>\n  <li>b</li>\n</ul>"

    def test_iterating_non_iterable(self):
        with pytest.raises(TemplateRenderError):
            render("{% for x in n %}{% endfor %}", n=3)


class TestSyntaxErrors:
    @pytest.mark.parametrize(
        ("source", "lineno"),
        [
            ("{{ }}", 1),
            ("a\n{{ a b }}", 2),
            ("{{ a|nope }}", 1),
            ("{{ a|default }}", 1),
            ("{{ a|upper(1) }}", 1),
            ("{{ a < b < c }}", 1),
            ("{{ (a }}", 1),
            ("{{ a. }}", 1),
            ("{{ and }}", 1),
            ("{{ 'open }}", 1),
            ("\n\n{% if a %}x", 3),
            ("{% for x in xs %}\n{% if a %}\n{% endfor %}", 3),
            ("{% endif %}", 1),
            ("{% if a %}{% else %}{% else %}{% endif %}", 1),
            ("{% for x xs %}{% endfor %}", 1),
            ("{% for in xs %}{% endfor %}", 1),
            ("{% for x in xs %}{% else %}{% endfor %}", 1),
            ("{% if a %}{% endif b %}", 1),
            ("{% if %}{% endif %}", 1),
            ("{% %}", 1),
            ("{% '' %}", 1),
            ("{% include x %}", 1),
            ("line\n{{ x", 2),
        ],
    )
    def test_errors_report_line(self, source, lineno):
        with pytest.raises(TemplateSyntaxError) as info:
            Template(source)
        assert info.value.lineno == lineno
        assert str(info.value).startswith(f"line {lineno}: ")
