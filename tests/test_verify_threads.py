"""Checks on several threads (verification/pool.py): the same counts and the same first
counterexample as one worker, on the vectorised and the compiled paths."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import nimlab
from nimlab.verification import verify
from nimlab.verification.chunks import check_chunk
from nimlab.verification.fast import split_blocks
from nimlab.verification.pool import thread_chunks, uses_threads
from nimlab.verification.runner import conjecture_spec

RYUO = "3*((a//3)^(b//3)) + (a+b)%3"


def _same(game: Any, claim: dict[str, Any]) -> None:
    one = verify(game, bound=64, heaps=2, workers=1, chunk_size=256, **claim)
    two = verify(game, bound=64, heaps=2, workers=2, chunk_size=256, **claim)
    assert two.backend == "threads" and one.backend == "serial"
    assert (one.ok, one.positions_checked, one.chunks) == (
        two.ok,
        two.positions_checked,
        two.chunks,
    )
    assert one.counterexample == two.counterexample


@pytest.mark.parametrize(
    ("game", "claim"),
    [
        ("ryuo", {"formula": RYUO}),  # lines and offset moves, values growing with the heaps
        ("ryuo", {"formula": RYUO + " + (a==41)*(b==60)"}),  # fails in the last block
        ("ryuo", {"formula": RYUO + " + (a==3)*(b==60)"}),  # fails in the first block
        ("ryuo", {"p_set": "a//3 == b//3 and (a+b)%3==0"}),
        ("ryuo", {"p_set": "a//3 == b//3 and (a+b)%3==0 or a==50 and b==3"}),
        ("wythoff", {"formula": RYUO}),  # diagonals, fails at once
    ],
)
def test_vectorised_threads_agree_with_one_worker(game: str, claim: dict[str, Any]) -> None:
    g = nimlab.game(game, p=3) if game == "ryuo" else nimlab.game(game)
    _same(g, claim)


def test_vectorised_threads_resume_with_chunks_done() -> None:
    # chunks done by an earlier run are read into the line state, not checked again
    g = nimlab.game("ryuo", p=3)
    for claim in (RYUO, RYUO + " + (a==41)*(b==60)"):
        spec = conjecture_spec(g, claim, bound=64, heaps=2, chunk_size=256)
        assert spec.fast and uses_threads(spec)
        pending = list(range(5, spec.space.n_chunks))
        got = {r.index: r for r in thread_chunks(spec, pending, 3, [])}
        want = {i: check_chunk(spec, i) for i in pending}
        first = min([i for i, r in want.items() if r.failure] or [spec.space.n_chunks])
        assert set(range(5, min(first + 1, spec.space.n_chunks))) <= set(got)
        for i, r in got.items():
            assert (r.count, r.failure) == (want[i].count, want[i].failure)


def test_compiled_threads_agree_with_one_worker() -> None:
    claim = {"formula": "a ^ b ^ c", "bound": 12, "chunk_size": 100}
    one = verify("nim", workers=1, **claim)  # type: ignore[arg-type]
    two = verify("nim", workers=2, **claim)  # type: ignore[arg-type]
    assert two.backend == "threads" and two.method == one.method == "compiled"
    assert (one.ok, one.positions_checked) == (two.ok, two.positions_checked) == (True, 1728)
    bad = {"formula": "a ^ b ^ c ^ (a == 9) * (c == 2)", "bound": 12, "chunk_size": 100}
    one = verify("nim", workers=1, **bad)  # type: ignore[arg-type]
    two = verify("nim", workers=2, **bad)  # type: ignore[arg-type]
    assert not one.ok and one.counterexample == two.counterexample
    assert one.positions_checked == two.positions_checked


def test_option_index_threads_agree_with_one_worker() -> None:
    from nimlab.theory.registry import check_theorem
    from nimlab.verification import compiled

    one = check_theorem("Sh-T6*", bound=24, workers=1, store=False)
    compiled._INDEXES.clear()
    two = check_theorem("Sh-T6*", bound=24, workers=2, store=False)
    assert one.ok and two.ok and one.positions_checked == two.positions_checked


def test_process_pool_on_request(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = conjecture_spec("nim", "a ^ b ^ c", bound=6)
    monkeypatch.setenv("NIMLAB_VERIFY_POOL", "processes")
    assert not uses_threads(spec)
    monkeypatch.setenv("NIMLAB_VERIFY_POOL", "fibres")
    with pytest.raises(nimlab.NimlabError, match="threads or processes"):
        uses_threads(spec)


def test_blocks_cover_every_chunk_in_order() -> None:
    costs = [float(1 + (i % 7)) for i in range(50)]
    for parts in (1, 2, 3, 16, 60):
        blocks = split_blocks(costs, parts)
        assert [c for b in blocks for c in b] == list(range(50))
        assert len(blocks) <= parts and all(blocks)


def test_reproduce_in_parallel_finds_what_one_worker_finds() -> None:
    # the results run side by side in worker processes; the findings are those of one
    # worker, in the order asked
    from dataclasses import replace

    from nimlab.theory.registry import theorem

    small = {"S18-T8": 64, "SM-E5": 0}
    results = [replace(theorem(tid), default_bound=b) for tid, b in small.items()]
    one = nimlab.reproduce(results=results, workers=1, store=False)
    two = nimlab.reproduce(results=results, workers=2, store=False)

    def seen(fs: list[Any]) -> list[Any]:
        return [(f.theorem, f.matches, f.message, f.result.positions_checked) for f in fs]

    assert seen(one) == seen(two)
    assert [f.theorem for f in two] == list(small) and all(f.matches for f in two)


def test_reproduce_in_parallel_splits_a_large_result_and_keeps_its_first_failure(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the largest result is checked as one unit per instance side by side; merged, its
    # finding is that of the instances checked one after the other: the first failing
    # instance's smallest counterexample, the positions checked up to it
    from dataclasses import replace

    from nimlab.theory import registry, s18
    from nimlab.theory._jobs import _units
    from nimlab.theory.registry import theorem
    from nimlab.theory.reproduce import _cost, _parts

    def wrong(g: Any, heaps: tuple[Any, ...]) -> Any:  # wrong at (5, 7) for p = 3, 4
        x, y = heaps
        return s18._ryuo_vector(g, heaps) + ((x == 5) & (y == 7) & (g.p in (3, 4)))

    bad = replace(theorem("S18-T8"), id="S18-T8-wrong", default_bound=24, claim=wrong,
                  vector_claim=wrong)  # fmt: skip
    monkeypatch.setitem(registry._THEOREMS, bad.id, bad)  # checked by its id
    results = [bad, theorem("SM-E5")]
    units = _units(results, [24, 0], None, {"cost": _cost, "parts": _parts})
    assert sorted(k for i, k, _ in units if i == 0) == [0, 1, 2, 3, 4]
    one = nimlab.reproduce(results=results, workers=1, store=False)
    two = nimlab.reproduce(results=results, workers=2, store=False)

    def seen(fs: list[Any]) -> list[Any]:
        return [
            (f.theorem, f.matches, f.message, f.result.positions_checked, f.result.method,
             f.result.counterexample)
            for f in fs
        ]  # fmt: skip

    assert seen(one) == seen(two)
    assert not one[0].matches and one[0].result.counterexample.position == (5, 7)


def test_reproduce_in_parallel_checks_a_correction_first(tmp_path: Path) -> None:
    # a refuted statement starts once its correction has its finding (its disagreement
    # counts are measured against it); the others start at once, largest first
    import time as _time

    from nimlab.theory.registry import VerificationResult, theorem

    log = tmp_path / "log"

    def check(tid: str, bound: int, **run: Any) -> VerificationResult:
        with log.open("a") as f:
            f.write(f"start {tid}\n")
        _time.sleep(0.3 if tid == "Sh-T6*" else 0.05)
        with log.open("a") as f:
            f.write(f"end {tid}\n")
        return VerificationResult.of_theorem(tid, bound, 1, True, 0.0, None, "local", ())

    results = [theorem(t) for t in ("Sh-T6", "S19-T1", "Sh-T6*", "SM-E5")]
    found = nimlab.reproduce(results=results, workers=2, store=False, check=check)
    lines = log.read_text().split("\n")
    assert lines.index("start Sh-T6") > lines.index("end Sh-T6*")
    assert [f.theorem for f in found] == ["Sh-T6", "S19-T1", "Sh-T6*", "SM-E5"]


@pytest.mark.parametrize("strips", [False, True])
@pytest.mark.parametrize("workers", [1, 2, 3])
def test_vectorised_state_widens_as_values_grow(
    workers: int, strips: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Ryuo Nim(3)'s values grow with the heaps (up to about 256 below 200): the line
    # state starts one or two words wide and is widened (copied) several times. Two
    # wrong values are planted in one chunk, at (190, 3) and (189, 20): the first in
    # row-major order, (189, 20), is found whatever the workers, also when the kernel
    # takes the columns in strips of 16 (one worker) and meets (190, 3) first
    from nimlab.verification import fast

    if strips:
        monkeypatch.setattr(fast, "STRIP_BYTES", 1)
    g = nimlab.game("ryuo", p=3)
    good = verify(g, bound=200, heaps=2, workers=workers, chunk_size=200 * 8, formula=RYUO)
    assert good.ok and good.positions_checked == 200 * 200
    bad = verify(
        g, bound=200, heaps=2, workers=workers, chunk_size=200 * 8,
        formula=RYUO + " + (a==190)*(b==3) + (a==189)*(b==20)",
    )  # fmt: skip
    assert not bad.ok and bad.counterexample is not None
    assert tuple(bad.counterexample.position) == (189, 20)
    assert bad.positions_checked == 189 * 200 + 21
    assert bad.method == "vectorised"


def _wrong_at(bad: tuple[int, ...]) -> Any:
    def claim(g: Any, position: tuple[int, ...]) -> bool:
        right = bool(g.closed_is_p(position))
        return not right if position == bad else right

    return claim


def test_option_index_threads_find_the_first_failure() -> None:
    # small chunks: the threads record the index in batches, largest chunks first, then
    # check in batches; a failure ends its batch and the run stops where one worker does
    import dataclasses

    from nimlab.theory.registry import Instance, check_theorem, theorem
    from nimlab.verification import compiled
    from nimlab.verification.spaces import SortedBoxSpace

    def small(b: int) -> Any:
        yield Instance(nimlab.game("single-delete"), space=SortedBoxSpace(4, b, 1, 300))

    for bad in (None, (1, 2, 3, 5), (5, 9, 11, 17)):
        t = dataclasses.replace(theorem("Sh-T6*"), instances=small)
        if bad is not None:
            t = dataclasses.replace(t, claim=_wrong_at(bad), scalar_claim=None)
        got = []
        for w in (1, 2, 3):
            compiled._INDEXES.clear()
            r = check_theorem(t, bound=20, workers=w, store=False)
            cex = r.counterexample.position if r.counterexample is not None else None
            got.append((r.ok, r.positions_checked, cex))
        assert got[0] == got[1] == got[2]
        assert got[0][0] == (bad is None) and got[0][2] == bad


def test_thread_queue_hands_out_shrinking_batches() -> None:
    from nimlab.verification.pool import _Queue

    q = _Queue(list(range(100)), 2, [])
    assert q.take(0.0, 0) == [0]  # nothing measured: one chunk
    first = q.take(0.001, 1)  # 1 ms a chunk: 20 ms of chunks, at most a quarter of 99
    assert first == list(range(1, 21))
    sizes = []
    while batch := q.take(0.0001, 10):  # 10 us a chunk: the share of what is left bounds it
        sizes.append(len(batch))
    assert sum(sizes) == 79 and sizes == sorted(sizes, reverse=True) and sizes[-1] == 1
    stop = [5]
    q = _Queue(list(range(10)), 2, stop)
    assert [i for _ in range(10) for i in q.take(0.0, 0)] == [0, 1, 2, 3, 4, 5]
