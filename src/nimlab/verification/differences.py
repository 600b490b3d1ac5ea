"""Where two claims differ: counted (compiled) and listed, by the largest heap.

Used to measure how many positions a refuted statement gets wrong: once the corrected
statement has passed the local check on a space (so it *is* the truth there), the wrong
positions of the refuted one are exactly those where the two differ.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["count_differences", "list_differences"]


def _kernel() -> Any:
    from numba import njit

    from nimlab.verification._heapwalks import _next_sorted

    @njit
    def run(fa: Any, fb: Any, h: Any, count: int, low: int, out: Any) -> None:
        # pragma: no cover - compiled
        m = len(h) - 1
        for _ in range(count):
            if bool(fa(*h)) != bool(fb(*h)):
                out[h[m]] += 1
            h = _next_sorted(h, low)

    return run


_RUN: dict[str, Any] = {}
_JIT: dict[Callable[..., Any], Any] = {}  # one dispatcher per claim: the kernel compiles once


def _jit(f: Callable[..., Any]) -> Any:
    """numba's dispatcher of *f*, made once per process (a new one for each count would
    compile the kernel again for the same pair of claims: seconds)."""
    from numba import njit

    d = _JIT.get(f)
    if d is None:
        d = _JIT[f] = njit(f)
    return d


def count_differences(
    fa: Callable[..., Any], fb: Callable[..., Any], n_heaps: int, bound: int, low: int = 0
) -> list[int]:
    """How many sorted positions (one per multiset, heaps in ``[low, bound)``) the two
    boolean claims ``fa(*heaps)``, ``fb(*heaps)`` disagree on, by largest heap.

    Both functions must be plain-integer functions numba compiles (a theorem's
    ``scalar_claim``). ``sum(counts[:B])`` is the count for heaps below ``B``.

    Examples
    --------
    >>> c = count_differences(lambda a, b: a == b, lambda a, b: a + b == 2 * b, 2, 6)
    >>> c, sum(c)
    ([0, 0, 0, 0, 0, 0], 0)
    >>> count_differences(lambda a, b: a < 3, lambda a, b: b < 3, 2, 5)
    [0, 0, 0, 3, 3]
    """
    import numpy as np

    from nimlab.verification.spaces import SortedBoxSpace

    run = _RUN.get("k")
    if run is None:
        run = _RUN["k"] = _kernel()
    ja, jb = _jit(fa), _jit(fb)
    out = np.zeros(bound, dtype=np.int64)
    sp = SortedBoxSpace(n_heaps, bound, low, 1 << 20)
    for i in range(sp.n_chunks):
        h, cnt = sp.start(i)
        run(ja, jb, tuple(np.int64(x) for x in h), cnt, low, out)
    return [int(x) for x in out]


def list_differences(
    fa: Callable[..., Any],
    fb: Callable[..., Any],
    n_heaps: int,
    bound: int,
    low: int = 0,
    limit: int = 1_000_000,
) -> list[tuple[int, ...]]:
    """The sorted positions where ``fa`` and ``fb`` disagree, in the space's order (Python).

    Examples
    --------
    >>> list_differences(lambda a, b: a < 3, lambda a, b: b < 3, 2, 5)
    [(0, 3), (1, 3), (2, 3), (0, 4), (1, 4), (2, 4)]
    """
    from nimlab.verification.spaces import SortedBoxSpace

    sp = SortedBoxSpace(n_heaps, bound, low, 1 << 16)
    out: list[tuple[int, ...]] = []
    for i in range(sp.n_chunks):
        for h in sp.chunk(i):
            if bool(fa(*h)) != bool(fb(*h)):
                out.append(h)
                if len(out) >= limit:
                    return out
    return out
