"""AgentBench's GOCACHEPROG: the warmed build cache read in place, what a trial builds kept apart.

The go command starts it as `python3 -I -S <this file> <warmed cache> <own layer>` and asks it for
build outputs over stdin/stdout (the protocol of Go's `cmd/go/internal/cacheprog`). A `get` is
answered from the warmed cache first (the harness's folder, which the trial can read but not write,
in the go command's own on-disk layout), then from the layer; a `put` goes into the layer, a fresh
folder of this one command tree. So no trial copies the 113 MB cache, and nothing a trial's process
writes can stand in for an output the warmed cache holds (e.g. the `covdata` tool the harness runs).
Standard library only: it runs under the system's Python.
"""

import base64
import json
import os
import sys
import tempfile
from collections.abc import Callable, Iterator
from typing import Any

HEX = frozenset("0123456789abcdef")


def entry(folder: str, action: str) -> tuple[str, int] | None:
    """(output id hex, size) of `action` (hex) in a cache folder of the go command's layout."""
    try:
        with open(os.path.join(folder, action[:2], action + "-a"), "rb") as handle:
            fields = handle.read(4096).decode("ascii").split()
    except (OSError, UnicodeDecodeError):
        return None
    if len(fields) < 4 or fields[0] != "v1" or fields[1] != action:
        return None
    output = fields[2]
    if len(output) != 64 or not HEX.issuperset(output) or not fields[3].isdigit():
        return None
    return output, int(fields[3])


def write(path: str, data: bytes) -> None:
    folder = os.path.dirname(path)
    os.makedirs(folder, exist_ok=True)
    fd, temp = tempfile.mkstemp(dir=folder)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
    os.replace(temp, path)


def get(warm: str, layer: str, request: dict[str, Any]) -> dict[str, Any]:
    action = base64.b64decode(request.get("ActionID") or "").hex()
    for folder in (warm, layer):
        found = entry(folder, action) if len(action) == 64 else None
        if found is None:
            continue
        path = os.path.join(folder, found[0][:2], found[0] + "-d")
        if os.path.isfile(path):
            return {"OutputID": base64.b64encode(bytes.fromhex(found[0])).decode(), "Size": found[1],
                    "DiskPath": path}
    return {"Miss": True}


def put(layer: str, request: dict[str, Any], body: bytes) -> dict[str, Any]:
    action = base64.b64decode(request.get("ActionID") or "").hex()
    output = base64.b64decode(request.get("OutputID") or "").hex()
    if len(action) != 64 or len(output) != 64:
        return {"Err": "bad action or output id"}
    path = os.path.join(layer, output[:2], output + "-d")
    write(path, body)
    write(os.path.join(layer, action[:2], action + "-a"),
          f"v1 {action} {output} {len(body):20d} {0:20d}\n".encode("ascii"))
    return {"DiskPath": path}


def serve(warm: str, layer: str, requests: Iterator[str],
          send: Callable[[dict[str, Any]], None]) -> None:
    send({"ID": 0, "KnownCommands": ["get", "put", "close"]})
    for line in requests:
        if not line.strip():
            continue
        request = json.loads(line)
        command = request.get("Command")
        body = b""
        if command == "put" and request.get("BodySize"):
            body = base64.b64decode(json.loads(next(text for text in requests if text.strip())))
        answer: dict[str, Any] = {}
        if command == "get":
            answer = get(warm, layer, request)
        elif command == "put":
            answer = put(layer, request, body)
        send({"ID": request.get("ID"), **answer})
        if command == "close":
            return


def main() -> None:
    warm, layer = sys.argv[1], sys.argv[2]
    out = sys.stdout

    def send(message: dict[str, Any]) -> None:
        out.write(json.dumps(message) + "\n")
        out.flush()

    serve(warm, layer, iter(sys.stdin.readline, ""), send)


if __name__ == "__main__":
    main()
