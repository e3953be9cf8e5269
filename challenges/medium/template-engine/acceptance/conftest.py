import importlib

import pytest


@pytest.fixture
def mt():
    """The solution's package, imported per test (a broken import fails tests, not collection)."""
    return importlib.import_module("minitemplate")


@pytest.fixture
def render(mt):
    def _render(source, **context):
        return mt.Template(source).render(**context)

    return _render
