"""The import layering: import-linter's contracts ([tool.importlinter] in pyproject.toml) hold,
an import against them makes them fail, and no module imports itself through others.

import-linter reads `import` statements only. The circle check here also follows what it cannot
see: imports inside functions, dotted paths in strings that Django or Celery import (settings,
`include()`, `import_string`) and Celery's autodiscovery of the tasks package. Two kinds of
names are not counted: Celery task names (a module that sends a task by name loads nothing) and
the settings module's (every module reads settings through django.conf; the entry points name
it in DJANGO_SETTINGS_MODULE, and it names them back as WSGI_APPLICATION and ROOT_URLCONF).
"""

import ast
import re
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("incidents", "statuspage")
SETTINGS = "statuspage.settings"
DOTTED = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)+")

# One import against each contract, each written inside a function.
LEAKS = {
    "incidents/channels/leak.py": "import incidents.services",
    "incidents/selectors/leak.py": "import incidents.channels",
    "incidents/public/leak.py": "import incidents.forms\n    import incidents.api",
    "incidents/probes/leak.py": "import incidents.services",
}


def lint_imports(cwd: Path) -> subprocess.CompletedProcess:
    command = [str(Path(sys.executable).with_name("lint-imports")), "--no-cache", "--no-logo"]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=120)


def contract_names() -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return [contract["name"] for contract in config["tool"]["importlinter"]["contracts"]]


def test_the_contracts_hold():
    result = lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    for name in contract_names():
        assert f"{name} KEPT" in result.stdout


def test_an_import_against_the_layers_breaks_every_contract(tmp_path):
    for package in PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    for path, statement in LEAKS.items():
        (tmp_path / path).write_text(f"def leak():\n    {statement}\n", encoding="utf-8")
    result = lint_imports(tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    for name in contract_names():
        assert f"{name} BROKEN" in result.stdout
    assert "incidents.channels.leak -> incidents.services" in result.stdout


def module_files(root: Path, packages: Iterable[str]) -> dict[str, Path]:
    """Every module of the packages by dotted name, migrations left out (nothing imports them)."""
    found = {}
    for package in packages:
        for path in (root / package).rglob("*.py"):
            parts = path.relative_to(root).with_suffix("").parts
            if "migrations" in parts:
                continue
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def task_names(trees: dict[str, ast.Module]) -> set[str]:
    """The names given to Celery tasks (`@shared_task(name=…)`, `@app.task(name=…)`)."""
    return {
        keyword.value.value
        for tree in trees.values()
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and getattr(node.func, "attr", getattr(node.func, "id", "")).endswith("task")
        for keyword in node.keywords
        if keyword.arg == "name" and isinstance(keyword.value, ast.Constant)
    }


def named_in(node: ast.AST, module: str, is_package: bool) -> list[str]:
    """The dotted names an import statement loads: the module and, for `from … import name`,
    also `module.name` (a submodule, or an attribute, which resolves to the module)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom):
        base = node.module or ""
        if node.level:
            parts = module.split(".")[: None if is_package else -1]
            parts = parts[: len(parts) - node.level + 1]
            base = ".".join([*parts, base] if base else parts)
        return [base, *(f"{base}.{alias.name}" for alias in node.names)]
    return []


def import_graph(root: Path, packages: Iterable[str]) -> dict[str, set[str]]:
    """Module → the modules it imports, at any depth of its code."""
    files = module_files(root, packages)
    trees = {name: ast.parse(path.read_text(encoding="utf-8")) for name, path in files.items()}
    unimported = task_names(trees) | {SETTINGS}

    def resolve(name: str) -> str | None:
        while name and name not in files:
            name = name.rpartition(".")[0]
        return name or None

    def loaded(target: str, importer: str) -> set[str]:
        """The module and the packages above it that importing it runs, but for the importer's
        own packages (already running) and the top ones (`incidents` is empty, `statuspage`
        starts the Celery app, which imports nothing of ours when it loads)."""
        parts = target.split(".")
        return {
            package
            for package in (".".join(parts[:n]) for n in range(2, len(parts) + 1))
            if package != importer and not importer.startswith(package + ".")
        }

    graph: dict[str, set[str]] = {}
    for name, tree in trees.items():
        is_package = files[name].name == "__init__.py"
        targets = set()
        for node in ast.walk(tree):
            for dotted in named_in(node, name, is_package):
                if (found := resolve(dotted)) is not None:
                    targets.add(found)
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and node.value not in unimported
            ):
                text = node.value
                found = resolve(text) if DOTTED.fullmatch(text) else None
                if found and found not in packages and text.count(".") - found.count(".") <= 1:
                    targets.add(found)
            if isinstance(node, ast.Attribute) and node.attr == "autodiscover_tasks":
                targets |= {f"{package}.tasks" for package in packages if f"{package}.tasks" in files}
        graph[name] = {module for target in targets for module in loaded(target, name) if module in files}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for imported in graph[module]:
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            component = []
            while (member := stack.pop()) != module:
                component.append(member)
            if component:
                found.append(sorted([module, *component]))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def test_no_module_imports_itself_through_others():
    graph = import_graph(ROOT, PACKAGES)
    # What import-linter does not see is in the graph: urls included by name, the tasks found by
    # Celery's autodiscovery, middleware named in settings.
    assert "incidents.views.public_urls" in graph["statuspage.urls"]
    assert "incidents.tasks" in graph["statuspage.celery"]
    assert "incidents.request_context" in graph["statuspage.settings"]
    assert circles(graph) == []


def test_a_circle_closed_inside_a_function_or_by_a_string_is_found(tmp_path):
    package = tmp_path / "loop"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from loop import b\n")
    (package / "b.py").write_text("def later():\n    from loop.c import run\n")
    (package / "c.py").write_text("HANDLER = 'loop.a.handle'\n")
    (package / "d.py").write_text("from loop import a\n")
    assert circles(import_graph(tmp_path, ["loop"])) == [["loop.a", "loop.b", "loop.c"]]
