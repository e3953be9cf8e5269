"""Business logic for users, items and stock adjustments on top of SQLite."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

from inventory.auth import hash_password, verify_password
from inventory.errors import Conflict, NotFound

Record = dict[str, Any]


def user_record(row: sqlite3.Row) -> Record:
    """Public JSON shape of a user (never includes the hash)."""
    return {"username": row["username"], "role": row["role"]}


def item_record(row: sqlite3.Row) -> Record:
    """Public JSON shape of an item."""
    return {"id": row["id"], "sku": row["sku"], "name": row["name"], "quantity": row["quantity"]}


def adjustment_record(row: sqlite3.Row) -> Record:
    """Public JSON shape of an adjustment (audit log entry)."""
    keys = ("id", "item_id", "delta", "quantity_after", "reason", "username", "created_at")
    return {key: row[key] for key in keys}


class UserService:
    """User accounts: creation, lookup, role/password changes and deletion."""

    def __init__(self, conn: sqlite3.Connection, iterations: int) -> None:
        self.conn = conn
        self.iterations = iterations

    def find(self, username: str) -> sqlite3.Row | None:
        """Return the user row or ``None``."""
        return self.conn.execute("SELECT * FROM users WHERE username = ?", (username,)).fetchone()

    def get(self, username: str) -> sqlite3.Row:
        """Return the user row or raise :class:`NotFound`."""
        row = self.find(username)
        if row is None:
            raise NotFound(f"user '{username}' not found")
        return row

    def authenticate(self, username: str, password: str) -> sqlite3.Row | None:
        """Return the user row if the credentials are correct, else ``None``."""
        row = self.find(username)
        if row is None or not verify_password(password, row["password_hash"]):
            return None
        return row

    def count(self) -> int:
        """Number of user accounts."""
        return self.conn.execute("SELECT COUNT(*) FROM users").fetchone()[0]

    def list(self) -> list[Record]:
        """All users ordered by username."""
        rows = self.conn.execute("SELECT * FROM users ORDER BY username")
        return [user_record(row) for row in rows]

    def create(self, username: str, password: str, role: str) -> Record:
        """Create a user; :class:`Conflict` if the username is taken."""
        if self.find(username) is not None:
            raise Conflict(f"user '{username}' already exists")
        self.conn.execute(
            "INSERT INTO users (username, password_hash, role) VALUES (?, ?, ?)",
            (username, hash_password(password, iterations=self.iterations), role),
        )
        return user_record(self.get(username))

    def set_role(self, username: str, role: str) -> None:
        """Change a user's role."""
        self.conn.execute("UPDATE users SET role = ? WHERE username = ?", (role, username))

    def set_password(self, username: str, password: str) -> None:
        """Replace a user's password hash."""
        encoded = hash_password(password, iterations=self.iterations)
        self.conn.execute("UPDATE users SET password_hash = ? WHERE username = ?", (encoded, username))

    def delete(self, username: str, acting_user: str) -> None:
        """Delete a user; nobody may delete their own account."""
        self.get(username)
        if username == acting_user:
            raise Conflict("you cannot delete your own account")
        self.conn.execute("DELETE FROM users WHERE username = ?", (username,))


class ItemService:
    """Items and their stock, with an audit log of every adjustment."""

    def __init__(self, conn: sqlite3.Connection, clock: Callable[[], float]) -> None:
        self.conn = conn
        self.clock = clock

    def _row(self, item_id: int) -> sqlite3.Row:
        row = self.conn.execute("SELECT * FROM items WHERE id = ?", (item_id,)).fetchone()
        if row is None:
            raise NotFound(f"item {item_id} not found")
        return row

    def get(self, item_id: int) -> Record:
        """Return an item or raise :class:`NotFound`."""
        return item_record(self._row(item_id))

    def list(self) -> list[Record]:
        """All items ordered by id."""
        return [item_record(row) for row in self.conn.execute("SELECT * FROM items ORDER BY id")]

    def _ensure_sku_free(self, sku: str, item_id: int | None = None) -> None:
        row = self.conn.execute("SELECT id FROM items WHERE sku = ?", (sku,)).fetchone()
        if row is not None and row["id"] != item_id:
            raise Conflict(f"sku '{sku}' already exists")

    def create(self, sku: str, name: str, quantity: int) -> Record:
        """Create an item; :class:`Conflict` on a duplicate SKU."""
        self._ensure_sku_free(sku)
        cursor = self.conn.execute(
            "INSERT INTO items (sku, name, quantity) VALUES (?, ?, ?)", (sku, name, quantity)
        )
        return self.get(int(cursor.lastrowid or 0))

    def update(self, item_id: int, changes: dict[str, str]) -> Record:
        """Apply ``changes`` (keys ``sku`` and/or ``name``) to an item."""
        self._row(item_id)
        if "sku" in changes:
            self._ensure_sku_free(changes["sku"], item_id)
        for column, value in changes.items():
            self.conn.execute(f"UPDATE items SET {column} = ? WHERE id = ?", (value, item_id))
        return self.get(item_id)

    def delete(self, item_id: int) -> None:
        """Delete an item (its adjustments stay in the audit log)."""
        self._row(item_id)
        self.conn.execute("DELETE FROM items WHERE id = ?", (item_id,))

    def adjust(self, item_id: int, delta: int, reason: str, username: str) -> Record:
        """Change the stock by ``delta`` and record it; :class:`Conflict` if it would go negative."""
        self._row(item_id)
        cursor = self.conn.execute(
            "UPDATE items SET quantity = quantity + ? WHERE id = ? AND quantity + ? >= 0",
            (delta, item_id, delta),
        )
        if cursor.rowcount == 0:
            raise Conflict("insufficient stock")
        item = self.get(item_id)
        cursor = self.conn.execute(
            "INSERT INTO adjustments (item_id, username, delta, quantity_after, reason, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (item_id, username, delta, item["quantity"], reason, int(self.clock())),
        )
        return {"item": item, "adjustment": self._adjustment(int(cursor.lastrowid or 0))}

    def _adjustment(self, adjustment_id: int) -> Record:
        row = self.conn.execute("SELECT * FROM adjustments WHERE id = ?", (adjustment_id,)).fetchone()
        return adjustment_record(row)

    def adjustments(self, item_id: int) -> list[Record]:
        """The audit log of one item, oldest first."""
        self._row(item_id)
        rows = self.conn.execute("SELECT * FROM adjustments WHERE item_id = ? ORDER BY id", (item_id,))
        return [adjustment_record(row) for row in rows]
