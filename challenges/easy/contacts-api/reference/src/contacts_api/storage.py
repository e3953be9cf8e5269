"""In-memory contact store with optional JSON-file persistence."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

Contact = dict[str, Any]
CONTACT_FIELDS = ("name", "email", "phone")


class EmailConflictError(Exception):
    """Another contact already uses this email address (HTTP 409)."""


def make_contact(contact_id: int, fields: Contact) -> Contact:
    """Build a contact with its keys in the canonical order."""
    return {"id": contact_id, **{field: fields.get(field) for field in CONTACT_FIELDS}}


class ContactStore:
    """Holds contacts by id; when ``path`` is set, every change is written to that JSON file.

    File format: ``{"next_id": <int>, "contacts": [<contact>, ...]}`` with contacts ordered by id.
    """

    def __init__(self, path: str | None = None) -> None:
        self._path = Path(path) if path is not None else None
        self._contacts: dict[int, Contact] = {}
        self._next_id = 1
        if self._path is not None and self._path.exists():
            self._load(self._path)

    def _load(self, path: Path) -> None:
        data = json.loads(path.read_text(encoding="utf-8"))
        self._contacts = {contact["id"]: contact for contact in data["contacts"]}
        self._next_id = max([data["next_id"], *(cid + 1 for cid in self._contacts)])

    def _save(self) -> None:
        if self._path is None:
            return
        document = {"next_id": self._next_id, "contacts": self.all()}
        temporary = self._path.with_name(self._path.name + ".tmp")
        temporary.write_text(json.dumps(document, indent=2), encoding="utf-8")
        os.replace(temporary, self._path)

    def all(self) -> list[Contact]:
        """All contacts ordered by id."""
        return [self._contacts[cid] for cid in sorted(self._contacts)]

    def get(self, contact_id: int) -> Contact | None:
        """The contact with this id, or ``None``."""
        return self._contacts.get(contact_id)

    def _check_email(self, email: str | None, owner: int | None) -> None:
        """Raise if ``email`` belongs to a contact other than ``owner``."""
        for contact in self._contacts.values():
            if contact["email"] == email and contact["id"] != owner:
                raise EmailConflictError(email)

    def create(self, fields: Contact) -> Contact:
        """Add a contact from validated fields and return it."""
        self._check_email(fields["email"], None)
        contact = make_contact(self._next_id, fields)
        self._contacts[contact["id"]] = contact
        self._next_id += 1
        self._save()
        return contact

    def update(self, contact_id: int, fields: Contact) -> Contact:
        """Merge validated fields into an existing contact and return it."""
        self._check_email(fields.get("email"), contact_id)
        contact = make_contact(contact_id, {**self._contacts[contact_id], **fields})
        self._contacts[contact_id] = contact
        self._save()
        return contact

    def delete(self, contact_id: int) -> None:
        """Remove an existing contact."""
        del self._contacts[contact_id]
        self._save()
