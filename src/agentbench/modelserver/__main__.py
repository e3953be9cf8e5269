"""`python -m agentbench.modelserver --script FILE [--port N]`: serve a script until Ctrl-C."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from agentbench.modelserver.script import load_script
from agentbench.modelserver.server import ModelServer


def main() -> None:
    """Parse arguments and serve."""
    parser = argparse.ArgumentParser(prog="python -m agentbench.modelserver")
    parser.add_argument("--script", type=Path, required=True, help="JSON script of files to write")
    parser.add_argument("--port", type=int, default=8765, help="loopback port (0: any free port)")
    args = parser.parse_args()
    server = ModelServer(load_script(args.script), args.port)
    sys.stderr.write(f"scripted model server on {server.url} (Ctrl-C to stop)\n")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        server.server_close()


if __name__ == "__main__":
    main()
