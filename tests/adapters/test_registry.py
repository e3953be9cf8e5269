from pathlib import Path

import pytest

from agentbench.adapters import ADAPTERS as FROM_PACKAGE
from agentbench.adapters import AdapterResult, AgentAdapter, get_adapter
from agentbench.adapters.registry import _BUILTIN, AdapterRegistry, import_adapter
from agentbench.cli import ADAPTERS
from agentbench.errors import UnknownAdapterError, UsageError


class MyAgentAdapter(AgentAdapter):
    @property
    def name(self) -> str:
        return "my-agent"

    def run_challenge(self, prompt: str, output_dir: Path, time_limit_minutes: int = 30) -> AdapterResult:
        (output_dir / "hello.txt").write_text(prompt)
        return AdapterResult(time_taken_seconds=0.1, prompts_used=1, success=True)


def test_seed_registration_works_and_is_one_object():
    assert ADAPTERS is FROM_PACKAGE
    ADAPTERS["my-agent"] = MyAgentAdapter
    try:
        assert "my-agent" in ADAPTERS and "my-agent" in list(ADAPTERS)
        assert isinstance(get_adapter("my-agent"), MyAgentAdapter)
    finally:
        del ADAPTERS["my-agent"]
    assert "my-agent" not in ADAPTERS


def test_registration_checks_the_class():
    with pytest.raises(TypeError, match="AgentAdapter subclass"):
        ADAPTERS["bad"] = object  # type: ignore[assignment]


@pytest.mark.parametrize("name", sorted(_BUILTIN))
def test_builtin_key_is_the_adapters_name(name):
    assert ADAPTERS[name]().name == name


def test_unknown_name_lists_what_exists():
    with pytest.raises(UnknownAdapterError) as info:
        get_adapter("nobody")
    assert "reference" in info.value.available and "noop" in info.value.message


def test_module_class_spec_is_checked():
    assert import_adapter("tests.adapters.test_registry:MyAgentAdapter") is MyAgentAdapter
    with pytest.raises(UsageError, match="not a subclass"):
        import_adapter("pathlib:Path")
    with pytest.raises(UsageError, match="cannot import"):
        import_adapter("no.such.module:X")


def test_registries_are_independent():
    other = AdapterRegistry()
    other["x"] = MyAgentAdapter
    assert "x" not in ADAPTERS


def test_seed_style_adapter_runs_through_the_pipeline(capsys, tmp_path, tiny_challenges):
    from agentbench.records import loads_run
    from tests.cli.helpers import invoke

    ADAPTERS["my-agent"] = MyAgentAdapter
    try:
        r = invoke(capsys, "run", "--agent", "my-agent", "--challenge", "easy/adder",
                   "--challenges", str(tiny_challenges), "--results", str(tmp_path))
    finally:
        del ADAPTERS["my-agent"]
    assert r.exit_code == 0, r.err
    run = loads_run((tmp_path / "my-agent.json").read_text())
    (trial,) = run.trials
    assert trial.status == "completed" and trial.adapter.prompts_used == 1
    kept = tmp_path / run.run_id / trial.logs_dir / "workspace" / "hello.txt"
    assert kept.read_text().startswith("Create a package `adder`")
