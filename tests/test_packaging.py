"""Packaging facts that must agree: one version everywhere, the license, the extras, and
a documentation page for every game of the catalog."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import nimlab
from nimlab.cli import main

ROOT = Path(__file__).resolve().parent.parent


def pyproject() -> dict[str, object]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_version_is_single_sourced(capsys: pytest.CaptureFixture[str]) -> None:
    assert re.fullmatch(r"\d+\.\d+\.\d+", nimlab.__version__)
    project = pyproject()["project"]
    assert isinstance(project, dict)
    assert "version" not in project and "version" in project["dynamic"]
    hatch = pyproject()["tool"]
    assert isinstance(hatch, dict)
    assert hatch["hatch"]["version"]["path"] == "src/nimlab/__init__.py"
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"nimlab, version {nimlab.__version__}\n"


def test_citation_and_changelog_name_the_version() -> None:
    cff = (ROOT / "CITATION.cff").read_text(encoding="utf-8")
    assert re.search(rf"^version: {re.escape(nimlab.__version__)}$", cff, re.M)
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert f"## {nimlab.__version__}" in changelog


def test_license_and_extras() -> None:
    project = pyproject()["project"]
    assert isinstance(project, dict)
    assert project["license"] == "MIT"
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
    extras = project["optional-dependencies"]
    assert {"dask", "docs", "test"} <= set(extras)
    assert any(d.startswith("dask[distributed]") for d in extras["dask"])
    assert not any(d.startswith("dask") for d in project["dependencies"])


def test_every_game_has_one_documentation_page() -> None:
    owners: dict[str, list[str]] = {}
    for page in sorted((ROOT / "docs" / "games").glob("*.md")):
        text = page.read_text(encoding="utf-8")
        m = re.match(r"---\ngames: \[(.*?)\]\n---\n", text)
        if m is None:
            continue
        assert "<!-- nimlab:results -->" in text and "```nimlab-picture" in text, page.name
        for name in m.group(1).split(","):
            owners.setdefault(name.strip(), []).append(page.name)
    # a fresh process: games that other tests define for themselves are not in the catalog
    out = subprocess.run(
        [sys.executable, "-m", "nimlab", "list", "--json"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    names = {g["name"] for g in json.loads(out)}
    assert {n: p for n, p in owners.items() if len(p) != 1} == {}
    assert set(owners) == names


def test_readme_test_command_is_what_ci_runs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = [b for b in re.findall(r"```bash\n(.*?)```", readme, re.S) if "pytest" in b]
    assert len(commands) == 1
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()
    assert commands[0].strip() in ci
