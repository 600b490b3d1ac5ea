"""The wavefront's hand-out order (engine/_levels.py): a level whose last tasks look the
largest is handed out from the end, so two threads end it together. Task sizes are
counted by the chunked solve's own table of sorted tuples (engine/_chunkstore.py), not by
the heuristic under test."""

from __future__ import annotations

import heapq
import math

import numpy as np

from nimlab.engine import _levels
from nimlab.engine._chunkstore import _tuple_counts


def _finish(sizes: np.ndarray, workers: int = 2) -> float:
    """When the last of *workers* threads ends, each taking the next task when free."""
    free = [0.0] * workers
    for s in sizes:
        heapq.heappush(free, heapq.heappop(free) + float(s) + 1.0)
    return max(free)


def test_levels_end_together_on_two_threads() -> None:
    n, lo, side = 5, 0, 48
    k = n - 2
    counts = _tuple_counts(k, side - lo)
    prefix = ordered = even = 0.0
    positions = 0
    for total in range(lo * n, (side - 1) * n + 1):
        tasks = _levels.prefixes(n, lo, side - 1, total)
        if tasks.shape[0] == 0:
            continue
        rest = total - tasks[:, 0] - tasks[:, 1] - k * lo
        sizes = counts[k, tasks[:, 1] - lo, rest]
        positions += int(sizes.sum())
        back = _levels.largest_last(tasks, n, lo, total)
        prefix += _finish(sizes)
        ordered += _finish(sizes[::-1] if back else sizes)
        even += (sizes.sum() + len(sizes)) / 2
    assert positions == math.comb(side - lo + n - 1, n)  # every sorted position, once
    # prefix order: the upper levels' largest tasks last (0.4 % over the even share)
    assert prefix / even > 1.003
    assert ordered / even < 1.0005
