"""`python -m agentbench.modelserver (--script FILE | --from-dir DIR) [--port N] [--fail STATUS]`: serve until Ctrl-C."""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

from agentbench.modelserver.script import load_script, script_from_directory
from agentbench.modelserver.server import ModelServer


def main() -> None:
    """Parse arguments and serve."""
    parser = argparse.ArgumentParser(prog="python -m agentbench.modelserver")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--script", type=Path, help="JSON script: {\"files\": [{\"path\", \"content\"}]}")
    source.add_argument("--from-dir", type=Path, help="write every file of this folder (e.g. a "
                        "challenge's reference/ solution)")
    parser.add_argument("--fail", type=int, metavar="STATUS",
                        help="answer every request with this HTTP error status (e.g. 503, 429, 401)")
    parser.add_argument("--port", type=int, default=8765, help="loopback port (0: any free port)")
    args = parser.parse_args()
    script = load_script(args.script) if args.script else script_from_directory(args.from_dir)
    if args.fail is not None:
        script = dataclasses.replace(script, fail_status=args.fail)
    server = ModelServer(script, args.port)
    sys.stderr.write(f"scripted model server on {server.url} (Ctrl-C to stop)\n")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        server.server_close()


if __name__ == "__main__":
    main()
