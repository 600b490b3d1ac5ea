"""CLI of verification: theorems, verify, reproduce, runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import nimlab
from nimlab.cli import main


@pytest.fixture(autouse=True)
def _store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    db = tmp_path / "store.sqlite"
    monkeypatch.setenv("NIMLAB_STORE", str(db))
    monkeypatch.delenv("NIMLAB_VERIFY_CHUNK_SLEEP", raising=False)
    return db


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_theorems_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "theorems", "--json")
    assert code == 0
    data = {t["id"]: t for t in json.loads(out)}
    assert data["S19-T1"]["paper"] == "S19" and data["S19-T1"]["game"] == "nim"
    assert set(data["S18-T8"]) >= {"id", "paper", "statement", "game", "params"}
    code, out, _ = run(capsys, "theorems")
    assert code == 0 and "S18-T8" in out


def test_verify_theorem(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "verify", "S18-T8", "--bound", "12", "--workers", "1", "--json")
    assert code == 0
    data = json.loads(out)
    search = nimlab.check_theorem("S18-T8", 12, method="search")
    assert data["result"] == "verified"
    assert data["positions_checked"] == search.positions_checked
    code, out, _ = run(capsys, "verify", "s18-t8", "--bound", "12", "--workers", "1")
    assert code == 0 and "verified" in out and "positions checked" in out


def test_verify_conjecture_failure_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "verify", "--game", "nim", "--formula", "a ^ b ^ (a & b & 2)", "--heaps", "2",
        "--bound", "8", "--workers", "1",
    )  # fmt: skip
    assert code == 1
    # (2, 2): claimed 2, but Nim gives 0
    assert "FAILED" in out and "smallest counterexample: nim at 2 2: claimed 2, actual 0" in out


def test_verify_conjecture_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "verify", "--game", "ryuo", "-p", "p=3", "--formula",
        "p*((x//p)^(y//p)) + (x+y)%p", "--bound", "64", "--json",
    )  # fmt: skip
    assert code == 0
    data = json.loads(out)
    assert data["positions_checked"] == 64 * 64 and data["result"] == "verified"
    assert data["counterexample"] is None and data["method"] == "vectorised"
    code, out, _ = run(
        capsys, "verify", "--game", "nim", "--p-set", "a == b", "--heaps", "2", "--bound", "10",
        "--json",
    )  # fmt: skip
    assert code == 0 and json.loads(out)["positions_checked"] == 100


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--game", "nim", "--formula", "__import__('os')", "--bound", "4"), "__import__"),
        (("--game", "nim", "--formula", "a.real", "--bound", "4"), "Attribute"),
        (("--game", "nim", "--formula", "a", "--p-set", "a", "--bound", "4"), "exactly one"),
        (("--game", "nim", "--formula", "a"), "--bound"),
        (("--game", "nimm", "--formula", "a", "--bound", "4"), "unknown game"),
        (("S99-T1",), "unknown theorem"),
        ((), "theorem ID"),
    ],
)
def test_verify_errors(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    code, _, err = run(capsys, "verify", *args)
    assert code == 2
    assert message in err and err.startswith("error:") and len(err.strip().splitlines()) == 1


def test_reproduce_and_runs(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import dataclasses

    # the registered results with small default bounds (their own are checked compiled)
    few = [
        dataclasses.replace(nimlab.theorem("S19-T1"), default_bound=12),
        dataclasses.replace(nimlab.theorem("N99-T1.11"), default_bound=8),
    ]
    monkeypatch.setattr(nimlab, "theorems", lambda: few)
    code, out, _ = run(capsys, "reproduce", "--json", "--workers", "1")
    assert code == 0
    data = json.loads(out)
    assert data["ok"] and [r["theorem"] for r in data["theorems"]] == ["S19-T1", "N99-T1.11"]
    for row, t in zip(data["theorems"], few, strict=True):
        assert row["bound"] == t.default_bound and row["result"] == "verified"
        assert (
            row["positions_checked"] == nimlab.check_theorem(t, method="search").positions_checked
        )
    code, out, _ = run(capsys, "reproduce", "--workers", "1")
    assert code == 0 and "N99-T1.11" in out and "verified" in out
    code, out, _ = run(capsys, "runs", "--json")
    assert code == 0 and len(json.loads(out)) >= 2
    code, out, _ = run(capsys, "runs")
    assert code == 0 and "N99-T1.11#0" in out


def test_reproduce_exit_status_on_failure(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import dataclasses

    t = nimlab.theorem("S19-T1")
    wrong = dataclasses.replace(t, claim=lambda g, p: sum(p))
    monkeypatch.setattr(nimlab, "theorems", lambda: [wrong])
    monkeypatch.setattr(
        nimlab, "check_theorem", lambda tid, **kw: nimlab.theory.registry.check_theorem(wrong, **kw)
    )
    code, out, err = run(capsys, "reproduce", "--workers", "1", "--no-store")
    assert code == 1 and "FAILED" in out
    assert "counterexample" in err
