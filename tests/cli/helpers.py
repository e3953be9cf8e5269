"""Run the real CLI entry point in-process and capture what it prints."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from agentbench.cli import main


@dataclass(frozen=True)
class Result:
    exit_code: int
    out: str
    err: str


def invoke(capsys: pytest.CaptureFixture[str], *args: str) -> Result:
    capsys.readouterr()
    with pytest.raises(SystemExit) as info:
        main(list(args))
    captured = capsys.readouterr()
    code = info.value.code
    return Result(exit_code=code if isinstance(code, int) else 1, out=captured.out, err=captured.err)
