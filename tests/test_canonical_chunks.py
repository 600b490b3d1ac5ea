"""Canonical tables solved in chunks on disk (nimlab.engine.chunked): the same values as the
in-process solve, resumed from the chunks kept, refused directories, and on Dask."""

from __future__ import annotations

import itertools
import json
import math
import shutil
from pathlib import Path

import numpy as np
import pytest

from nimlab import ChunkStoreError, canonical_table, game
from nimlab.core.errors import InvalidParameterError, OutputPathError, SearchTooLargeError
from nimlab.engine import _chunkstore as store


@pytest.mark.parametrize(("heaps", "low", "side"), [(2, 0, 9), (3, 1, 8), (5, 1, 12), (6, 0, 9)])
def test_the_plan_counts_every_position_once(heaps: int, low: int, side: int) -> None:
    levels = store.plan(heaps, low, side, 7)
    assert sum(p[2] for _, _, parts in levels for p in parts) == math.comb(
        side - low + heaps - 1, heaps
    )
    assert [t for t, _, _ in levels] == list(range(low * heaps, (side - 1) * heaps + 1))
    for _, tasks, parts in levels:  # consecutive runs of the level's tasks, none empty
        assert parts[0][0] == 0 and parts[-1][1] == len(tasks)
        assert all(a < b and c > 0 for a, b, c in parts)
        assert all(x[1] == y[0] for x, y in itertools.pairwise(parts))


@pytest.mark.slow  # compiles the walk on a fresh cache
@pytest.mark.parametrize(("heaps", "low", "side"), [(2, 0, 9), (3, 1, 8), (4, 1, 9), (6, 0, 6)])
def test_the_plan_covers_every_position_once_in_the_walks_order(
    heaps: int, low: int, side: int
) -> None:
    # the plan's counts (a recurrence) are the walk's (an enumeration), and the walks of
    # all parts visit every sorted position once
    from nimlab.engine._chunkwork import walk
    from nimlab.engine.compiled import _ranks

    cb = _ranks(side, heaps)
    size = math.comb(side + heaps - 1, heaps)
    seen = np.zeros(size, dtype=np.int8)  # the types of an outcome table's solve
    for total, tasks, parts in store.plan(heaps, low, side, 5):
        for a, b, count in parts:
            vals = np.ones(count, dtype=np.int8)
            assert walk(heaps, low, total, tasks[a:b], cb, seen, vals, 0) == count
            before = seen.copy()
            seen[:] = 0
            walk(heaps, low, total, tasks[a:b], cb, seen, vals, 2)  # marks the part's ranks
            assert int(seen.sum(dtype=np.int64)) == count
            seen += before
    assert int(seen.sum(dtype=np.int64)) == math.comb(side - low + heaps - 1, heaps)
    assert seen.max() == 1


def test_the_packed_outcomes_are_the_wavefronts_layout() -> None:
    # workers keep outcomes two bits a position with the wavefront's get and put: the
    # words written one position at a time are those its compiled pack makes of the
    # plain outcomes, and read back as they were written
    from nimlab.engine import _levels

    state = np.zeros(4, dtype=np.uint64)
    vals = {0: 0, 1: 1, 31: 1, 32: 0, 77: 1, 127: 0}
    plain = np.full(128, -1, dtype=np.int8)
    for ix, v in vals.items():
        _levels.put(state, ix, v)
        plain[ix] = v
    packed = np.empty(4, dtype=np.uint64)
    _levels.pack(plain, packed)
    assert np.array_equal(state, packed)
    for ix in range(128):
        assert _levels.get(state, ix) == vals.get(ix, -1)


def _same(a: object, b: object) -> None:
    assert np.array_equal(np.asarray(a.values), np.asarray(b.values))  # type: ignore[attr-defined]
    assert (a.count, a.p_count) == (b.count, b.p_count)  # type: ignore[attr-defined]


@pytest.mark.slow  # the first solve in a process compiles the wavefront (seconds)
def test_chunks_give_the_in_process_values_resume_and_run_on_dask(tmp_path: Path) -> None:
    d = tmp_path / "c"
    want = canonical_table("single-delete", 16, heaps=4, kind="outcome")
    got = canonical_table("single-delete", 16, heaps=4, kind="outcome", chunk_dir=d)
    _same(want, got)
    assert len(list(d.glob("L*.npy"))) >= 4 * 14  # a chunk a level at least
    _same(want, canonical_table("single-delete", 16, heaps=4, kind="outcome", chunk_dir=d))
    # as if stopped half way: no values yet, the chunks of the upper levels missing
    (d / "values.npy").unlink()
    (d / "values.json").unlink()
    records = sorted(d.glob("L*.json"))
    kept, lost = records[: len(records) // 2], records[len(records) // 2 :]
    for rec in lost:
        rec.unlink()
        rec.with_suffix(".npy").unlink()
    stamps = {p: p.stat().st_mtime_ns for p in kept}
    got = canonical_table("single-delete", 16, heaps=4, kind="outcome", chunk_dir=d)
    _same(want, got)
    assert {p: p.stat().st_mtime_ns for p in kept} == stamps  # kept, not solved again
    assert all(rec.is_file() for rec in lost)
    # in the same test: the wavefront compiled once (seconds) serves them all
    _lost_worker(tmp_path)
    _on_dask(tmp_path)


@pytest.mark.slow
def test_grundy_values_in_chunks(tmp_path: Path) -> None:
    want = canonical_table("single-delete", 9, heaps=4, kind="grundy")
    got = canonical_table("single-delete", 9, heaps=4, kind="grundy", chunk_dir=tmp_path / "c")
    _same(want, got)
    assert max(want.histogram()) > 1  # values beyond P/N


def _started(d: Path, size: int = 16) -> store.Run:
    """A directory of a single-delete outcome table of 4 heaps with its first chunk."""
    from nimlab.engine.chunked import _key

    g = game("single-delete")
    run = store.Run(g, 4, "outcome", size, 1, 64, str(d), _key(g, 4, "outcome", size, 1), 1 << 30)
    store.open_directory(run)
    total, _, parts = store.plan(4, 1, size, 64)[0]
    store.write_chunk(run, total, 0, parts[0], np.zeros(parts[0][2], dtype=np.uint8))
    return run


def test_a_directory_of_another_table_is_refused(tmp_path: Path) -> None:
    _started(tmp_path / "c", size=16)
    with pytest.raises(ChunkStoreError, match=r"another table \(size 16, not 17\)"):
        canonical_table("single-delete", 17, heaps=4, kind="outcome", chunk_dir=tmp_path / "c")
    with pytest.raises(ChunkStoreError, match="kind 'outcome', not 'misere'"):
        canonical_table("single-delete", 16, heaps=4, kind="misere", chunk_dir=tmp_path / "c")
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    with pytest.raises(ChunkStoreError, match="not empty and holds no manifest"):
        canonical_table("nim", 6, heaps=3, chunk_dir=tmp_path / "other")
    with pytest.raises(OutputPathError, match="does not exist"):
        canonical_table("nim", 6, heaps=3, chunk_dir=tmp_path / "no" / "c")


def test_a_damaged_chunk_is_refused_before_it_is_used(tmp_path: Path) -> None:
    d = tmp_path / "c"
    _started(d)
    npy = next(d.glob("L*.npy"))
    good = npy.read_bytes()
    data = bytearray(good)
    data[-1] ^= 1  # one value changed: its digest no longer matches its record
    npy.write_bytes(bytes(data))
    with pytest.raises(ChunkStoreError, match=f"{npy.name} is damaged.*delete"):
        canonical_table("single-delete", 16, heaps=4, kind="outcome", chunk_dir=d)
    npy.write_bytes(b"\x93NUMPY garbage")
    with pytest.raises(ChunkStoreError, match="is damaged"):
        canonical_table("single-delete", 16, heaps=4, kind="outcome", chunk_dir=d)
    npy.write_bytes(good)
    rec = next(d.glob("L*.json"))
    rec.write_text(json.dumps({**json.loads(rec.read_text()), "count": 2}))
    with pytest.raises(ChunkStoreError, match="does not belong to this table's plan"):
        canonical_table("single-delete", 16, heaps=4, kind="outcome", chunk_dir=d)
    (d / "manifest.json").write_text("{not json")
    with pytest.raises(ChunkStoreError, match=r"manifest\.json is damaged"):
        canonical_table("single-delete", 16, heaps=4, kind="outcome", chunk_dir=d)


def test_arguments_that_do_not_go_with_chunks_are_refused(tmp_path: Path) -> None:
    d = tmp_path / "c"
    with pytest.raises(InvalidParameterError, match="give chunk_dir too"):
        canonical_table("nim", 6, heaps=3, dask_local=True)
    with pytest.raises(InvalidParameterError, match="not both"):
        canonical_table("nim", 6, heaps=3, chunk_dir=d, values_file=tmp_path / "v.npy")
    with pytest.raises(InvalidParameterError, match="one heap is a sequence"):
        canonical_table("nim", 6, heaps=1, chunk_dir=d)
    with pytest.raises(SearchTooLargeError, match="in each worker"):
        canonical_table("single-delete", 200, heaps=6, kind="outcome", chunk_dir=d)
    from nimlab.core.errors import ClusterError

    with pytest.raises(ClusterError, match="no port"):
        canonical_table("nim", 6, heaps=3, chunk_dir=d, scheduler="tcp://10.0.0.1")
    assert not d.exists()  # refused before anything was made


@pytest.mark.slow
def test_a_game_whose_moves_keep_the_total_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InvalidParameterError, match="do not lower the number of stones"):
        canonical_table("lim", 6, heaps=3, chunk_dir=tmp_path / "c")


def _lost_worker(tmp_path: Path) -> None:
    # a task that runs again (its worker was lost after writing its chunk) only reads its
    # chunk; a new worker process rebuilds its values from the chunks of the levels below
    from nimlab.engine import _chunkwork as chunked
    from nimlab.engine.chunked import _key

    d = tmp_path / "lost"
    want = canonical_table("single-delete", 14, heaps=4, kind="outcome")
    g = game("single-delete")
    run = store.Run(g, 4, "outcome", 14, 1, 64, str(d), _key(g, 4, "outcome", 14, 1),
                    1 << 30)  # fmt: skip
    store.open_directory(run)
    levels = store.plan(4, 1, 14, 64)
    for li, (_, _, parts) in enumerate(levels):
        for p in range(len(parts)):
            chunked.solve_parts(run, li, [p])
            if li % 7 == 3:
                chunked.solve_parts(run, li, [p])  # run again: read, not solved
        if li % 5 == 2:
            chunked._WORKERS.clear()  # the worker is lost: the next one starts empty
    chunked.assemble(run)
    got = canonical_table("single-delete", 14, heaps=4, kind="outcome", chunk_dir=d)
    _same(want, got)


def _on_dask(tmp_path: Path) -> None:
    import distributed

    want = canonical_table("single-delete", 16, heaps=4, kind="outcome")
    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=False,
            protocol="tcp",
            host="127.0.0.1",
            dashboard_address=None,
        ) as cluster,
        distributed.Client(cluster),
    ):
        d = tmp_path / "dask"
        got = canonical_table("single-delete", 16, heaps=4, kind="outcome", chunk_dir=d,
                              scheduler=cluster.scheduler_address)  # fmt: skip
        _same(want, got)
        # stopped half way, then resumed on the cluster
        (d / "values.json").unlink()
        for rec in sorted(d.glob("L*.json"))[10:]:
            rec.unlink()
        got = canonical_table("single-delete", 16, heaps=4, kind="outcome", chunk_dir=d,
                              scheduler=cluster.scheduler_address)  # fmt: skip
        _same(want, got)
    shutil.rmtree(d)
