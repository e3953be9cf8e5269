"""AgentBench's pytest probe: reports every test's outcome to the harness as it finishes.

Loaded by the harness with `-p <random module name>` into every pytest run it measures. It imports
nothing from AgentBench (it runs in the trial's environment). Events are JSON lines written to a pipe
the harness opened before the run (made non-inheritable here so no child process gets it); the harness
reads them as they are written, so nothing the tested code does at exit can change what was already
reported. The pipe's descriptor number and the run's secret come in one record read from a second,
already-closed pipe (AGENTBENCH_PROBE_KEY names its descriptor and inode) which the probe closes at
once: neither is ever in the environment, so /proc/<pid>/environ holds nothing worth reading.

For each test phase the probe keeps two outcomes: the *raw* one, taken from the innermost
`pytest_runtest_makereport` wrapper (registered once collection is over, so after every conftest) and
from the call's exception at that point, and the *reported* one, seen last in
`pytest_runtest_logreport`. A conftest hook that turns a failure into a pass makes them disagree, and
the harness rejects the run's counts.
"""

from __future__ import annotations

import functools
import json
import os
import stat
import sys
from collections.abc import Generator
from typing import Any

import pytest

_KEY_VARIABLE = "AGENTBENCH_PROBE_KEY"
_KEY_RECORD_BYTES = 256
_INNER_HOOKS = ("pytest_runtest_makereport", "pytest_runtest_setup", "pytest_runtest_call",
                "pytest_runtest_teardown", "pytest_pyfunc_call")
_OUTCOME_HOOKS = ("pytest_runtest_makereport", "pytest_runtest_call", "pytest_pyfunc_call",
                  "pytest_runtest_protocol", "pytest_runtestloop", "pytest_report_teststatus",
                  "pytest_runtest_logreport", "pytest_collection_modifyitems")


class _Channel:
    """The write end of the harness's pipe (None when run outside the harness)."""

    def __init__(self) -> None:
        key = _read_key(os.environ.pop(_KEY_VARIABLE, ""))
        roots = key.get("trace")
        self.lines = _Lines([str(r) for r in roots]) if isinstance(roots, list) else None
        fd, nonce = key.get("fd"), key.get("nonce")
        self.nonce = nonce if isinstance(nonce, str) else ""
        self.fd = fd if isinstance(fd, int) and self.nonce else None
        if self.fd is not None:
            os.set_inheritable(self.fd, False)

    def send(self, event: dict[str, Any]) -> None:
        if self.fd is None:
            return
        data = (json.dumps({**event, "nonce": self.nonce, "pid": os.getpid()}) + "\n").encode()
        while data:
            data = data[os.write(self.fd, data):]


def _read_key(value: str) -> dict[str, Any]:
    """One record from the key pipe named `<fd>:<inode>` (closed after), or {} without one."""
    fd_text, _, inode = value.partition(":")
    if not fd_text.isdigit():
        return {}
    fd = int(fd_text)
    try:
        info = os.fstat(fd)
        if not stat.S_ISFIFO(info.st_mode) or str(info.st_ino) != inode:
            return {}
        record = os.read(fd, _KEY_RECORD_BYTES)
        os.close(fd)
        key = json.loads(record)
    except (OSError, ValueError):
        return {}
    return key if isinstance(key, dict) else {}


class _Lines:
    """The harness's second line collector (only when the key names `trace` roots): a trace function
    of its own, for the runs the harness makes to cross-check coverage.py's figures (coverage.py is
    off in those runs). It records which lines of files under the roots ran in this process."""

    def __init__(self, roots: list[str]) -> None:
        self.roots = tuple(r.rstrip("/") + "/" for r in roots)
        self.seen: dict[str, set[int]] = {}

    def start(self) -> None:
        import threading

        threading.settrace(self.trace)
        sys.settrace(self.trace)

    def trace(self, frame: Any, event: str, arg: Any) -> Any:
        name = frame.f_code.co_filename
        if not name.startswith(self.roots):
            return None
        lines = self.seen.setdefault(name, set())
        lines.add(frame.f_lineno)

        def local(frame: Any, event: str, arg: Any) -> Any:
            if event == "line":
                lines.add(frame.f_lineno)
            return local

        return local

    def event(self, sid: str) -> dict[str, Any]:
        return {"e": "lines", "sid": sid, "files": {k: sorted(v) for k, v in self.seen.items()}}


def _start_coverage() -> None:
    """coverage.py, in the own-tests run (the harness names its configuration in
    COVERAGE_PROCESS_START), in this process only and from now on: exactly where and when the second
    collector sees lines in the other run. Lines only one of them can see (in a subprocess of the
    tests, before pytest loads its plugins) never count, so coverage.py is not started there."""
    if os.environ.get("COVERAGE_PROCESS_START"):
        try:
            import coverage

            coverage.process_startup()
        except Exception:  # NOTE: no data then: nothing covered; the tests still run
            pass


_CHANNEL = _Channel()
_CHANNEL.send({"e": "hello", "file": __file__, "pytest": pytest.__version__})
_NAME = f"agentbench-probe-{_CHANNEL.nonce[:12]}"
if _CHANNEL.lines is not None and _CHANNEL.fd is not None:
    _CHANNEL.lines.start()
elif _CHANNEL.fd is not None:
    _start_coverage()


class _Inner:
    """Registered after collection: the innermost wrappers, so they see what the tests really did.

    They record, per test and phase, whether the phase raised (before any outer wrapper could
    swallow the exception) and whether the test function was called at all (a `pytest_pyfunc_call`
    that answers without calling it would otherwise pass a test that never ran)."""

    def __init__(self, probe: _Probe) -> None:
        self.probe = probe
        self.raised: dict[tuple[str, str], bool] = {}
        self.unrun: set[str] = set()

    def _phase(self, item: Any, when: str) -> Generator[None, Any, Any]:
        try:
            return (yield)
        except BaseException as exc:
            if not isinstance(exc, pytest.skip.Exception):
                self.raised[(item.nodeid, when)] = True
            raise

    @pytest.hookimpl(wrapper=True, trylast=True)
    def pytest_runtest_setup(self, item: Any) -> Generator[None, Any, Any]:
        return (yield from self._phase(item, "setup"))

    @pytest.hookimpl(wrapper=True, trylast=True)
    def pytest_runtest_call(self, item: Any) -> Generator[None, Any, Any]:
        return (yield from self._phase(item, "call"))

    @pytest.hookimpl(wrapper=True, trylast=True)
    def pytest_runtest_teardown(self, item: Any, nextitem: Any) -> Generator[None, Any, Any]:
        return (yield from self._phase(item, "teardown"))

    @pytest.hookimpl(wrapper=True, trylast=True)
    def pytest_pyfunc_call(self, pyfuncitem: Any) -> Generator[None, Any, Any]:
        original, ran = pyfuncitem.obj, []

        @functools.wraps(original)
        def traced(*args: Any, **kwargs: Any) -> Any:
            ran.append(True)
            return original(*args, **kwargs)

        pyfuncitem.obj = traced
        try:
            return (yield)
        finally:
            pyfuncitem.obj = original
            if not ran:
                self.unrun.add(pyfuncitem.nodeid)

    @pytest.hookimpl(wrapper=True, trylast=True)
    def pytest_runtest_makereport(self, item: Any, call: Any) -> Generator[None, Any, Any]:
        raised = call.excinfo is not None and not call.excinfo.errisinstance(pytest.skip.Exception)
        raised = raised or self.raised.pop((item.nodeid, call.when), False)
        if call.when == "call" and item.nodeid in self.unrun:
            self.unrun.discard(item.nodeid)
            raised = True
        report = yield
        self.probe.raw.setdefault(item.nodeid, []).append([call.when, report.outcome, raised])
        return report


class _Probe:
    def __init__(self) -> None:
        self.raw: dict[str, list[list[Any]]] = {}
        self.reported: dict[str, list[list[Any]]] = {}
        self.inner = _Inner(self)
        self.errors: list[str] = []
        self.sid = os.urandom(6).hex()
        self.config_hook: Any = None

    def pytest_configure(self, config: Any) -> None:
        _CHANNEL.send({"e": "session", "sid": self.sid})

    def pytest_collectreport(self, report: Any) -> None:
        if report.failed:
            self.errors.append(report.nodeid)

    @pytest.hookimpl(trylast=True)
    def pytest_collection_finish(self, session: Any) -> None:
        session.config.pluginmanager.register(self.inner, f"{_NAME}-inner-{self.sid}")
        _CHANNEL.send({"e": "collected", "sid": self.sid, "ids": [item.nodeid for item in session.items],
                       "files": sorted({str(item.path) for item in session.items}),
                       "errors": self.errors, "hooks": _foreign_hooks(session.config)})

    @pytest.hookimpl(trylast=True)
    def pytest_runtest_logreport(self, report: Any) -> None:
        self.reported.setdefault(report.nodeid, []).append(
            [report.when, report.outcome, bool(getattr(report, "wasxfail", None) is not None)])

    def pytest_runtest_logfinish(self, nodeid: str, location: Any) -> None:
        _CHANNEL.send({"e": "test", "sid": self.sid, "id": nodeid, "raw": self.raw.pop(nodeid, []),
                       "reported": self.reported.pop(nodeid, []),
                       "innermost": self.inner_is_innermost()})

    def inner_is_innermost(self) -> bool:
        """Whether the probe's wrappers are still the innermost of every hook they watch."""
        if self.config_hook is None:
            return False
        for name in _INNER_HOOKS:
            impls = getattr(self.config_hook, name).get_hookimpls()
            wrappers = [i for i in impls if i.hookwrapper or getattr(i, "wrapper", False)]
            if not wrappers or wrappers[0].plugin is not self.inner:
                return False
        return True

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionstart(self, session: Any) -> None:
        self.config_hook = session.config.hook

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: Any, exitstatus: Any) -> None:
        if _CHANNEL.lines is not None:
            _CHANNEL.send(_CHANNEL.lines.event(self.sid))
        _CHANNEL.send({"e": "finish", "sid": self.sid, "exitstatus": int(exitstatus)})


def _foreign_hooks(config: Any) -> list[list[str]]:
    """Outcome-relevant hooks implemented outside pytest and this probe (for the trial's log)."""
    found = []
    for name in _OUTCOME_HOOKS:
        for impl in getattr(config.hook, name).get_hookimpls():
            module = getattr(impl.plugin, "__name__", type(impl.plugin).__module__)
            if not (str(module).startswith("_pytest") or str(module) == __name__):
                found.append([name, str(module), str(getattr(impl.plugin, "__file__", ""))])
    return found


def pytest_configure(config: Any) -> None:
    """Register the probe object (module-level hooks keep this file importable as a plugin)."""
    if not config.pluginmanager.has_plugin(_NAME):
        config.pluginmanager.register(_Probe(), _NAME)
