"""P-sets: atoms, conjunctions and complementary (Beatty) pairs."""

from __future__ import annotations

import math
import time
from collections.abc import Iterator, Sequence

import numpy as np

from nimlab.discovery._model import _OUTLIER_SHARE, Proposal, _Data
from nimlab.discovery._table import _fits, _full, _sample
from nimlab.discovery.grammar import LETTERS, Term, enumerate_terms, one_heap_terms


def _atoms(data: _Data, formulas: Sequence[Term]) -> Iterator[Term]:
    """P-set atoms as 0/1 terms: equal one-heap terms on every heap, residues on every
    heap, and F == 0."""
    n = len(data.heaps)
    per_heap = [
        one_heap_terms(LETTERS[i], h, data.constants, data.positive)
        for i, h in enumerate(data.heaps)
    ]
    for j in range(len(per_heap[0])):
        parts = [per_heap[i][j] for i in range(n)]
        if n >= 2:
            eq = np.ones(parts[0].values.shape, dtype=bool)
            for p in parts[1:]:
                eq &= p.values == parts[0].values
            yield Term(" == ".join(p.text for p in parts), eq.astype(np.int64), parts[0].size * n)
    for m in data.constants:
        if m < 2:
            continue
        residues = [h % m for h in data.heaps]
        for lo in range(m):
            for hi in range(lo, m):
                if lo == 0 and hi == m - 1:
                    continue
                ok = np.ones(residues[0].shape, dtype=bool)
                for r in residues:
                    ok &= (r >= lo) & (r <= hi)
                if lo == hi:
                    text = " and ".join(f"{LETTERS[i]} % {m} == {lo}" for i in range(n))
                else:
                    text = " and ".join(f"{lo} <= {LETTERS[i]} % {m} <= {hi}" for i in range(n))
                yield Term(text, ok.astype(np.int64), 4 * n)
    for f in formulas:
        yield Term(f"{f.text} == 0", (f.values == 0).astype(np.int64), f.size + 2)
    # Moore's sums: the binary digits of the heaps add up to 0 modulo m in every column
    if n >= 2:
        top = max(int(h.max()) for h in data.heaps).bit_length()
        for m in data.constants:
            if m < 3:
                continue  # m = 2 is the XOR, among the formulas
            ok = np.ones(data.heaps[0].shape, dtype=bool)
            for col in range(top):
                ok &= sum((h >> col) & 1 for h in data.heaps) % m == 0
            args = ", ".join(LETTERS[i] for i in range(n))
            yield Term(f"msum({m}, {args}) == 0", ok.astype(np.int64), n + 3)


def _p_sets(data: _Data, deadline: float, max_size: int) -> Iterator[Proposal]:
    """P-sets: the structural atoms (equal one-heap terms, residues, Moore's sums), then
    ``F == 0`` for the short formulas F (only when no structural atom fits exactly), then
    conjunctions of two."""
    target = data.p.astype(np.int64)
    atoms = sorted(_atoms(data, ()), key=lambda t: t.size)
    exact = False
    for prop in _fitting(atoms, data):
        exact |= prop.exceptions == 0
        yield prop
    if exact:
        return
    formulas = sorted(_atoms_of_formulas(data, deadline, max_size), key=lambda t: t.size)
    for prop in _fitting(formulas, data):
        exact |= prop.exceptions == 0
        yield prop
    if exact:
        return
    # conjunctions of two atoms that each contain the P-positions
    both = sorted([*atoms, *formulas], key=lambda t: t.size)
    within = [a for a in both if not np.any(target & (1 - a.values))][:300]
    for i, a in enumerate(within):
        if time.monotonic() > deadline:
            return
        for b in within[i + 1 :]:
            got = _fits(a.values & b.values, target, data, 0)
            if got is not None:
                yield Proposal(
                    f"({a.text}) and ({b.text})",
                    "p-set",
                    "conjunction of P-set atoms",
                    a.size + b.size + 1,
                    data.region,
                    target.size,
                )
                return


def _fitting(atoms: Sequence[Term], data: _Data) -> Iterator[Proposal]:
    """The atoms that fit the P-positions (exactly, or with few exceptions)."""
    target = data.p.astype(np.int64)
    limit = int(_OUTLIER_SHARE * target.size)
    for a in atoms:
        got = _fits(a.values, target, data, limit)
        if got is not None:
            yield Proposal(a.text, "p-set", "P-set atom", a.size, data.region, target.size, *got)


def _atoms_of_formulas(data: _Data, deadline: float, max_size: int) -> Iterator[Term]:
    """``F == 0`` for the short formulas F of the grammar that are 0 exactly at the
    P-positions of a sample of the cells (values on every cell)."""
    pick = _sample(data)
    small = data.p[pick].astype(np.int64)
    for t in enumerate_terms(
        [h[pick] for h in data.heaps],
        max_size=min(max_size, 5),
        constants=data.constants,
        positive=data.positive,
        deadline=deadline,
    ):
        if t.size > 1 and np.array_equal((t.values == 0).astype(np.int64), small):
            full = _full(t.text, data)
            if full is not None:
                yield Term(f"{t.text} == 0", (full == 0).astype(np.int64), t.size + 2)


_SURDS = tuple(d for d in range(2, 60) if math.isqrt(d) ** 2 != d)


def _beatty(data: _Data) -> Iterator[Proposal]:
    """Two heaps whose P-positions are complementary pairs (a_n, a_n + k*n): recognise a_n
    as floor(n * alpha) for a quadratic irrational alpha = (p + sqrt(d)) / q."""
    if len(data.heaps) != 2 or data.positive:
        return
    a, b = data.heaps
    sel = data.p & (a <= b)
    lo, hi = a[sel], b[sel]
    if lo.size < 6:
        return
    order = np.argsort(lo)
    lo, hi = lo[order], hi[order]
    diff = hi - lo
    if diff[0] != 0 or diff[1] <= 0:
        return
    k = int(diff[1])
    n = np.arange(lo.size)
    if not np.array_equal(diff, k * n) or len(np.unique(lo)) != lo.size:
        return
    # the pairs are complete below the table's size while both members are below it
    below = int(max(int(a.max()), int(b.max()))) + 1
    full = hi < below
    lo, n = lo[full], n[full]
    if lo.size < 6:
        return
    # alpha lies in [max a_n / n, min (a_n + 1) / n] over n >= 1
    low_a = max(lo[i] / n[i] for i in range(1, lo.size))
    high_a = min((lo[i] + 1) / n[i] for i in range(1, lo.size))
    candidates = sorted(
        ((abs(p) + d + q, p, d, q) for q in range(1, 9) for d in _SURDS for p in range(-8, 9)),
    )
    for _, p, d, q in candidates:
        alpha = (p + math.sqrt(d)) / q
        if not low_a <= alpha < high_a:
            continue
        ok = all(
            (p * int(m) + math.isqrt(d * int(m) * int(m))) // q == int(v)
            for m, v in zip(n.tolist(), lo.tolist(), strict=True)
        )
        if not ok:
            continue
        gap = "(max(a, b) - min(a, b))" if k == 1 else f"((max(a, b) - min(a, b)) // {k})"
        lead = "" if p == 0 else (f"{gap} + " if p == 1 else f"{p} * {gap} + ")
        text = f"min(a, b) == ({lead}isqrt({d} * {gap} * {gap})) // {q}"
        if k > 1:
            text = f"(max(a, b) - min(a, b)) % {k} == 0 and {text}"
        yield Proposal(
            text,
            "p-set",
            f"complementary pairs (a_n, a_n + {k}n) with a_n = floor(n * alpha), "
            f"alpha = ({p} + sqrt({d}))/{q} = {alpha:.9f} (a Beatty sequence)",
            12,
            data.region,
            data.p.size,
        )
        return
