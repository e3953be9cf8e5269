"""WSGI application exposing the contacts CRUD API."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any
from urllib.parse import parse_qs

from contacts_api.storage import Contact, ContactStore, EmailConflictError
from contacts_api.validation import ValidationError, parse_json_object, validate_contact

StartResponse = Callable[..., Any]
ITEM_PATH = re.compile(r"/contacts/([1-9][0-9]*)")
DEFAULT_LIMIT = 20
MAX_LIMIT = 100
ALLOWED_METHODS = {"collection": ("GET", "POST"), "item": ("GET", "PUT", "PATCH", "DELETE")}


class HTTPError(Exception):
    """An error response with a JSON ``{"error": message}`` body."""

    def __init__(self, status: HTTPStatus, message: str, headers: list[tuple[str, str]] | None = None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers or []


@dataclass
class Request:
    """The parts of a WSGI request the handlers need."""

    method: str
    path: str
    query: dict[str, list[str]]
    environ: dict[str, Any]
    contact_id: int | None = None

    def json_body(self) -> dict[str, Any]:
        """Read and decode the request body as a JSON object."""
        try:
            length = int(self.environ.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        return parse_json_object(self.environ["wsgi.input"].read(length) if length > 0 else b"")


@dataclass
class Response:
    """A response: status, optional JSON body and extra headers."""

    status: HTTPStatus
    body: Any = None
    headers: list[tuple[str, str]] = field(default_factory=list)


def query_int(request: Request, name: str, default: int, low: int, high: int | None) -> int:
    """Read an integer query parameter within ``[low, high]`` (``high=None``: unbounded)."""
    values = request.query.get(name)
    if values is None:
        return default
    text = values[0]
    if not text.isascii() or not text.isdigit():
        raise HTTPError(HTTPStatus.BAD_REQUEST, f"{name} must be a non-negative integer")
    number = int(text)
    if number < low or (high is not None and number > high):
        raise HTTPError(HTTPStatus.BAD_REQUEST, f"{name} is out of range")
    return number


def matches(contact: Contact, needle: str) -> bool:
    """Case-insensitive substring match against name, email and phone."""
    haystacks = (contact["name"], contact["email"], contact["phone"] or "")
    return any(needle in text.casefold() for text in haystacks)


class ContactsApp:
    """The WSGI callable; routes requests to handler methods."""

    def __init__(self, store: ContactStore) -> None:
        self.store = store
        self.handlers: dict[tuple[str, str], Callable[[Request], Response]] = {
            ("collection", "GET"): self.list_contacts,
            ("collection", "POST"): self.create_contact,
            ("item", "GET"): self.get_contact,
            ("item", "PUT"): self.replace_contact,
            ("item", "PATCH"): self.patch_contact,
            ("item", "DELETE"): self.delete_contact,
        }

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        request = Request(
            method=environ.get("REQUEST_METHOD", "GET").upper(),
            path=environ.get("PATH_INFO", ""),
            query=parse_qs(environ.get("QUERY_STRING", ""), keep_blank_values=True),
            environ=environ,
        )
        try:
            response = self.dispatch(request)
        except HTTPError as exc:
            response = Response(exc.status, {"error": exc.message}, exc.headers)
        return self.send(response, start_response)

    @staticmethod
    def send(response: Response, start_response: StartResponse) -> list[bytes]:
        """Serialise ``response`` and call ``start_response``."""
        status = f"{response.status.value} {response.status.phrase}"
        headers = list(response.headers)
        payload = b""
        if response.body is not None:
            payload = json.dumps(response.body).encode("utf-8")
            headers.append(("Content-Type", "application/json"))
        headers.append(("Content-Length", str(len(payload))))
        start_response(status, headers)
        return [payload]

    def dispatch(self, request: Request) -> Response:
        """Find the handler for the path and method; map domain errors to HTTP errors."""
        kind = self.route(request)
        handler = self.handlers.get((kind, request.method))
        if handler is None:
            allow = ", ".join(ALLOWED_METHODS[kind])
            raise HTTPError(HTTPStatus.METHOD_NOT_ALLOWED, "method not allowed", [("Allow", allow)])
        try:
            return handler(request)
        except ValidationError as exc:
            raise HTTPError(HTTPStatus.BAD_REQUEST, str(exc)) from exc
        except EmailConflictError as exc:
            raise HTTPError(HTTPStatus.CONFLICT, f"email already in use: {exc}") from exc

    @staticmethod
    def route(request: Request) -> str:
        """Return ``"collection"`` or ``"item"`` (setting ``contact_id``), else raise 404."""
        if request.path == "/contacts":
            return "collection"
        match = ITEM_PATH.fullmatch(request.path)
        if match is None:
            raise HTTPError(HTTPStatus.NOT_FOUND, "not found")
        request.contact_id = int(match.group(1))
        return "item"

    def existing(self, request: Request) -> Contact:
        """The contact addressed by the request, or raise 404."""
        contact = self.store.get(request.contact_id or 0)
        if contact is None:
            raise HTTPError(HTTPStatus.NOT_FOUND, "contact not found")
        return contact

    def list_contacts(self, request: Request) -> Response:
        """GET /contacts?q=&limit=&offset="""
        limit = query_int(request, "limit", DEFAULT_LIMIT, 1, MAX_LIMIT)
        offset = query_int(request, "offset", 0, 0, None)
        needle = request.query.get("q", [""])[0].strip().casefold()
        found = [c for c in self.store.all() if matches(c, needle)]
        page = found[offset : offset + limit]
        body = {"items": page, "total": len(found), "limit": limit, "offset": offset}
        return Response(HTTPStatus.OK, body)

    def create_contact(self, request: Request) -> Response:
        """POST /contacts"""
        contact = self.store.create(validate_contact(request.json_body(), partial=False))
        return Response(HTTPStatus.CREATED, contact, [("Location", f"/contacts/{contact['id']}")])

    def get_contact(self, request: Request) -> Response:
        """GET /contacts/<id>"""
        return Response(HTTPStatus.OK, self.existing(request))

    def replace_contact(self, request: Request) -> Response:
        """PUT /contacts/<id>"""
        contact = self.existing(request)
        fields = validate_contact(request.json_body(), partial=False)
        return Response(HTTPStatus.OK, self.store.update(contact["id"], fields))

    def patch_contact(self, request: Request) -> Response:
        """PATCH /contacts/<id>"""
        contact = self.existing(request)
        fields = validate_contact(request.json_body(), partial=True)
        return Response(HTTPStatus.OK, self.store.update(contact["id"], fields))

    def delete_contact(self, request: Request) -> Response:
        """DELETE /contacts/<id>"""
        self.store.delete(self.existing(request)["id"])
        return Response(HTTPStatus.NO_CONTENT)


def create_app(storage_path: str | None = None) -> ContactsApp:
    """Create the WSGI application; with ``storage_path`` contacts persist in that JSON file."""
    return ContactsApp(ContactStore(storage_path))
