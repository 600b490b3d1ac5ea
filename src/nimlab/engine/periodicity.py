"""Periodicity of Grundy sequences: observed, and proved by the periodicity theorems.

:func:`periodicity` finds the smallest period ``p``, the preperiod ``n0`` and the saltus
``s`` with ``G(n + p) = G(n) + s`` for every ``n >= n0`` of the data (arithmetic
periodicity when ``s > 0``), and the inner period of [S18] Definition 11.
:func:`periodicity_of` computes a game's sequence and checks that the period is
*proved*, not only observed, by the theorem that fits the game:

- Subtraction(S), ``t = max S``: ``G(n) = G(n + p)`` for ``n0 <= n < n0 + t`` implies
  periodicity (each value depends on the ``t`` previous ones only).
- Octal games with finitely many digits, ``t`` the largest take: the Guy–Smith
  periodicity theorem: ``G(n + p) = G(n)`` for ``n0 <= n < 2 n0 + p + t`` implies
  periodicity from ``n0`` (with ``n0 >= 1`` used in the check, so that a split ``(a, b)``
  of ``n + p`` maps to the split ``(a - p, b)`` of ``n``). Codes with ``!`` (unequal
  splits) break that correspondence and are only observed.
- All-but(S), ``t = max S``: the arithmetic-periodicity analogue, proved by induction
  here (the statement nimlab checks, in the spirit of A. Siegel's theorem for all-but
  games): with ``B = {G(m) : m < n0 + p}``, ``C = {G(m) : m < n0}`` and
  ``A = {G(m) : n0 <= m < N - t}``, if ``G(m + p) = G(m) + s`` for ``n0 <= m < N``,
  ``N >= n0 + t``, and (a) ``{0..s-1} ⊆ B``, (b) ``B \\ {0..s-1} ⊆ (C ∪ A) + s``,
  (c) ``C + s ⊆ B ∪ (A + s)``, then ``G(n + p) = G(n) + s`` for every ``n >= n0``: the
  options of ``n + p`` are the options of ``n`` shifted by ``s`` together with
  ``{0..s-1}``.

References
----------
[S18] Definitions 10 and 11 (period, saltus, inner period), Theorems 5 and 6.
Winning Ways, ch. 4 (the periodicity theorem); A. N. Siegel, *Combinatorial Game
Theory*, ch. IV (the Guy–Smith periodicity theorem). A. Siegel, *Finite excluded subtraction sets and
infinite modular Nim*, MSc thesis, Dalhousie University, 2006 (all-but games are
arithmetic-periodic; cited as [4] in [S18]).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from nimlab.core.errors import InvalidParameterError
from nimlab.core.ruleset import Ruleset
from nimlab.engine import _fastload

_fastload.install()  # load cached kernels without numba's compiler set-up

__all__ = ["Periodicity", "periodicity", "periodicity_of"]


@dataclass(frozen=True)
class Periodicity:
    """Periodicity of a Grundy sequence.

    Attributes
    ----------
    preperiod : int or None
        ``n0``: the relation holds for every ``n >= n0`` of the data (None: no period).
    period : int or None
        The smallest period ``p`` found.
    saltus : int
        ``s`` in ``G(n + p) = G(n) + s`` (0: periodic; > 0: arithmetic-periodic).
    inner_period : int or None
        The largest inner period ``p'`` of [S18] Definition 11 (defined for purely
        periodic or purely arithmetic-periodic sequences, ``n0 = 0``), else None.
    proved : bool
        True when a periodicity theorem proves the relation for every ``n >= n0``.
    length : int
        Number of terms examined.
    reason : str
        The theorem used for the proof, or why there is none.
    head : tuple of int
        ``G(0), …, G(n0 + p - 1)``: preperiod and one period (empty without a period).
    """

    preperiod: int | None
    period: int | None
    saltus: int = 0
    inner_period: int | None = None
    proved: bool = False
    length: int = 0
    reason: str = ""
    head: tuple[int, ...] = ()

    @property
    def periodic(self) -> bool:
        """Whether a period was found."""
        return self.period is not None

    def value(self, n: int) -> int:
        """``G(n)`` extended by the periodicity (exact when :attr:`proved`).

        Examples
        --------
        >>> per = periodicity([0, 1, 0, 1, 2, 3, 2, 0, 1, 0, 1, 2, 3, 2] * 3)
        >>> per.value(10**12) == [0, 1, 0, 1, 2, 3, 2][10**12 % 7]
        True
        """
        if self.period is None or self.preperiod is None:
            raise InvalidParameterError("the sequence has no period: no value can be extended")
        if n < len(self.head):
            return self.head[n]
        n0, p = self.preperiod, self.period
        q, r = divmod(n - n0, p)
        return self.head[n0 + r] + q * self.saltus

    def has_inner_period(self, q: int) -> bool:
        """Whether the sequence has inner period *q* ([S18] Definition 11).

        Examples
        --------
        >>> seq = [n % 8 + 8 * (n // 16) for n in range(64)]  # All-but({8})
        >>> per = periodicity(seq)
        >>> per.has_inner_period(8), per.has_inner_period(16), per.inner_period
        (True, False, 8)
        """
        if self.period is None or self.preperiod != 0 or q < 1 or self.period % q:
            return False
        return _inner_ok(self.head, self.period, self.saltus, q)

    def summary(self) -> str:
        """One line: ``period 12, preperiod 71 (proved: ...)``."""
        if self.period is None:
            return f"no period found in {self.length} terms (try more terms)"
        kind = f"saltus {self.saltus}, " if self.saltus else ""
        inner = f", inner period {self.inner_period}" if self.inner_period else ""
        status = "proved" if self.proved else "observed"
        return (
            f"period {self.period}, {kind}preperiod {self.preperiod}{inner} "
            f"({status}: {self.reason})"
        )


def _inner_ok(head: Sequence[int], p: int, s: int, q: int) -> bool:
    if s % q:
        return False
    g = [*head[:p], head[0] + s]
    for k in range(p):
        if g[k] % q != k % q:
            return False
        if k % q != q - 1 and g[k + 1] != g[k] + 1:
            return False
    return True


@njit(cache=True, nogil=True)
def _find_period(seq: Any, pmax: int, reps: int) -> tuple[int, int, int]:  # pragma: no cover
    n = seq.shape[0]
    for p in range(1, pmax + 1):
        if n < reps * p:
            break
        s = seq[n - 1] - seq[n - 1 - p]
        i = n - 1 - p
        while i >= 0 and seq[i + p] - seq[i] == s:
            i -= 1
        n0 = i + 1
        if n - n0 >= reps * p and 4 * (n - n0) >= n:
            return p, n0, s
    return -1, -1, 0


def periodicity(
    seq: Sequence[int] | npt.NDArray[Any], *, reps: int = 3, max_period: int | None = None
) -> Periodicity:
    """Smallest period, preperiod and saltus of a sequence, and its inner period.

    Parameters
    ----------
    seq : sequence of int
        ``G(0), G(1), …``.
    reps : int
        The periodic part must span at least ``reps`` periods (default 3) and a quarter
        of the data.
    max_period : int, optional
        Largest period tried (default ``len(seq) // reps``).

    Returns
    -------
    Periodicity
        With ``proved=False``: a bare sequence proves nothing; use
        :func:`periodicity_of` for a game.

    Examples
    --------
    >>> per = periodicity([0, 1, 0, 1, 2, 3, 2] * 6)
    >>> per.period, per.preperiod, per.saltus, per.inner_period
    (7, 0, 0, 1)
    >>> per = periodicity([n % 4 + 4 * (n // 8) for n in range(80)])  # All-but({4})
    >>> per.period, per.saltus, per.inner_period
    (8, 4, 4)
    >>> periodicity([0, 1, 3, 7, 2]).periodic
    False
    """
    arr = np.asarray(seq)
    if arr.ndim != 1 or (arr.size and arr.dtype.kind not in "iu"):
        raise InvalidParameterError("periodicity needs a one-dimensional sequence of integers")
    if reps < 2:
        raise InvalidParameterError(f"reps must be at least 2, got {reps}")
    a = arr.astype(np.int64)
    n = len(a)
    pmax = n // reps if max_period is None else min(max_period, n // reps)
    p, n0, s = _find_period(a, pmax, reps) if n else (-1, -1, 0)
    if p < 0:
        return Periodicity(None, None, 0, None, False, n, "no period found")
    head = tuple(int(x) for x in a[: n0 + p])
    inner = None
    if n0 == 0:
        full = tuple(int(x) for x in a[: p + 1]) if n > p else head
        for q in sorted((d for d in range(1, p + 1) if p % d == 0), reverse=True):
            if _inner_ok(full, p, int(s), q):
                inner = q
                break
    return Periodicity(n0, p, int(s), inner, False, n, "observed in the data only", head)


# -- proofs -------------------------------------------------------------------------


def _default_budget(g: Ruleset[Any]) -> int:
    """The default budget of terms of *g*'s sequence (as in ``sequence``)."""
    from nimlab.engine.sequences import DEFAULT_MAX_OCTAL_TERMS, DEFAULT_MAX_TERMS
    from nimlab.planner import Method, Question, plan

    how = plan(g, Question.SEQUENCE)
    long = how.method is Method.COMPILED_SEQUENCE and how.value.long_sequences
    return DEFAULT_MAX_OCTAL_TERMS if long else DEFAULT_MAX_TERMS


def _prove(g: Ruleset[Any], seq: npt.NDArray[np.int64], per: Periodicity) -> tuple[bool, str, int]:
    """(proved, reason, terms needed for the proof)."""
    n = len(seq)
    p, n0, s = per.period, per.preperiod, per.saltus
    assert p is not None and n0 is not None
    verdict = g.periodicity_proof(seq.tolist(), n0, p, s)
    if verdict is None:
        return False, f"no periodicity theorem for {g.label()}", n
    return verdict


def periodicity_of(
    game: Ruleset[Any] | str,
    n_max: int,
    *,
    extend: bool = True,
    reps: int = 3,
    max_terms: int | None = None,
    progress: bool = False,
) -> Periodicity:
    """Periodicity of a one-heap game's Grundy sequence, proved when a theorem applies.

    Parameters
    ----------
    game : Ruleset or str
        A one-heap game (``subtraction``, ``allbut``, ``octal``, ``nim``, …).
    n_max : int
        Number of terms computed.
    extend : bool
        When the period is observed but its proof needs more terms (Guy–Smith needs
        ``2 n0 + 2p + t``), compute that many (up to ``16 * n_max``) and check again.
    reps : int
        See :func:`periodicity`.
    max_terms : int, optional
        Budget of terms, checked before any is computed, as in
        :func:`~nimlab.engine.sequences.sequence`; a proof that needs more terms than the
        budget is not attempted (the result says how many it needs).
    progress : bool
        Show a progress bar on a terminal during long runs (see ``sequence``).

    Examples
    --------
    >>> from nimlab import game
    >>> per = periodicity_of(game("octal", code="0.77"), 200)  # Kayles
    >>> per.period, per.preperiod, per.proved
    (12, 71, True)
    >>> periodicity_of(game("subtraction", S="1,3,4"), 50).summary()
    'period 7, preperiod 0, inner period 1 (proved: subtraction periodicity: G(n+7) = G(n) for 0 <= n < 4)'
    """
    from nimlab.catalog.registry import as_game
    from nimlab.engine.sequences import sequence

    g = as_game(game)
    seq = sequence(g, n_max, max_terms=max_terms, progress=progress).astype(np.int64)
    per = periodicity(seq, reps=reps)
    if not per.periodic:
        return per
    proved, reason, need = _prove(g, seq, per)
    budget = max_terms if max_terms is not None else _default_budget(g)
    if not proved and extend and len(seq) < need <= 16 * max(n_max, 1) and need > budget:
        reason += (
            f"; the proof needs {need:,} terms, more than the budget of {budget:,} "
            "(raise it with --max-terms N, max_terms=N)"
        )
    elif not proved and extend and len(seq) < need <= 16 * max(n_max, 1):
        seq = sequence(g, need, max_terms=max_terms, progress=progress).astype(np.int64)
        per = periodicity(seq, reps=reps)
        if not per.periodic:  # pragma: no cover - the longer data broke the period
            return per
        proved, reason, need = _prove(g, seq, per)
    return replace(per, proved=proved, reason=reason)
