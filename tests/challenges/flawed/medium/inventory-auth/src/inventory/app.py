"""The WSGI application: routes, authentication and request handlers."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Iterable
from contextlib import closing
from dataclasses import dataclass
from typing import Any

from inventory import auth, validation
from inventory.db import connect, init_db
from inventory.errors import ApiError, BadRequest, Forbidden, Unauthorized
from inventory.service import ItemService, UserService, user_record
from inventory.web import Environ, Request, Router, StartResponse, respond

Result = tuple[int, Any]
ITEM = r"/items/(?P<item_id>[0-9]{1,18})"
USER = r"/users/(?P<username>[^/]+)"


@dataclass
class Context:
    """Everything a handler needs for one request."""

    request: Request
    users: UserService
    items: ItemService
    secret: str
    clock: Callable[[], float]
    user: sqlite3.Row | None = None

    @property
    def username(self) -> str:
        """The authenticated user's name."""
        assert self.user is not None
        return self.user["username"]


# --- handlers: session -------------------------------------------------------


def login(ctx: Context) -> Result:
    """POST /login: exchange credentials for a bearer token."""
    body = ctx.request.json()
    name, password = body.get("username"), body.get("password")
    if not isinstance(name, str) or not isinstance(password, str):
        raise BadRequest("'username' and 'password' must be strings")
    user = ctx.users.authenticate(name, password)
    if user is None:
        raise Unauthorized("invalid credentials")
    now = ctx.clock()
    token = auth.make_token(name, ctx.secret, now)
    return 200, {"token": token, "expires_at": int(now) + auth.TOKEN_TTL, "role": user["role"]}


def me(ctx: Context) -> Result:
    """GET /me: the authenticated user."""
    assert ctx.user is not None
    return 200, user_record(ctx.user)


# --- handlers: users ---------------------------------------------------------


def list_users(ctx: Context) -> Result:
    """GET /users."""
    return 200, {"users": ctx.users.list()}


def create_user(ctx: Context) -> Result:
    """POST /users."""
    body = ctx.request.json()
    args = (validation.username(body), validation.password(body), validation.role(body))
    return 201, ctx.users.create(*args)


def update_user(ctx: Context, username: str) -> Result:
    """PATCH /users/{username}: change role and/or password."""
    ctx.users.get(username)
    body = ctx.request.json()
    validation.require_any(body, ("role", "password"))
    role = validation.role(body) if "role" in body else None
    password = validation.password(body) if "password" in body else None
    if role is not None:
        ctx.users.set_role(username, role)
    if password is not None:
        ctx.users.set_password(username, password)
    return 200, user_record(ctx.users.get(username))


def delete_user(ctx: Context, username: str) -> Result:
    """DELETE /users/{username}."""
    ctx.users.delete(username, ctx.username)
    return 204, None


# --- handlers: items ---------------------------------------------------------


def list_items(ctx: Context) -> Result:
    """GET /items."""
    return 200, {"items": ctx.items.list()}


def get_item(ctx: Context, item_id: str) -> Result:
    """GET /items/{id}."""
    return 200, ctx.items.get(int(item_id))


def create_item(ctx: Context) -> Result:
    """POST /items."""
    body = ctx.request.json()
    args = (validation.text(body, "sku"), validation.text(body, "name"), validation.quantity(body))
    return 201, ctx.items.create(*args)


def _item_changes(body: validation.Body) -> dict[str, str]:
    if "quantity" in body:
        raise BadRequest("quantity can only be changed through adjustments")
    validation.require_any(body, ("sku", "name"))
    return {key: validation.text(body, key) for key in ("sku", "name") if key in body}


def update_item(ctx: Context, item_id: str) -> Result:
    """PATCH /items/{id}: change sku and/or name."""
    ctx.items.get(int(item_id))
    return 200, ctx.items.update(int(item_id), _item_changes(ctx.request.json()))


def delete_item(ctx: Context, item_id: str) -> Result:
    """DELETE /items/{id}."""
    ctx.items.delete(int(item_id))
    return 204, None


def adjust_item(ctx: Context, item_id: str) -> Result:
    """POST /items/{id}/adjust: change the stock level and audit it."""
    ctx.items.get(int(item_id))
    body = ctx.request.json()
    delta, reason = validation.delta(body), validation.text(body, "reason")
    return 201, ctx.items.adjust(int(item_id), delta, reason, ctx.username)


def list_adjustments(ctx: Context, item_id: str) -> Result:
    """GET /items/{id}/adjustments: the item's audit log, oldest first."""
    return 200, {"adjustments": ctx.items.adjustments(int(item_id))}


def build_router() -> Router:
    """All routes with the permission each requires (``None``: no authentication)."""
    router = Router()
    router.add("POST", "/login", None, login)
    router.add("GET", "/me", auth.READ, me)
    router.add("GET", "/users", auth.MANAGE_USERS, list_users)
    router.add("POST", "/users", auth.MANAGE_USERS, create_user)
    router.add("PATCH", USER, auth.MANAGE_USERS, update_user)
    router.add("DELETE", USER, auth.MANAGE_USERS, delete_user)
    router.add("GET", "/items", auth.READ, list_items)
    router.add("POST", "/items", auth.MANAGE_ITEMS, create_item)
    router.add("GET", ITEM, auth.READ, get_item)
    router.add("PATCH", ITEM, auth.MANAGE_ITEMS, update_item)
    router.add("DELETE", ITEM, auth.MANAGE_ITEMS, delete_item)
    router.add("POST", ITEM + "/adjust", auth.ADJUST, adjust_item)
    router.add("GET", ITEM + "/adjustments", auth.READ, list_adjustments)
    return router


# --- application -------------------------------------------------------------


class InventoryApp:
    """WSGI callable: route, authenticate, authorise, then run the handler in a transaction."""

    def __init__(self, db_path: str, secret: str, clock: Callable[[], float], iterations: int) -> None:
        self.db_path = db_path
        self.secret = secret
        self.clock = clock
        self.iterations = iterations
        self.router = build_router()

    def __call__(self, environ: Environ, start_response: StartResponse) -> Iterable[bytes]:
        try:
            status, payload = self._dispatch(Request(environ))
        except ApiError as exc:
            status, payload = exc.status, {"error": exc.message}
        return respond(start_response, status, payload)

    def _dispatch(self, request: Request) -> Result:
        route, params = self.router.match(request.method, request.path)
        with closing(connect(self.db_path)) as conn, conn:
            ctx = Context(request, UserService(conn, self.iterations), ItemService(conn, self.clock),
                          self.secret, self.clock)
            if route.permission is not None:
                ctx.user = self._authenticate(ctx)
                self._authorise(ctx.user, route.permission)
            return route.handler(ctx, **params)

    def _authenticate(self, ctx: Context) -> sqlite3.Row:
        token = ctx.request.bearer_token()
        if token is None:
            raise Unauthorized("missing bearer token")
        try:
            username = auth.read_token(token, self.secret, self.clock())
        except auth.TokenError as exc:
            raise Unauthorized(str(exc)) from exc
        user = ctx.users.find(username)
        if user is None:
            raise Unauthorized("unknown user")
        return user

    @staticmethod
    def _authorise(user: sqlite3.Row, permission: str) -> None:
        if not auth.is_allowed(user["role"], permission):
            raise Forbidden(f"role '{user['role']}' may not do this")

    def bootstrap_admin(self, username: str, password: str) -> None:
        """Create the first admin account if the database has no users."""
        with closing(connect(self.db_path)) as conn, conn:
            users = UserService(conn, self.iterations)
            if users.count() == 0:
                users.create(username, password, "admin")


def create_app(
    db_path: str,
    secret: str,
    *,
    clock: Callable[[], float] | None = None,
    bootstrap_admin: tuple[str, str] | None = None,
    pbkdf2_iterations: int = auth.DEFAULT_ITERATIONS,
) -> InventoryApp:
    """Create the schema if needed and return the WSGI application."""
    init_db(db_path)
    app = InventoryApp(db_path, secret, clock or time.time, pbkdf2_iterations)
    if bootstrap_admin is not None:
        app.bootstrap_admin(*bootstrap_admin)
    return app
