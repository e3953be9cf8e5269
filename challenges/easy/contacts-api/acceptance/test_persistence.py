"""Acceptance tests: JSON-file persistence."""

import json

ANN = {"name": "Ann", "email": "ann@example.com", "phone": None}
BOB = {"name": "Bob", "email": "bob@example.com", "phone": "123"}


def read(path):
    return json.loads(path.read_text(encoding="utf-8"))


def test_file_written_in_stated_format(tmp_path, make_client):
    path = tmp_path / "contacts.json"
    client = make_client(path)
    client.post(ANN)
    assert read(path) == {"next_id": 2, "contacts": [{"id": 1, **ANN}]}
    client.post(BOB)
    assert read(path) == {"next_id": 3, "contacts": [{"id": 1, **ANN}, {"id": 2, **BOB}]}


def test_file_tracks_updates_and_deletes(tmp_path, make_client):
    path = tmp_path / "contacts.json"
    client = make_client(path)
    client.post(ANN)
    client.post(BOB)
    client.request("PATCH", "/contacts/1", {"phone": "999"})
    assert read(path)["contacts"][0]["phone"] == "999"
    client.request("PUT", "/contacts/1", {"name": "Ann B", "email": "annb@example.com"})
    assert read(path)["contacts"][0] == {"id": 1, "name": "Ann B", "email": "annb@example.com", "phone": None}
    client.request("DELETE", "/contacts/2")
    assert read(path) == {"next_id": 3, "contacts": [{"id": 1, "name": "Ann B",
                                                      "email": "annb@example.com", "phone": None}]}


def test_reload_from_file(tmp_path, make_client):
    path = tmp_path / "contacts.json"
    first = make_client(path)
    first.post(ANN)
    first.post(BOB)
    second = make_client(path)
    assert second.get("/contacts/2").json == {"id": 2, **BOB}
    assert second.get("/contacts").json["total"] == 2
    assert second.post(ANN).status == 409


def test_ids_not_reused_after_restart(tmp_path, make_client):
    path = tmp_path / "contacts.json"
    first = make_client(path)
    first.post(ANN)
    first.post(BOB)
    first.request("DELETE", "/contacts/2")
    second = make_client(path)
    assert second.post(BOB).json["id"] == 3


def test_loads_handwritten_file(tmp_path, make_client):
    path = tmp_path / "contacts.json"
    document = {"next_id": 10, "contacts": [{"id": 3, **ANN}, {"id": 7, **BOB}]}
    path.write_text(json.dumps(document), encoding="utf-8")
    client = make_client(path)
    assert client.get("/contacts/7").json == {"id": 7, **BOB}
    assert [c["id"] for c in client.get("/contacts").json["items"]] == [3, 7]
    created = client.post({"name": "Cid", "email": "cid@example.com"})
    assert created.json["id"] == 10
    assert read(path)["next_id"] == 11


def test_missing_file_starts_empty(tmp_path, make_client):
    client = make_client(tmp_path / "new.json")
    assert client.get("/contacts").json["total"] == 0
    assert client.post(ANN).json["id"] == 1
    assert (tmp_path / "new.json").exists()


def test_failed_requests_do_not_change_file(tmp_path, make_client):
    path = tmp_path / "contacts.json"
    client = make_client(path)
    client.post(ANN)
    before = read(path)
    client.post({"name": "", "email": "x@y.io"})
    client.post(ANN)
    client.request("PATCH", "/contacts/1", {"email": "bad"})
    assert read(path) == before
