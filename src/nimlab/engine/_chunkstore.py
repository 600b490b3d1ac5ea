"""The directory of a chunked canonical solve: its plan, manifest and chunks (data only).

A chunked solve (:mod:`nimlab.engine.chunked`) cuts the sorted positions into *levels*
(number of stones) and each level into *parts*: runs of consecutive tasks of
:func:`nimlab.engine._levels.prefixes` (the two largest heaps) of about
``chunk_positions`` positions. The plan depends only on the table (heaps, smallest heap,
size) and the chunk size, so every process computes the same one.

The directory holds ``manifest.json`` (what the table is: game, kind, heaps, size, the
move model's and nimlab's identity, the chunk size), one ``L{total}-{part}.npy`` of
values per part with its record ``L{total}-{part}.json`` (written last: a part is done
once its record is there; the digest of its values), and at the end ``values.npy`` (every
value, in colex order: :meth:`~nimlab.engine.canonical.CanonicalTable.open`) with
``values.json``. Every file is written to a temporary name and renamed, so a process
killed at any point leaves whole files. Nothing read from the directory is run: JSON
records of known keys and types, ``.npy`` arrays read with ``allow_pickle=False``, each
checked (shape, type, digest) before use; a damaged or foreign directory is a
:class:`~nimlab.core.errors.ChunkStoreError`.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import math
import os
import re
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from nimlab.core.errors import ChunkStoreError, OutputPathError

__all__: list[str] = []

FORMAT = "nimlab canonical chunks 1"
#: Largest JSON record read (a larger file is refused before it is parsed).
MAX_RECORD_BYTES = 1 << 16
#: Default bounds of the positions per part (the plan aims at about 8 parts per level).
MIN_CHUNK, MAX_CHUNK = 1 << 12, 1 << 20


@dataclass(frozen=True)
class Run:
    """What a worker needs to solve parts of a chunked table (small: pickled per task)."""

    game: Any
    heaps: int
    kind: str
    side: int
    low: int
    chunk_positions: int
    directory: str
    key: str
    max_bytes: int
    #: Seconds a worker on Dask waits, at least, for a part another worker owns before it
    #: solves the part itself (that worker may be lost).
    patience: float = 5.0

    @property
    def count(self) -> int:
        """The sorted positions of the table (heaps ``low..side-1``)."""
        return math.comb(self.side - self.low + self.heaps - 1, self.heaps)


def default_chunk(heaps: int, low: int, side: int, parts: int = 8) -> int:
    """About ``1/parts`` of a level of the table (in this process 8 parts a level, on Dask
    two a worker), within ``MIN_CHUNK..MAX_CHUNK``.

    Examples
    --------
    >>> default_chunk(5, 1, 48), default_chunk(6, 1, 64), default_chunk(6, 1, 64, 32)
    (4096, 36680, 9170)
    """
    count = math.comb(side - low + heaps - 1, heaps)
    levels = (side - 1 - low) * heaps + 1
    return max(MIN_CHUNK, min(MAX_CHUNK, count // (parts * levels)))


def _tuple_counts(k: int, width: int) -> npt.NDArray[np.int64]:
    """``T[j, c, s]``: sorted *j*-tuples of ``0..c`` with sum *s* (``j <= k``, ``c < width``)."""
    s_len = k * max(width - 1, 0) + 1
    t = np.zeros((k + 1, width, s_len), dtype=np.int64)
    t[0, :, 0] = 1
    for j in range(1, k + 1):
        for c in range(width):
            if c > 0:
                t[j, c] += t[j, c - 1]  # largest part below c
            t[j, c, c:] += t[j - 1, c, : s_len - c]  # largest part c
    return t


@functools.lru_cache(maxsize=4)
def plan(heaps: int, low: int, side: int, chunk: int) -> tuple[tuple[Any, ...], ...]:
    """The levels of the table: ``(total, tasks, parts)`` with *tasks* the level's
    ``(top, second)`` rows and *parts* ``((first, stop, count), ...)`` runs of them.

    Examples
    --------
    >>> [(t, [p[2] for p in parts]) for t, _, parts in plan(3, 0, 3, 2)]
    [(0, [1]), (1, [1]), (2, [2]), (3, [2]), (4, [2]), (5, [1]), (6, [1])]
    """
    from nimlab.engine._levels import prefixes

    q = 2 if heaps > 2 else 1
    k = heaps - q
    counts = _tuple_counts(k, side - low)
    out = []
    for total in range(low * heaps, (side - 1) * heaps + 1):
        tasks = np.ascontiguousarray(prefixes(heaps, low, side - 1, total))
        if tasks.shape[0] == 0:
            continue
        cap = tasks[:, 1] if q == 2 else tasks[:, 0]
        rest = total - tasks[:, 0] - (tasks[:, 1] if q == 2 else 0) - k * low
        ok = (rest >= 0) & (rest < counts.shape[2])
        sizes = np.where(ok, counts[k, cap - low, np.clip(rest, 0, counts.shape[2] - 1)], 0)
        out.append((total, tasks, _parts(sizes, chunk)))
    return tuple(out)


def _parts(sizes: npt.NDArray[np.int64], chunk: int) -> tuple[tuple[int, int, int], ...]:
    """Runs of consecutive tasks of about *chunk* positions each (by their *sizes*)."""
    total = int(sizes.sum())
    n = max(1, min(len(sizes), -(-total // chunk)))
    ends = np.cumsum(sizes)
    cuts = [0] + [int(np.searchsorted(ends, total * j / n, side="left")) + 1 for j in range(1, n)]
    cuts = sorted(set(min(c, len(sizes)) for c in cuts)) + [len(sizes)]
    parts = []
    for a, b in itertools.pairwise(cuts):
        if b > a:
            parts.append((a, b, int(sizes[a:b].sum())))
    return tuple(parts)


# -- the directory ------------------------------------------------------------------


def _write_bytes(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex[:8]}.tmp")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise OutputPathError(f"cannot write {path}: {exc.strerror}") from None


def _write_array(path: Path, values: npt.NDArray[Any]) -> None:
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex[:8]}.tmp")
    try:
        with tmp.open("wb") as f:
            np.save(f, values, allow_pickle=False)
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise OutputPathError(f"cannot write {path}: {exc.strerror}") from None


def _read_record(path: Path) -> dict[str, Any]:
    """A JSON object of at most :data:`MAX_RECORD_BYTES`, or a ChunkStoreError."""
    try:
        if path.stat().st_size > MAX_RECORD_BYTES:
            raise ChunkStoreError(f"{path}: not a record of nimlab's chunks (too large)")
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ChunkStoreError(
            f"{path} is damaged ({type(exc).__name__}); delete it and run again "
            "(its chunk is solved again)"
        ) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ChunkStoreError(f"{path}: not a record of nimlab's chunks ({FORMAT!r})")
    return data


def digest(values: npt.NDArray[Any]) -> str:
    """The BLAKE2b digest of an array's bytes (read in pieces: a memory map stays lazy)."""
    h = hashlib.blake2b(digest_size=16)
    flat = values.reshape(-1)
    step = 1 << 24
    for i in range(0, flat.shape[0], step):
        h.update(np.ascontiguousarray(flat[i : i + step]).tobytes())
    return h.hexdigest()


def identity(run: Run) -> dict[str, Any]:
    """What the manifest records of a table (the part that must match to resume)."""
    from nimlab import __version__

    return {
        "format": FORMAT,
        "game": run.game.label(),
        "kind": run.kind,
        "heaps": run.heaps,
        "size": run.side,
        "smallest_heap": run.low,
        "nimlab": __version__,
        "key": run.key,
    }


def open_directory(run: Run) -> int:
    """Create or check the directory of *run*: its manifest written, or read and compared
    (another table's: ChunkStoreError). Returns the chunk size (the manifest's, on resume)."""
    d = Path(run.directory).expanduser()
    if d.exists() and not d.is_dir():
        raise OutputPathError(f"cannot keep chunks in {d}: it is a file; give a directory")
    if not d.parent.is_dir():
        raise OutputPathError(
            f"cannot keep chunks in {d}: the folder {d.parent} does not exist (nimlab "
            "creates the chunk directory, not its parents)"
        )
    manifest = d / "manifest.json"
    want = identity(run)
    if manifest.is_file():
        have = _read_record(manifest)
        diff = [k for k in want if have.get(k) != want[k]]
        if diff:
            what = ", ".join(f"{k} {have.get(k)!r}, not {want[k]!r}" for k in diff if k != "key")
            raise ChunkStoreError(
                f"{d} holds the chunks of another table ({what or 'another move model'}); "
                "give another directory, or delete this one to start afresh"
            )
        chunk = have.get("chunk_positions")
        if isinstance(chunk, bool) or not isinstance(chunk, int) or chunk < 1:
            raise ChunkStoreError(f"{manifest} is damaged (chunk_positions {chunk!r})")
        return chunk
    try:
        d.mkdir(exist_ok=True)
    except OSError as exc:
        raise OutputPathError(f"cannot make the chunk directory {d}: {exc.strerror}") from None
    if any(d.iterdir()):  # no manifest (checked above), but other files
        raise ChunkStoreError(
            f"{d} is not empty and holds no manifest.json of nimlab's chunks: give a new "
            "or empty directory"
        )
    record = {**want, "chunk_positions": run.chunk_positions}
    _write_bytes(manifest, json.dumps(record, indent=1).encode())
    return run.chunk_positions


#: The temporary files of :func:`_write_bytes` and :func:`_write_array` (renamed into
#: place once whole): one left behind is a write cut short (Ctrl-C, a killed process).
_LEFTOVER = re.compile(
    r"\.(L\d{5,}-\d{4,}\.(npy|json)|manifest\.json|values\.json)\.[0-9a-f]{8}\.tmp"
)


def remove_leftovers(run: Run) -> int:
    """Delete the temporary files that writes cut short left in the directory (never
    read: only their names are matched); the number deleted. Called once the table is
    complete, so no write of this table is still under way.

    Examples
    --------
    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp())
    >>> for leftover in (".L00012-0003.npy.0a1b2c3d.tmp", "L00012-0003.npy", "notes.tmp"):
    ...     _ = (d / leftover).write_bytes(b"")
    >>> remove_leftovers(Run(None, 2, "grundy", 4, 0, 8, str(d), "", 0))
    1
    >>> sorted(p.name for p in d.iterdir())
    ['L00012-0003.npy', 'notes.tmp']
    >>> import shutil; shutil.rmtree(d)
    """
    removed = 0
    try:
        names = os.listdir(run.directory)
    except OSError:
        return 0
    for name in names:
        if _LEFTOVER.fullmatch(name):
            try:
                os.unlink(os.path.join(run.directory, name))
                removed += 1
            except OSError:  # gone already, or not ours to delete: left as it is
                pass
    return removed


def chunk_name(total: int, part: int) -> str:
    """The stem of a part's files.

    Examples
    --------
    >>> chunk_name(12, 3)
    'L00012-0003'
    """
    return f"L{total:05d}-{part:04d}"


def _chunk_record(run: Run, total: int, part: int, span: tuple[int, int, int]) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "key": run.key,
        "level": total,
        "part": part,
        "first": span[0],
        "stop": span[1],
        "count": span[2],
    }


def write_chunk(
    run: Run, total: int, part: int, span: tuple[int, int, int], values: npt.NDArray[Any]
) -> None:
    """Write the values of a part (its ``.npy``, then its record)."""
    d = Path(run.directory)
    name = chunk_name(total, part)
    _write_array(d / f"{name}.npy", values)
    record = {**_chunk_record(run, total, part, span), "digest": digest(values)}
    _write_bytes(d / f"{name}.json", json.dumps(record).encode())


def chunk_done(run: Run, total: int, part: int, span: tuple[int, int, int]) -> bool:
    """Whether the part's record is there (and belongs to this plan: else an error)."""
    path = Path(run.directory) / f"{chunk_name(total, part)}.json"
    if not path.is_file():
        return False
    rec = _read_record(path)
    want = _chunk_record(run, total, part, span)
    if any(rec.get(k) != v for k, v in want.items()) or not isinstance(rec.get("digest"), str):
        raise ChunkStoreError(
            f"{path} does not belong to this table's plan (another run's chunk, or damaged); "
            "delete it and run again (its chunk is solved again)"
        )
    return True


def read_chunk(run: Run, total: int, part: int, span: tuple[int, int, int]) -> npt.NDArray[Any]:
    """The values of a done part, checked against its record."""
    d = Path(run.directory)
    name = chunk_name(total, part)
    rec = _read_record(d / f"{name}.json")
    path = d / f"{name}.npy"
    try:
        values: npt.NDArray[Any] = np.load(path, allow_pickle=False)
    except (OSError, ValueError) as exc:
        raise ChunkStoreError(
            f"{path} is damaged ({type(exc).__name__}: {str(exc)[:80]}); delete it and its "
            ".json and run again (the chunk is solved again)"
        ) from None
    ok = (
        values.shape == (span[2],)
        and values.dtype.kind == "u"
        and values.dtype.itemsize <= 4
        and rec.get("digest") == digest(values)
    )
    if not ok or any(rec.get(k) != v for k, v in _chunk_record(run, total, part, span).items()):
        raise ChunkStoreError(
            f"{path} is damaged (its values do not match its record {name}.json); delete "
            "both and run again (the chunk is solved again)"
        )
    return values


def values_path(run: Run) -> Path:
    """Where the assembled values are (``values.npy`` in the directory)."""
    return Path(run.directory) / "values.npy"


def values_done(run: Run) -> bool:
    """Whether the assembled values are there and match their record (else an error when
    the record is there but the values are not)."""
    rec_path = Path(run.directory) / "values.json"
    if not rec_path.is_file():
        return False
    rec = _read_record(rec_path)
    try:
        values = np.load(values_path(run), mmap_mode="r", allow_pickle=False)
    except (OSError, ValueError) as exc:
        raise ChunkStoreError(
            f"{values_path(run)} is damaged ({type(exc).__name__}); delete it and values.json "
            "and run again (the values are assembled again from the chunks)"
        ) from None
    if (
        rec.get("key") != run.key
        or values.shape != (run.count,)
        or values.dtype.kind != "u"
        or rec.get("digest") != digest(values)
    ):
        raise ChunkStoreError(
            f"{values_path(run)} does not match values.json; delete both and run again "
            "(the values are assembled again from the chunks)"
        )
    return True


def record_values(run: Run, values: npt.NDArray[Any]) -> None:
    """Write the record of the assembled values (after ``values.npy`` is complete)."""
    rec = {"format": FORMAT, "key": run.key, "count": run.count, "digest": digest(values)}
    _write_bytes(Path(run.directory) / "values.json", json.dumps(rec).encode())


def open_values(run: Run, dtype: Any) -> npt.NDArray[Any]:
    """A new ``values.npy`` (memory-mapped) of *dtype*, to be filled."""
    path = values_path(run)
    try:
        out: npt.NDArray[Any] = np.lib.format.open_memmap(
            path, mode="w+", dtype=dtype, shape=(run.count,)
        )
    except OSError as exc:
        raise OutputPathError(f"cannot write {path}: {exc.strerror}") from None
    return out
