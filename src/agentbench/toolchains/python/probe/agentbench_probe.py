"""AgentBench's pytest probe: reports every test's outcome to the harness as it finishes.

Loaded by the harness with `-p <random module name>` into every pytest run it measures. It imports
nothing from AgentBench (it runs in the trial's environment). Events are JSON lines written to a pipe
the harness opened before the run (its descriptor number in AGENTBENCH_PROBE_FD, made non-inheritable
here so no child process gets it); the harness reads them as they are written, so nothing the tested
code does at exit can change what was already reported.

For each test phase the probe keeps two outcomes: the *raw* one, taken from the innermost
`pytest_runtest_makereport` wrapper (registered once collection is over, so after every conftest) and
from the call's exception at that point, and the *reported* one, seen last in
`pytest_runtest_logreport`. A conftest hook that turns a failure into a pass makes them disagree, and
the harness rejects the run's counts.
"""

from __future__ import annotations

import json
import os
from collections.abc import Generator
from typing import Any

import pytest

_FD_VARIABLE = "AGENTBENCH_PROBE_FD"
_NONCE_VARIABLE = "AGENTBENCH_PROBE_NONCE"
_OUTCOME_HOOKS = ("pytest_runtest_makereport", "pytest_runtest_call", "pytest_pyfunc_call",
                  "pytest_runtest_protocol", "pytest_runtestloop", "pytest_report_teststatus",
                  "pytest_runtest_logreport", "pytest_collection_modifyitems")


class _Channel:
    """The write end of the harness's pipe (None when run outside the harness)."""

    def __init__(self) -> None:
        value = os.environ.pop(_FD_VARIABLE, "")
        self.nonce = os.environ.pop(_NONCE_VARIABLE, "")
        self.fd = int(value) if value.isdigit() else None
        if self.fd is not None:
            os.set_inheritable(self.fd, False)

    def send(self, event: dict[str, Any]) -> None:
        if self.fd is None:
            return
        data = (json.dumps({**event, "nonce": self.nonce, "pid": os.getpid()}) + "\n").encode()
        while data:
            data = data[os.write(self.fd, data):]


_CHANNEL = _Channel()
_CHANNEL.send({"e": "hello", "file": __file__, "pytest": pytest.__version__})
_NAME = f"agentbench-probe-{_CHANNEL.nonce[:12]}"


class _Inner:
    """Registered after collection: the innermost report wrapper, so it sees reports unaltered."""

    def __init__(self, probe: _Probe) -> None:
        self.probe = probe

    @pytest.hookimpl(wrapper=True, trylast=True)
    def pytest_runtest_makereport(self, item: Any, call: Any) -> Generator[None, Any, Any]:
        raised = call.excinfo is not None and not call.excinfo.errisinstance(pytest.skip.Exception)
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
        if self.config_hook is None:
            return False
        impls = self.config_hook.pytest_runtest_makereport.get_hookimpls()
        wrappers = [i for i in impls if i.hookwrapper or getattr(i, "wrapper", False)]
        return bool(wrappers) and wrappers[0].plugin is self.inner

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionstart(self, session: Any) -> None:
        self.config_hook = session.config.hook

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: Any, exitstatus: Any) -> None:
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
