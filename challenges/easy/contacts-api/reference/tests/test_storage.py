"""Unit tests for contacts_api.storage."""

import json

import pytest

from contacts_api.storage import ContactStore, EmailConflictError

ANN = {"name": "Ann", "email": "ann@example.com", "phone": None}
BOB = {"name": "Bob", "email": "bob@example.com", "phone": "123"}


def test_create_assigns_increasing_ids():
    store = ContactStore()
    assert store.create(ANN)["id"] == 1
    assert store.create(BOB)["id"] == 2
    assert [c["name"] for c in store.all()] == ["Ann", "Bob"]


def test_duplicate_email_conflicts():
    store = ContactStore()
    store.create(ANN)
    with pytest.raises(EmailConflictError):
        store.create({**BOB, "email": ANN["email"]})


def test_update_keeps_own_email_but_not_others():
    store = ContactStore()
    ann, bob = store.create(ANN), store.create(BOB)
    assert store.update(ann["id"], {"name": "Annie"})["email"] == ANN["email"]
    with pytest.raises(EmailConflictError):
        store.update(bob["id"], {"email": ANN["email"]})


def test_persistence_round_trip_and_no_id_reuse(tmp_path):
    path = tmp_path / "contacts.json"
    store = ContactStore(str(path))
    store.create(ANN)
    second = store.create(BOB)
    store.delete(second["id"])
    document = json.loads(path.read_text(encoding="utf-8"))
    assert document == {"next_id": 3, "contacts": [{"id": 1, **ANN}]}
    reloaded = ContactStore(str(path))
    assert reloaded.get(1) == {"id": 1, **ANN}
    assert reloaded.create(BOB)["id"] == 3


def test_memory_store_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    ContactStore().create(ANN)
    assert list(tmp_path.iterdir()) == []
