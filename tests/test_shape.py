"""The codebase keeps its own rules: file and function sizes, and who may import what."""

import ast
from pathlib import Path

SRC = Path(__file__).parents[1] / "src" / "agentbench"
ALLOWED = {
    "rich": ("cli/", "report/terminal.py"),
    "yaml": ("loader.py",),
    "jinja2": ("report/", "viewer/"),
    # NOTE: the Go -exec program and the per-command supervisor run standalone (`python -I -S`: no
    # agentbench to import); the supervisor is the process door's other half
    "subprocess": ("process.py", "supervise.py", "toolchains/go/exec/agentbench_go_exec.py"),
}


def python_files():
    return sorted(p for p in SRC.rglob("*.py") if "__pycache__" not in p.parts)


def imported_modules(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            yield node.module


def test_files_stay_under_800_lines():
    long = {str(p.relative_to(SRC)): n for p in python_files()
            if (n := len(p.read_text().splitlines())) > 800}
    assert long == {}


def test_functions_stay_under_50_lines():
    long = {}
    for path in python_files():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = node.end_lineno - node.lineno + 1
                if length > 50:
                    long[f"{path.relative_to(SRC)}:{node.name}"] = length
    assert long == {}


def test_heavy_and_side_effect_libraries_stay_where_they_belong():
    misplaced = []
    for path in python_files():
        rel = str(path.relative_to(SRC))
        for module in imported_modules(ast.parse(path.read_text())):
            root = module.split(".")[0]
            if root in ALLOWED and not rel.startswith(ALLOWED[root]):
                misplaced.append(f"{rel} imports {module}")
    assert misplaced == []


def test_models_and_errors_use_only_the_standard_library():
    import sys

    for name in ("models.py", "errors.py"):
        modules = set(imported_modules(ast.parse((SRC / name).read_text())))
        assert all(m.split(".")[0] in sys.stdlib_module_names or m == "__future__" for m in modules), name


def test_every_public_module_has_a_docstring():
    missing = [str(p.relative_to(SRC)) for p in python_files()
               if ast.get_docstring(ast.parse(p.read_text())) is None]
    assert missing == []


def test_help_does_not_import_heavy_modules():
    import subprocess
    import sys

    code = ("import sys; from agentbench.cli import main\n"
            "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
            "heavy = [m for m in ('rich.progress', 'jinja2', 'lizard', 'junitparser', 'yaml',"
            " 'agentbench.runner', 'agentbench.metrics') if m in sys.modules]\n"
            "print('HEAVY', heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "HEAVY []" in out


def test_agentbench_scores_full_quality_marks_on_itself():
    """Dogfood: the average cyclomatic complexity of src/ stays in the seed's full-marks band (< 5)."""
    from agentbench.metrics.quality import measure_quality
    from agentbench.scoring import quality_ratio
    from agentbench.toolchains.python.sources import classify_sources

    quality = measure_quality(classify_sources(SRC).product, SRC)
    assert quality.functions > 300
    assert quality_ratio(quality.average_complexity) == 1.0, quality.average_complexity
