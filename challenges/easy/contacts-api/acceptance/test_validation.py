"""Acceptance tests: body and field validation, email uniqueness."""

import pytest

VALID = {"name": "Ann", "email": "ann@example.com"}


def assert_400(result):
    assert result.status == 400
    assert isinstance(result.json["error"], str)


@pytest.mark.parametrize("raw", [b"", b"not json", b"[1, 2]", b'"text"', b"null", b"42", b"\xff\xfe"])
def test_malformed_body(client, raw):
    assert_400(client.request("POST", "/contacts", raw=raw))
    assert client.get("/contacts").json["total"] == 0


def test_missing_content_length_means_empty_body(client):
    assert_400(client.request("POST", "/contacts", VALID, content_length=False))


@pytest.mark.parametrize(
    "body",
    [
        {"email": "a@b.co"},
        {"name": "A"},
        {"name": "", "email": "a@b.co"},
        {"name": "   ", "email": "a@b.co"},
        {"name": "x" * 101, "email": "a@b.co"},
        {"name": 12, "email": "a@b.co"},
        {"name": None, "email": "a@b.co"},
        {"name": "A", "email": 5},
        {"name": "A", "email": "a@b.co", "id": 99},
        {"name": "A", "email": "a@b.co", "nickname": "x"},
    ],
)
def test_invalid_fields(client, body):
    assert_400(client.post(body))


@pytest.mark.parametrize(
    "email",
    ["", "plain", "@b.co", "a@", "a@b", "a@b.", "a@.b", "a@b..c", "a@@b.co", "a@b@c.co",
     "a b@c.co", "a@c d.co"],
)
def test_invalid_emails(client, email):
    assert_400(client.post({"name": "A", "email": email}))


@pytest.mark.parametrize("phone", ["", "   ", "abc", "+-", "555-CALL", "1" * 31, 5550100])
def test_invalid_phones(client, phone):
    assert_400(client.post({**VALID, "phone": phone}))


def test_boundary_lengths_accepted(client):
    name = "n" * 100
    email = "a" * (254 - len("@example.com")) + "@example.com"
    phone = "1" * 30
    result = client.post({"name": name, "email": email, "phone": phone})
    assert result.status == 201
    assert (result.json["name"], result.json["email"], result.json["phone"]) == (name, email, phone)


def test_email_too_long_rejected(client):
    email = "a" * (255 - len("@example.com")) + "@example.com"
    assert_400(client.post({"name": "A", "email": email}))


def test_valid_phone_formats(client):
    result = client.post({**VALID, "phone": "+1 (555) 010-9999"})
    assert result.status == 201
    assert result.json["phone"] == "+1 (555) 010-9999"


def test_duplicate_email_case_insensitive(client):
    client.post(VALID)
    result = client.post({"name": "Other", "email": "  ANN@Example.com"})
    assert result.status == 409
    assert isinstance(result.json["error"], str)
    assert client.get("/contacts").json["total"] == 1


def test_put_and_patch_email_conflicts(client):
    client.post(VALID)
    client.post({"name": "Bob", "email": "bob@example.com"})
    assert client.request("PUT", "/contacts/2", {"name": "Bob", "email": "ann@example.com"}).status == 409
    assert client.request("PATCH", "/contacts/2", {"email": "Ann@example.com"}).status == 409
    assert client.get("/contacts/2").json["email"] == "bob@example.com"


def test_keeping_own_email_is_allowed(client):
    client.post(VALID)
    assert client.request("PUT", "/contacts/1", {"name": "Ann B", "email": "ANN@example.com"}).status == 200
    assert client.request("PATCH", "/contacts/1", {"email": "ann@example.com"}).status == 200


def test_validation_checked_before_conflict(client):
    client.post(VALID)
    assert client.post({"name": "", "email": "ann@example.com"}).status == 400


def test_email_free_again_after_delete(client):
    client.post(VALID)
    client.request("DELETE", "/contacts/1")
    assert client.post(VALID).status == 201
