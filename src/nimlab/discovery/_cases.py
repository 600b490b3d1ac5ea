"""Case splits: a statement that fits the table except on a small region, with the region
described and the P-positions inside it found separately (misère Nim's two cases).

A near fit ``F == 0`` whose exceptions all lie in a small region ``R`` (all heaps at most
``k``, or a total at most ``k``) becomes ``(R and F == c) or (not R and F == 0)`` when
some constant ``c`` describes the P-positions inside ``R``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import numpy as np
import numpy.typing as npt

from nimlab.discovery._model import Proposal, _Data
from nimlab.discovery._table import _full, _sample
from nimlab.discovery.grammar import LETTERS, Term, enumerate_terms

# a near fit may miss the P-positions on at most this share of the sampled cells
_NEAR_SHARE = 0.1
# a region of exceptions covers at most this share of the table
_REGION_SHARE = 0.25
_MAX_CANDIDATES = 400

Array = npt.NDArray[np.int64]


def _regions(data: _Data) -> list[tuple[str, npt.NDArray[np.bool_], int]]:
    """Small regions of the table: every heap at most k, the heaps' total at most k."""
    n = len(data.heaps)
    args = ", ".join(LETTERS[:n])
    top = np.max(np.stack(data.heaps), axis=0)
    total = np.sum(np.stack(data.heaps), axis=0)
    out = []
    for k in range(4):
        out.append((f"max({args}) <= {k}" if n > 1 else f"a <= {k}", top <= k, 3))
        if n > 1:
            out.append((f"{' + '.join(LETTERS[:n])} <= {k}", total <= k, n + 1))
    return out


def _moore_terms(data: _Data) -> Iterator[Term]:
    """Moore's sums ``msum(m, a, b, ...)`` of the heaps for the data's moduli m >= 3."""
    n = len(data.heaps)
    if n < 2:
        return
    args = ", ".join(LETTERS[:n])
    for m in data.constants:
        if m >= 3:
            text = f"msum({m}, {args})"
            full = _full(text, data)
            if full is not None:
                yield Term(text, full, n + 2)


def _near_fits(data: _Data, deadline: float) -> list[Term]:
    """Terms F whose ``F == 0`` misses the P-positions on a few cells (values on every
    cell)."""
    pick = _sample(data)
    small = data.p[pick]
    limit = _NEAR_SHARE * small.size
    out: list[Term] = []

    def near(t: Term) -> bool:
        miss = int(((t.values == 0) != small).sum())
        if 0 < miss <= limit and len(out) < _MAX_CANDIDATES:
            full = _full(t.text, data)
            if full is not None:
                out.append(Term(t.text, full, t.size, t.atomic))
        return False

    enumerate_terms(
        [h[pick] for h in data.heaps],
        max_size=5,
        constants=data.constants,
        positive=data.positive,
        deadline=deadline,
        stop=near,
    )
    for t in _moore_terms(data):
        if int(((t.values == 0) != data.p).sum()) > 0:
            out.append(t)
    return out


def _piecewise(data: _Data, found: list[Proposal], deadline: float) -> Iterator[Proposal]:
    """Statements ``(R and F == c) or (not R and F == 0)`` that fit the table exactly,
    for near fits ``F == 0`` whose exceptions all lie in a small region ``R``; *found* is
    what the other searches proposed (a case split is looked for only when none of them
    is an exact P-set)."""
    del found  # the near fits are searched afresh, with their values on every cell
    regions = _regions(data)
    p = data.p
    for t in sorted(_near_fits(data, deadline), key=lambda t: t.size):
        if time.monotonic() > deadline:
            return
        bad = (t.values == 0) != p
        for text, inside, size in regions:
            share = float(inside.mean())
            if share > _REGION_SHARE or np.any(bad & ~inside):
                continue
            for c in range(4):
                if not np.array_equal((t.values == c)[inside], p[inside]):
                    continue
                f = t.wrapped()
                statement = f"({text} and {f} == {c}) or (not ({text}) and {f} == 0)"
                full = _full(statement, data)
                if full is None or not np.array_equal(full.astype(bool), p):
                    continue
                yield Proposal(
                    statement,
                    "p-set",
                    f"case split: {t.text} == 0 except where {text} "
                    f"({int(bad.sum())} exception(s)), where {t.text} == {c}",
                    2 * t.size + size + 6,
                    data.region,
                    int(p.size),
                )
                return
