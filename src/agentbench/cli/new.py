"""`agentbench new --from-repo PATH --commit SHA ...`: scaffold a challenge from your own repository.

The challenge starts from the repository at `--commit`; its reference is `--reference` (a later
commit) or `--commit` plus `--patch`; `--tests` names the test files or folders that show the change.
Then `agentbench validate --write-sets --challenges OUTPUT` computes FAIL_TO_PASS / PASS_TO_PASS.
"""

from __future__ import annotations

from pathlib import Path

import click

from agentbench.cli import output_console


@click.command(name="new")
@click.option("--from-repo", "repo", type=click.Path(exists=True, file_okay=False, path_type=Path),
              required=True, help="Your local git repository.")
@click.option("--commit", required=True, help="The commit the workspace starts from.")
@click.option("--reference", help="A later commit holding the change (the reference solution).")
@click.option("--patch", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Or: a patch that makes the change on top of --commit.")
@click.option("--tests", multiple=True, required=True,
              help="A test file or folder that shows the change (repeatable).")
@click.option("--name", required=True, help="The challenge's name (its file name).")
@click.option("--tier", type=click.Choice(["easy", "medium", "hard"]), default="medium", show_default=True)
@click.option("--language", type=click.Choice(["python", "go", "typescript"]), default="python",
              show_default=True)
@click.option("--prompt", "prompt_file", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="A file holding the prompt (default: the reference commit's message).")
@click.option("--output", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Folder to write the challenge into (tier sub-folders).")
def command(repo: Path, commit: str, reference: str | None, patch: Path | None, tests: tuple[str, ...],  # noqa: PLR0913 (click options)
            name: str, tier: str, language: str, prompt_file: Path | None, output: Path) -> None:
    """Scaffold a brownfield challenge from a commit of your repository."""
    from rich.text import Text

    from agentbench.formats.base import write_draft
    from agentbench.formats.repo import RepoTask, scaffold
    from agentbench.report.terminal import safe_text

    task = RepoTask(repo=repo, commit=commit, reference=reference,
                    patch=patch.read_text(encoding="utf-8") if patch else None, tests=tests,
                    name=name, tier=tier, language=language,
                    prompt=prompt_file.read_text(encoding="utf-8") if prompt_file else None)
    cid = write_draft(scaffold(task), output)
    console = output_console()
    console.print(Text.assemble(("scaffolded ", "green"), safe_text(cid), " in ", safe_text(str(output))))
    console.print(Text.assemble("next: edit the prompt, then agentbench validate --write-sets "
                                "--challenges ", safe_text(str(output)), " ", safe_text(cid)))
