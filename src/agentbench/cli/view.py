"""`agentbench view [RESULTS]`: browse runs, trials, trajectories and two agents side by side."""

from __future__ import annotations

from pathlib import Path

import click

from agentbench.errors import UsageError


@click.command(name="view")
@click.argument("results", required=False, default=Path("results"),
                type=click.Path(file_okay=False, path_type=Path))
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on. Anything but loopback shows every transcript to the network.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535),
              help="Port to listen on (0: any free port).")
def command(results: Path, host: str, port: int) -> None:
    """Open a local web viewer of a results folder (default: results/).

    Runs, a run's ranking and challenge x agent grid, each trial's trajectory, files, logs and
    score breakdown, two agents side by side, and a live view of a running run.

    Example: agentbench view results/   (then open http://127.0.0.1:8000/)
    """
    if not results.is_dir():
        raise UsageError(f"{results}: no such folder",
                         "pass the results folder `agentbench run` wrote (default: results/)")
    try:
        from agentbench.viewer.server import LOOPBACK, serve
    except ImportError as exc:
        raise UsageError(f"the viewer needs Werkzeug ({exc})", 'pip install "agentbench[view]"') from None
    if host not in LOOPBACK:
        click.echo(f"warning: listening on {host}: anyone who can reach it can read every "
                   "transcript and workspace", err=True)
    try:
        serve(results, host, port, lambda url: click.echo(f"AgentBench viewer of {results} at {url} "
                                                          "(Ctrl-C stops it)"))
    except OSError as exc:
        raise UsageError(f"cannot listen on {host}:{port}: {exc.strerror or exc}",
                         "pick another --port (0: any free port)") from None
