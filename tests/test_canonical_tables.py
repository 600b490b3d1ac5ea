"""Canonical tables (sorted positions of order-free games) and the parallel wavefront."""

from __future__ import annotations

import io
import itertools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import nimlab
from nimlab import canonical_table, game, table
from nimlab.core.errors import InvalidParameterError, InvalidPositionError, SearchTooLargeError
from nimlab.engine.compiled import CompiledSolver

# numba compiles a kernel per game, number of heaps and kind: seconds on a loaded machine
pytestmark = pytest.mark.timeout(600)

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "my_games.py"


def _agrees_with_box(t: nimlab.CanonicalTable, box: Any, kind: str) -> None:
    """Every cell of the full box (exhaustive search) has its sorted position's value."""
    data, mask = np.ma.getdata(box), np.ma.getmaskarray(box)
    seen = 0
    for cell in itertools.product(*(range(d) for d in data.shape)):
        if mask[cell]:
            continue
        v = t.value(cell)
        if kind == "grundy":
            assert v == int(data[cell]), cell
        else:  # the box holds True at P-positions
            assert (v == 0) == bool(data[cell]), cell
        seen += 1
    assert seen == mask.size - int(mask.sum())
    assert t.count == len({tuple(sorted(c)) for c in zip(*np.nonzero(~mask), strict=True)})


@pytest.mark.parametrize(
    ("name", "heaps", "size", "kind"),
    [
        ("single-delete", 4, 7, "outcome"),
        ("single-delete", 4, 6, "grundy"),
        ("nim", 3, 8, "grundy"),
        ("nim", 3, 6, "misere"),
    ],
)
def test_agrees_with_the_searched_box(name: str, heaps: int, size: int, kind: str) -> None:
    t = canonical_table(name, size, heaps=heaps, kind=kind)
    box = table(game(name), (size,) * heaps, kind=kind, engine="generic")
    _agrees_with_box(t, box, kind)


def test_users_game_from_the_examples() -> None:
    g = game(f"{EXAMPLES}:pow2-both")
    t = canonical_table(g, 24, kind="grundy")
    assert t.method == "compiled engine"
    _agrees_with_box(t, table(g, (24, 24), engine="generic"), "grundy")


@dataclass(frozen=True)
class _Pow2Class(nimlab.HeapRuleset):
    """pow2-both of examples/my_games.py written as a class (no compiled move model)."""

    name = "pow2-class-test"
    n_heaps = 2

    def moves(self, position: tuple[int, ...]) -> Any:
        x, y = position
        for t in range(1, x + 1):
            yield (x - t, y)
        for t in range(1, y + 1):
            yield (x, y - t)
        p = 1
        while p <= min(x, y):
            yield (x - p, y - p)
            p *= 2


def test_a_game_with_no_compiled_model_is_searched() -> None:
    g = game(f"{EXAMPLES}:pow2-both")
    t = canonical_table(g, 10, kind="outcome")
    u = canonical_table(_Pow2Class(), 10, kind="outcome")
    assert (t.method, u.method) == ("compiled engine", "search")
    assert np.array_equal(t.values, u.values)
    with pytest.raises(SearchTooLargeError, match="max_positions"):
        canonical_table(_Pow2Class(), 10, kind="outcome", max_positions=10)


def test_reference_counts_of_the_c_program() -> None:
    # ../shared/reference/single_delete_table.c 4 64: 720,720 positions, 77,560 P
    t = canonical_table("single-delete", 64, heaps=4, kind="outcome")
    assert (t.count, t.p_count) == (720_720, 77_560)
    assert t.values.dtype == np.uint8 and t.values.nbytes == 720_720


@pytest.mark.parametrize(
    ("name", "heaps", "side", "kind"),
    [
        ("single-delete", 4, 18, "outcome"),
        # the same kernel for every kind (kinds are run-time arguments)
        ("single-delete", 4, 11, "misere"),
        ("single-delete", 4, 9, "grundy"),
        # one more compile of the parallel kernel (seconds): in the slow suite
        pytest.param("nim", 3, 12, "grundy", marks=pytest.mark.slow),
    ],
)
def test_the_parallel_wavefront_equals_the_serial_engine(
    name: str, heaps: int, side: int, kind: str
) -> None:
    g = game(name)
    a = CompiledSolver(g, heaps, kind, parallel=False)
    b = CompiledSolver(g, heaps, kind, parallel=True)
    a.solve_below(side)
    b.solve_below(side)
    assert np.array_equal(a.state, b.state)
    assert int((b.state >= 0).sum()) > 0


@pytest.mark.slow
def test_a_game_whose_moves_keep_the_total_falls_back_exactly() -> None:
    # Lim moves can raise a heap: levels defer, the serial engine finishes, same values
    g = game("lim")
    b = CompiledSolver(g, 3, "grundy", parallel=True)
    b.solve_below(6)
    box = table(g, (6, 6, 6), engine="generic")
    t = np.asarray(box)
    for cell in itertools.product(range(6), repeat=3):
        assert b.value(cell) == int(t[cell])


def test_lookups_in_any_order_and_p_positions() -> None:
    t = canonical_table("single-delete", 12, heaps=4, kind="outcome")
    for pos in [(1, 3, 5, 7), (2, 2, 2, 2), (4, 6, 8, 10), (11, 1, 2, 9)]:
        values = {t.value(p) for p in itertools.permutations(pos)}
        assert len(values) == 1
        assert t.is_p(pos) == (str(nimlab.outcome("single-delete", pos, method="search")) == "P")
    rows = t.rows()
    assert rows.shape == (len(t), 4)
    assert np.all(np.diff(rows, axis=1) >= 0)
    assert np.array_equal(t.ranks(rows[:, ::-1]), np.arange(len(t)))
    ps = list(t.p_positions())
    assert len(ps) == t.p_count == int(np.count_nonzero(t.values == 0))
    assert ps == [tuple(r) for r in t.p_array().tolist()]
    assert all(t.is_p(p) for p in ps)
    with pytest.raises(InvalidPositionError):
        t.value((0, 1, 2, 3))  # heaps are positive
    with pytest.raises(InvalidPositionError):
        t.value((1, 2, 3, 12))  # beyond the table
    with pytest.raises(InvalidPositionError):
        t.value((1, 2, 3))


def test_exports_round_trip(tmp_path: Path) -> None:
    t = canonical_table("nim", 9, heaps=3, kind="grundy")
    npy = tmp_path / "t.npy"
    t.write_npy(npy)
    a = np.load(npy)
    assert a.shape == (t.count, 4)
    assert np.array_equal(a[:, :3], t.rows())
    assert np.array_equal(a[:, 3], t.values)
    assert np.array_equal(a[:, 3], a[:, 0] ^ a[:, 1] ^ a[:, 2])  # Bouton
    f = io.StringIO()
    t.write_csv(f)
    lines = f.getvalue().splitlines()
    assert lines[0] == "h1,h2,h3,value"
    back = np.array([[int(x) for x in line.split(",")] for line in lines[1:]])
    assert np.array_equal(back, a)
    o = canonical_table("single-delete", 6, heaps=3, kind="outcome")
    path = tmp_path / "o.csv"
    o.write_csv(path)
    text = path.read_text().splitlines()
    assert sum(line.endswith(",P") for line in text) == o.p_count


def test_budget_refused_before_any_work() -> None:
    with pytest.raises(SearchTooLargeError, match=r"needs about 871 MiB"):
        canonical_table("single-delete", 256, heaps=4, kind="outcome", max_bytes=2**28)
    with pytest.raises(SearchTooLargeError, match="MiB"):
        canonical_table("single-delete", 64, heaps=6, max_bytes=10**6)


def test_bad_requests() -> None:
    with pytest.raises(InvalidParameterError, match="order of the heaps matters"):
        canonical_table("emperor", 5, heaps=2)
    with pytest.raises(InvalidParameterError, match="kind"):
        canonical_table("nim", 5, heaps=2, kind="values")
    with pytest.raises(InvalidParameterError, match="heaps"):
        canonical_table("single-delete", 5)
    with pytest.raises(InvalidParameterError):
        canonical_table("nim", 5, heaps=7)
    with pytest.raises(InvalidParameterError):
        canonical_table("nim", 0, heaps=2)


def test_cli_json_and_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from nimlab.cli import main

    args = ["table", "single-delete", "--heaps", "4", "--size", "8", "--canonical"]
    assert main([*args, "--kind", "outcome", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    ref = canonical_table("single-delete", 8, heaps=4, kind="outcome")
    assert (data["positions"], data["p_positions"]) == (ref.count, ref.p_count) == (210, 53)
    assert data["canonical"] is True
    npy = tmp_path / "a.npy"
    assert main([*args, "--kind", "outcome", "--npy", str(npy)]) == 0
    assert "P-positions: 53" in capsys.readouterr().out
    assert np.load(npy).shape == (210, 5)
    assert main([*args, "--png", str(tmp_path / "x.png")]) == 2
    assert "--png" in capsys.readouterr().err
    assert main([*args, "--memory-budget", "1KB"]) == 2
    assert "MiB" in capsys.readouterr().err


def test_values_written_to_disk_and_reopened(tmp_path: Path) -> None:
    path = tmp_path / "sd4.npy"
    t = canonical_table("single-delete", 14, heaps=4, kind="outcome", values_file=path)
    ref = canonical_table("single-delete", 14, heaps=4, kind="outcome")
    assert isinstance(t.values, np.memmap)
    assert np.array_equal(np.load(path), ref.values)
    u = nimlab.CanonicalTable.open(path, "single-delete", size=14, heaps=4, kind="outcome")
    assert (u.count, u.p_count) == (ref.count, ref.p_count)
    assert u.is_p((13, 1, 5, 3))
    assert u.is_p((2, 4, 6, 8)) == ref.is_p((2, 4, 6, 8))
    with pytest.raises(InvalidParameterError, match="values"):
        nimlab.CanonicalTable.open(path, "single-delete", size=15, heaps=4, kind="outcome")
