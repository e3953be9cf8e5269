"""Acceptance tests: listing, search, pagination and routing errors."""

import pytest

PEOPLE = [
    {"name": "Alice Archer", "email": "alice@alpha.io", "phone": "555-0101"},
    {"name": "Bob Baker", "email": "bob@beta.io", "phone": None},
    {"name": "Carol Cooper", "email": "carol@alpha.io", "phone": "+44 20 7946 0000"},
    {"name": "Dave Dyer", "email": "dave@delta.io", "phone": "555-0199"},
]


@pytest.fixture
def people(client):
    for person in PEOPLE:
        assert client.post(person).status == 201
    return client


def test_empty_list(client):
    result = client.get("/contacts")
    assert result.status == 200
    assert result.json == {"items": [], "total": 0, "limit": 20, "offset": 0}


def test_list_all_in_id_order(people):
    body = people.get("/contacts").json
    assert body["total"] == 4
    assert body["items"] == [{"id": i, **p} for i, p in enumerate(PEOPLE, start=1)]


def test_default_limit_is_20(client):
    for index in range(25):
        client.post({"name": f"P{index}", "email": f"p{index}@x.io"})
    body = client.get("/contacts").json
    assert len(body["items"]) == 20
    assert body["total"] == 25
    assert [c["id"] for c in client.get("/contacts", "offset=20").json["items"]] == [21, 22, 23, 24, 25]


def test_limit_and_offset(people):
    body = people.get("/contacts", "limit=2&offset=1").json
    assert [c["id"] for c in body["items"]] == [2, 3]
    assert (body["total"], body["limit"], body["offset"]) == (4, 2, 1)


def test_offset_past_end(people):
    body = people.get("/contacts", "offset=10").json
    assert body["items"] == []
    assert body["total"] == 4


def test_limit_bounds_accepted(people):
    assert len(people.get("/contacts", "limit=1").json["items"]) == 1
    assert people.get("/contacts", "limit=100").json["limit"] == 100


@pytest.mark.parametrize(
    "query",
    ["limit=0", "limit=101", "limit=-1", "limit=abc", "limit=", "limit=1.5", "limit=%2B5",
     "offset=-1", "offset=x", "offset="],
)
def test_invalid_pagination(people, query):
    result = people.get("/contacts", query)
    assert result.status == 400
    assert isinstance(result.json["error"], str)


def test_search_by_name_case_insensitive(people):
    body = people.get("/contacts", "q=BAKER").json
    assert [c["name"] for c in body["items"]] == ["Bob Baker"]
    assert body["total"] == 1


def test_search_by_email_and_phone(people):
    assert [c["id"] for c in people.get("/contacts", "q=alpha.io").json["items"]] == [1, 3]
    assert [c["id"] for c in people.get("/contacts", "q=555-01").json["items"]] == [1, 4]
    assert [c["id"] for c in people.get("/contacts", "q=%2B44").json["items"]] == [3]


def test_search_with_pagination_and_no_match(people):
    body = people.get("/contacts", "q=io&limit=2&offset=2").json
    assert [c["id"] for c in body["items"]] == [3, 4]
    assert body["total"] == 4
    assert people.get("/contacts", "q=zzz").json == {"items": [], "total": 0, "limit": 20, "offset": 0}


def test_blank_search_returns_all(people):
    assert people.get("/contacts", "q=").json["total"] == 4
    assert people.get("/contacts", "q=%20%20").json["total"] == 4


def test_order_after_delete_and_update(people):
    people.request("DELETE", "/contacts/2")
    people.request("PATCH", "/contacts/1", {"name": "Zed"})
    assert [c["id"] for c in people.get("/contacts").json["items"]] == [1, 3, 4]


@pytest.mark.parametrize(
    "path", ["/", "/contact", "/contacts/", "/contacts/0", "/contacts/01", "/contacts/abc",
             "/contacts/1/extra", "/contacts/-1"],
)
def test_unknown_paths_are_404(people, path):
    result = people.get(path)
    assert result.status == 404
    assert isinstance(result.json["error"], str)


def allow_set(result):
    return {method.strip() for method in result.header("Allow").split(",")}


@pytest.mark.parametrize("method", ["PUT", "PATCH", "DELETE"])
def test_collection_method_not_allowed(people, method):
    result = people.request(method, "/contacts")
    assert result.status == 405
    assert allow_set(result) == {"GET", "POST"}
    assert isinstance(result.json["error"], str)


@pytest.mark.parametrize("path", ["/contacts/1", "/contacts/99"])
def test_item_method_not_allowed(people, path):
    result = people.request("POST", path, {"name": "x", "email": "x@y.io"})
    assert result.status == 405
    assert allow_set(result) == {"GET", "PUT", "PATCH", "DELETE"}
