"""The layer rules of docs/ARCHITECTURE.md are enforced by import-linter (``lint-imports``).

The contracts live in pyproject.toml and run in the test command; these tests check that
they hold on the package and that they fail on a planted forbidden import.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _lint_imports() -> str:
    exe = Path(sys.executable).with_name("lint-imports")
    found = str(exe) if exe.exists() else shutil.which("lint-imports")
    if found is None:  # pragma: no cover - the test extra installs it
        pytest.fail("lint-imports (import-linter) is not installed: pip install -e '.[test]'")
    return found


def _copy(tmp_path: Path) -> Path:
    shutil.copytree(
        ROOT / "src" / "nimlab",
        tmp_path / "src" / "nimlab",
        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"),
    )
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def _run(where: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(where / "src"))
    return subprocess.run(
        [_lint_imports(), "--no-cache"],
        cwd=where,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


# (module, planted import, contract it breaks, the import as lint-imports reports it)
PLANTS = [
    ("core/results.py", "import nimlab.cli", "Layers", "nimlab.core.results -> nimlab.cli"),
    (
        "engine/tables.py",
        "from nimlab.solvers import api",
        "Layers",
        "nimlab.engine.tables -> nimlab.solvers.api",
    ),
    (
        "verification/local.py",
        "import nimlab.theory.registry",
        "Layers",
        "nimlab.verification.local -> nimlab.theory.registry",
    ),
    (
        "formulas/nim.py",
        "import numpy",
        "Core and closed forms import no heavy dependency",
        "nimlab.formulas.nim -> numpy",
    ),
    (
        "web/service.py",
        "import nimlab.verification.runner",
        "The CLI uses the public API",
        "nimlab.web.service -> nimlab.verification.runner",
    ),
    (
        "cli/basic.py",
        "import nimlab.engine.tables",
        "The CLI uses the public API",
        "nimlab.cli.basic -> nimlab.engine.tables",
    ),
    # import circles inside one package (issue 12): a construction that imports its
    # ruleset, which imports the construction; the exact check that imports the
    # vectorised path, which imports the exact check
    (
        "catalog/ryuo/strategy.py",
        "import nimlab.catalog.ryuo.rules",
        "No import circle",
        "No cycles are allowed in nimlab.catalog.ryuo.",
    ),
    (
        "verification/local.py",
        "from nimlab.verification import fast",
        "No import circle",
        "No cycles are allowed in nimlab.verification.",
    ),
]


@pytest.mark.timeout(300)
def test_contracts_fail_on_planted_forbidden_imports(tmp_path: Path) -> None:
    where = _copy(tmp_path)
    for module, planted, _, _ in PLANTS:
        target = where / "src" / "nimlab" / module
        target.write_text(
            target.read_text(encoding="utf-8") + f"\n\ndef _planted() -> None:\n    {planted}\n",
            encoding="utf-8",
        )
    res = _run(where)
    out = res.stdout + res.stderr
    assert res.returncode != 0, out
    broken = [line for line in out.splitlines() if line.rstrip().endswith("BROKEN")]
    for _, _, contract, reported in PLANTS:
        assert any(line.startswith(contract) for line in broken), (contract, out)
        assert reported in out, (reported, out)


@pytest.mark.timeout(300)
def test_contracts_hold_on_the_package(tmp_path: Path) -> None:
    res = _run(_copy(tmp_path))
    assert res.returncode == 0, res.stdout + res.stderr
    assert "0 broken" in res.stdout
