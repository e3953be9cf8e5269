"""HTTP-level errors raised by handlers and services.

Each subclass carries the HTTP status it maps to; the WSGI layer turns any
:class:`ApiError` into a JSON body ``{"error": message}``.
"""

from __future__ import annotations


class ApiError(Exception):
    """Base class: an error that becomes an HTTP response."""

    status: int = 500

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class BadRequest(ApiError):
    """The request body or parameters are invalid."""

    status = 400


class Unauthorized(ApiError):
    """Missing, malformed, tampered or expired credentials."""

    status = 401


class Forbidden(ApiError):
    """Authenticated, but the role lacks the required permission."""

    status = 403


class NotFound(ApiError):
    """Unknown route or resource."""

    status = 404


class MethodNotAllowed(ApiError):
    """The path exists but not with this HTTP method."""

    status = 405


class Conflict(ApiError):
    """The request conflicts with the current state (duplicates, stock)."""

    status = 409
