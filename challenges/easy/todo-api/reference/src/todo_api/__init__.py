"""A CRUD JSON API for todos, as a standard-library WSGI application.

Typical use::

    from wsgiref.simple_server import make_server
    from todo_api import create_app

    make_server("127.0.0.1", 8000, create_app("todos.json")).serve_forever()
"""

from todo_api.app import create_app
from todo_api.store import Todo, TodoStore
from todo_api.validation import ValidationError

__all__ = ["Todo", "TodoStore", "ValidationError", "create_app"]
