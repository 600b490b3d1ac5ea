"""The exhaustive table searched by :func:`nimlab.conjecture`, flattened to its valid
cells, and the helpers that judge a candidate on it."""

from __future__ import annotations

import math
import sys
from typing import Any

import numpy as np
import numpy.typing as npt

from nimlab.core.errors import InvalidArgumentError, InvalidParameterError
from nimlab.core.ruleset import Ruleset
from nimlab.discovery._model import _DEFAULT_CELLS, _Data


def _say(progress: bool, text: str) -> None:
    if progress:
        print(f"conjecture: {text}", file=sys.stderr, flush=True)


def _heap_count(g: Ruleset[Any], heaps: int | None) -> int:
    fixed = g.heap_count() if hasattr(g, "heap_count") else None
    if heaps is None:
        if fixed is None:
            raise InvalidParameterError(
                f"{g.label()}: the number of heaps is not fixed: give heaps=N (on the command "
                "line --heaps N)"
            )
        return int(fixed)
    if isinstance(heaps, bool) or not isinstance(heaps, int):
        raise InvalidArgumentError(f"heaps must be an integer, got {heaps!r:.40}")
    if not 1 <= heaps <= 4:
        raise InvalidParameterError(f"heaps must be 1 to 4, got {heaps}")
    if fixed is not None and fixed != heaps:
        raise InvalidParameterError(f"{g.label()} is played on {fixed} heaps, not {heaps}")
    return heaps


def _constants(g: Ruleset[Any], n: int, lines: list[npt.NDArray[np.int64]]) -> tuple[int, ...]:
    """Small integers, the number of heaps, the game's integer parameters (and the next
    one), and the periods of the one-heap lines of the table."""
    from nimlab.engine.periodicity import periodicity

    out = {1, 2, 3, n, n + 1, max(n * (n - 1), 1)}
    for value in vars(g).values() if hasattr(g, "__dict__") else ():
        if isinstance(value, int) and not isinstance(value, bool) and 0 < value <= 64:
            out.update((value, value + 1))
    for line in lines:
        if len(line) >= 8:
            per = periodicity(line.tolist(), reps=2)
            if per.period is not None and 1 < per.period <= 64:
                out.add(int(per.period))
    return tuple(sorted(c for c in out if c >= 1))


def _tabulate(g: Ruleset[Any], n: int, below: int, kind: str) -> _Data:
    """The exhaustive table (Grundy values, or misère outcomes) flattened to valid cells."""
    from nimlab.engine.tables import table

    shape = (below,) * n
    if kind == "misere":
        arr = table(g, shape, kind="misere")
        grundy = None
    else:
        arr = table(g, shape, kind="grundy")
    mask = np.ma.getmaskarray(arr)
    valid = ~mask
    data = np.ma.getdata(arr).astype(np.int64)
    idx = np.nonzero(valid)
    heaps = [np.asarray(i, dtype=np.int64) for i in idx]
    if kind == "misere":
        p = data[idx].astype(bool)
    else:
        grundy = data[idx]
        p = grundy == 0
    low = min(int(h.min()) for h in heaps) if heaps and heaps[0].size else 0
    lines: list[npt.NDArray[np.int64]] = []
    if grundy is not None:
        for axis in range(n):
            at = [low] * n
            at[axis] = slice(None)  # type: ignore[call-overload]
            line = arr[tuple(at)]
            if not np.ma.is_masked(line):
                lines.append(np.asarray(line, dtype=np.int64))
    region = f"{n} heap{'s' if n > 1 else ''}, {low} <= heap < {below}"
    consts = _constants(g, n, lines)
    return _Data(heaps, grundy, p, region, low >= 1, consts, lines)


def _fits(
    values: npt.NDArray[Any] | None, target: npt.NDArray[Any], data: _Data, limit: int
) -> tuple[int, tuple[tuple[int, ...], ...]] | None:
    """Number of cells where *values* differ from *target* (at most *limit*), with samples."""
    if values is None:
        return None
    bad = values != target
    count = int(bad.sum())
    if count > limit:
        return None
    where = np.flatnonzero(bad)[:10]
    samples = tuple(tuple(int(h[i]) for h in data.heaps) for i in where)
    return count, samples


_SAMPLE = 2048


def _sample(data: _Data) -> npt.NDArray[np.int64]:
    """Indices of at most ``_SAMPLE`` cells (all of them for a small table), fixed."""
    size = data.p.size
    if size <= _SAMPLE:
        return np.arange(size, dtype=np.int64)
    rng = np.random.default_rng(0)
    return np.sort(rng.choice(size, _SAMPLE, replace=False)).astype(np.int64)


def _full(text: str, data: _Data) -> npt.NDArray[np.int64] | None:
    """Values of *text* on every cell of *data*, or None where it is undefined (``v2`` of
    a heap 0 outside the sample)."""
    from nimlab.core.errors import NimlabError
    from nimlab.discovery.grammar import evaluate

    try:
        return np.asarray(evaluate(text, data.heaps), dtype=np.int64)
    except (NimlabError, ArithmeticError):
        return None


def _default_verify_bound(n: int, below: int) -> int:
    """About three times the searched positions (twice the size for one or two heaps)."""
    return 2 * below if n <= 2 else int(math.ceil(below * 3.0 ** (1.0 / n)))  # noqa: RUF046


def _default_below(n: int) -> int:
    side: float = _DEFAULT_CELLS ** (1.0 / n)
    return max(4, min(512, round(side)))
