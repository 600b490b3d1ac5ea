"""The vectorised check on threads by bands of columns (verification/_columns.py): each
thread continues the rows (and diagonals) that the thread of the band on its left hands
over. The claims are exhaustive-search tables with one value planted where only a line
crossing from a left band shows it wrong (a band that lost the state from its left
would pass it), and the theorem S18-T8 itself, on 1 and on 2 threads."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pytest
from two_heap_search import grundy_box

import nimlab
from nimlab.core.ruleset import Ruleset
from nimlab.verification._columns import ColumnRun, _Offer
from nimlab.verification.chunks import check_chunk
from nimlab.verification.local import Claim
from nimlab.verification.pool import thread_chunks
from nimlab.verification.runner import conjecture_spec

N = 48


@dataclass(frozen=True, eq=False)
class _TableClaim(Claim):
    """The values (or P-flags) of a table: ``table[a, b]`` at ``(a, b)``."""

    table: Any = field(repr=False)

    def value(self, game: Ruleset[Any], position: Any) -> Any:
        v = self.table[tuple(position)]
        return bool(v) if self.table.dtype == np.bool_ else int(v)

    def key(self) -> str:
        return "table " + hashlib.sha256(self.table.tobytes()).hexdigest()[:16]

    def vectorised(self, game: Ruleset[Any], bound: int) -> Any:
        t = self.table
        return lambda a, b: t[a, b]


def _plant(game: Ruleset[Any], t: Any, line: str, lo: int) -> tuple[int, int]:
    """A position right of column *lo* (below the first chunks) one of whose options is a
    P-position left of *lo* along *line* (its row or its diagonal), its only one: the
    value 0 claimed there (a claimed P-position reaching another), only that line can
    show the claim wrong."""
    for a in range(N // 4, N):
        for b in range(lo, N):
            opts = list(game.moves((a, b)))
            vals = [int(t[q]) for q in opts]
            for q in opts:
                on = q[0] == a if line == "row" else q[0] - q[1] == a - b
                if on and q[1] < lo and t[q] == 0 and vals.count(0) == 1:
                    return (a, b)
    raise AssertionError("no position to plant")


def _by_threads(spec: Any, workers: int) -> dict[int, Any]:
    got = {r.index: r for r in thread_chunks(spec, list(range(spec.space.n_chunks)), workers, [])}
    assert {r.method for r in got.values()} == {"vectorised"}  # no chunk left to Python
    return got


@pytest.mark.parametrize("move", ["", "cede", "give", "cede give"])
@pytest.mark.parametrize(
    ("name", "line", "workers"),
    [("ryuo", "row", 2), ("ryuo", "row", 3), ("wythoff", "diag", 2), ("wythoff", "diag", 3)],
)
def test_bands_hand_their_lines_over(
    name: str, line: str, workers: int, move: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    moved: list[str] = []
    if "cede" in move:  # every band cedes 3 columns to the next after each chunk

        def cede3(self: ColumnRun, k: int, lo: int, hi: int, top: int) -> int:
            if k + 1 >= self.workers or self.offers[k] is not None:
                return hi
            new = max(self._keep(k, lo), hi - 3)
            moved.extend(["cede"] * (new < hi))
            return new

        monkeypatch.setattr(ColumnRun, "_cede", cede3)
    if "give" in move:  # and gives 2 columns to the one before, when none are on their way

        def give2(self: ColumnRun, k: int, c: int, lo: int, hi: int) -> None:
            if k and self.offers[k - 1] is None and self.tops[k - 1] == lo and hi - lo > 3:
                self.offers[k - 1] = _Offer(max(c + 1, self.started[k - 1] + 1), lo, 2)
                moved.append("give")

        monkeypatch.setattr(ColumnRun, "_give", give2)
    g = nimlab.game(name, p=3) if name == "ryuo" else nimlab.game(name)
    t = grundy_box(g, N)
    base = conjecture_spec(g, "a", bound=N, heaps=2, chunk_size=4 * N)
    lo = N // workers - 3 * ("cede" in move)  # left of the second band's first column
    pos = _plant(g, t, line, lo)
    planted = t.copy()
    planted[pos] = 0
    claims: list[tuple[Any, Any]] = [("grundy", t), ("grundy", planted), ("p-set", planted == 0)]
    for kind, table in claims:
        spec = replace(base, kind=kind, claim=_TableClaim(table))
        assert spec.fast
        got = _by_threads(spec, workers)
        fails = [r.failure.position for r in got.values() if r.failure]
        if table is t:
            assert not fails and sum(r.count for r in got.values()) == N * N
        else:  # the planted 0 fails first
            assert fails == [pos]
        for i, r in got.items():
            want = check_chunk(spec, i)
            assert (r.count, r.failure) == (want.count, want.failure)
    for kind in move.split():  # each kind of move happened
        assert kind in moved


@pytest.mark.parametrize("formula", ["3*((a//3)^(b//3)) + (a+b)%3", "a ^ b"])
def test_bands_same_first_failure_as_one_thread(formula: str) -> None:
    # S18-T8's formula for p = 3 holds in Ryuo(3) and fails in Ryuo(4); Nim's fails at once
    for p in (3, 4):
        g = nimlab.game("ryuo", p=p)
        one = nimlab.verify(g, formula, bound=96, heaps=2, workers=1, chunk_size=960)
        two = nimlab.verify(g, formula, bound=96, heaps=2, workers=2, chunk_size=960)
        assert two.backend == "threads" and one.method == two.method == "vectorised"
        assert (one.ok, one.positions_checked, one.counterexample) == (
            two.ok,
            two.positions_checked,
            two.counterexample,
        )
        assert one.ok == (p == 3 and formula != "a ^ b")


def test_s18_t8_on_one_and_two_threads() -> None:
    # the theorem's own instances (Ryuo(p), p = 1..5): each chunk as on one worker
    from nimlab.theory.registry import TheoremClaim, _instance_specs, theorem

    specs = [s for _, s in _instance_specs(theorem("S18-T8"), 300, TheoremClaim("S18-T8"), None)]
    assert len(specs) == 5
    for spec in specs:
        spec = replace(spec, space=replace(spec.space, rows=20))  # 15 chunks of 20 rows
        got = _by_threads(spec, 2)
        assert len(got) == 15 and not any(r.failure for r in got.values())
        assert [got[i].count for i in range(15)] == [check_chunk(spec, i).count for i in range(15)]
        assert sum(r.count for r in got.values()) == 300 * 300
