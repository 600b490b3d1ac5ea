"""Propose closed forms from exhaustive tables, then check them deeper.

:func:`conjecture` tabulates a game exhaustively (the compiled engine or the game's table
kernel: never a registered closed form), searches statements shortest first and keeps the
ones that fit the table, then verifies the best of them on a larger box with the local
check of :func:`nimlab.verify`; a statement that the deeper check refutes is reported with
its counterexample and never as a conjecture that holds.

What it searches, in this order:

1. **Formulas** for Grundy values: expressions of a typed grammar over the heaps (``+ - *
   // % ^ & | >> min max v2 tail``, constants from the data, and symmetric aggregates such
   as the XOR or the sum of one-heap terms over all heaps), one per distinct value vector.
2. **Decompositions**: the game is a sum (G = XOR of its one-heap values), each part then
   described by its own formula (a period, for subtraction games).
3. **P-sets**: conjunctions of one-heap equalities (``v2(a) == v2(b) == v2(c)``), of
   residue conditions on every heap (``1 <= a % 6 <= 2 and ...``) and of ``F == 0`` for the
   formulas of step 1; for two-heap games, complementary pairs (the n-th P-position and its
   difference n), recognised as a Beatty pair of a quadratic irrational when they are one.
4. **Outliers**: a statement that fails on a few cells only is kept with its exceptions.

Examples
--------
>>> found = conjecture("nim", heaps=2, below=16, verify_bound=24)
>>> found.best.statement, found.best.kind, found.best.verified["ok"]
('a ^ b', 'formula', True)
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from nimlab.core.errors import InvalidArgumentError, InvalidParameterError
from nimlab.core.ruleset import Ruleset
from nimlab.discovery.grammar import LETTERS, Term, enumerate_terms, one_heap_terms

__all__ = ["Conjectures", "Proposal", "conjecture"]

KINDS = ("grundy", "outcome", "misere")
# cells of the table searched when no size is given, per number of heaps
_DEFAULT_CELLS = 40_000
# a statement that fails on at most this share of the cells is kept as an outlier
_OUTLIER_SHARE = 0.01


@dataclass(frozen=True)
class Proposal:
    """A statement that fits the data, with its evidence.

    Attributes
    ----------
    statement : str
        In the expression language of ``nimlab verify --formula`` / ``--p-set``.
    kind : {"formula", "p-set"}
        A Grundy function, or the set of P-positions.
    found_by : str
        Which search proposed it (formula, sum of one-heap parts, P-set atoms, Beatty pair).
    size : int
        Length of the statement in syntax-tree nodes (simplest first).
    region : str
        The positions it was fitted on.
    tested : int
        Number of positions tested there.
    exceptions : int
        Positions of the region where it fails (0 for an exact fit).
    exception_samples : tuple
        Up to ten of them.
    verified : dict or None
        The deeper check: ``bound``, ``positions``, ``ok``, ``method``, ``counterexample``.
    """

    statement: str
    kind: str
    found_by: str
    size: int
    region: str
    tested: int
    exceptions: int = 0
    exception_samples: tuple[tuple[int, ...], ...] = ()
    verified: dict[str, Any] | None = None

    @property
    def refuted(self) -> bool:
        """Whether the deeper check found a counterexample."""
        return self.verified is not None and not self.verified["ok"]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "statement": self.statement,
            "kind": self.kind,
            "found_by": self.found_by,
            "size": self.size,
            "region": self.region,
            "tested": self.tested,
            "exceptions": self.exceptions,
            "exception_samples": [list(p) for p in self.exception_samples],
            "verified": self.verified,
        }


@dataclass(frozen=True)
class Conjectures:
    """What :func:`conjecture` proposed for a game, best first, and what it tried.

    Attributes
    ----------
    game : str
        The game's label.
    heaps : int
        Number of heaps.
    below : int
        Heaps of the searched table are below this size.
    kind : str
        ``grundy``, ``outcome`` or ``misere``.
    proposals : tuple of Proposal
        Statements that fit the table (and were not refuted deeper), best first.
    refuted : tuple of Proposal
        Statements that fit the table but failed further out (with the counterexample).
    tried : tuple of str
        What was searched, in order (shown when nothing is found).
    seconds : float
        Time spent.
    """

    game: str
    heaps: int
    below: int
    kind: str
    proposals: tuple[Proposal, ...]
    refuted: tuple[Proposal, ...] = ()
    tried: tuple[str, ...] = ()
    seconds: float = 0.0

    @property
    def best(self) -> Proposal | None:
        """The first proposal, or None."""
        return self.proposals[0] if self.proposals else None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "game": self.game,
            "heaps": self.heaps,
            "below": self.below,
            "kind": self.kind,
            "proposals": [p.to_dict() for p in self.proposals],
            "refuted": [p.to_dict() for p in self.refuted],
            "tried": list(self.tried),
            "seconds": self.seconds,
        }


@dataclass
class _Data:
    """The table flattened to its valid cells."""

    heaps: list[npt.NDArray[np.int64]]
    grundy: npt.NDArray[np.int64] | None
    p: npt.NDArray[np.bool_]
    region: str
    positive: bool
    constants: tuple[int, ...]
    lines: list[npt.NDArray[np.int64]] = field(default_factory=list)


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


def _formulas(data: _Data, deadline: float, max_size: int) -> Iterator[Proposal]:
    """Grundy formulas of the grammar that fit (exactly, or with few exceptions): searched
    on a sample of the cells, each hit confirmed on every cell by the expression
    language's own evaluation."""
    assert data.grundy is not None
    target = data.grundy
    limit = int(_OUTLIER_SHARE * target.size)
    pick = _sample(data)
    small = target[pick]
    hits: list[Proposal] = []

    def stop(t: Term) -> bool:
        if int((t.values != small).sum()) > 2 * _OUTLIER_SHARE * small.size:
            return False
        got = _fits(_full(t.text, data), target, data, limit)
        if got is None:
            return False
        hits.append(Proposal(t.text, "formula", "formula", t.size, data.region, target.size, *got))
        return got[0] == 0

    enumerate_terms(
        [h[pick] for h in data.heaps],
        max_size=max_size,
        constants=data.constants,
        positive=data.positive,
        deadline=deadline,
        stop=stop,
        keep_last=False,
    )
    yield from hits


def _decomposition(data: _Data, deadline: float) -> Iterator[Proposal]:
    """G = XOR of one-heap parts, each part a formula of its own heap."""
    if data.grundy is None or len(data.heaps) < 2 or len(data.lines) != len(data.heaps):
        return
    low = min(int(h.min()) for h in data.heaps)
    xor = np.zeros_like(data.grundy)
    for h, line in zip(data.heaps, data.lines, strict=True):
        xor ^= line[h - low] if low == 0 else line[h]
    if not np.array_equal(xor, data.grundy):
        return
    parts: list[str] = []
    size = len(data.heaps) - 1
    for i, line in enumerate(data.lines):
        x = np.arange(low, low + len(line), dtype=np.int64)
        found: list[Term] = []
        target = line[x - low] if low == 0 else line
        enumerate_terms(
            [x],
            max_size=5,
            constants=data.constants,
            positive=low >= 1,
            deadline=deadline,
            stop=_collector(target, found),
        )
        if not found:
            return
        term = found[-1]
        text = term.text.replace("a", LETTERS[i]) if i else term.text
        parts.append(text if term.atomic else f"({text})")
        size += term.size
    yield Proposal(
        " ^ ".join(parts),
        "formula",
        "sum of one-heap games (XOR of the parts)",
        size,
        data.region,
        data.grundy.size,
    )


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
    """P-sets: single atoms, then conjunctions of two."""
    target = data.p.astype(np.int64)
    limit = int(_OUTLIER_SHARE * target.size)
    pick = _sample(data)
    small = target[pick]
    formulas = []
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
                formulas.append(Term(t.text, full, t.size, t.atomic))
    atoms = sorted(_atoms(data, formulas), key=lambda t: t.size)
    exact = False
    for a in atoms:
        got = _fits(a.values, target, data, limit)
        if got is not None:
            exact |= got[0] == 0
            yield Proposal(a.text, "p-set", "P-set atom", a.size, data.region, target.size, *got)
    if exact:
        return
    # conjunctions of two atoms that each contain the P-positions
    within = [a for a in atoms if not np.any(target & (1 - a.values))][:300]
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


def _collector(target: npt.NDArray[np.int64], found: list[Term]) -> Callable[[Term], bool]:
    """A ``stop`` function for :func:`enumerate_terms`: keep and stop at a term equal to
    *target*."""

    def stop(t: Term) -> bool:
        if np.array_equal(t.values, target):
            found.append(t)
            return True
        return False

    return stop


def _rename(text: str, subst: Callable[[str], str]) -> str:
    """*text* with each heap variable ``a, b, ...`` replaced by ``subst(letter)``."""
    import re

    return re.sub(r"\b([a-h])\b", lambda m: subst(m.group(1)), text)


def _formula_of(
    heaps: list[npt.NDArray[np.int64]],
    target: npt.NDArray[np.int64],
    consts: Sequence[int],
    deadline: float,
    max_size: int = 7,
) -> Term | None:
    """The shortest term of the grammar equal to *target* on every cell, or None."""
    found: list[Term] = []
    positive = all(int(h.min()) >= 1 for h in heaps)
    enumerate_terms(
        heaps,
        max_size=max_size,
        constants=consts,
        positive=positive,
        deadline=deadline,
        stop=_collector(target, found),
        keep_last=False,
    )
    return found[-1] if found else None


def _block_scaling(data: _Data, deadline: float) -> Iterator[Proposal]:
    """G = p * H(a // p, b // p, ...) + R(a % p, b % p, ...): G // p constant on blocks of
    side p and G % p a function of the residues; H and R then found as formulas."""
    if data.grundy is None:
        return
    g = data.grundy
    for p in data.constants:
        if p < 2 or time.monotonic() > deadline:
            continue
        hi = [h // p for h in data.heaps]
        lo = [h % p for h in data.heaps]
        if int(min(int(x.max()) for x in hi)) < 2:
            continue
        # G // p depends on the blocks only, G % p on the residues only
        ok = True
        for keys, vals in ((hi, g // p), (lo, g % p)):
            radix = [int(k.max()) + 1 for k in keys]
            code = np.zeros_like(g)
            for k, r in zip(keys, radix, strict=True):
                code = code * r + k
            order = np.argsort(code, kind="stable")
            c, v = code[order], vals[order]
            same = c[1:] == c[:-1]
            if np.any(v[1:][same] != v[:-1][same]):
                ok = False
                break
        if not ok:
            continue
        h_term = _formula_of(hi, g // p, data.constants, deadline)
        r_term = _formula_of(lo, g % p, data.constants, deadline)
        if h_term is None or r_term is None:
            continue
        h_text = _rename(h_term.text, lambda v, p=p: f"({v} // {p})")  # type: ignore[misc]
        r_text = _rename(r_term.text, lambda v, p=p: f"({v} % {p})")  # type: ignore[misc]
        text = f"{p} * ({h_text}) + ({r_text})"
        full = _full(text, data)
        if full is not None and np.array_equal(full, g):
            yield Proposal(
                text,
                "formula",
                f"block scaling by {p}: G = {p}*H(heaps // {p}) + R(heaps % {p})",
                h_term.size + r_term.size + 3,
                data.region,
                g.size,
            )
            return


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


def _check_deeper(
    g: Ruleset[Any],
    prop: Proposal,
    n: int,
    bounds: tuple[int, int],
    misere: bool,
    store: Any,
    seconds: float,
) -> Proposal:
    """*prop* with the result of the local check to the largest bound in *bounds* (from,
    to) whose expected time fits *seconds*; unchanged when none does."""
    import warnings

    from nimlab.verification.runner import conjecture_spec, python_seconds, run_spec

    claim: dict[str, Any] = (
        {"formula": prop.statement} if prop.kind == "formula" else {"p_set": prop.statement}
    )
    low, bound = bounds
    while True:
        spec = conjecture_spec(g, bound=bound, heaps=n, misere=misere, **claim)
        if python_seconds(spec) <= seconds:
            break
        if bound <= low:
            return prop
        bound = max(low, (bound + low) // 2 if bound - low > 1 else low)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # the cost was weighed above
        res = run_spec(spec, workers=1, store=store, what="conjecture")
    ce = res.counterexample
    return replace(
        prop,
        verified={
            "bound": bound,
            "space": res.space,
            "positions": res.positions_checked,
            "ok": bool(res.ok),
            "method": res.method,
            "counterexample": None if ce is None else str(ce),
            "run_id": res.run_id,
        },
    )


def _default_verify_bound(n: int, below: int) -> int:
    """About three times the searched positions (twice the size for one or two heaps)."""
    return 2 * below if n <= 2 else int(math.ceil(below * 3.0 ** (1.0 / n)))  # noqa: RUF046


def _default_below(n: int) -> int:
    side: float = _DEFAULT_CELLS ** (1.0 / n)
    return max(4, min(512, round(side)))


def conjecture(
    game: Ruleset[Any] | str,
    *,
    heaps: int | None = None,
    below: int | None = None,
    kind: str = "grundy",
    time_budget: float = 60.0,
    verify_bound: int | None = None,
    verify_best: int = 2,
    store: Any = None,
    max_size: int = 7,
    progress: bool = False,
) -> Conjectures:
    """Propose closed forms for *game* from an exhaustive table, then check them deeper.

    Parameters
    ----------
    game : Ruleset or str
        The game (a ruleset, or a registry name).
    heaps : int, optional
        Number of heaps (1 to 4; required when the game does not fix it).
    below : int, optional
        Size of the table searched: every heap below it (default: about 40,000 cells).
    kind : {"grundy", "outcome", "misere"}
        ``grundy`` proposes Grundy formulas and P-sets, ``outcome`` P-sets only,
        ``misere`` P-sets of misère play.
    time_budget : float
        Seconds for the whole search (it stops with what it has found).
    verify_bound : int, optional
        Heaps below this bound in the deeper check (default: about three times the
        positions searched); 0 skips it.
    verify_best : int
        How many proposals are checked deeper.
    store : str or Store, optional
        Results store where the deeper checks are recorded as conjectures.
    max_size : int
        Largest formula searched (syntax-tree nodes).
    progress : bool
        Print each stage on standard error.

    Returns
    -------
    Conjectures
        The proposals, best first, the refuted ones, and what was tried.

    Examples
    --------
    >>> found = conjecture("single-delete", heaps=3, below=12, kind="outcome")
    >>> found.best.statement
    'v2(a) == v2(b) == v2(c)'
    >>> found.best.verified["ok"], found.best.verified["bound"]
    (True, 18)
    """
    from nimlab.catalog.registry import as_game

    t0 = time.monotonic()
    if kind not in KINDS:
        raise InvalidParameterError(f"kind must be one of {', '.join(KINDS)}, got {kind!r:.40}")
    for name, value in (("time_budget", time_budget),):
        if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
            raise InvalidParameterError(f"{name} must be a positive number, got {value!r:.40}")
    g = as_game(game)
    n = _heap_count(g, heaps)
    if below is None:
        below = _default_below(n)
    if isinstance(below, bool) or not isinstance(below, int) or below < 2:
        raise InvalidParameterError(f"below must be an integer >= 2, got {below!r:.40}")
    if below**n > 4_000_000:
        raise InvalidParameterError(
            f"a table of {n} heaps below {below} has {below**n:,} cells, more than the "
            "4,000,000 the search handles; give a smaller below="
        )
    deadline = t0 + float(time_budget)
    _say(progress, f"tabulating {g.label()} ({n} heaps below {below})")
    data = _tabulate(g, n, below, kind)
    if data.p.size == 0:
        raise InvalidParameterError(f"{g.label()}: no valid position of {n} heaps below {below}")
    found: list[Proposal] = []
    tried: list[str] = [f"table of {data.p.size:,} positions ({data.region})"]
    consts = ", ".join(map(str, data.constants))
    if data.grundy is not None and kind == "grundy":
        _say(progress, "searching formulas for the Grundy values")
        tried.append(f"formulas up to size {max_size} (constants {consts})")
        found.extend(_formulas(data, deadline, max_size))
        if not any(p.exceptions == 0 for p in found):
            _say(progress, "testing a decomposition into one-heap games")
            tried.append("sum of one-heap games (G = XOR of the one-heap values)")
            found.extend(_decomposition(data, deadline))
        if not any(p.exceptions == 0 for p in found):
            _say(progress, "testing block scalings G = p*H(heaps // p) + R(heaps % p)")
            tried.append("block scalings G = p*H(heaps // p) + R(heaps % p)")
            found.extend(_block_scaling(data, deadline))
    _say(progress, "searching P-sets")
    tried.append("P-sets: equal one-heap terms, residues on every heap, F == 0, conjunctions")
    found.extend(_p_sets(data, deadline, max_size))
    if n == 2 and kind != "misere":
        tried.append("complementary pairs (Beatty sequences)")
        found.extend(_beatty(data))
    # simplest first: exact fits before outliers, formulas before P-sets of the same size
    found.sort(key=lambda p: (p.exceptions > 0, p.kind != "formula", p.size, p.exceptions))
    unique: dict[str, Proposal] = {}
    for p in found:
        unique.setdefault(p.statement, p)
    ordered = list(unique.values())
    bound = _default_verify_bound(n, below) if verify_bound is None else verify_bound
    kept: list[Proposal] = []
    refuted: list[Proposal] = []
    checked = 0
    for prop in ordered:
        if bound and prop.exceptions == 0 and checked < verify_best:
            _say(progress, f"checking {prop.statement} to heaps below {bound}")
            left = max(deadline - time.monotonic(), 1.0) / (verify_best - checked)
            prop = _check_deeper(g, prop, n, (below + 1, bound), kind == "misere", store, left)
            checked += 1
        (refuted if prop.refuted else kept).append(prop)
    return Conjectures(
        g.label(),
        n,
        below,
        kind,
        tuple(kept),
        tuple(refuted),
        tuple(tried),
        time.monotonic() - t0,
    )
