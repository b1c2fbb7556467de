"""Imports flow one way: the contracts in pyproject.toml ([tool.importlinter]) hold, CI runs them
here, and a deliberate upward import breaks them.

``lint-imports`` (import-linter) reads every import of the five packages, function-local ones
included, so an import tucked inside a function to hide a cycle breaks a contract as surely as
one at the top of a module. The second half copies the tree, adds one upward import, and checks
that the contract it crosses reports it broken.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("memory_console", "stores", "runs", "jira_link", "schedule")
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def lint_imports(root: Path, *contracts: str) -> subprocess.CompletedProcess[str]:
    """Run lint-imports on the tree at ``root`` (its packages first on the path), as CI does;
    only the contracts named, when some are."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    only = [arg for contract in contracts for arg in ("--contract", contract)]
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", "--no-logo", *only], cwd=root, env=env, capture_output=True, text=True,
        timeout=300,
    )


def test_the_import_contracts_hold():
    result = lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def _copy_tree(to: Path) -> Path:
    for name in PACKAGES:
        shutil.copytree(ROOT / name, to / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", to / "pyproject.toml")
    return to


# (the module that gains an import, the line added, the contract it must break)
UPWARD_IMPORTS = [
    # The old cycle: a check calling the Jira link's service.
    ("stores/console_checks/who.py", "from jira_link.services import ticket_lookup", "stores-core-below-runs-and-jira"),
    # The memory service calling runs, hidden in a function as it used to be.
    (
        "stores/services/memories.py",
        "def _tell_runs(run, version_id):\n    from runs.services import run_note_write\n\n    run_note_write(run, version_id)",
        "stores-core-below-runs-and-jira",
    ),
    # A selector importing the API layer.
    ("runs/selectors.py", "from stores.api.serializers import MemoryOut", "core-imports-no-interface"),
    # The models reaching up to a service.
    ("stores/models.py", "from stores.services import memories", "stores-layers"),
    # A check reaching up to a selector.
    ("stores/console_checks/where.py", "from stores.selectors import live_memories", "stores-layers"),
    # The outbox importing an app built on it.
    ("schedule/outbox.py", "from runs.retention import close_engagement", "outbox-knows-no-app"),
    # The sync client, which installs without Django, importing it.
    ("runs/sync_client/http.py", "from django.conf import settings", "sync-client-standalone"),
]


@pytest.mark.parametrize(("module", "line", "contract"), UPWARD_IMPORTS, ids=[u[0] for u in UPWARD_IMPORTS])
def test_an_upward_import_breaks_the_contracts(tmp_path, module, line, contract):
    tree = _copy_tree(tmp_path)
    assert lint_imports(tree, contract).returncode == 0  # the copy holds before the change
    target = tree / module
    target.write_text(target.read_text() + "\n\n" + line + "  # noqa\n")
    result = lint_imports(tree, contract)
    assert result.returncode != 0, result.stdout
    assert "BROKEN" in result.stdout


def _first_party(node: ast.Import | ast.ImportFrom) -> bool:
    if isinstance(node, ast.ImportFrom):
        return node.level > 0 or (node.module or "").split(".")[0] in PACKAGES
    return any(alias.name.split(".")[0] in PACKAGES for alias in node.names)


def test_no_function_local_import_of_the_console_outside_app_ready():
    """Django's one place for an import that must wait for the app registry is AppConfig.ready()."""
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            module = ast.parse(path.read_text())
            for node in ast.walk(module):
                if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) or node.name == "ready":
                    continue
                for inner in ast.walk(node):
                    if isinstance(inner, ast.Import | ast.ImportFrom) and _first_party(inner):
                        found.append(f"{path.relative_to(ROOT)}:{inner.lineno} in {node.name}()")
    assert found == []
