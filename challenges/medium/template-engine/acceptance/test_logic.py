import pytest

CHAIN = "{% if n == 0 %}zero{% elif n == 1 %}one{% elif n < 10 %}few{% else %}many{% endif %}"


@pytest.mark.parametrize(("n", "expected"), [(0, "zero"), (1, "one"), (7, "few"), (10, "many"), (None, "many")])
def test_if_elif_else(render, n, expected):
    assert render(CHAIN, n=n) == expected


def test_if_without_else_and_nested(render):
    source = "{% if a %}A{% if b %}B{% endif %}{% endif %}."
    assert render(source, a=1, b=1) == "AB."
    assert render(source, a=1, b=0) == "A."
    assert render(source, a=0, b=1) == "."


def test_truthiness(render):
    source = "{% if v %}T{% else %}F{% endif %}"
    results = [render(source, v=v) for v in (0, "", [], {}, None, "0", [0], 1)]
    assert results == ["F", "F", "F", "F", "F", "T", "T", "T"]
    assert render(source) == "F"


def test_comparison_operators(render):
    out = render("{{ a < b }} {{ a <= 1 }} {{ b > a }} {{ a >= b }} {{ a == 1 }} {{ a != 1 }} {{ 2 < 10 }}",
                 a=1, b=2)
    assert out == "True True True False True False True"
    assert render("{{ s == 'x' }} {{ 'b' > 'a' }} {{ 1.5 > 1 }}", s="x") == "True True True"


def test_incomparable_ordering_is_false(render):
    assert render("{{ missing > 0 }} {{ 'a' < 1 }} {{ none >= none }}") == "False False False"
    assert render("{% if count > 0 %}some{% else %}none{% endif %}") == "none"
    assert render("{{ missing == none }} {{ 'a' != 1 }}") == "True True"


def test_precedence_not_binds_looser_than_comparison(render):
    assert render("{{ not a == b }}", a=1, b=2) == "True"
    assert render("{{ not a == b }}", a=1, b=1) == "False"


def test_precedence_and_over_or(render):
    source = "{% if a or b and c %}Y{% else %}N{% endif %}"
    assert render(source, a=1, b=0, c=0) == "Y"
    assert render(source, a=0, b=1, c=0) == "N"
    assert render("{% if (a or b) and c %}Y{% else %}N{% endif %}", a=1, b=0, c=0) == "N"


def test_filters_bind_tighter_than_comparison(render):
    source = "{% if xs|length > 2 %}long{% else %}short{% endif %}"
    assert render(source, xs=[1, 2, 3]) == "long"
    assert render(source, xs=[1, 2]) == "short"


def test_and_or_return_operands(render):
    assert render("{{ a and b }}|{{ a or b }}|{{ c or 'anon' }}|{{ c and 'x' }}", a="x", b="y", c="") == "y|x|anon|"
    assert render("{{ not c }} {{ not not a }}", a="x", c="") == "True True"
    assert render("{{ name or '<anon>' }}") == "&lt;anon&gt;"


def test_for_loop_variables(render):
    source = ("{% for x in xs %}{{ loop.index }}{{ loop.index0 }}{{ loop.length }}"
              "{% if loop.first %}F{% endif %}{% if loop.last %}L{% endif %}{{ x }};{% endfor %}")
    assert render(source, xs=["a", "b", "c"]) == "103Fa;213b;323Lc;"
    assert render(source, xs=["only"]) == "101FLonly;"


def test_for_over_various_iterables(render):
    source = "[{% for x in xs %}{{ x }},{% endfor %}]"
    assert render(source, xs=("a", "b")) == "[a,b,]"
    assert render(source, xs="hi") == "[h,i,]"
    assert render(source, xs={"k1": 1, "k2": 2}) == "[k1,k2,]"
    assert render(source, xs=(i * i for i in range(3))) == "[0,1,4,]"
    assert render(source, xs=[]) == "[]"
    assert render(source) == "[]"


def test_generator_loop_length(render):
    assert render("{% for x in xs %}{{ loop.length }}{% endfor %}", xs=iter([1, 2])) == "22"


def test_nested_loops_and_scope_restoration(render):
    source = ("{% for row in rows %}{% for x in row %}{{ loop.index }}{{ x }}{% endfor %}"
              "/{{ loop.index }}{{ x }} {% endfor %}[{{ row }}][{{ loop }}]")
    assert render(source, rows=[["a", "b"], ["c"]], x="X", row="R") == "1a2b/1X 1c/2X [R][]"


def test_loop_items_use_dotted_lookup(render):
    source = "{% for u in users %}{% if u.admin %}{{ u.name|upper }}{% else %}{{ u.name }}{% endif %} {% endfor %}"
    users = [{"name": "ann", "admin": True}, {"name": "<bo>", "admin": False}]
    assert render(source, users=users) == "ANN &lt;bo&gt; "


def test_for_over_non_iterable_raises(mt):
    with pytest.raises(mt.TemplateRenderError):
        mt.Template("{% for x in n %}{{ x }}{% endfor %}").render(n=5)
