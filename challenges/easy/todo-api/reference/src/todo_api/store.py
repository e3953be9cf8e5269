"""Todo storage: in memory, optionally persisted to a JSON file after every change."""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Todo:
    """One todo item."""

    id: int
    title: str
    done: bool = False

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON representation."""
        return asdict(self)


class TodoStore:
    """Holds todos by id; ids start at 1 and are never reused.

    When ``db_path`` is given, the state is loaded from that file (if it exists) and written back,
    atomically, after every successful mutation. File format::

        {"next_id": 3, "todos": [{"id": 1, "title": "...", "done": false}, ...]}
    """

    def __init__(self, db_path: str | os.PathLike[str] | None = None) -> None:
        self._path = Path(db_path) if db_path is not None else None
        self._todos: dict[int, Todo] = {}
        self._next_id = 1
        if self._path is not None and self._path.exists():
            self._load(self._path)

    def list(self, done: bool | None = None) -> list[Todo]:
        """Return all todos ordered by id, optionally only those with the given ``done`` state."""
        todos = sorted(self._todos.values(), key=lambda todo: todo.id)
        return [todo for todo in todos if done is None or todo.done == done]

    def get(self, todo_id: int) -> Todo | None:
        """Return the todo with ``todo_id`` or None."""
        return self._todos.get(todo_id)

    def create(self, title: str, done: bool = False) -> Todo:
        """Store a new todo under the next free id and return it."""
        todo = Todo(id=self._next_id, title=title, done=done)
        self._todos[todo.id] = todo
        self._next_id += 1
        self._save()
        return todo

    def update(self, todo_id: int, changes: dict[str, Any]) -> Todo:
        """Apply ``changes`` (validated field values) to a todo; KeyError if it does not exist."""
        updated = replace(self._todos[todo_id], **changes)
        self._todos[todo_id] = updated
        self._save()
        return updated

    def delete(self, todo_id: int) -> bool:
        """Delete a todo; return False if it did not exist."""
        if self._todos.pop(todo_id, None) is None:
            return False
        self._save()
        return True

    def _load(self, path: Path) -> None:
        """Read the state from ``path``."""
        data = json.loads(path.read_text(encoding="utf-8"))
        todos = [Todo(id=t["id"], title=t["title"], done=t["done"]) for t in data["todos"]]
        self._todos = {todo.id: todo for todo in todos}
        self._next_id = max([data["next_id"], *(todo.id + 1 for todo in todos)])

    def _save(self) -> None:
        """Write the state to the database file (no-op when in memory only)."""
        if self._path is None:
            return
        data = {"next_id": self._next_id, "todos": [todo.to_dict() for todo in self.list()]}
        _atomic_write(self._path, json.dumps(data, indent=2, ensure_ascii=False))


def _atomic_write(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` via a temporary file and an atomic rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)
    os.replace(tmp, path)
