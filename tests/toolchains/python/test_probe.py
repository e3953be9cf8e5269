"""The agent's own tests are counted by the harness: every trick that forged counts gains nothing.

Each test runs real pytest in a real trial environment with the harness's probe, on a tiny project
whose tests or conftest try to inflate the count.
"""

from __future__ import annotations

PASSING = "def test_ok():\n    assert True\n"
FAILING = "def test_bad():\n    assert 1 == 2\n"


def test_honest_counts(own_tests):
    m = own_tests({"tests/test_a.py": PASSING + FAILING + """
        import pytest

        @pytest.mark.skip
        def test_skipped():
            pass

        @pytest.mark.xfail
        def test_xfailed():
            assert False

        @pytest.mark.parametrize("n", [1, 2])
        def test_param(n):
            assert n
        """.replace("\n        ", "\n")})
    assert (m.passed, m.failed, m.skipped, m.collected, m.source) == (3, 1, 2, 6, "probe")
    assert m.total == 6 and m.problem is None and m.tampering == ()
    assert m.test_files == ("tests/test_a.py",)


def test_skipped_and_xfailed_tests_are_in_the_total(own_tests):
    body = "import pytest\n\n" + PASSING + "".join(
        f"\n@pytest.mark.skip\ndef test_s{i}():\n    pass\n" for i in range(50))
    m = own_tests({"tests/test_a.py": body})
    assert (m.passed, m.total) == (1, 51)
    assert m.pass_rate < 0.02


def test_a_conftest_rewriting_failures_to_passes_is_caught_and_gains_nothing(own_tests):
    m = own_tests({"tests/test_a.py": PASSING + FAILING, "tests/conftest.py": """
        import pytest

        @pytest.hookimpl(hookwrapper=True)
        def pytest_runtest_makereport(item, call):
            outcome = yield
            report = outcome.get_result()
            report.outcome = "passed"
        """})
    assert m.passed == 0 and m.problem is not None
    assert any("reported passed but produced failed" in t for t in m.tampering)


def test_an_inner_new_style_wrapper_registered_late_is_caught(own_tests):
    m = own_tests({"tests/test_a.py": FAILING + """
        def test_late(request):
            class Forger:
                import pytest

                @pytest.hookimpl(wrapper=True, trylast=True)
                def pytest_runtest_makereport(self, item, call):
                    report = yield
                    report.outcome = "passed"
                    return report
            request.config.pluginmanager.register(Forger(), "forger")
        """.replace("\n        ", "\n")})
    assert m.passed == 0 and m.tampering


def test_a_call_wrapper_swallowing_the_exception_is_caught(own_tests):
    m = own_tests({"tests/test_a.py": FAILING, "tests/conftest.py": """
        import pytest

        @pytest.hookimpl(wrapper=True)
        def pytest_runtest_call(item):
            try:
                return (yield)
            except Exception:
                return None
        """})
    assert m.passed == 0 and m.tampering


def test_a_pyfunc_call_that_never_runs_the_test_is_caught(own_tests):
    m = own_tests({"tests/test_a.py": FAILING, "tests/conftest.py": """
        import pytest

        @pytest.hookimpl(tryfirst=True)
        def pytest_pyfunc_call(pyfuncitem):
            return True
        """})
    assert m.passed == 0 and m.tampering


def test_a_forged_report_from_a_firstresult_hook_is_caught(own_tests):
    m = own_tests({"tests/test_a.py": FAILING, "tests/conftest.py": """
        import pytest
        from _pytest.reports import TestReport

        @pytest.hookimpl(tryfirst=True)
        def pytest_runtest_makereport(item, call):
            return TestReport(item.nodeid, item.location, {}, "passed", None, call.when)
        """})
    assert m.passed == 0 and m.tampering


def test_a_fake_summary_line_and_early_exit_count_nothing(own_tests):
    m = own_tests({"tests/test_a.py": FAILING, "pytest.ini": "[pytest]\naddopts = -p no:junitxml\n",
                   "tests/conftest.py": """
        import os

        def pytest_collection_finish(session):
            print("=========================== 500 passed in 0.01s ===========================")
            os._exit(0)
        """})
    assert m.passed == 0 and m.problem is not None


def test_a_forged_junit_file_is_not_read(own_tests):
    m = own_tests({"tests/test_a.py": FAILING, "tests/conftest.py": """
        import os, re

        def pytest_unconfigure(config):
            for path in re.findall(r"--junitxml=(\\S+)", os.environ.get("PYTEST_ADDOPTS", "")):
                open(path, "w").write('<testsuite tests="9" failures="0" errors="0" skipped="0"/>')
        """})
    assert (m.passed, m.failed) == (0, 1)


def test_an_exit_status_that_disagrees_with_the_outcomes_voids_them(own_tests):
    m = own_tests({"tests/test_a.py": PASSING + FAILING, "tests/conftest.py": """
        import os

        def pytest_unconfigure(config):
            os._exit(0)
        """})
    assert m.passed == 0
    assert any("exit status 0 disagrees" in t for t in m.tampering)


def test_a_command_that_does_not_run_pytest_counts_nothing(own_tests):
    m = own_tests({"tests/test_a.py": "import unittest\n\nclass T(unittest.TestCase):\n"
                   "    def test_a(self):\n        pass\n"},
                  "python -c \"print('Ran 500 tests in 0.1s'); print(); print('OK')\"")
    assert (m.passed, m.total) == (0, 0)
    assert "never loaded" in m.problem


def test_events_written_to_the_channel_by_the_tests_are_rejected(own_tests):
    m = own_tests({"tests/test_a.py": FAILING + """
        def test_forge():
            import json, os
            for fd in map(int, os.listdir("/proc/self/fd")):
                try:
                    os.write(fd, b'{"e": "test", "id": "x", "nonce": "guess"}\\n')
                except OSError:
                    pass
        """.replace("\n        ", "\n")})
    assert m.passed == 0 and m.tampering


def test_several_commands_add_up_and_a_shell_command_is_counted(own_tests):
    m = own_tests({"tests/test_a.py": PASSING, "tests/test_b.py": PASSING + FAILING},
                  "python -m pytest tests/test_a.py -q",
                  "python -m pytest tests/test_b.py -q || true")
    assert (m.passed, m.failed, m.collected, m.problem) == (2, 1, 3, None)
    assert len(m.commands) == 2


def test_the_one_off_build_of_the_scoring_environment_is_announced_once(tmp_path, monkeypatch):
    from agentbench.toolchains.python import env

    def fake_build(root, log_dir):
        (root / "lib" / "python3.11" / "site-packages").mkdir(parents=True)
        (root / "READY").write_text("")

    monkeypatch.setattr(env, "_build_template", fake_build)
    said: list[str] = []
    env.template_site_packages(tmp_path, tmp_path / "logs", said.append)
    env.template_site_packages(tmp_path, tmp_path / "logs", said.append)
    assert len(said) == 1 and "building the Python scoring environment once" in said[0]


SECRET_HUNT = """
def test_no_secret_in_proc():
    import os, re
    found = []
    for pid in ("self", str(os.getppid())):
        try:
            environ = open(f"/proc/{pid}/environ", "rb").read()
        except OSError:
            continue
        found += [v for v in re.findall(rb"(AGENTBENCH_PROBE_\\w+)=", environ) if not v.endswith(b"_KEY")]
        for fd_text in re.findall(rb"AGENTBENCH_PROBE_KEY=(\\\\d+)", environ):
            for path in (f"/proc/self/fd/{int(fd_text)}", f"/proc/{pid}/fd/{int(fd_text)}"):
                try:
                    with open(path, "rb") as f:
                        found.append(f.read(256))
                except OSError:
                    pass
    assert not found, found
"""


def test_the_channel_s_descriptor_and_secret_are_not_in_proc_environ(own_tests):
    """A test reads /proc/self/environ and its parent's, and every key descriptor named there: it
    finds no secret (the key pipe was read and closed by the probe before any test ran)."""
    m = own_tests({"tests/test_a.py": SECRET_HUNT},
                  "python -m pytest tests -q", "sh -c 'python -m pytest tests -q'")
    assert (m.passed, m.failed, m.problem) == (2, 0, None)
