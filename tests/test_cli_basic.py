"""The command line: values, JSON, and one-line errors with exit status 2."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from nimlab.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("grundy", "nim", "3", "4", "5"), "2"),
        (("outcome", "nim", "1", "2", "3"), "P"),
        (("grundy", "wythoff", "3", "5"), "0"),
        (("grundy", "subtraction", "-p", "S=1,3,4", "10"), "1"),
        (("grundy", "subtraction", "10", "-p", "S=1,3,4"), "1"),
        (("outcome", "nim", "1", "1", "--misere"), "N"),
    ],
)
def test_values(capsys: pytest.CaptureFixture[str], args: tuple[str, ...], expected: str) -> None:
    code, out, _ = run(capsys, *args)
    assert code == 0
    assert out.strip() == expected


def test_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "moves", "nim", "3", "4", "5", "--winning", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["moves"] == [[1, 4, 5]]
    code, out, _ = run(capsys, "grundy", "nim", "3", "4", "5", "--json")
    assert json.loads(out)["grundy"] == 2
    code, out, _ = run(capsys, "list", "--json")
    assert "nim" in {g["name"] for g in json.loads(out)}


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("grundy", "nim", "-3", "4"), "heap 1 is -3"),
        (("grundy", "nimm", "3"), "unknown game"),
        (("grundy", "subtraction", "-p", "S=0,1", "3"), "positive"),
        (("grundy", "subtraction", "-p", "S", "3"), "NAME=VALUE"),
        (("grundy", "nim", "x"), "cannot read 'x'"),
        (("grundy", "wythoff", "3"), "exactly 2 heaps"),
        (("outcome", "nim", "3", "--method", "nope"), "nope"),
        (("grundy", "subtraction", "-p", "S=1 3 4", "10"), "write it S=1,3,4"),
        (("grundy", "all-but", "-p", "S=2 5", "10"), "write it S=2,5"),
    ],
)
def test_user_errors_exit_2_one_line(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], fragment: str
) -> None:
    code, _out, err = run(capsys, *args)
    assert code == 2
    assert fragment in err
    assert "Traceback" not in err


def test_console_script_and_light_imports() -> None:
    code = (
        "import sys; from nimlab.cli import main; rc = main(['grundy','nim','3','4','5']);"
        "heavy = [m for m in ('numba','dask','matplotlib','numpy') if m in sys.modules];"
        "print(heavy); sys.exit(rc)"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert res.stdout.splitlines() == ["2", "[]"]


@pytest.mark.parametrize("text", ["1 3 4", "1,3 4", " 1 3,4"])
def test_integers_separated_by_spaces_are_an_error_in_python(text: str) -> None:
    """``S=1 3 4`` is not S={134}: the one parser (core/params.py) refuses it everywhere."""
    import nimlab

    with pytest.raises(nimlab.InvalidParameterError, match=r"S=1,3,4"):
        nimlab.game("subtraction", S=text)
    assert nimlab.game("subtraction", S=" 1, 3 ,4").label() == "subtraction(S={1,3,4})"
