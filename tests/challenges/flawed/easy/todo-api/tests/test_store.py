"""Unit tests for TodoStore and the validation helpers."""

import json

import pytest

from todo_api import TodoStore, ValidationError
from todo_api.validation import clean_title, parse_done_filter, validate_create, validate_patch


def test_store_file_format(tmp_path):
    db = tmp_path / "sub" / "db.json"
    store = TodoStore(db)
    store.create("a")
    store.create("b", done=True)
    store.update(1, {"title": "A"})
    assert json.loads(db.read_text()) == {
        "next_id": 3,
        "todos": [{"id": 1, "title": "A", "done": False}, {"id": 2, "title": "b", "done": True}],
    }


def test_store_loads_existing_file(tmp_path):
    db = tmp_path / "db.json"
    db.write_text(json.dumps({"next_id": 5, "todos": [{"id": 4, "title": "x", "done": True}]}))
    store = TodoStore(db)
    assert [t.id for t in store.list(done=True)] == [4]
    assert store.create("y").id == 5


def test_store_delete_unknown():
    assert TodoStore().delete(1) is False


def test_store_update_unknown_raises():
    with pytest.raises(KeyError):
        TodoStore().update(1, {"done": True})


def test_title_rules():
    assert clean_title(" x ") == "x"
    assert clean_title("y" * 200) == "y" * 200
    with pytest.raises(ValidationError):
        clean_title("y" * 201)


def test_validate_create_defaults_done():
    assert validate_create({"title": "t"}) == {"title": "t", "done": False}


def test_validate_patch_partial():
    assert validate_patch({"done": False}) == {"done": False}


@pytest.mark.parametrize("values, expected", [(None, None), (["true"], True), (["false"], False)])
def test_done_filter(values, expected):
    assert parse_done_filter(values) is expected


@pytest.mark.parametrize("values", [[""], ["True"], ["true", "false"]])
def test_done_filter_invalid(values):
    with pytest.raises(ValidationError):
        parse_done_filter(values)
