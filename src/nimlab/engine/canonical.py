"""Canonical tables: the values of an order-free game over its sorted positions.

When the order of the heaps does not matter, a box of ``N**n`` cells holds each position
up to ``n!`` times; :func:`canonical_table` solves and keeps each multiset of heaps once
(``C(N + n - 1, n)`` of them), with no position array at all: the ``r``-th value belongs
to the ``r``-th sorted tuple in colex order (the combinatorial number system), so a
position's place is a sum of binomial coefficients and the memory is one small integer
per multiset. :class:`CanonicalTable` looks up any position (in any order), counts and
lists the P-positions, and writes CSV or NumPy ``.npy`` files in chunks.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Unpack

import numpy as np
import numpy.typing as npt

from nimlab.core.errors import (
    InvalidParameterError,
    InvalidPositionError,
    NimlabError,
    OutputPathError,
    SearchTooLargeError,
)
from nimlab.core.ruleset import HeapRuleset, Ruleset

if TYPE_CHECKING:
    from nimlab.engine.chunked import ChunkOptions

__all__ = ["CanonicalTable", "canonical_table"]

_KINDS = ("grundy", "outcome", "misere")
#: Rows per chunk of the exports and of the P-position iterator.
_CHUNK = 1 << 20


def _rank_terms(side: int, n: int) -> npt.NDArray[np.int64]:
    """``cb[i, h] = C(h + i, i + 1)`` for ``0 <= h <= side``: the colex rank of a sorted
    tuple ``a0 <= ... <= a(n-1)`` is ``sum cb[i, a_i]``."""
    cb = np.empty((n, side + 1), dtype=np.int64)
    cb[0] = np.arange(side + 1, dtype=np.int64)
    for i in range(1, n):
        np.cumsum(cb[i - 1], out=cb[i])
    return cb


def _dtype(bound: int) -> type[np.unsignedinteger[Any]]:
    if bound < 2**8:
        return np.uint8
    if bound < 2**16:
        return np.uint16
    return np.uint32


class CanonicalTable:
    """Values of an order-free game over every sorted position of heaps ``low..size-1``.

    Made by :func:`canonical_table`. Position ``r`` (``0 <= r < len(table)``) is the
    ``r``-th sorted tuple of heaps in colex order; ``values[r]`` is its Grundy value, or
    for outcome tables 0 for a P-position and 1 for an N-position (so in every kind,
    value 0 means P).

    Attributes
    ----------
    game : str
        The game's label.
    heaps : int
        The number of heaps.
    size : int
        Heaps are below *size*.
    low : int
        The smallest heap (1 for games of positive heaps).
    kind : {"grundy", "outcome", "misere"}
        What the values are.
    values : numpy.ndarray
        One value per sorted position (uint8, uint16 or uint32, as the values need).
    valid : numpy.ndarray or None
        Which sorted positions the game allows (None: all of them).
    method : str
        How the values were computed ("compiled engine" or "search").

    Examples
    --------
    >>> from nimlab import canonical_table
    >>> t = canonical_table("single-delete", 8, heaps=4, kind="outcome")
    >>> len(t), t.p_count          # sorted positions of heaps 1..7, and the P-positions
    (210, 53)
    >>> t.is_p((7, 1, 3, 5)), t.value((2, 2, 2, 2)), t.rank((1, 1, 1, 2))
    (True, 0, 1)
    >>> next(t.p_positions())
    (1, 1, 1, 1)
    """

    def __init__(
        self,
        game: str,
        heaps: int,
        size: int,
        low: int,
        kind: str,
        values: npt.NDArray[Any],
        valid: npt.NDArray[np.bool_] | None = None,
        method: str = "compiled engine",
    ) -> None:
        self.game = game
        self.heaps = heaps
        self.size = size
        self.low = low
        self.kind = kind
        self.values = values
        self.valid = valid
        self.method = method
        self._cb = _rank_terms(max(size - low, 0), heaps)
        self._p_count: int | None = None

    @classmethod
    def open(
        cls,
        path: str | Path,
        game: Ruleset[Any] | str,
        *,
        size: int,
        heaps: int | None = None,
        kind: str = "grundy",
    ) -> CanonicalTable:
        """A table whose values were written by ``canonical_table(..., values_file=path)``,
        read from the file lazily (memory-mapped).

        Examples
        --------
        >>> import os, tempfile
        >>> from nimlab import CanonicalTable, canonical_table
        >>> path = os.path.join(tempfile.mkdtemp(), "sd4.npy")
        >>> t = canonical_table("single-delete", 10, heaps=4, kind="outcome", values_file=path)
        >>> u = CanonicalTable.open(path, "single-delete", size=10, heaps=4, kind="outcome")
        >>> (u.count, u.p_count) == (t.count, t.p_count), u.is_p((1, 3, 5, 9))
        (True, True)
        """
        from nimlab.catalog.registry import as_game

        g = as_game(game)
        n = heaps if heaps is not None else getattr(g, "n_heaps", None)
        if n is None:
            raise InvalidParameterError(f"{g.label()}: give heaps=n")
        low = min(int(getattr(g, "min_heap_size", 0)), size)
        try:
            values = np.load(str(path), mmap_mode="r")
        except (OSError, ValueError) as exc:
            raise InvalidParameterError(f"cannot read the values file {path}: {exc}") from None
        if values.shape != (math.comb(size - low + n - 1, n),):
            raise InvalidParameterError(
                f"{path} holds {values.shape[0]:,} values, not those of {n} heaps "
                f"{low}..{size - 1} of {g.label()}"
            )
        mask = _mask_path(path)
        valid = np.load(mask) if mask.is_file() else None
        return cls(g.label(), n, size, low, kind, values, valid)

    # -- counts ---------------------------------------------------------------------
    def __len__(self) -> int:
        return int(self.values.shape[0])

    @property
    def count(self) -> int:
        """The number of positions (sorted tuples the game allows)."""
        return len(self) if self.valid is None else int(np.count_nonzero(self.valid))

    @property
    def p_count(self) -> int:
        """The number of P-positions."""
        if self._p_count is None:
            c = 0
            for start in range(0, len(self), 8 * _CHUNK):
                c += int(np.count_nonzero(self._p_mask(start, start + 8 * _CHUNK)))
            self._p_count = c
        return self._p_count

    def _p_mask(self, start: int, stop: int) -> npt.NDArray[np.bool_]:
        m: npt.NDArray[np.bool_] = np.equal(self.values[start:stop], 0)
        if self.valid is not None:
            m &= self.valid[start:stop]
        return m

    def histogram(self) -> dict[int, int]:
        """How many positions have each value (Grundy tables; outcomes: 0 = P, 1 = N).

        Examples
        --------
        >>> from nimlab import canonical_table
        >>> canonical_table("single-delete", 8, heaps=4, kind="outcome").histogram()
        {0: 53, 1: 157}
        """
        v = self.values if self.valid is None else self.values[self.valid]
        counts = np.bincount(v) if v.size else np.zeros(0, np.int64)
        return {i: int(c) for i, c in enumerate(counts.tolist()) if c}

    def summary(self) -> dict[str, Any]:
        """Counts for a report (the CLI's ``--json``): positions, P-positions, and the
        histogram of Grundy values.

        Examples
        --------
        >>> from nimlab import canonical_table
        >>> s = canonical_table("single-delete", 8, heaps=4, kind="outcome").summary()
        >>> s["positions"], s["p_positions"], s["n_positions"]
        (210, 53, 157)
        """
        out: dict[str, Any] = {
            "game": self.game,
            "kind": self.kind,
            "heaps": self.heaps,
            "size": self.size,
            "smallest_heap": self.low,
            "canonical": True,
            "positions": self.count,
            "p_positions": self.p_count,
            "method": self.method,
        }
        if self.kind == "grundy":
            hist = self.histogram()
            out["max_value"] = max(hist) if hist else None
            out["histogram"] = {str(v): c for v, c in hist.items()}
        else:
            out["n_positions"] = self.count - self.p_count
        return out

    # -- positions ------------------------------------------------------------------
    def rank(self, position: Sequence[int]) -> int:
        """The index of *position* (heaps in any order) in :attr:`values`.

        Raises
        ------
        InvalidPositionError
            Not *heaps* heaps in ``low..size-1``.
        """
        heaps = sorted(int(h) for h in position)
        if len(heaps) != self.heaps:
            raise InvalidPositionError(
                f"{self.game}: the table has positions of {self.heaps} heaps, got "
                f"{len(heaps)}: {tuple(position)}"
            )
        if heaps and (heaps[0] < self.low or heaps[-1] >= self.size):
            raise InvalidPositionError(
                f"{self.game}: the table holds heaps {self.low}..{self.size - 1}, got "
                f"{tuple(position)}"
            )
        return sum(math.comb(h - self.low + i, i + 1) for i, h in enumerate(heaps))

    def value(self, position: Sequence[int]) -> int:
        """The value of *position* (heaps in any order): its Grundy value, or 0 for P and
        1 for N.

        Raises
        ------
        InvalidPositionError
            Outside the table, or not a position of the game.
        """
        r = self.rank(position)
        if self.valid is not None and not self.valid[r]:
            raise InvalidPositionError(f"{self.game}: {tuple(position)} is not a position")
        return int(self.values[r])

    def is_p(self, position: Sequence[int]) -> bool:
        """Whether *position* (heaps in any order) is a P-position."""
        return self.value(position) == 0

    def __getitem__(self, position: Sequence[int]) -> int:
        return self.value(position)

    def ranks(self, positions: npt.ArrayLike) -> npt.NDArray[np.int64]:
        """The indices of the rows of *positions* (an ``(m, heaps)`` array, heaps in any
        order), vectorised.

        Examples
        --------
        >>> from nimlab import canonical_table
        >>> t = canonical_table("nim", 6, heaps=3, kind="outcome")
        >>> t.values[t.ranks([[1, 2, 3], [3, 1, 2], [1, 1, 1]])]
        array([0, 0, 1], dtype=uint8)
        """
        a = np.sort(np.asarray(positions, dtype=np.int64).reshape(-1, self.heaps), axis=1)
        if a.size and (a.min() < self.low or a.max() >= self.size):
            raise InvalidPositionError(
                f"{self.game}: the table holds heaps {self.low}..{self.size - 1}"
            )
        a -= self.low
        ix = np.zeros(a.shape[0], dtype=np.int64)
        for i in range(self.heaps):
            ix += self._cb[i, a[:, i]]
        return ix

    def rows(self, start: int = 0, stop: int | None = None) -> npt.NDArray[Any]:
        """The sorted positions of indices ``start..stop-1`` as an ``(m, heaps)`` array.

        Examples
        --------
        >>> from nimlab import canonical_table
        >>> canonical_table("nim", 3, heaps=2).rows().tolist()
        [[0, 0], [0, 1], [1, 1], [0, 2], [1, 2], [2, 2]]
        """
        stop = len(self) if stop is None else min(stop, len(self))
        r = np.arange(start, max(start, stop), dtype=np.int64)
        out = np.empty((r.size, self.heaps), dtype=_dtype(self.size))
        for i in range(self.heaps - 1, -1, -1):
            h = np.searchsorted(self._cb[i], r, side="right") - 1
            out[:, i] = h + self.low
            r -= self._cb[i, h]
        return out

    @property
    def positions(self) -> npt.NDArray[Any]:
        """Every sorted position, one row each (``rows()``; memory: heaps per value)."""
        return self.rows()

    def p_positions(self) -> Iterator[tuple[int, ...]]:
        """The P-positions (sorted heaps), in colex order."""
        for start in range(0, len(self), _CHUNK):
            idx = np.flatnonzero(self._p_mask(start, start + _CHUNK)) + start
            for row in self._rows_at(idx).tolist():
                yield tuple(row)

    def p_array(self) -> npt.NDArray[Any]:
        """The P-positions as an ``(p_count, heaps)`` array, in colex order.

        Examples
        --------
        >>> from nimlab import canonical_table
        >>> canonical_table("single-delete", 4, heaps=3, kind="outcome").p_array().tolist()
        [[1, 1, 1], [2, 2, 2], [1, 1, 3], [1, 3, 3], [3, 3, 3]]
        """
        parts = [
            self._rows_at(np.flatnonzero(self._p_mask(s, s + _CHUNK)) + s)
            for s in range(0, len(self), _CHUNK)
        ]
        if not parts:
            return np.zeros((0, self.heaps), dtype=_dtype(self.size))
        return np.concatenate(parts)

    def _rows_at(self, idx: npt.NDArray[np.int64]) -> npt.NDArray[Any]:
        r = idx.astype(np.int64, copy=True)
        out = np.empty((r.size, self.heaps), dtype=_dtype(self.size))
        for i in range(self.heaps - 1, -1, -1):
            h = np.searchsorted(self._cb[i], r, side="right") - 1
            out[:, i] = h + self.low
            r -= self._cb[i, h]
        return out

    # -- exports --------------------------------------------------------------------
    def _chunks(self) -> Iterator[tuple[npt.NDArray[Any], npt.NDArray[Any]]]:
        for start in range(0, len(self), _CHUNK):
            rows = self.rows(start, start + _CHUNK)
            vals = self.values[start : start + _CHUNK]
            if self.valid is not None:
                keep = self.valid[start : start + _CHUNK]
                rows, vals = rows[keep], vals[keep]
            yield rows, vals

    def write_csv(self, path: str | Path | IO[str]) -> None:
        """Write CSV rows ``h1,...,hn,value`` (outcomes: ``P``/``N``), in colex order.

        Examples
        --------
        >>> import io
        >>> from nimlab import canonical_table
        >>> f = io.StringIO()
        >>> canonical_table("nim", 2, heaps=2, kind="outcome").write_csv(f)
        >>> print(f.getvalue(), end="")
        h1,h2,value
        0,0,P
        0,1,N
        1,1,P
        """
        header = ",".join([*(f"h{i + 1}" for i in range(self.heaps)), "value"]) + "\n"
        pn = np.array(["P", "N"])

        def write(f: IO[str]) -> None:
            f.write(header)
            for rows, vals in self._chunks():
                cols = [rows[:, i].astype(str) for i in range(self.heaps)]
                cols.append(pn[vals] if self.kind != "grundy" else vals.astype(str))
                lines = cols[0]
                for c in cols[1:]:
                    lines = np.char.add(np.char.add(lines, ","), c)
                f.write("\n".join(lines.tolist()))
                if len(lines):
                    f.write("\n")

        if isinstance(path, (str, Path)):
            from nimlab.core.paths import output_path

            target = output_path(str(path))
            try:
                with target.open("w", encoding="utf-8") as f:
                    write(f)
            except OSError as exc:
                raise OutputPathError(f"cannot write {path}: {exc.strerror}") from None
        else:
            write(path)

    def write_npy(self, path: str | Path) -> None:
        """Write a NumPy ``.npy`` file: an ``(count, heaps + 1)`` array of rows
        ``h1, ..., hn, value`` (value 0 is P in every kind), written in chunks.

        Read it back with ``numpy.load`` (``mmap_mode="r"`` reads a large one lazily).

        Examples
        --------
        >>> import numpy as np, tempfile, os
        >>> from nimlab import canonical_table
        >>> t = canonical_table("nim", 4, heaps=3)
        >>> path = os.path.join(tempfile.mkdtemp(), "nim3.npy")
        >>> t.write_npy(path)
        >>> a = np.load(path)
        >>> a.shape, a[-1].tolist()
        ((20, 4), [3, 3, 3, 3])
        """
        from nimlab.core.paths import output_path

        target = output_path(str(path))
        top = max(self.size, int(self.values.max()) + 1 if len(self) else 0)
        try:
            out = np.lib.format.open_memmap(
                target, mode="w+", dtype=_dtype(top), shape=(self.count, self.heaps + 1)
            )
            at = 0
            for rows, vals in self._chunks():
                out[at : at + len(vals), : self.heaps] = rows
                out[at : at + len(vals), self.heaps] = vals
                at += len(vals)
            out.flush()
            del out
        except OSError as exc:
            raise OutputPathError(f"cannot write {path}: {exc.strerror}") from None

    def __repr__(self) -> str:
        return (
            f"CanonicalTable({self.game!r}, {self.kind}, {self.heaps} heaps "
            f"{self.low}..{self.size - 1}: {self.count:,} positions, "
            f"{self.p_count:,} P-positions)"
        )


# -- solving ------------------------------------------------------------------------


def _bytes_needed(side: int, n: int, low: int, compiled: bool) -> int:
    values = math.comb(side - low + n - 1, n)  # one byte each, at least
    if not compiled:
        return values * 9
    return math.comb(side + n - 1, n) * 4 + values  # the engine's int32 array, the values


def canonical_table(
    game: Ruleset[Any] | str,
    size: int,
    *,
    heaps: int | None = None,
    kind: str = "grundy",
    max_bytes: int | None = None,
    max_positions: int | None = None,
    parallel: bool | None = None,
    progress: bool = False,
    values_file: str | Path | None = None,
    **chunks: Unpack[ChunkOptions],
) -> CanonicalTable:
    """Values of an order-free game over its sorted positions with heaps below *size*.

    Each multiset of heaps is solved and stored once: ``C(size + n - 1, n)`` values instead
    of the ``size**n`` cells of :func:`nimlab.table` (4 heaps below 256: 183 MB, not 4.3 G).

    Parameters
    ----------
    game : Ruleset or str
        An order-free heap game (the order of its heaps does not matter), or its name.
    size : int
        Heaps are ``0..size-1`` (from the game's smallest heap, 1 for positive heaps).
    heaps : int or None
        The number of heaps (1 to 6); None for a game with a fixed number.
    kind : {"grundy", "outcome", "misere"}
        Grundy values, or outcomes (0 for P, 1 for N) in normal or misère play.
    max_bytes : int or None
        Memory budget (default 4 GiB; with *chunk_dir*, of each worker), checked first.
    max_positions : int or None
        Budget of positions of the Python search (games with no compiled move model).
    parallel : bool or None
        The compiled engine's wavefront on every core (numba's threads): True, False, or
        None (from ``planner.Budgets.parallel_min_positions`` positions on).
    progress : bool
        Show a progress bar on a terminal.
    values_file : str or Path or None
        Compiled engine: write the values to this ``.npy`` file as they are copied out
        (page by page) and return a table that reads them memory-mapped (reopen it with
        :meth:`CanonicalTable.open`; positions that are not the game's: ``NAME.valid.npy``).
    **chunks : ChunkOptions
        ``chunk_dir=DIR``: solve level by level, the values written to DIR in chunks as
        they are solved (a stopped run resumes from them), with ``dask_local=True`` or
        ``scheduler="tcp://host:8786"`` on Dask, ``workers=N`` threads or local Dask
        processes; see :mod:`nimlab.engine.chunked`.

    Raises
    ------
    InvalidParameterError
        A game whose heaps have places (its order matters), a bad size, kind or heaps.
    SearchTooLargeError
        The table needs more than *max_bytes*, or the search more than *max_positions*.
    ChunkStoreError
        *chunk_dir* holds a damaged chunk, or the chunks of another table.

    Examples
    --------
    >>> from nimlab import canonical_table
    >>> t = canonical_table("single-delete", 16, heaps=4, kind="outcome")
    >>> t.count, t.p_count, t.is_p((9, 3, 15, 1))   # all heaps odd: P (Sh-P7)
    (3060, 502, True)
    >>> canonical_table("nim", 8, heaps=3).value((5, 3, 6))
    0
    """
    from nimlab.engine.tables import DEFAULT_MAX_GENERIC

    g, n, side, low = _table_parameters(game, size, heaps, kind)
    compiled = _compiles(g, n, side, kind)
    if [x for x in chunks.values() if x is not None and x is not False]:
        return _in_chunks(g, n, (side, low), kind, compiled, (max_bytes, values_file, progress), chunks)  # fmt: skip
    budget = _memory_budget(g, n, side, _bytes_needed(side, n, low, compiled), max_bytes)
    if compiled:
        res = _compiled(g, n, side, low, kind, budget, parallel, progress, values_file)
        if res is not None:
            return res
    limit = DEFAULT_MAX_GENERIC if max_positions is None else max_positions
    t = _searched(g, n, side, low, kind, limit)
    _save_values(t, values_file)
    return t


def _in_chunks(
    g: HeapRuleset,
    n: int,
    box: tuple[int, int],
    kind: str,
    compiled: bool,
    rest: tuple[int | None, str | Path | None, bool],
    chunks: ChunkOptions,
) -> CanonicalTable:
    """The table solved in chunks on disk (:mod:`nimlab.engine.chunked`), read from them;
    *rest*: ``(max_bytes, values_file, progress)``."""
    from nimlab.engine.chunked import chunked_table

    max_bytes, values_file, progress = rest
    how = (chunks.get("workers"), chunks.get("scheduler"), chunks.get("dask_local", False))
    path = chunked_table(g, n, box, kind, compiled, max_bytes, chunks.get("chunk_dir"),
                         values_file, how, progress=progress)  # fmt: skip
    return CanonicalTable.open(path, g, size=box[0], heaps=n, kind=kind)


def _compiles(g: HeapRuleset, n: int, side: int, kind: str) -> bool:
    """Whether the planner's compiled engine (the game's compiled move model, with no
    threshold of size: issue 20, item 3) runs the table, its model compiling; else the
    Python search does."""
    from nimlab.planner import Method, Question, plan

    try:
        how = plan(g, Question.TABLE, shape=(side,) * n, kind=kind, method="compiled")
    except InvalidParameterError:  # no compiled move model
        return False
    if how.method is Method.COMPILED_ENGINE:
        from nimlab.engine.compiled import has_compiled_model

        return has_compiled_model(g)  # the engine's own check that the model compiles
    return False


def _table_parameters(
    game: Ruleset[Any] | str, size: int, heaps: int | None, kind: str
) -> tuple[HeapRuleset, int, int, int]:
    """``(game, heaps, side, lowest heap)`` of :func:`canonical_table`'s arguments, checked."""
    from nimlab.catalog.registry import as_game
    from nimlab.core.params import as_index
    from nimlab.engine.compiled import MAX_HEAPS, order_free

    g = as_game(game)
    if kind not in _KINDS:
        raise InvalidParameterError(
            f"unknown table kind {kind!r}: choose one of {', '.join(_KINDS)}"
        )
    if not order_free(g):
        raise InvalidParameterError(
            f"{g.label()}: the order of the heaps matters in this game, so it has no "
            "canonical table; use nimlab.table (every ordered cell)"
        )
    assert isinstance(g, HeapRuleset)
    n = heaps if heaps is not None else g.heap_count()
    if n is None:
        raise InvalidParameterError(f"{g.label()}: the number of heaps is not fixed; give heaps=n")
    if as_index(n) is None or not 1 <= n <= MAX_HEAPS:
        raise InvalidParameterError(f"canonical tables have 1 to {MAX_HEAPS} heaps, got {n!r}")
    side = as_index(size)
    if side is None or side < 1:
        raise InvalidParameterError(f"size must be an integer >= 1 (heaps 0..size-1), got {size!r}")
    low = min(int(getattr(g, "min_heap_size", 0)), side)
    try:
        g.check((max(low, side - 1),) * n)
    except InvalidPositionError as exc:
        raise InvalidParameterError(f"{g.label()}: cannot tabulate {n} heaps: {exc}") from None
    if math.comb(side - low + n - 1, n) == 0:
        raise InvalidParameterError(
            f"{g.label()}: heaps start at {low}, so size {side} holds no position"
        )
    return g, n, side, low


def _memory_budget(g: HeapRuleset, n: int, side: int, need: int, max_bytes: int | None) -> int:
    """The memory budget in bytes (*max_bytes*, else the default); SearchTooLargeError when
    the table needs more (*need* bytes)."""
    from nimlab.engine.tables import DEFAULT_MAX_BYTES

    budget = DEFAULT_MAX_BYTES if max_bytes is None else max_bytes
    if need > budget:
        raise SearchTooLargeError(
            f"{g.label()}: a canonical table of {n} heaps below {side} needs about "
            f"{need / 2**20:,.0f} MiB, more than the limit of {budget / 2**20:,.0f} MiB; "
            "use a smaller size or raise the memory budget"
        )
    return budget


def _save_values(t: CanonicalTable, values_file: str | Path | None) -> None:
    """Write the values of *t* (and its mask of valid positions) to *values_file*, if any."""
    if values_file is None:
        return
    values = _open_values(values_file, t.values.dtype, len(t))
    values[:] = t.values
    getattr(values, "flush", lambda: None)()
    if t.valid is not None:
        np.save(_mask_path(values_file), t.valid)


def _compiled(
    g: HeapRuleset,
    n: int,
    side: int,
    low: int,
    kind: str,
    budget: int,
    parallel: bool | None,
    progress: bool,
    values_file: str | Path | None = None,
) -> CanonicalTable | None:
    from nimlab.engine import _levels
    from nimlab.engine.compiled import CompiledSolver, _NotCompiled

    solver = CompiledSolver(g, n, kind, max_bytes=budget, parallel=parallel)
    try:
        solver.solve_below(side, progress)
    except _NotCompiled:
        return None
    state = solver.state
    m = math.comb(side - low + n - 1, n)
    dt = _dtype(int(state.max()) if state.size else 0)
    # with a file: written page by page to it, not held in memory
    values = np.empty(m, dtype=dt) if values_file is None else _open_values(values_file, dt, m)
    none = np.zeros(0, dtype=np.bool_)
    valid: npt.NDArray[np.bool_] | None = None
    if _levels.extract(state, solver.ranks, n, low, side, values, none):
        valid = np.ones(m, dtype=np.bool_)
        _levels.extract(state, solver.ranks, n, low, side, values, valid)
    del solver, state
    if values_file is not None:
        getattr(values, "flush", lambda: None)()
        del values
        if valid is not None:
            np.save(_mask_path(values_file), valid)
        return CanonicalTable.open(values_file, g, size=side, heaps=n, kind=kind)
    return CanonicalTable(g.label(), n, side, low, kind, values, valid)


def _mask_path(values_file: str | Path) -> Path:
    p = Path(values_file)
    return p.with_name(p.stem + ".valid.npy")


def _open_values(path: str | Path, dtype: Any, m: int) -> npt.NDArray[Any]:
    from nimlab.core.paths import output_path

    target = output_path(str(path))
    try:
        out: npt.NDArray[Any] = np.lib.format.open_memmap(
            target, mode="w+", dtype=dtype, shape=(m,)
        )
    except OSError as exc:
        raise OutputPathError(f"cannot write {path}: {exc.strerror}") from None
    return out


def _searched(
    g: HeapRuleset, n: int, side: int, low: int, kind: str, max_positions: int
) -> CanonicalTable:
    """The table by the exact memoised Python search (games with no compiled model)."""
    import itertools

    from nimlab.engine.search import Solver

    m = math.comb(side - low + n - 1, n)
    if m > max_positions:
        raise SearchTooLargeError(
            f"{g.label()}: the Python search would solve {m:,} positions (the game has no "
            f"compiled move model), more than max_positions={max_positions:,}; use a "
            "smaller size or raise max_positions"
        )
    solver: Solver[Any] = Solver(g, max(max_positions, 4 * m))
    raw = np.zeros(m, dtype=np.int64)
    ok = np.ones(m, dtype=np.bool_)
    cb = _rank_terms(side - low, n)
    for pos in itertools.combinations_with_replacement(range(low, side), n):
        r = int(sum(cb[i, h - low] for i, h in enumerate(pos)))
        try:
            p = g.validate(pos)
        except InvalidPositionError:
            ok[r] = False
            continue
        if kind == "grundy":
            raw[r] = solver.grundy(p, method="search")
        else:
            raw[r] = 0 if solver.is_p(p, misere=kind == "misere", method="search") else 1
    if not ok.any():
        raise NimlabError(f"{g.label()}: no sorted position of {n} heaps below {side} is valid")
    values = raw.astype(_dtype(int(raw.max()) if m else 0))
    return CanonicalTable(g.label(), n, side, low, kind, values, None if ok.all() else ok, "search")
