"""contacts_api: a CRUD JSON API for contacts as a standard-library WSGI application."""

from contacts_api.app import create_app

__all__ = ["create_app"]
