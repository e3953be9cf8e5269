"""Keeping a database password off the command line that every process on the machine can read.

`/proc/PID/cmdline` is world-readable, so `agentbench run --db postgresql://user:PASSWORD@host/db`
would show the password to every trial (in `--sandbox none`). When the `agentbench` script gets such
a `--db`, it re-executes itself at once, before anything else runs, with the password removed from
its arguments and handed over through an inherited pipe (`AGENTBENCH_DB_PASSWORD_FD` names it); the
new process reads it, closes the pipe and puts it back into the URL in memory only. What remains is
the moment between start and re-exec, before any trial exists. Better still: no password on the
command line at all, but `~/.pgpass` or `$PGPASSFILE` (mode 0600, read by libpq itself), or
`$AGENTBENCH_DB` / `$PGPASSWORD` (a process's environment is readable only by its own user and root).
"""

from __future__ import annotations

import os
import sys
import urllib.parse
from collections.abc import Sequence

PASSWORD_FD_ENV = "AGENTBENCH_DB_PASSWORD_FD"
"""Names the descriptor the re-executed process reads the password from."""


def split_password(url: str) -> tuple[str, str | None]:
    """`url` without its password (as written, still percent-encoded), and that password."""
    parts = urllib.parse.urlsplit(url)
    userinfo, at, host = parts.netloc.rpartition("@")
    user, colon, password = userinfo.partition(":")
    if not at or not colon or not password:
        return url, None
    return urllib.parse.urlunsplit(parts._replace(netloc=f"{user}@{host}")), password


def with_password(url: str, password: str) -> str:
    """`url` (without a password) with `password` put back."""
    parts = urllib.parse.urlsplit(url)
    user, at, host = parts.netloc.rpartition("@")
    if not at:
        return url
    return urllib.parse.urlunsplit(parts._replace(netloc=f"{user}:{password}@{host}"))


def _db_index(args: Sequence[str]) -> tuple[int, str] | None:
    """Where `--db`'s value is in `args` (its index and the value), or None."""
    for i, arg in enumerate(args):
        if arg == "--":
            return None
        if arg == "--db" and i + 1 < len(args):
            return i + 1, args[i + 1]
        if arg.startswith("--db="):
            return i, arg.removeprefix("--db=")
    return None


def _replace(args: list[str], index: int, url: str) -> list[str]:
    value = f"--db={url}" if args[index].startswith("--db=") else url
    return [*args[:index], value, *args[index + 1:]]


def hide_db_password(args: list[str]) -> list[str]:
    """The arguments to parse: the password restored after a re-exec; or, when `--db` holds a
    password, never returns: re-executes without it (see the module's docstring)."""
    found = _db_index(args)
    inherited = os.environ.pop(PASSWORD_FD_ENV, None)
    if inherited is not None:
        password = _read_all(int(inherited))
        return _replace(args, found[0], with_password(found[1], password)) if found else args
    if found is None:
        return args
    stripped, secret = split_password(found[1])
    if secret is None:
        return args
    read, write = os.pipe()
    os.write(write, secret.encode())
    os.close(write)
    os.set_inheritable(read, True)
    prefix = sys.orig_argv[:len(sys.orig_argv) - len(sys.argv) + 1]
    os.execve(sys.executable, [*prefix, *_replace(args, found[0], stripped)],
              {**os.environ, PASSWORD_FD_ENV: str(read)})
    raise AssertionError("unreachable")  # pragma: no cover


def _read_all(fd: int) -> str:
    chunks = []
    try:
        while chunk := os.read(fd, 65536):
            chunks.append(chunk)
    finally:
        os.close(fd)
    return b"".join(chunks).decode()
