"""The genus and misere-quotient commands."""

from __future__ import annotations

import json

import pytest

from nimlab.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_genus_sequence_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "genus", "octal", "-p", "code=0.77", "-n", "8", "--json")
    assert code == 0
    data = json.loads(out)
    assert [g["symbol"] for g in data["genus"]] == ["0", "1", "2", "3", "1", "4^146", "3", "2^2"]


def test_genus_of_a_sum(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "genus", "octal", "-p", "code=0.77", "2", "7", "8")
    assert code == 0
    assert out.splitlines()[0].startswith("1^1")
    assert "genus theory: N" in out
    code, out, _ = run(capsys, "genus", "nim", "-n", "3", "--latex", "--full")
    assert code == 0 and r"\begin{tabular}" in out


def test_genus_errors(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "genus", "nim")
    assert code == 2 and err.startswith("error:") and len(err.strip().splitlines()) == 1


def test_misere_quotient_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "misere-quotient", "0.75", "--max-heap", "12")
    assert code == 0
    assert "order 8" in out and "<a, b, c | a^2 = 1, bc = ab, c^2 = b^2, b^3 = b>" in out
    code, out, _ = run(capsys, "misere-quotient", "0.3333", "--max-heap", "3", "--json")
    data = json.loads(out)
    assert data["order"] == 6 and data["p_portion"] == ["a", "b^2"]
    code, out, _ = run(capsys, "misere-quotient", "0.3333", "--max-heap", "3", "1", "2", "2")
    assert code == 0 and "misère N" in out and "winning move: 2 2" in out
    code, out, _ = run(capsys, "misere-quotient", "0.75", "--max-heap", "6", "--latex")
    assert code == 0 and r"\langle" in out


def test_misere_quotient_errors(capsys: pytest.CaptureFixture[str]) -> None:
    for args in (
        ("misere-quotient", "0.x", "--max-heap", "3"),
        ("misere-quotient", "0.77", "--max-heap", "5", "9"),
        ("misere-quotient", "0.77", "--max-heap", "20", "--max-order", "5"),
    ):
        code, _, err = run(capsys, *args)
        assert code == 2 and err.startswith("error:")
