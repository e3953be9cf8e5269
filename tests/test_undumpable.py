"""`Confinement.undumpable` (issue 21, item 2): a process tree whose processes no process of the trial
user can reach, not even their own children. The hidden tests' judge (node's parent `node --test`,
the go command) runs in such a tree while product code runs in its children.

Run for real as a trial user, in both sandbox modes, with a control run (the same tree, not
undumpable) that shows the attack works there."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest

from tests.test_sandbox import MODES, Trial, attack, make_trial, needs_trial_users


@pytest.fixture
def trial() -> Iterator[Trial]:
    with make_trial() as made:
        yield made


# The parent holds a pipe's write end and a secret in its memory; its child hunts for both.
PARENT_AND_CHILD = """
    import os, subprocess, sys
    if len(sys.argv) > 1:
        parent = os.getppid()
        for what in ("fd", "mem", "environ"):
            try:
                if what == "fd":
                    found = os.listdir(f"/proc/{parent}/fd")
                    os.close(os.open(f"/proc/{parent}/fd/{found[-1]}", os.O_RDONLY | os.O_NONBLOCK))
                else:
                    os.close(os.open(f"/proc/{parent}/{what}", os.O_RDONLY))
                print("REACHED", what)
            except OSError as e:
                print("DENIED", what, e.errno)
        try:
            os.setresgid(os.getegid(), os.getegid(), os.getegid())  # its own ids made consistent
            os.close(os.open(f"/proc/{parent}/mem", os.O_RDONLY))
            print("REACHED mem-after-setresgid")
        except OSError as e:
            print("DENIED mem-after-setresgid", e.errno)
        sys.exit(0)
    read, write = os.pipe()
    gids = os.getresgid()
    print("GIDS", gids[0] != gids[1], flush=True)
    subprocess.run([sys.executable, __file__, "child"], check=True)
"""


@needs_trial_users
@pytest.mark.parametrize("sandbox", MODES)
def test_an_undumpable_trees_processes_are_out_of_reach_of_their_children(tmp_path, trial: Trial, sandbox):
    confinement = dataclasses.replace(trial.confinement(sandbox), undumpable=True)
    result, out = attack(tmp_path, trial, PARENT_AND_CHILD, confinement)
    assert result.ok, out
    assert "GIDS True" in out
    for what in ("fd", "mem", "environ", "mem-after-setresgid"):
        assert f"DENIED {what} 13" in out, out


@needs_trial_users
def test_without_undumpable_a_child_reaches_its_parent(tmp_path, trial: Trial):
    result, out = attack(tmp_path, trial, PARENT_AND_CHILD, trial.confinement("none"))
    assert result.ok, out
    assert "GIDS False" in out
    assert "REACHED fd" in out and "REACHED mem" in out, out
