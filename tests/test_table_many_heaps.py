"""nimlab table for 4 to 6 heaps (summary, CSV rows, JSON) and --memory-budget."""

from __future__ import annotations

import csv
import itertools
import json
from collections import Counter
from pathlib import Path

import pytest

import nimlab
from nimlab.cli import main
from nimlab.cli.render_cmd import memory_budget


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def _xor(cells: tuple[int, ...]) -> int:
    v = 0
    for h in cells:
        v ^= h
    return v


def test_four_heaps_summary_counts_every_value(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "table", "nim", "--heaps", "4", "--size", "6", "--json")
    assert code == 0
    s = json.loads(out)
    expected = Counter(_xor(c) for c in itertools.product(range(6), repeat=4))
    assert s["histogram"] == {str(v): c for v, c in sorted(expected.items())}
    assert s["p_positions"] == expected[0] and s["positions"] == 6**4 and s["heaps"] == 4
    code, out, _ = run(capsys, "table", "nim", "--heaps", "4", "--size", "6")
    assert code == 0
    assert f"P-positions: {expected[0]}" in out and "largest value: 7" in out


def test_outcome_summary_of_a_game_with_invalid_cells(capsys: pytest.CaptureFixture[str]) -> None:
    # single-delete takes positive heaps: the cells with a 0 are not positions
    code, out, _ = run(
        capsys, "table", "single-delete", "--heaps", "4", "--size", "6", "--kind", "outcome",
        "--json",
    )  # fmt: skip
    assert code == 0
    s = json.loads(out)
    ps = list(itertools.combinations_with_replacement(range(1, 6), 4))
    search = nimlab.Solver(nimlab.game("single-delete"))
    p_sorted = {p for p in ps if search.is_p(p, method="search")}
    cells = list(itertools.product(range(1, 6), repeat=4))
    assert s["positions"] == len(cells) == 5**4
    assert s["p_positions"] == sum(tuple(sorted(c)) in p_sorted for c in cells)
    assert s["n_positions"] == s["positions"] - s["p_positions"]


def test_csv_rows_and_json_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    c, j = tmp_path / "t.csv", tmp_path / "t.json"
    code, _, err = run(
        capsys, "table", "nim", "--heaps", "5", "--size", "3x2x3x2x3",
        "--csv", str(c), "--json-file", str(j),
    )  # fmt: skip
    assert code == 0 and "wrote" in err
    rows = list(csv.reader(c.open()))
    assert rows[0] == ["h1", "h2", "h3", "h4", "h5", "value"]
    body = [tuple(map(int, r)) for r in rows[1:]]
    assert [r[:5] for r in body] == list(itertools.product(*(range(d) for d in (3, 2, 3, 2, 3))))
    assert all(r[5] == _xor(r[:5]) for r in body)
    data = json.loads(j.read_text())
    assert data["shape"] == [3, 2, 3, 2, 3] and data["values"][2][1][2][1][2] == 2 ^ 1 ^ 2 ^ 1 ^ 2


def test_grids_need_three_heaps_or_fewer(capsys: pytest.CaptureFixture[str]) -> None:
    # without --slice (which draws a 2-D slice of them: test_render_cli)
    for flag in (["--png", "x.png"], ["--markdown", "x.md"]):
        code, _, err = run(capsys, "table", "nim", "--heaps", "4", "--size", "3", *flag)
        assert code == 2 and "1 to 3 heaps" in err and err.count("\n") == 1
    code, _, err = run(capsys, "table", "nim", "--heaps", "7", "--size", "3")
    assert code == 2


def test_memory_budget(capsys: pytest.CaptureFixture[str]) -> None:
    assert memory_budget("4GB") == 4 * 10**9
    assert memory_budget("4 GiB") == memory_budget("4g") == 4 * 2**30
    assert memory_budget("1.5KiB") == 1536 and memory_budget("123") == 123
    for bad in ("", "x", "4XB", "-3MB", "0"):
        code, _, err = run(capsys, "table", "nim", "--size", "3", "--memory-budget", bad)
        assert code == 2 and "memory budget" in err
    # checked before any work: a table that does not fit is refused at once
    code, _, err = run(
        capsys, "table", "nim", "--heaps", "4", "--size", "60", "--memory-budget", "10MB"
    )
    assert code == 2 and "limit" in err
    code, _, err = run(
        capsys, "table", "wythoff", "--size", "2000", "--memory-budget", "1MB", "--json"
    )
    assert code == 2 and "limit" in err
    code, out, _ = run(
        capsys, "table", "wythoff", "--size", "4", "--memory-budget", "1MB", "--json"
    )
    assert code == 0 and json.loads(out)["values"][1] == [1, 2, 0, 4]
