"""Grundy sequences of one-heap games: Subtraction, All-but and octal games.

:func:`sequence` returns ``G(0), …, G(n-1)`` as a numpy array. Subtraction(S),
All-but(S), Nim and octal games have compiled kernels; any other one-heap ruleset goes
through the exact memoised search.

Octal games run in :mod:`nimlab.engine.octal_rare`: the *rare-value* (sparse space)
method of Gangolli–Plambeck and Flammenkamp (a bit mask ``m`` makes most values
"common", of odd parity under ``m``; options of odd parity all have a rare part, found
from the short list of rare heaps; each even value below the first missing odd one is
looked for among the splits), checkpoints, and the extension of a period as soon as the
Guy–Smith theorem proves it. Every value is exact whatever the mask.

References
----------
R. Gangolli and T. Plambeck, *A note on periodicity in some octal games*, Int. J. Game
Theory 18 (1989). A. Flammenkamp, *Sprague-Grundy values of octal games* (tables and
the sparse space method). Winning Ways, ch. 4.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from nimlab.core.errors import InvalidParameterError, WorkTooLargeError
from nimlab.core.ruleset import Ruleset
from nimlab.engine import _fastload

_fastload.install()  # load cached kernels without numba's compiler set-up

__all__ = ["DEFAULT_MAX_OCTAL_TERMS", "DEFAULT_MAX_TERMS", "sequence"]

#: Default largest number of terms of :func:`sequence` (a memory guard: the work array
#: holds 8 bytes a term, 256 MiB at this bound).
DEFAULT_MAX_TERMS = 1 << 25
#: Default largest number of terms of an octal game's sequence: its work grows faster than
#: the number of terms (Kayles: 100,000 terms in about 10 s, 200,000 in about 35 s).
DEFAULT_MAX_OCTAL_TERMS = 100_000


@njit(cache=True, nogil=True)
def _subtraction_kernel(s: Any, out: Any) -> None:  # pragma: no cover - compiled
    n = out.shape[0]
    k = s.shape[0]
    stamp = np.full(k + 2, -1, np.int64)
    for h in range(n):
        for i in range(k):
            if s[i] <= h:
                v = out[h - s[i]]
                if v <= k:
                    stamp[v] = h
        g = 0
        while stamp[g] == h:
            g += 1
        out[h] = g


@njit(cache=True, nogil=True)
def _allbut_kernel(small: Any, lag: int, out: Any) -> None:  # pragma: no cover - compiled
    """All-but(S): every take ``s > lag = max(S)``, plus the allowed ``s`` in ``small``."""
    n = out.shape[0]
    w_ = n // 64 + 2
    prefix = np.zeros(w_, np.uint64)  # values of heaps <= h - lag - 1
    pmex = 0
    k = small.shape[0]
    extra = np.zeros(k, np.int64)
    for h in range(n):
        j = h - lag - 1
        if j >= 0:
            v = out[j]
            prefix[v >> 6] |= np.uint64(1) << np.uint64(v & 63)
            while (prefix[pmex >> 6] >> np.uint64(pmex & 63)) & np.uint64(1):
                pmex += 1
        ne = 0
        for i in range(k):
            if small[i] <= h:
                extra[ne] = out[h - small[i]]
                ne += 1
        g = pmex
        while True:
            if (prefix[g >> 6] >> np.uint64(g & 63)) & np.uint64(1):
                g += 1
                continue
            hit = False
            for i in range(ne):
                if extra[i] == g:
                    hit = True
                    break
            if not hit:
                break
            g += 1
        out[h] = g


def octal_sequence(
    code: str,
    n: int,
    *,
    direct: bool = False,
    progress: bool = False,
    chunk: int | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
) -> npt.NDArray[np.int64]:
    """Grundy values ``G(0..n-1)`` of the octal game *code* (exact), by the engine of
    :mod:`nimlab.engine.octal_rare` (rare values; a period proved by the Guy–Smith
    theorem is extended).

    ``direct=True`` computes every split (quadratic time) instead of the rare-value
    method: a check of the latter. ``progress=True`` shows a progress bar (terms,
    values/s, time left) on a terminal for long runs; the terms are computed in chunks
    of *chunk* terms, which gives the same values. ``checkpoint=PATH`` (a ``.npz`` file)
    resumes a long run from the terms it holds and saves them as the run goes.

    Examples
    --------
    >>> octal_sequence("0.77", 12).tolist()
    [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]
    >>> octal_sequence("4!.0", 12).tolist()  # Grundy's game
    [0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2]
    >>> octal_sequence("0.77", 12, chunk=5).tolist()
    [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]
    """
    from nimlab.engine.octal_rare import octal_run

    return octal_run(
        code, n, direct=direct, progress=progress, chunk=chunk, checkpoint=checkpoint
    ).values


def _small_dtype(a: npt.NDArray[Any]) -> npt.NDArray[Any]:
    if a.size == 0:
        return a.astype(np.uint8)
    m = int(a.max())
    for dt in (np.uint8, np.uint16, np.uint32, np.uint64):
        if m <= np.iinfo(dt).max:
            return a.astype(dt)
    return a  # pragma: no cover


def sequence(
    game: Ruleset[Any] | str, n: int, *, max_terms: int | None = None, progress: bool = False
) -> npt.NDArray[Any]:
    """Grundy sequence ``G(0), …, G(n-1)`` of a one-heap game.

    Parameters
    ----------
    game : Ruleset or str
        A one-heap game. Games whose ``sequence_kernel`` hook names a recurrence
        (``subtraction``, ``allbut``, ``octal``, ``nim``) run compiled; any other ruleset
        whose positions are one heap uses exact search.
    n : int
        Number of terms (heaps ``0 .. n-1``).
    max_terms : int, optional
        Refuse longer sequences before computing them (default
        :data:`DEFAULT_MAX_OCTAL_TERMS` for octal games, whose work grows faster than the
        number of terms, else :data:`DEFAULT_MAX_TERMS`, a memory guard).
    progress : bool
        Show a progress bar (terms, rate, time left) on a terminal during a long octal
        run; Ctrl-C stops it.

    Returns
    -------
    numpy.ndarray
        The values, in the smallest unsigned dtype that holds them.

    Examples
    --------
    >>> from nimlab import game, sequence
    >>> sequence(game("subtraction", S="1,3,4"), 14).tolist()
    [0, 1, 0, 1, 2, 3, 2, 0, 1, 0, 1, 2, 3, 2]
    >>> sequence(game("allbut", S="2"), 8).tolist()
    [0, 1, 0, 1, 2, 3, 2, 3]
    >>> sequence(game("octal", code="0.07"), 10).tolist()  # Dawson's Kayles
    [0, 0, 1, 1, 2, 0, 3, 1, 1, 0]
    """
    from nimlab.catalog.registry import as_game

    g = as_game(game)
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise InvalidParameterError(f"n must be an integer >= 0 (the number of terms), got {n!r}")
    n = int(n)
    from nimlab.planner import Question, plan

    model = plan(g, Question.SEQUENCE).value  # the compiled recurrence, else None: search
    if max_terms is None:
        long = model is not None and model.long_sequences
        max_terms = DEFAULT_MAX_OCTAL_TERMS if long else DEFAULT_MAX_TERMS
    if isinstance(max_terms, bool) or not isinstance(max_terms, (int, np.integer)) or max_terms < 1:
        raise InvalidParameterError(f"max_terms must be an integer >= 1, got {max_terms!r:.40}")
    if n > max_terms:
        raise WorkTooLargeError(
            f"{g.label()}: {n:,} terms is more than the budget of {max_terms:,} terms; ask "
            "for fewer terms or raise it (max_terms=N, on the command line --max-terms N)"
        )
    runner = _RECURRENCES.get(model.kind) if model is not None else None
    if runner is not None:
        return _small_dtype(runner(model, n, progress))
    if model is not None:  # a kind the engine has no runner for runs itself
        from nimlab.engine._protocol import own_sequence

        own = own_sequence(model, n, g.label())
        if own is not None:
            return _small_dtype(own)
    return _generic_sequence(g, n)


def _subtraction(model: Any, n: int, progress: bool) -> npt.NDArray[Any]:
    out = np.zeros(n, dtype=np.int64)
    _subtraction_kernel(np.array(model.S, dtype=np.int64), out)
    return out


def _all_but(model: Any, n: int, progress: bool) -> npt.NDArray[Any]:
    excl = frozenset(model.excluded)
    # only moves below n matter for heaps below n: a huge excluded amount costs nothing
    lag = min(max(excl, default=0), n)
    small = np.array([t for t in range(1, lag + 1) if t not in excl], dtype=np.int64)
    out = np.zeros(n, dtype=np.int64)
    _allbut_kernel(small, lag, out)
    return out


def _take_any(model: Any, n: int, progress: bool) -> npt.NDArray[Any]:
    return np.arange(n, dtype=np.int64)


def _octal(model: Any, n: int, progress: bool) -> npt.NDArray[Any]:
    return octal_sequence(model.code, n, progress=progress)


#: The compiled recurrences, by the ``kind`` a one-heap kernel description names.
_RECURRENCES: dict[str, Callable[[Any, int, bool], npt.NDArray[Any]]] = {
    "subtraction": _subtraction,
    "all-but": _all_but,
    "take-any": _take_any,
    "octal": _octal,
}


def _generic_sequence(g: Ruleset[Any], n: int) -> npt.NDArray[Any]:
    from nimlab.core.errors import InvalidPositionError
    from nimlab.engine.search import Solver

    if (n_heaps := getattr(g, "n_heaps", None)) and n_heaps != 1:
        raise InvalidParameterError(
            f"{g.label()}: sequences are for one-heap games, but a position of this game "
            f"has {n_heaps} heaps (use nimlab.table for tables)"
        )
    solver: Solver[Any] = Solver(g)
    out = np.zeros(n, dtype=np.int64)
    for h in range(n):
        try:
            pos = g.validate((h,))
        except InvalidPositionError as exc:
            raise InvalidParameterError(
                f"{g.label()}: cannot make the sequence: heap {h} is not a position ({exc})"
            ) from None
        out[h] = solver.grundy(pos, method="search")
    return _small_dtype(out)
