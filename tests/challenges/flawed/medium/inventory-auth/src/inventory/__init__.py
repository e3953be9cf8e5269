"""Inventory service with role-based token authentication.

The public entry point is :func:`create_app`, a factory returning a WSGI application.
"""

from inventory.app import create_app

__all__ = ["create_app"]
