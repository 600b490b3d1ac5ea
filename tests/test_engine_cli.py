"""Engine commands: nimlab sequence, periodicity, nimmul (issue 6)."""

from __future__ import annotations

import json

import pytest

from nimlab.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_sequence_subtraction(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "sequence", "subtraction", "-p", "S=1,3,4", "-n", "14")
    assert code == 0
    assert out.split() == ["0", "1", "0", "1", "2", "3", "2", "0", "1", "0", "1", "2", "3", "2"]


def test_sequence_kayles_period_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "sequence", "octal", "-p", "code=0.77", "-n", "200", "--period", "--json"
    )
    assert code == 0
    data = json.loads(out)
    assert data["sequence"][:12] == [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]
    per = data["periodicity"]
    assert (per["period"], per["preperiod"], per["proved"]) == (12, 71, True)


def test_periodicity_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "periodicity", "allbut", "-p", "S=4,8", "-n", "300")
    assert code == 0
    assert out.startswith("period 12, saltus 4, preperiod 0, inner period 4 (proved")


def test_nimmul(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "nimmul", "16", "16")[1].strip() == "24"
    code, out, _ = run(capsys, "nimmul", str(2**64), str(2**64), "--json")
    assert code == 0 and json.loads(out)["product"] == 2**64 + 2**63


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("sequence", "octal", "-p", "code=0.z", "-n", "5"), "octal code"),
        (("sequence", "wythoff", "-n", "5"), "one-heap"),
        (("nimmul", "x", "3"), "non-negative integer"),
        (("nimmul", "-1", "3"), "non-negative"),
    ],
)
def test_errors_are_one_line(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    code, _out, err = run(capsys, *args)
    assert code == 2
    assert message in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
