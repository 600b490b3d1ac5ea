"""Tables of many heaps, told by numbers: P-positions, a histogram of values, long CSV.

A table of 4 to 6 heaps has too many cells for a grid; ``nimlab table --heaps 4`` shows
its summary (:func:`table_summary`, :func:`summary_text`) and writes its cells as CSV
rows ``h1,...,hn,value`` (:func:`long_csv_chunks`) or JSON. Tables here are as
:func:`nimlab.render.tables.compute_table` returns them: Grundy values, or outcomes with
0 for P and 1 for N; masked cells are not positions of the game.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["long_csv_chunks", "summary_text", "table_summary"]

#: Values listed by :func:`summary_text` (all of them are in the JSON summary).
SHOWN_VALUES = 40
#: P-positions listed by :func:`table_summary` and :func:`summary_text` (in index order).
SHOWN_P_POSITIONS = 30


def _valid(array: npt.NDArray[Any]) -> tuple[npt.NDArray[Any], npt.NDArray[np.bool_]]:
    data = np.asarray(np.ma.getdata(array))
    return data, ~np.ma.getmaskarray(array)


def _first_cells(cells: npt.NDArray[np.bool_], count: int) -> list[list[int]]:
    """The indices of the first *count* true cells in index order (searched in slices, so
    that a large table is not scanned whole for a few of them)."""
    flat = cells.reshape(-1)
    found: list[int] = []
    step = 1 << 16
    for start in range(0, flat.size, step):
        hits = np.flatnonzero(flat[start : start + step])[: count - len(found)]
        found.extend((hits + start).tolist())
        if len(found) >= count:
            break
    index = np.unravel_index(np.array(found, np.int64), cells.shape)
    return [[int(i[k]) for i in index] for k in range(len(found))]


def table_summary(array: npt.NDArray[Any], kind: str, game: str = "") -> dict[str, Any]:
    """Counts of a table: positions, P-positions and (Grundy tables) each value's cells.

    Examples
    --------
    >>> import numpy as np
    >>> t = np.array([[[[0, 1], [1, 0]], [[1, 0], [0, 3]]]])
    >>> s = table_summary(t, "grundy", "nim")
    >>> s["positions"], s["p_positions"], s["histogram"]
    (8, 4, {'0': 4, '1': 3, '3': 1})
    >>> table_summary(t % 2, "outcome")["n_positions"]
    4
    """
    data, ok = _valid(array)
    values = data[ok]
    out: dict[str, Any] = {
        "game": game,
        "kind": kind,
        "heaps": int(data.ndim),
        "shape": [int(d) for d in data.shape],
        "cells": int(data.size),
        "positions": int(values.size),
        "p_positions": int(np.count_nonzero(values == 0)),
    }
    out["first_p_positions"] = _first_cells((data == 0) & ok, SHOWN_P_POSITIONS)
    if kind == "grundy":
        if values.dtype.kind == "u" and values.dtype.itemsize < 8:
            counts = np.bincount(values)  # no int64 copy of a large table
        else:
            counts = np.bincount(values.astype(np.int64))
        out["max_value"] = int(values.max()) if values.size else None
        out["histogram"] = {str(v): int(c) for v, c in enumerate(counts.tolist()) if c}
    else:
        out["n_positions"] = int(values.size) - out["p_positions"]
    return out


def summary_text(summary: dict[str, Any]) -> str:
    """The summary as lines for a terminal.

    Examples
    --------
    >>> import numpy as np
    >>> print(summary_text(table_summary(np.zeros((2, 2, 2, 2), int), "outcome", "g")))
    g: outcomes, 4 heaps, box 2 x 2 x 2 x 2 (16 cells, 16 positions)
    P-positions: 16
      0 0 0 0; 0 0 0 1; 0 0 1 0; 0 0 1 1; 0 1 0 0; 0 1 0 1; 0 1 1 0; 0 1 1 1; 1 0 0 0; 1 0 0 1; 1 0 1 0; 1 0 1 1; 1 1 0 0; 1 1 0 1; 1 1 1 0; 1 1 1 1
    N-positions: 0
    """
    what = {"grundy": "Grundy values", "outcome": "outcomes", "misere": "misère outcomes"}
    kind = summary["kind"]
    box = " x ".join(str(d) for d in summary["shape"])
    lines = [
        f"{summary['game']}: {what[kind]}, {summary['heaps']} heaps, box {box} "
        f"({summary['cells']:,} cells, {summary['positions']:,} positions)",
        f"P-positions: {summary['p_positions']:,}",
    ]
    first = summary.get("first_p_positions") or []
    if first:
        more = summary["p_positions"] - len(first)
        lines.append(
            "  "
            + "; ".join(" ".join(map(str, p)) for p in first)
            + (f"; ... and {more:,} more (--csv lists every cell)" if more > 0 else "")
        )
    if kind != "grundy":
        lines.append(f"N-positions: {summary['n_positions']:,}")
        return "\n".join(lines)
    hist = summary["histogram"]
    lines.append(f"largest value: {summary['max_value']}")
    lines.append("value  positions")
    for v, c in list(hist.items())[:SHOWN_VALUES]:
        lines.append(f"{v:>5}  {c:,}")
    if len(hist) > SHOWN_VALUES:
        lines.append(f"... {len(hist) - SHOWN_VALUES} more values (--json lists them all)")
    return "\n".join(lines)


def long_csv_chunks(array: npt.NDArray[Any], kind: str, chunk: int = 1 << 16) -> Iterator[str]:
    """CSV text in pieces: a header ``h1,...,hn,value``, then one row per position.

    Outcomes are written ``P``/``N``; cells that are not positions are left out.

    Examples
    --------
    >>> import numpy as np
    >>> print("".join(long_csv_chunks(np.array([[[[0, 1]]]]), "outcome")), end="")
    h1,h2,h3,h4,value
    0,0,0,0,P
    0,0,0,1,N
    """
    data, ok = _valid(array)
    n = data.ndim
    yield ",".join([*(f"h{i + 1}" for i in range(n)), "value"]) + "\n"
    flat = np.flatnonzero(ok.ravel())
    values = data.ravel()
    for start in range(0, flat.size, chunk):
        idx = flat[start : start + chunk]
        coords = np.stack(np.unravel_index(idx, data.shape), axis=1).tolist()
        vals = values[idx].tolist()
        if kind == "grundy":
            cells = [str(v) for v in vals]
        else:
            cells = ["P" if v == 0 else "N" for v in vals]
        yield "".join(
            ",".join(map(str, c)) + "," + v + "\n" for c, v in zip(coords, cells, strict=True)
        )
