"""Grundy sequences of one-heap games: Subtraction, All-but and octal games.

:func:`sequence` returns ``G(0), …, G(n-1)`` as a numpy array. Subtraction(S),
All-but(S), Nim and octal games have compiled kernels; any other one-heap ruleset goes
through the exact memoised search.

Octal games with splitting digits use the *rare-value* (sparse space) method of
Gangolli–Plambeck and Flammenkamp: pick a bit mask ``m`` such that most heaps have
Grundy values of odd parity under ``m`` ("common" values) and few of even parity
("rare" values). A split value ``G(a) ⊕ G(b)`` of odd parity needs one rare part, so
all such options come from a loop over the rare heaps; options of even parity are
marked by a scan of the splits that stops as soon as every even candidate below the
first missing odd value is found. The result is exact for every mask; the mask only
decides the speed.

References
----------
R. Gangolli and T. Plambeck, *A note on periodicity in some octal games*, Int. J. Game
Theory 18 (1989). A. Flammenkamp, *Sprague-Grundy values of octal games* (tables and
the sparse space method). Winning Ways, ch. 4.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from nimlab.core.errors import InvalidParameterError, WorkTooLargeError
from nimlab.core.kernels import AllButKernel, OctalKernel, SubtractionKernel, TakeAnyKernel
from nimlab.core.ruleset import Ruleset

__all__ = ["DEFAULT_MAX_OCTAL_TERMS", "DEFAULT_MAX_TERMS", "sequence"]

#: Default largest number of terms of :func:`sequence` (a memory guard: the work array
#: holds 8 bytes a term, 256 MiB at this bound).
DEFAULT_MAX_TERMS = 1 << 25
#: Default largest number of terms of an octal game's sequence: its work grows faster than
#: the number of terms (Kayles: 100,000 terms in about 10 s, 200,000 in about 35 s).
DEFAULT_MAX_OCTAL_TERMS = 100_000
#: Terms computed by the direct method before an octal game switches to rare values.
_NAIVE_TERMS = 2048


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


@njit(cache=True, nogil=True)
def _parity(x: int) -> int:  # pragma: no cover - compiled
    p = 0
    while x:
        p ^= 1
        x &= x - 1
    return p


@njit(cache=True, nogil=True)
def _octal_kernel(
    bits: Any, uneq: Any, out: Any, start: int, mask: int, cap: int
) -> int:  # pragma: no cover - compiled
    """Fill ``out[start:]`` for the octal game with digit bits ``bits[k]``.

    Heaps whose value has even parity under *mask* are "rare" and kept in a list; with
    ``mask == 0`` every heap is rare and the method is the direct one. Values must stay
    below ``cap - 1``; returns -1 when they do not (the caller retries with a larger
    ``cap``), else the number of rare heaps.
    """
    n = out.shape[0]
    nk = bits.shape[0]
    stamp = np.full(cap, -1, np.int64)
    rare = np.zeros(n, np.int64)
    nr = 0
    for h in range(1, start):
        if _parity(out[h] & mask) == 0:
            rare[nr] = h
            nr += 1
    for h in range(start, n):
        # options that leave no heap or one heap
        for k in range(1, nk):
            if k > h:
                break
            b = bits[k]
            if b & 1 and h == k:
                stamp[0] = h
            if b & 2 and h > k:
                v = out[h - k]
                if v < cap:
                    stamp[v] = h
        # splits with a rare part (every split when mask == 0)
        for k in range(nk):
            if not bits[k] & 4 or h - k < 2:
                continue
            r = h - k
            for i in range(nr):
                a = rare[i]
                if a >= r:
                    break
                c = r - a
                if uneq[k] and a == c:
                    continue
                v = out[a] ^ out[c]
                if v < cap:
                    stamp[v] = h
        if mask == 0:
            # hexadecimal digits: splits into three heaps (direct method only)
            for k in range(nk):
                if not bits[k] & 8 or h - k < 3:
                    continue
                r = h - k
                for a in range(1, r // 3 + 1):
                    for b in range(a, (r - a) // 2 + 1):
                        v = out[a] ^ out[b] ^ out[r - a - b]
                        if v < cap:
                            stamp[v] = h
            g = 0
            while g < cap and stamp[g] == h:
                g += 1
            if g >= cap - 1:
                return -1
            out[h] = g
            rare[nr] = h
            nr += 1
            continue
        # the first missing value of odd parity: two common parts never give it
        w = 0
        while w < cap and (stamp[w] == h or _parity(w & mask) == 0):
            w += 1
        if w >= cap - 1:
            return -1
        # even-parity values below w that no option has given yet
        need = 0
        for v in range(w):
            if stamp[v] != h and _parity(v & mask) == 0:
                need += 1
        for k in range(nk):
            if need == 0:
                break
            if not bits[k] & 4 or h - k < 2:
                continue
            r = h - k
            for a in range(1, r // 2 + 1):
                c = r - a
                if uneq[k] and a == c:
                    continue
                v = out[a] ^ out[c]
                if v < w and stamp[v] != h:
                    stamp[v] = h
                    need -= 1
                    if need == 0:
                        break
        g = w
        if need > 0:
            g = 0
            while stamp[g] == h:
                g += 1
        out[h] = g
        if _parity(g & mask) == 0:
            rare[nr] = h
            nr += 1
    return nr


def _best_mask(g: npt.NDArray[Any]) -> int:
    """The mask making most of the later heaps common (odd parity)."""
    tail = g[len(g) // 2 :].astype(np.int64)
    top = int(tail.max()) if tail.size else 0
    nbits = max(1, top.bit_length())
    if nbits > 12:
        return 0
    vals, counts = np.unique(tail, return_counts=True)
    masks = np.arange(1, 1 << nbits, dtype=np.int64)
    par = np.bitwise_count(vals[:, None] & masks[None, :]) & 1
    score = counts @ par
    return int(masks[int(np.argmax(score))])


def octal_sequence(
    code: str, n: int, *, direct: bool = False, progress: bool = False, chunk: int | None = None
) -> npt.NDArray[np.int64]:
    """Grundy values ``G(0..n-1)`` of the octal game *code* (exact).

    ``direct=True`` computes every split (quadratic time) instead of the rare-value
    method: a check of the latter. ``progress=True`` shows a progress bar (terms, rate,
    time left) on a terminal for long runs; the terms are then computed in chunks of
    *chunk* terms (by default about a hundredth of the run), which gives the same values.

    Examples
    --------
    >>> octal_sequence("0.77", 12).tolist()
    [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]
    >>> octal_sequence("4!.0", 12).tolist()  # Grundy's game
    [0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2]
    >>> octal_sequence("0.77", 12, chunk=5).tolist()
    [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]
    """
    from nimlab._progress import Progress
    from nimlab.catalog.octal import parse_octal_code

    digits = parse_octal_code(code)
    bits = np.array([d for d, _ in digits], dtype=np.int64)
    uneq = np.array([u for _, u in digits], dtype=np.bool_)
    out = np.zeros(n, dtype=np.int64)
    n0 = n if direct else min(n, _NAIVE_TERMS)
    if not (bits & 4).any() or (bits & 8).any():
        n0 = n  # no split: the direct method is linear; three-heap splits: direct only
    bar = Progress(f"octal({code}): Grundy values", n, "terms", enabled=progress)
    step = chunk if chunk is not None else (max(1024, n // 100) if bar.enabled else n)
    cap = [256]

    def run(start: int, end: int, mask: int) -> None:
        # fill out[start:end] in pieces of `step` terms (the kernel resumes at any start)
        while start < end:
            stop = min(end, start + max(1, step))
            while _octal_kernel(bits, uneq, out[:stop], max(start, 1), mask, cap[0]) < 0:
                cap[0] *= 4
            start = stop
            bar.update(start)

    try:
        run(0, n0, 0)
        # rare values: the mask is chosen again each time the sequence doubles, from the
        # values of its second half (the values, hence the good masks, grow slowly)
        while n0 < n:
            end = min(n, 2 * n0)
            run(n0, end, _best_mask(out[:n0]))
            n0 = end
    finally:
        bar.close()
    return out


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
    model = g.sequence_kernel()
    if max_terms is None:
        max_terms = DEFAULT_MAX_OCTAL_TERMS if isinstance(model, OctalKernel) else DEFAULT_MAX_TERMS
    if isinstance(max_terms, bool) or not isinstance(max_terms, (int, np.integer)) or max_terms < 1:
        raise InvalidParameterError(f"max_terms must be an integer >= 1, got {max_terms!r:.40}")
    if n > max_terms:
        raise WorkTooLargeError(
            f"{g.label()}: {n:,} terms is more than the budget of {max_terms:,} terms; ask "
            "for fewer terms or raise it (max_terms=N, on the command line --max-terms N)"
        )
    if isinstance(model, SubtractionKernel):
        s = np.array(model.S, dtype=np.int64)
        out = np.zeros(n, dtype=np.int64)
        _subtraction_kernel(s, out)
        return _small_dtype(out)
    if isinstance(model, AllButKernel):
        excl = frozenset(model.excluded)
        # only moves below n matter for heaps below n: a huge excluded amount costs nothing
        lag = min(max(excl, default=0), n)
        small = np.array([t for t in range(1, lag + 1) if t not in excl], dtype=np.int64)
        out = np.zeros(n, dtype=np.int64)
        _allbut_kernel(small, lag, out)
        return _small_dtype(out)
    if isinstance(model, TakeAnyKernel):
        return _small_dtype(np.arange(n, dtype=np.int64))
    if isinstance(model, OctalKernel):
        return _small_dtype(octal_sequence(model.code, n, progress=progress))
    return _generic_sequence(g, n)


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
