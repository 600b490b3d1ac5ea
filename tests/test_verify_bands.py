"""The vectorised check on threads by bands of columns (verification/_columns.py): each
band continues the rows (and diagonals) that the band on its left hands over, whichever
thread checks it, with 1 to 3 bands per thread. The claims are exhaustive-search tables with one value planted where only a line
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
from nimlab.verification import _columns
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


def _plant(game: Ruleset[Any], t: Any, line: str, lo: int) -> tuple[int, int] | None:
    """A position right of column *lo* (below the first chunks) one of whose options is a
    P-position left of *lo* along *line* (its row or its diagonal), its only one: the
    value 0 claimed there (a claimed P-position reaching another), only that line can
    show the claim wrong (None: no such position)."""
    for a in range(N // 4, N):
        for b in range(lo, N):
            opts = list(game.moves((a, b)))
            vals = [int(t[q]) for q in opts]
            for q in opts:
                on = q[0] == a if line == "row" else q[0] - q[1] == a - b
                if on and q[1] < lo and t[q] == 0 and vals.count(0) == 1:
                    return (a, b)
    return None


def _by_threads(spec: Any, workers: int) -> dict[int, Any]:
    got = {r.index: r for r in thread_chunks(spec, list(range(spec.space.n_chunks)), workers, [])}
    assert {r.method for r in got.values()} == {"vectorised"}  # no chunk left to Python
    return got


@pytest.mark.parametrize("per_worker", [1, 2, 3])
@pytest.mark.parametrize(
    ("name", "line", "workers"),
    [("ryuo", "row", 2), ("ryuo", "row", 3), ("wythoff", "diag", 2), ("wythoff", "diag", 3)],
)
def test_bands_hand_their_lines_over(
    name: str, line: str, workers: int, per_worker: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_columns, "BANDS_PER_WORKER", per_worker)
    bands = workers * per_worker
    g = nimlab.game(name, p=3) if name == "ryuo" else nimlab.game(name)
    t = grundy_box(g, N)
    base = conjecture_spec(g, "a", bound=N, heaps=2, chunk_size=4 * N)
    # right of a band's first column (the second band's, the next ones' where one exists)
    places = [p for j in range(1, bands) if (p := _plant(g, t, line, N * j // bands))]
    assert places and places[0][1] >= N // bands
    claims: list[tuple[str, Any, Any]] = [("grundy", t, None)]
    for pos in dict.fromkeys(places[:3]):
        planted = t.copy()
        planted[pos] = 0
        claims += [("grundy", planted, pos), ("p-set", planted == 0, pos)]
    for kind, table, pos in claims:
        spec = replace(base, kind=kind, claim=_TableClaim(table))
        assert spec.fast
        got = _by_threads(spec, workers)
        fails = [r.failure.position for r in got.values() if r.failure]
        if pos is None:
            assert not fails and sum(r.count for r in got.values()) == N * N
        else:  # the planted 0 fails first
            assert fails == [pos]
        for i, r in got.items():
            want = check_chunk(spec, i)
            assert (r.count, r.failure) == (want.count, want.failure)


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


def test_bands_too_wide_take_the_exact_path(monkeypatch: pytest.MonkeyPatch) -> None:
    # the bands' state allowed one word a bitset and the value 200 planted in chunk 3:
    # chunks 0-2 by the kernel, the next ones on the exact path, which finds the planted
    # value in chunk 3 (each chunk as its exact check)
    g = nimlab.game("ryuo", p=3)
    t = grundy_box(g, N)
    assert t.max() < 64
    planted = t.copy()
    planted[35, 40] = 200
    spec = replace(
        conjecture_spec(g, "a", bound=N, heaps=2, chunk_size=10 * N), claim=_TableClaim(planted)
    )
    monkeypatch.setattr(_columns, "MAX_STATE_BYTES", 3 * N * 8)
    got = {r.index: r for r in thread_chunks(spec, list(range(spec.space.n_chunks)), 2, [])}
    methods = [got[i].method for i in sorted(got)]
    assert methods[:3] == ["vectorised"] * 3 and set(methods[3:]) == {"python"}
    for i, r in got.items():
        want = check_chunk(spec, i)
        assert (r.count, r.failure) == (want.count, want.failure)
    assert got[3].failure is not None and got[3].failure.position == (35, 40)
