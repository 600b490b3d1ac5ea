"""Grundy sequences of one-heap games: Siegel's forms, exact (arithmetic) periodicity, inner periods.

Subtraction(S) sequences are ultimately periodic and All-but(S) sequences ultimately
arithmetic-periodic ([S18] Theorems 5 and 6). The functions here find the preperiod, the
period and the saltus *exactly*: they follow a finite state of the sequence and stop when
that state repeats, which proves the periodicity for every larger heap.

- Subtraction(S), ``m = max S``: ``G(n)`` depends only on ``G(n−m), …, G(n−1)``; two equal
  windows start the same continuation.
- All-but(S), ``m = max S``: every position ``j < n−m`` is an option of ``n``, and the values
  ``{G(j) : j < k}`` always form an initial segment ``{0, …, M(k)}`` (a position of value
  ``g`` has options of every value below ``g``). So ``G(n) = mex({0..M(n−m)} ∪ {G(n−t) :
  1 ≤ t ≤ m, t ∉ S})``, and the window measured relative to ``M(n−m)`` (values at or below it
  clipped, as they no longer matter) is a finite state whose repetition gives arithmetic
  periodicity, the saltus being the growth of ``M`` over the period.

References
----------
[S18] §1.2: Definitions 10 and 11 (periodicity, inner period ``p'``), Lemma 2; Siegel's
Theorem 11 / Corollary 1 (``S18-T11``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from math import gcd

from nimlab.core.errors import SearchTooLargeError
from nimlab.formulas.nim import mex

__all__ = [
    "Periodicity",
    "allbut_periodicity",
    "allbut_periodicity_proof",
    "has_inner_period",
    "inner_periods",
    "periodic_reason",
    "preimages",
    "siegel_allbut_grundy",
    "subtraction_periodicity",
]

MAX_STEPS = 1_000_000


@dataclass(frozen=True)
class Periodicity:
    """An ultimately (arithmetic-)periodic Grundy sequence, exactly.

    ``G(n + period) = G(n) + saltus`` for every ``n ≥ preperiod``; ``saltus = 0`` is plain
    periodicity. ``values`` holds ``G(0), …, G(preperiod + period − 1)``.

    Examples
    --------
    >>> per = subtraction_periodicity({1, 2})
    >>> per.preperiod, per.period, per.saltus, per.values
    (0, 3, 0, (0, 1, 2))
    >>> per.grundy(10**30)
    1
    """

    preperiod: int
    period: int
    saltus: int
    values: tuple[int, ...]

    @property
    def pure(self) -> bool:
        """Whether the sequence is purely (arithmetic-)periodic (``preperiod == 0``)."""
        return self.preperiod == 0

    def grundy(self, n: int) -> int:
        """``G(n)`` for any heap ``n ≥ 0``, in constant time.

        Examples
        --------
        >>> allbut_periodicity({2}).grundy(10**20 + 3)
        50000000000000000001
        """
        if n < 0:
            raise ValueError(f"heap sizes are >= 0, got {n}")
        if n < len(self.values):
            return self.values[n]
        q, r = divmod(n - self.preperiod, self.period)
        return self.values[self.preperiod + r] + q * self.saltus


def periodic_reason(per: Periodicity, n: int) -> str:
    """Why ``G(n)`` has its value, read from the periodicity *per*: the residue of *n*.

    Examples
    --------
    >>> per = subtraction_periodicity({1, 3, 4})
    >>> periodic_reason(per, 10)
    'G(n + 7) = G(n) for n >= 0 (one period: 0 1 0 1 2 3 2); 10 ≡ 3 (mod 7), so G(10) = G(3) = 1'
    >>> periodic_reason(allbut_periodicity({2}), 9)
    'G(n + 4) = G(n) + 2 for n >= 0 (one period: 0 1 0 1); 9 = 1 + 2·4, so G(9) = G(1) + 2·2 = 5'
    """
    p, s, pre = per.period, per.saltus, per.preperiod
    cycle = " ".join(map(str, per.values[pre : pre + p][:24])) + (" ..." if p > 24 else "")
    law = f"G(n + {p}) = G(n)" + (f" + {s}" if s else "") + f" for n >= {pre}"
    law += f" (one period: {cycle})"
    g = per.grundy(n)
    if n < pre + p:
        where = "in the preperiod" if n < pre else "in the first period"
        return f"{law}; {n} is {where}, so G({n}) = {g} from the computed values"
    q, r = divmod(n - pre, p)
    base = pre + r
    if s == 0:
        return f"{law}; {n} ≡ {base} (mod {p}), so G({n}) = G({base}) = {g}"
    return f"{law}; {n} = {base} + {q}·{p}, so G({n}) = G({base}) + {q}·{s} = {g}"


def _minimise(g: list[int], start: int, period: int, saltus: int) -> Periodicity:
    """Smallest period and preperiod, given ``G(n+period) = G(n)+saltus`` for ``n ≥ start``.

    The periods of such a sequence are closed under gcd, so the smallest one divides
    ``period``; a divisor ``d`` is a period iff it holds over one full period.
    """

    def value(n: int) -> int:
        if n < len(g):
            return g[n]
        q, r = divmod(n - start, period)
        return g[start + r] + q * saltus

    best, best_s = period, saltus
    for d in range(1, period):
        if period % d or (saltus * d) % period:
            continue
        s = saltus * d // period
        if all(value(n + d) == value(n) + s for n in range(start, start + period)):
            best, best_s = d, s
            break
    pre = start
    while pre > 0 and g[pre - 1 + best] == g[pre - 1] + best_s:
        pre -= 1
    return Periodicity(pre, best, best_s, tuple(value(n) for n in range(pre + best)))


def _positive(name: str, s: Iterable[int]) -> list[int]:
    out = sorted(set(s))
    if any(x <= 0 for x in out):
        raise ValueError(f"{name}: the set must contain positive integers only, got {out}")
    return out


def subtraction_periodicity(S: Iterable[int], max_steps: int = MAX_STEPS) -> Periodicity:
    """Exact periodicity of the Grundy sequence of Subtraction(S), ``S`` finite and non-empty.

    Examples
    --------
    >>> subtraction_periodicity({1, 2, 3})
    Periodicity(preperiod=0, period=4, saltus=0, values=(0, 1, 2, 3))
    >>> subtraction_periodicity({2, 5, 6}).period
    11
    """
    s = _positive("Subtraction", S)
    if not s:
        raise ValueError("Subtraction(S) needs a non-empty S")
    m = s[-1]
    g: list[int] = []
    for n in range(m):
        g.append(mex(g[n - x] for x in s if x <= n))
    seen: dict[tuple[int, ...], int] = {}
    n = m
    while True:
        state = tuple(g[n - m : n])
        first = seen.get(state)
        if first is not None:
            return _minimise(g, first - m, n - first, 0)
        if n - m > max_steps:
            raise SearchTooLargeError(
                f"Subtraction({sorted(s)}): no period found within {max_steps:,} heaps"
            )
        seen[state] = n
        g.append(mex(g[n - x] for x in s))
        n += 1


def allbut_periodicity(S: Iterable[int], max_steps: int = MAX_STEPS) -> Periodicity:
    """Exact arithmetic periodicity of the Grundy sequence of All-but(S), ``S`` finite.

    Examples
    --------
    >>> allbut_periodicity(set())
    Periodicity(preperiod=0, period=1, saltus=1, values=(0,))
    >>> allbut_periodicity({8}).period, allbut_periodicity({8}).saltus
    (16, 8)
    >>> allbut_periodicity({4, 8}).values
    (0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3)
    """
    s = _positive("All-but", S)
    excluded = set(s)
    m = s[-1] if s else 0
    g: list[int] = []
    for n in range(m):
        g.append(mex(g[n - t] for t in range(1, n + 1) if t not in excluded))
    allowed = [t for t in range(1, m + 1) if t not in excluded]
    top = -1  # max of G over the positions below n - m (none yet)
    seen: dict[tuple[int, ...], tuple[int, int]] = {}
    n = m
    while True:
        base = top + 1
        state = tuple(max(g[n - t] - base, -1) for t in range(1, m + 1))
        first = seen.get(state)
        if first is not None:
            n0, top0 = first
            return _minimise(g, n0, n - n0, top - top0)
        if n - m > max_steps:
            raise SearchTooLargeError(
                f"All-but({sorted(s)}): no arithmetic period found within {max_steps:,} heaps"
            )
        seen[state] = (n, top)
        rel = mex(state[t - 1] for t in allowed if state[t - 1] >= 0)
        g.append(base + rel)
        top = max(top, g[n - m])
        n += 1


def allbut_periodicity_proof(
    values: Sequence[int], preperiod: int, period: int, saltus: int, S: Iterable[int]
) -> tuple[bool, str, int]:
    """Whether the all-but induction proves an observed arithmetic period of All-but(S).

    *values* are ``G(0), …, G(n-1)``, observed to satisfy ``G(m+p) = G(m) + s`` for
    ``m >= n0``. Returns ``(proved, reason, terms needed)``. All-but(∅) is Nim.

    Examples
    --------
    >>> allbut_periodicity_proof([0, 1, 0, 1, 2, 3, 2, 3, 4, 5, 4, 5], 0, 2, 2, {2})[0]
    True
    """
    p, n0, s = period, preperiod, saltus
    n = len(values)
    t = max((int(x) for x in S), default=0)
    need = n0 + t + p
    if n < need:
        return False, f"the all-but theorem needs {need} terms", need
    big_n = n - p  # the relation is verified for n0 <= m < big_n
    b_set = {int(x) for x in values[: n0 + p]}
    c_set = {int(x) for x in values[:n0]}
    a_set = {int(x) for x in values[n0 : big_n - t]}
    ok_a = all(v in b_set for v in range(s))
    ok_b = all(v < s or v - s in c_set or v - s in a_set for v in b_set)
    ok_c = all(v + s in b_set or v in a_set for v in c_set)
    if ok_a and ok_b and ok_c:
        return (
            True,
            f"all-but induction: G(n+{p}) = G(n)+{s} for {n0} <= n < {big_n}, "
            "options of n+p are those of n shifted by the saltus",
            need,
        )
    return False, "the all-but induction conditions fail on this data", need


def subtraction_periodicity_proof(
    n: int, preperiod: int, period: int, saltus: int, S: Iterable[int]
) -> tuple[bool, str, int]:
    """Whether the subtraction periodicity theorem proves an observed period.

    ``G(m+p) = G(m)`` observed for ``n0 <= m < n0 + max S`` (with *n* terms computed)
    proves it for every ``m >= n0``. Returns ``(proved, reason, terms needed)``.

    Examples
    --------
    >>> subtraction_periodicity_proof(50, 0, 7, 0, {1, 3, 4})
    (True, 'subtraction periodicity: G(n+7) = G(n) for 0 <= n < 4', 11)
    """
    p, n0 = period, preperiod
    t = max(int(x) for x in S)
    need = n0 + t + p
    if saltus == 0 and n >= need:
        return True, f"subtraction periodicity: G(n+{p}) = G(n) for {n0} <= n < {n0 + t}", need
    return False, f"the subtraction theorem needs {need} terms", need


def has_inner_period(per: Periodicity, p: int) -> bool:
    """Whether a Grundy sequence has inner period ``p`` ([S18] Definition 11).

    The sequence must be purely (arithmetic-)periodic; then for a period ``P`` that ``p``
    divides (``lcm`` of the least period and ``p``), the saltus over ``P`` is a multiple of
    ``p``, ``G(k) ≡ k (mod p)`` and ``G(k+1) = G(k) + 1`` whenever ``k mod p ≠ p − 1``
    (``0 ≤ k < P``). This is exactly what Lemma 2 and Theorems 10/12 use.

    Examples
    --------
    >>> has_inner_period(allbut_periodicity({8}), 4), has_inner_period(allbut_periodicity({4, 8}), 4)
    (True, True)
    >>> has_inner_period(allbut_periodicity({8}), 8), has_inner_period(allbut_periodicity({4, 8}), 8)
    (True, False)
    >>> has_inner_period(subtraction_periodicity({1, 3}), 2), has_inner_period(subtraction_periodicity({2}), 2)
    (True, False)
    """
    if p < 1:
        raise ValueError(f"an inner period is a positive integer, got {p}")
    if not per.pure:
        return False
    big = per.period * p // gcd(per.period, p)
    if (per.saltus * (big // per.period)) % p:
        return False
    for k in range(big):
        gk = per.grundy(k)
        if gk % p != k % p:
            return False
        if k % p != p - 1 and per.grundy(k + 1) != gk + 1:
            return False
    return True


def inner_periods(per: Periodicity, limit: int | None = None) -> list[int]:
    """Every ``p ≤ limit`` that is an inner period (``limit`` defaults to the period).

    Examples
    --------
    >>> inner_periods(allbut_periodicity({8}))
    [1, 2, 4, 8]
    >>> inner_periods(allbut_periodicity(set()), limit=5)
    [1, 2, 3, 4, 5]
    """
    top = per.period if limit is None else limit
    return [p for p in range(1, top + 1) if has_inner_period(per, p)]


def siegel_allbut_grundy(n: int, S: Iterable[int]) -> int | None:
    """Siegel's closed forms for All-but(S) with ``|S| ≤ 2`` (S18-T11), else None.

    All-but({k}): ``(n mod k) + k⌊n/2k⌋``; All-but({k, m}), ``k < m``:
    ``(n mod k) + k⌊n/3k⌋`` if ``m = 2k``, else ``(n mod k) + k⌊n/2k⌋``; All-but(∅) is Nim.

    Examples
    --------
    >>> [siegel_allbut_grundy(n, {2}) for n in range(8)]
    [0, 1, 0, 1, 2, 3, 2, 3]
    >>> siegel_allbut_grundy(10**40, set()) == 10**40, siegel_allbut_grundy(5, {1, 2, 3})
    (True, None)
    """
    s = sorted(S)
    if not s:
        return n
    if len(s) == 1:
        k = s[0]
        return n % k + k * (n // (2 * k))
    if len(s) == 2:
        k, m = s
        if m == 2 * k:
            return n % k + k * (n // (3 * k))
        return n % k + k * (n // (2 * k))
    return None


def preimages(per: Periodicity, v: int, below: int) -> list[int]:
    """Heaps ``n < below`` with ``G(n) = v`` for an (arithmetic-)periodic sequence *per*.

    Examples
    --------
    >>> preimages(subtraction_periodicity({1, 2}), 0, 10)
    [0, 3, 6, 9]
    """
    out = [n for n in range(min(per.preperiod, below)) if per.values[n] == v]
    for r in range(per.period):
        n0 = per.preperiod + r
        base = per.values[n0]
        if per.saltus == 0:
            if base == v:
                n = n0
                while n < below:
                    out.append(n)
                    n += per.period
                    if len(out) > 10_000:
                        break
            continue
        j, rem = divmod(v - base, per.saltus)
        if rem == 0 and j >= 0:
            n = n0 + j * per.period
            if n < below:
                out.append(n)
    return sorted(out)
