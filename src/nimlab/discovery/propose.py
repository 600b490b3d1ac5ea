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

import time
from typing import Any

from nimlab.core.errors import InvalidParameterError
from nimlab.core.ruleset import Ruleset
from nimlab.discovery._cases import _piecewise
from nimlab.discovery._deeper import _check_best
from nimlab.discovery._formulas import (
    _block_scaling,
    _decomposition,
    _formulas,
    _periodic_one_heap,
    _xor_residual,
)
from nimlab.discovery._model import KINDS, Conjectures, Proposal, _Data
from nimlab.discovery._psets import _beatty, _p_sets
from nimlab.discovery._table import (
    _default_below,
    _default_verify_bound,
    _heap_count,
    _say,
    _tabulate,
)

__all__ = ["Conjectures", "Proposal", "conjecture"]


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
    _check_args(kind, time_budget)
    g = as_game(game)
    n = _heap_count(g, heaps)
    below = _check_below(n, _default_below(n) if below is None else below)
    deadline = t0 + float(time_budget)
    _say(progress, f"tabulating {g.label()} ({n} heaps below {below})")
    data = _tabulate(g, n, below, kind)
    if data.p.size == 0:
        raise InvalidParameterError(f"{g.label()}: no valid position of {n} heaps below {below}")
    tried: list[str] = [f"table of {data.p.size:,} positions ({data.region})"]
    found = _search(data, kind, deadline, max_size, progress, tried)
    bound = _default_verify_bound(n, below) if verify_bound is None else verify_bound
    checks = (below + 1, bound, verify_best)
    kept, refuted = _check_best(g, found, n, checks, kind == "misere", store, deadline, progress)
    seconds = time.monotonic() - t0
    return Conjectures(
        g.label(), n, below, kind, tuple(kept), tuple(refuted), tuple(tried), seconds
    )


def _check_args(kind: str, time_budget: Any) -> None:
    """Refuse an unknown *kind* or a *time_budget* that is not a positive number."""
    if kind not in KINDS:
        raise InvalidParameterError(f"kind must be one of {', '.join(KINDS)}, got {kind!r:.40}")
    if isinstance(time_budget, bool) or not isinstance(time_budget, int | float):
        raise InvalidParameterError(
            f"time_budget must be a positive number, got {time_budget!r:.40}"
        )
    if time_budget <= 0:
        raise InvalidParameterError(
            f"time_budget must be a positive number, got {time_budget!r:.40}"
        )


def _check_below(n: int, below: Any) -> int:
    """*below*, checked: an integer >= 2 whose table of *n* heaps is not too large."""
    if isinstance(below, bool) or not isinstance(below, int) or below < 2:
        raise InvalidParameterError(f"below must be an integer >= 2, got {below!r:.40}")
    if below**n > 4_000_000:
        raise InvalidParameterError(
            f"a table of {n} heaps below {below} has {below**n:,} cells, more than the "
            "4,000,000 the search handles; give a smaller below="
        )
    return below


def _search(
    data: _Data, kind: str, deadline: float, max_size: int, progress: bool, tried: list[str]
) -> list[Proposal]:
    """Every statement that fits *data*, simplest first, one per statement; *tried* gets
    what was searched."""
    found: list[Proposal] = []
    consts = ", ".join(map(str, data.constants))
    if data.grundy is not None and kind == "grundy":
        _say(progress, "searching formulas for the Grundy values")
        tried.append(f"formulas up to size {max_size} (constants {consts})")
        # the short formulas, then the structured searches, then the long formulas
        found.extend(_formulas(data, deadline, min(max_size, 5)))
        if not any(p.exceptions == 0 for p in found):
            _say(progress, "testing a decomposition into one-heap games")
            tried.append("sum of one-heap games (G = XOR of the one-heap values)")
            found.extend(_decomposition(data, deadline))
        if not any(p.exceptions == 0 for p in found):
            _say(progress, "testing block scalings G = p*H(heaps // p) + R(heaps % p)")
            tried.append("block scalings G = p*H(heaps // p) + R(heaps % p)")
            found.extend(_block_scaling(data, deadline))
        if not any(p.exceptions == 0 for p in found) and max_size > 5:
            found.extend(_formulas(data, deadline, max_size))
        if not any(p.exceptions == 0 for p in found) and len(data.heaps) > 1:
            tried.append("the nim-sum of the heaps corrected by a short formula")
            found.extend(_xor_residual(data, deadline))
        if not any(p.exceptions == 0 for p in found):
            tried.append("a period (and saltus) of the one-heap sequence")
            found.extend(_periodic_one_heap(data))
    _say(progress, "searching P-sets")
    tried.append("P-sets: equal one-heap terms, residues on every heap, F == 0, conjunctions")
    found.extend(_p_sets(data, deadline, max_size))
    if len(data.heaps) == 2 and kind != "misere":
        tried.append("complementary pairs (Beatty sequences)")
        found.extend(_beatty(data))
    if not any(p.exceptions == 0 for p in found):
        _say(progress, "describing the exceptions of the near fits (a case split)")
        tried.append("case splits: a near fit, with its exceptions described by a region")
        found.extend(_piecewise(data, found, deadline))
    # simplest first: exact fits before outliers, formulas before P-sets of the same size
    found.sort(key=lambda p: (p.exceptions > 0, p.kind != "formula", p.size, p.exceptions))
    unique: dict[str, Proposal] = {}
    for p in found:
        unique.setdefault(p.statement, p)
    return list(unique.values())
