import importlib
from types import SimpleNamespace

import pytest


def test_public_api(mt):
    import minitemplate.errors
    import minitemplate.markup
    import minitemplate.template

    assert issubclass(mt.TemplateSyntaxError, mt.TemplateError)
    assert issubclass(mt.TemplateRenderError, mt.TemplateError)
    assert issubclass(mt.TemplateError, Exception)
    assert mt.TemplateSyntaxError is minitemplate.errors.TemplateSyntaxError
    assert mt.Markup is minitemplate.markup.Markup and issubclass(mt.Markup, str)
    assert mt.Template is minitemplate.template.Template
    for name in ("lexer", "nodes", "parser", "renderer", "filters"):
        importlib.import_module(f"minitemplate.{name}")


def test_text_is_verbatim(render):
    source = "  a { b } c }} d %} #}\n\n\tend\n"
    assert render(source) == source
    assert render("") == ""


def test_variables_and_literals(render):
    out = render("{{ name }}|{{ 42 }}|{{ 2.5 }}|{{ 'single' }}|{{ \"double\" }}|{{ n }}", name="Ann", n=7)
    assert out == "Ann|42|2.5|single|double|7"


def test_constant_words(render):
    assert render("{{ true }} {{ false }} [{{ none }}] {{ True }} {{ False }} [{{ None }}]") == (
        "True False [] True False []")


def test_whitespace_inside_tags_is_insignificant(render):
    assert render("{{x}}-{{   x   }}-{{\n x\n }}-{%if x%}y{%endif%}", x=1) == "1-1-1-y"


def test_undefined_and_none_render_empty(render):
    assert render("[{{ missing }}][{{ missing.a.b }}][{{ v }}][{{ o.nope }}]", v=None, o=object()) == "[][][][]"


def test_dotted_lookup_dicts_and_objects(render):
    user = SimpleNamespace(name="Bo", address={"city": "Oslo", "geo": SimpleNamespace(lat=59)})
    out = render("{{ u.name }} {{ u.address.city }} {{ u.address.geo.lat }} {{ u.address.zip }}", u=user)
    assert out == "Bo Oslo 59 "


def test_mapping_key_wins_over_attribute(render):
    class Record(dict):
        label = "attr"

    assert render("{{ r.label }}", r=Record(label="key")) == "key"
    assert render("{{ r.label }}", r=Record()) == "attr"
    assert render("{{ d.items }}", d={"items": "mine"}) == "mine"


def test_underscore_attributes_hidden_but_keys_allowed(render):
    obj = SimpleNamespace(_secret="s", public="p")
    assert render("[{{ o._secret }}][{{ o.__class__ }}][{{ o.public }}]", o=obj) == "[][][p]"
    assert render("{{ d._k }}", d={"_k": "ok"}) == "ok"


def test_whitespace_example_from_spec(render):
    source = "<ul>\n{% for x in xs %}  <li>{{ x }}</li>\n{% endfor %}</ul>"
    assert render(source, xs=["a", "b"]) == "<ul>\n  <li>a</li>\n  <li>b</li>\n</ul>"


def test_block_tags_keep_surrounding_newlines(render):
    source = "A\n{% if show %}\nB\n{% endif %}\nC\n"
    assert render(source, show=True) == "A\n\nB\n\nC\n"
    assert render(source, show=False) == "A\n\nC\n"


def test_comments_removed_and_may_span_lines(render):
    assert render("a\n{# one\ntwo {{ x }} {% if %} #}\nb{#x#}c", x="X") == "a\n\nbc"


def test_template_reusable_with_new_contexts(mt):
    template = mt.Template("{% for i in xs %}{{ i }}{% endfor %}{{ y }}")
    assert template.render(xs=[1, 2], y="a") == "12a"
    assert template.render(xs=[3]) == "3"
    assert template.render() == ""


def test_autoescape_default_matches_html_escape(render):
    assert render("<p>{{ v }}</p>", v="<a href=\"x\">Tom & 'Jerry'</a>") == (
        "<p>&lt;a href=&quot;x&quot;&gt;Tom &amp; &#x27;Jerry&#x27;&lt;/a&gt;</p>")
    assert render("{{ '<b>' }}{{ n }}", n=3) == "&lt;b&gt;3"


def test_markup_safe_and_escape(mt, render):
    assert render("{{ m }}", m=mt.Markup("<i>ok</i>")) == "<i>ok</i>"
    assert render("{{ v|safe }}", v="<b>") == "<b>"
    assert render("{{ v|escape }}", v="<b>") == "&lt;b&gt;"
    assert render("{{ v|escape|escape }}", v="a&b") == "a&amp;b"
    assert render("{{ m|escape }}", m=mt.Markup("<i>")) == "<i>"
    assert render("[{{ v|safe }}][{{ v|escape }}]", v=None) == "[][]"


def test_autoescape_disabled(mt):
    template = mt.Template("{{ v }}|{{ v|escape }}|{{ v|safe }}", autoescape=False)
    assert template.render(v="<&>") == "<&>|&lt;&amp;&gt;|<&>"


def test_escape_function(mt):
    assert mt.escape("<'\">&") == "&lt;&#x27;&quot;&gt;&amp;"
    assert isinstance(mt.escape("x"), mt.Markup)
    assert mt.escape(None) == ""
    already = mt.Markup("<b>")
    assert mt.escape(already) == "<b>"
