"""The viewer's pages over a real run (reference, noop and a hostile agent on a tiny challenge),
through the WSGI app: what each page says, its security headers, and every path it refuses."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest
from werkzeug.test import Client

from agentbench.viewer.app import CSP, make_app
from tests.cli.helpers import invoke
from tests.conftest import make_tiny_challenge
from tests.viewer.conftest import run_agents
from tests.viewer.hostile import agent_config, plant_trajectory


@pytest.fixture(scope="module")
def run(shared_folder: Path) -> tuple[Path, str]:
    """(results folder, run ID) of reference, noop and evil on easy/adder."""
    challenges = make_tiny_challenge(shared_folder / "challenges")
    with (challenges / "easy" / "adder.yaml").open("a", encoding="utf-8") as yaml:
        yaml.write("expect: {ran_tests: true, max_turns: 40}\n")
    results = shared_folder / "results"
    run_agents(results, "--agent", "reference", "--agent", "noop", "--agent", "evil",
               "--challenge", "easy/adder", "--challenges", str(challenges),
               "--agents-config", str(agent_config(shared_folder)), "--run-id", "r1")
    plant_trajectory(results / "r1" / "trials" / "evil" / "easy" / "adder" / "trial-1")
    return results, "r1"


def trial_url(agent: str, *rest: str) -> str:
    return "/".join(["/runs/r1/trials", agent, "easy/adder/1", *rest])


def get(results: Path, url: str, status: int = 200) -> str:
    response = Client(make_app(results)).get(url)
    assert response.status_code == status, (url, response.get_data(as_text=True)[-2000:])
    assert response.headers["Content-Security-Policy"] == CSP
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    return response.get_data(as_text=True)


def test_runs_and_run_pages(run):
    results, run_id = run
    assert 'href="/runs/r1"' in get(results, "/")
    page = get(results, f"/runs/{run_id}")
    assert 'id="table-ranking"' in page and 'id="grid"' in page and 'id="table-behaviour"' in page
    assert "3 of 3 trials finished" in re.sub(r"<[^>]+>", "", page)
    assert "live.js" not in page  # a finished run needs no live view
    assert page.count('class="side-by-side"') == 1


def test_run_page_checks_each_challenges_expect_block(run):
    results, run_id = run
    table = get(results, f"/runs/{run_id}").split('id="table-expectations"')[1].split("</table>")[0]
    rows = {cells[0]: cells[1:] for row in re.findall(r"<tr>(.*?)</tr>", table, re.S)
            for cells in [[re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)]]}
    assert rows["evil"][:2] == ["1/2", "easy/adder #1 ran_tests: expected ran tests, was ran no tests"]
    assert rows["noop"] == ["0/2", "-", "2"]  # no transcript: unknown, never failed


def test_trial_page_says_where_the_points_went(run):
    results, _ = run
    page = get(results, trial_url("noop"))
    text = re.sub(r"<[^>]+>", " ", page)
    assert "Where the points went" in text and "no test was collected" in text
    assert 'data-component="build"' in page
    reference = get(results, trial_url("reference"))
    assert "an in-process agent: no transcript" in reference
    assert 'data-component="tests"' in reference and "passed" in reference


def test_hostile_text_is_escaped_everywhere(run):
    results, _ = run
    for url in (trial_url("evil"), trial_url("evil") + "?step=1", trial_url("evil", "log/agent/stdout.log"),
                trial_url("evil", "log/agent/stderr.log"), trial_url("evil", "log/trajectory.jsonl"),
                trial_url("evil", "file/pkg/__init__.py"), "/runs/r1/compare/easy/adder?a=evil&b=reference",
                "/runs/r1"):
        page = get(results, url)
        assert "<script>window" not in page and "<img" not in page and "<iframe" not in page, url
        assert "<svg" not in page and "\x1b" not in page and "\x00" not in page, url
    page = get(results, trial_url("evil"))
    assert "&lt;script&gt;window.__pwned=1" in page and "\\x1b[31mRED" in page and "\\u202e" in page
    assert "{{ 7*7 }}" in page  # not a template expression
    assert len(re.findall(r"<script\b", get(results, "/runs/r1"))) == 0


def test_files_logs_and_steps(run):
    results, _ = run
    page = get(results, trial_url("evil"))
    for name in ("&lt;script&gt;alert(1)&lt;_script&gt;.py", "pkg/__init__.py", "x\\x1b[2J&lt;b&gt;.txt"):
        assert name in page
    for log in ("agent/stdout.log", "agent/stderr.log", "trajectory.jsonl", "prompt.md", "record.json",
                "logs/hidden-tests.json"):
        assert f"/log/{log}" in page, log
    diff = get(results, trial_url("reference", "file/src/adder/__init__.py"))
    assert 'class="dadd"' in diff
    one = get(results, trial_url("evil") + "?step=2")
    assert 'id="step-2"' in one and "back to the timeline" in one


def test_paths_outside_the_plan_or_the_trial_are_refused(run):
    results, _ = run
    trial = results / "r1" / "trials" / "evil" / "easy" / "adder" / "trial-1"
    os.symlink("/etc/passwd", trial / "workspace" / "passwd")
    os.symlink("/etc", trial / "logs" / "etc")
    try:
        for url in ("/runs/nope", "/runs/r1/trials/ghost/easy/adder/1", trial_url("noop").replace("/1", "/2"),
                    "/runs/r1/trials/noop/easy/other/1", trial_url("noop", "log/../../../run.json"),
                    trial_url("noop", "log/workspace/src/adder/__init__.py"),
                    trial_url("evil", "file/passwd"), trial_url("evil", "log/logs/etc/passwd"),
                    trial_url("evil", "file/../record.json"), "/static/../app.py", "/static/x.js",
                    "/runs/r1/compare/easy/nope"):
            page = get(results, url, 404)
            assert "root:" not in page, url
        assert "passwd" not in get(results, trial_url("evil")).split('id="files"')[1].split('id="logs"')[0]
    finally:
        (trial / "workspace" / "passwd").unlink()
        (trial / "logs" / "etc").unlink()


def test_unfinished_run_has_a_live_view(run, tmp_path):
    results, _ = run
    copy = tmp_path / "results"
    shutil.copytree(results / "r1", copy / "r1", symlinks=True)
    record = copy / "r1" / "trials" / "noop" / "easy" / "adder" / "trial-1" / "record.json"
    kept = record.read_text()
    record.unlink()
    page = get(copy, "/runs/r1")
    assert 'src="/static/live.js"' in page and "2 of 3" in re.sub(r"<[^>]+>", "", page)
    state = json.loads(get(copy, "/runs/r1/progress.json"))
    assert (state["planned"], state["finished"], state["started"], state["done"]) == (3, 2, 1, False)
    assert "has not finished" in get(copy, "/runs/r1/trials/noop/easy/adder/1")
    record.write_text(kept)
    newer = json.loads(get(copy, f"/runs/r1/progress.json?since={state['next']}"))
    assert newer["done"] and [t["agent"] for t in newer["trials"]] == ["noop"]
    assert newer["trials"][0]["url"] == "/runs/r1/trials/noop/easy/adder/1"
    assert json.loads(get(copy, f"/runs/r1/progress.json?since={newer['next']}"))["trials"] == []


def test_view_command_refuses_a_missing_folder(capsys, tmp_path):
    r = invoke(capsys, "view", str(tmp_path / "nowhere"))
    assert r.exit_code == 2 and "no such folder" in r.err
    assert "view" in invoke(capsys, "--help").out


def test_start_up_indexing_reads_every_run_once(run):
    from agentbench.viewer.library import Library

    results, _ = run
    library = Library(results)
    library.warm()
    assert library.warmed.is_set()
    state = library.state("r1")
    assert {r.agent for r in state.records} == {"reference", "noop", "evil"}
    assert library.behaviour("r1", state.record("evil", "easy/adder", 1)).tools[0][1] == 1


def test_another_host_name_is_refused(run):
    """DNS rebinding: a page at evil.example re-pointed at 127.0.0.1 gets nothing."""
    results, _ = run
    client = Client(make_app(results))
    for host in ("evil.example", "evil.example:8000", "127.0.0.1.evil.example"):
        response = client.get("/runs/r1", headers={"Host": host})
        assert response.status_code == 400 and "r1" not in response.get_data(as_text=True).split("<h1>")[1]
    for host in ("127.0.0.1:8000", "localhost", "[::1]:8000"):
        assert client.get("/", headers={"Host": host}).status_code == 200
    assert Client(make_app(results, hosts=None)).get("/", headers={"Host": "box.lan"}).status_code == 200


def test_view_command_serves_on_loopback(run):
    import subprocess
    import sys
    import urllib.request

    from tests.viewer.conftest import ROOT

    results, _ = run
    with subprocess.Popen([sys.executable, "-m", "agentbench", "view", str(results), "--port", "0"],
                          cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}) as proc:
        try:
            line = proc.stdout.readline()
            url = re.search(r"http://127\.0\.0\.1:\d+/", line)
            assert url, line
            with urllib.request.urlopen(url.group(0) + "runs/r1") as response:
                assert response.status == 200 and b"table-ranking" in response.read()
                assert response.headers["Content-Security-Policy"] == CSP
        finally:
            proc.terminate()
            proc.wait(10)
