"""Octal games at record speed: the rare-value (sparse space) engine, checkpoints, periods.

The Grundy value of a heap ``n`` of an octal game is the mex of its options' values; a
split of ``n - k`` into ``(a, b)`` has value ``G(a) ⊕ G(b)``, so the direct method costs
``n`` per heap. The record programs (Gangolli–Plambeck, Flammenkamp, Grossman) use a bit
mask ``m``: a value ``v`` is *common* when ``v & m`` has odd parity, *rare* otherwise, and
in the games they study almost every heap is common. A split value of odd parity needs
exactly one rare part, so

1. every option of odd parity comes from a loop over the few rare heaps (``rare × any``);
2. the smallest odd-parity value ``w`` that no option has is then known exactly;
3. the value is ``w`` unless an even-parity value below ``w`` is missing: each such value
   is looked for among the splits (common × common), starting with the split that gave
   it at the previous heap, then in order of the smaller part. The search stops at the
   first witness; when a value has none, the scan has seen every split and the heap's
   value is that rare value. Nothing is assumed: every value is the exact mex.

The mask is chosen (from the values so far, again each time the run doubles) to make the
fewest heaps rare, and is kept unless another makes markedly fewer rare (a new mask makes
every heap change class, so the rare list is rebuilt). Hexadecimal digits (splits into
three heaps) use the direct method.

When the code allows the Guy–Smith periodicity theorem (no ``!``, no three-heap split),
the run looks for a period after each chunk; once the terms computed satisfy the
theorem's hypothesis (``G(n + p) = G(n)`` for ``n0 <= n < 2 n0 + p + t``), the period is
proved and the remaining terms are its extension (exact, not a guess). A long run writes
a checkpoint file every so often (``checkpoint=PATH``) and resumes from it.

References
----------
R. Gangolli and T. Plambeck, *A note on periodicity in some octal games*, Int. J. Game
Theory 18 (1989) 311-320. A. Flammenkamp, *Sprague-Grundy values of octal games*,
https://wwwhomes.uni-bielefeld.de/achim/octal.html (the sparse space method and its
tables). J. P. Grossman, *Searching for periodicity in octal games* (the sparse space
engine, parallel). Winning Ways, ch. 4 (the periodicity theorem).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from nimlab.core.errors import InvalidParameterError, StoreError

__all__ = ["OctalRun", "octal_run", "rules_of_code"]

#: Terms computed by the direct method before the rare-value method starts.
NAIVE_TERMS = 2048
#: Seconds between two checkpoint writes of a long run.
CHECKPOINT_SECONDS = 30.0
#: A new mask replaces the current one when it makes at most this fraction of its rare heaps.
MASK_GAIN = 0.8


# -- compiled kernels (top level, every parameter a run-time array: disk-cached) ----------


@njit(cache=True, nogil=True)
def _direct_fill(
    ends: Any, ones: Any, splits: Any, uneq: Any, triples: Any, out: Any, start: int, stamp: Any
) -> Any:  # pragma: no cover - compiled
    """Fill ``out[start:]`` by the direct method; return the first heap not done (a value
    reached ``len(stamp) - 1``: the caller enlarges *stamp* and calls again)."""
    n = out.shape[0]
    cap = stamp.shape[0]
    for h in range(start, n):
        for i in range(ends.shape[0]):
            if ends[i] == h:
                stamp[0] = h
        for i in range(ones.shape[0]):
            k = ones[i]
            if k < h:
                stamp[out[h - k]] = h
        for j in range(splits.shape[0]):
            r = h - splits[j]
            top = r // 2
            if uneq[j] and 2 * top == r:
                top -= 1
            for a in range(1, top + 1):
                stamp[out[a] ^ out[r - a]] = h
        for j in range(triples.shape[0]):
            r = h - triples[j]
            for a in range(1, r // 3 + 1):
                for b in range(a, (r - a) // 2 + 1):
                    v = out[a] ^ out[b] ^ out[r - a - b]
                    if v < cap:
                        stamp[v] = h
        g = 0
        while g < cap and stamp[g] == h:
            g += 1
        if g >= cap - 1:
            return h
        out[h] = g
    return n


@njit(cache=True, nogil=True)
def _rare_fill(
    ends: Any,
    ones: Any,
    splits: Any,
    uneq: Any,
    out: Any,
    start: int,
    par: Any,
    rare: Any,
    rarev: Any,
    state: Any,
    stamp: Any,
    wit: Any,
    witk: Any,
) -> Any:  # pragma: no cover - compiled
    """Fill ``out[start:]`` by rare values under the parity table *par* (``par[v]`` is 1
    for a common value); ``rare[:state[0]]`` lists the rare heaps and ``rarev`` their
    values; ``state[1]`` counts the splits tried in witness searches. Values stay below
    ``len(stamp)``, a power of two (so a XOR of two values does too). Returns the first
    heap not done (when a value reaches ``len(stamp) - 1`` or ``state[2]`` is set)."""
    n = out.shape[0]
    cap = stamp.shape[0]
    ns = splits.shape[0]
    nr = state[0]
    smin = 0
    if ns:
        smin = splits[0]
        for j in range(ns):
            smin = min(smin, splits[j])
    for h in range(start, n):
        if state[2] != 0 or nr >= rare.shape[0]:
            state[0] = nr
            return h
        # options leaving no heap or one heap
        for i in range(ends.shape[0]):
            if ends[i] == h:
                stamp[0] = h
        for i in range(ones.shape[0]):
            k = ones[i]
            if k < h:
                stamp[out[h - k]] = h
        # every split with a rare part: all the options of odd parity
        for j in range(ns):
            r = h - splits[j]
            if r < 2:
                continue
            if uneq[j]:
                for i in range(nr):
                    a = rare[i]
                    if a >= r:
                        break
                    if 2 * a != r:
                        stamp[rarev[i] ^ out[r - a]] = h
            else:
                for i in range(nr):
                    a = rare[i]
                    if a >= r:
                        break
                    stamp[rarev[i] ^ out[r - a]] = h
        # the first odd-parity value no option has
        w = 0
        while w < cap and (stamp[w] == h or par[w] == 0):
            w += 1
        if w >= cap - 1:
            state[0] = nr
            return h
        # even-parity values below w still missing: look for a common x common witness
        need = 0
        for v in range(w):
            if stamp[v] != h:
                a = wit[v]
                j = witk[v]
                if a > 0:
                    c = h - splits[j] - a
                    if c >= a and not (uneq[j] and c == a) and (out[a] ^ out[c]) == v:
                        stamp[v] = h
                        continue
                need += 1
        if need > 0:
            amax = (h - smin) // 2
            a = 1
            tried = 0
            while a <= amax:
                ga = out[a]
                for j in range(ns):
                    c = h - splits[j] - a
                    if c < a or (uneq[j] and c == a):
                        continue
                    v = ga ^ out[c]
                    if v < w and stamp[v] != h:
                        stamp[v] = h
                        wit[v] = a
                        witk[v] = j
                        need -= 1
                tried += 1
                if need == 0:
                    break
                a += 1
            state[1] += tried
        g = w
        if need > 0:
            g = 0
            while stamp[g] == h:
                g += 1
        out[h] = g
        if par[g] == 0:
            rare[nr] = h
            rarev[nr] = g
            nr += 1
    state[0] = nr
    return n


@njit(cache=True, nogil=True)
def _tail_period(seq: Any) -> Any:  # pragma: no cover - compiled
    """The smallest ``p`` with ``seq[i + p] == seq[i]`` on a tail of at least ``2p`` terms
    and half the sequence (as the Guy–Smith theorem needs), and ``n0``, where that tail
    starts; ``(-1, -1)`` if none."""
    n = seq.shape[0]
    q = 0  # the first period whose tail was long but not long enough
    q0 = n
    for p in range(1, n // 2 + 1):
        i = n - 1 - p
        if q and p % q == 0:
            i = min(i, q0 - 1)  # the relation of q holds from q0 on, so does p's
        while i >= 0 and seq[i + p] == seq[i]:
            i -= 1
        if n - (i + 1) >= 2 * p:
            if 2 * (n - (i + 1)) >= n:
                return p, i + 1
            if q == 0:
                q, q0 = p, i + 1
    return -1, -1


# -- rules -------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Rules:
    """A code's moves as arrays of takes: ``ends`` (take a whole heap of k), ``ones``
    (leave one heap), ``splits`` (leave two, ``uneq``: unequal), ``triples`` (three)."""

    ends: tuple[int, ...]
    ones: tuple[int, ...]
    splits: tuple[int, ...]
    uneq: tuple[bool, ...]
    triples: tuple[int, ...]

    @property
    def t(self) -> int:
        """The largest take."""
        return max((*self.ends, *self.ones, *self.splits, *self.triples, 0))

    @property
    def guy_smith(self) -> bool:
        """Whether the Guy–Smith periodicity theorem applies (no ``!``, no three heaps)."""
        return not self.triples and not any(self.uneq)

    def arrays(self) -> tuple[npt.NDArray[np.int64], ...]:
        return (
            np.array(self.ends, dtype=np.int64),
            np.array(self.ones, dtype=np.int64),
            np.array(self.splits, dtype=np.int64),
            np.array(self.uneq, dtype=np.bool_),
            np.array(self.triples, dtype=np.int64),
        )


def rules_of_code(code: str) -> _Rules:
    """The moves of an octal or hexadecimal *code* as lists of takes.

    Examples
    --------
    >>> rules_of_code("0.77")
    _Rules(ends=(1, 2), ones=(1, 2), splits=(1, 2), uneq=(False, False), triples=())
    >>> r = rules_of_code("4!.0")
    >>> r.splits, r.uneq, r.guy_smith
    ((0,), (True,), False)
    """
    from nimlab.catalog.octal import parse_octal_code

    digits = parse_octal_code(code)
    ends, ones, splits, uneq, triples = [], [], [], [], []
    for k, (d, u) in enumerate(digits):
        if k and d & 1:
            ends.append(k)
        if k and d & 2:
            ones.append(k)
        if d & 4:
            splits.append(k)
            uneq.append(u)
        if d & 8:
            triples.append(k)
    return _Rules(tuple(ends), tuple(ones), tuple(splits), tuple(uneq), tuple(triples))


# -- the run -------------------------------------------------------------------------------


@dataclass(frozen=True)
class OctalRun:
    """The result of :func:`octal_run`.

    Attributes
    ----------
    values : numpy.ndarray
        ``G(0), …, G(n-1)`` (int64).
    mask : int
        The last bit mask of the rare-value method (0: direct method only).
    rare : int
        Number of rare heaps under that mask among the heaps computed one by one.
    computed : int
        Heaps computed one by one; the rest (``len(values) - computed``) extend a proved
        period.
    period : tuple of (int, int) or None
        ``(preperiod, period)`` proved by the Guy–Smith theorem during the run, if any.
    witness_steps : int
        Splits tried in the searches for even-parity values (the common × common work).
    resumed : int
        Terms read from a checkpoint.
    seconds : float
        Wall time of the run.
    """

    values: npt.NDArray[np.int64]
    mask: int
    rare: int
    computed: int
    period: tuple[int, int] | None
    witness_steps: int
    resumed: int
    seconds: float

    @property
    def rate(self) -> float:
        """Values per second of the heaps computed in this run."""
        return (self.computed - self.resumed) / max(self.seconds, 1e-9)


def _parity_table(mask: int, cap: int) -> npt.NDArray[np.uint8]:
    v = np.arange(cap, dtype=np.int64) & mask
    table: npt.NDArray[np.uint8] = (np.bitwise_count(v) & 1).astype(np.uint8)
    return table


def _rare_count(vals: npt.NDArray[Any], masks: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """For each mask, the number of *vals* of even parity under it."""
    uniq, counts = np.unique(vals, return_counts=True)
    par = np.bitwise_count(uniq[:, None].astype(np.int64) & masks[None, :]) & 1
    return np.asarray(counts @ (1 - par), dtype=np.int64)


def choose_mask(values: npt.NDArray[Any], current: int = 0) -> int:
    """The mask that makes the fewest heaps rare, the recent half counted twice.

    *current* is kept unless the best mask makes at most :data:`MASK_GAIN` of its rare
    heaps (changing the mask rebuilds the rare list and forgets the witnesses).

    Examples
    --------
    >>> vals = np.array([0, 1, 2, 4, 7, 1, 2, 4, 7, 8, 11, 13, 14] * 10)
    >>> bin(choose_mask(vals))
    '0b1111'
    """
    vals = np.asarray(values[1:], dtype=np.int64)
    if vals.size == 0:
        return current or 1
    nbits = max(1, int(vals.max()).bit_length())
    if nbits > 14:
        return current
    masks = np.arange(1, 1 << nbits, dtype=np.int64)
    score = _rare_count(vals, masks) + _rare_count(vals[len(vals) // 2 :], masks)
    best = int(masks[int(np.argmin(score))])
    if current and current < (1 << nbits):
        cur = int(score[current - 1])
        if score[best - 1] > MASK_GAIN * cur:
            return current
    return best


def _proved_period(out: npt.NDArray[Any], stop: int, t: int) -> tuple[int, int] | None:
    """``(n0, p)`` when ``out[:stop]`` satisfies the Guy–Smith hypothesis for a period."""
    p, n0 = _tail_period(out[:stop])
    if p < 0:
        return None
    m0 = max(int(n0), 1)
    if stop < 2 * m0 + 2 * p + t:
        return None
    return m0, int(p)


def _read_checkpoint(path: Path, code: str) -> tuple[npt.NDArray[np.int64], int] | None:
    if not path.exists():
        return None
    try:
        with np.load(path, allow_pickle=False) as data:
            if str(data["code"]) != code:
                raise StoreError(
                    f"checkpoint {path} belongs to the octal game {str(data['code'])!r}, not "
                    f"{code!r}: give another file"
                )
            return np.asarray(data["values"], dtype=np.int64), int(data["mask"])
    except (OSError, KeyError, ValueError) as exc:
        raise StoreError(f"checkpoint {path} cannot be read ({exc}): remove it") from None


def _write_checkpoint(path: Path, code: str, values: npt.NDArray[Any], mask: int) -> None:
    tmp = path.with_name(path.name + ".tmp.npz")
    top = int(values.max()) if len(values) else 0
    small = values.astype(np.uint16 if top < 1 << 16 else np.int64)
    np.savez(tmp, code=np.array(code), values=small, mask=np.array(mask))
    os.replace(tmp, path)


def octal_run(
    code: str,
    n: int,
    *,
    direct: bool = False,
    periodic: bool = True,
    checkpoint: str | os.PathLike[str] | None = None,
    progress: bool = False,
    chunk: int | None = None,
) -> OctalRun:
    """Grundy values ``G(0..n-1)`` of the octal (or hexadecimal) game *code*, exact.

    Parameters
    ----------
    code : str
        The game's code, such as ``"0.6"``, ``"0.77"`` or ``"4!.0"``.
    n : int
        Number of terms.
    direct : bool
        Compute every option (quadratic; a check of the rare-value method).
    periodic : bool
        Extend a period as soon as the Guy–Smith theorem proves it (default True).
    checkpoint : path, optional
        A ``.npz`` file: the run starts from the terms it holds (written by an earlier
        run of the same code) and writes its terms there every
        :data:`CHECKPOINT_SECONDS` and at the end.
    progress : bool
        A progress bar (terms, values/s, time left) on a terminal.
    chunk : int, optional
        Terms per step between progress updates, checkpoints and period checks.

    Returns
    -------
    OctalRun
        The values and what the run did (mask, rare heaps, period proved, rate).

    Examples
    --------
    >>> run = octal_run("0.77", 100_000)  # Kayles: the period is proved early
    >>> run.period, run.computed, run.values[-12:].tolist()
    ((71, 12), 2048, [1, 4, 7, 2, 1, 8, 2, 7, 4, 1, 2, 8])
    >>> octal_run("0.6", 20).values.tolist()
    [0, 0, 1, 2, 0, 1, 2, 3, 1, 2, 3, 4, 0, 3, 4, 2, 1, 3, 2, 1]
    """
    from nimlab._progress import Progress

    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise InvalidParameterError(f"n must be an integer >= 0 (the number of terms), got {n!r}")
    n = int(n)
    rules = rules_of_code(code)
    ends, ones, splits, uneq, triples = rules.arrays()
    t0 = time.perf_counter()
    out = np.zeros(n, dtype=np.int64)
    path = Path(checkpoint) if checkpoint is not None else None
    done, mask = 1, 0
    if path is not None:
        got = _read_checkpoint(path, code)
        if got is not None:
            vals, mask = got
            done = max(1, min(n, len(vals)))
            out[:done] = vals[:done]
    resumed = done if done > 1 else 0
    cap = 256
    while n and cap <= 2 * int(out[:done].max()) + 2:
        cap *= 2
    stamp = np.full(cap, -1, np.int64)
    use_rare = not direct and not rules.triples and bool(rules.splits)
    period: tuple[int, int] | None = None
    bar = Progress(f"octal({code}): Grundy values", n, "terms", start=done, enabled=progress)
    step = chunk if chunk is not None else max(1 << 14, n // 200)
    last_save = time.perf_counter()
    state = np.zeros(3, np.int64)
    rare = np.zeros(min(max(n, 1), 1 << 12), np.int64)
    rarev = np.zeros_like(rare)
    wit = np.zeros(cap, np.int64)
    witk = np.zeros(cap, np.int64)
    next_mask = 0
    built = False

    def grow(c: int) -> tuple[Any, ...]:
        return np.full(c, -1, np.int64), np.zeros(c, np.int64), np.zeros(c, np.int64)

    def rebuild(m: int) -> None:
        nonlocal rare, rarev
        par = _parity_table(m, cap)
        idx = np.flatnonzero(par[out[1:done]] == 0) + 1
        if len(idx) >= len(rare):
            rare = np.zeros(2 * len(idx) + 1, np.int64)
            rarev = np.zeros_like(rare)
        rare[: len(idx)] = idx
        rarev[: len(idx)] = out[idx]
        state[0] = len(idx)

    try:
        while done < n:
            stop = min(n, done + max(1, step))
            if not use_rare or done < NAIVE_TERMS:
                if use_rare:
                    stop = min(n, NAIVE_TERMS)
                while True:
                    h = int(
                        _direct_fill(ends, ones, splits, uneq, triples, out[:stop], done, stamp)
                    )
                    done = h
                    if h >= stop:
                        break
                    cap *= 2
                    stamp = np.full(cap, -1, np.int64)
            else:
                if mask == 0 or done >= next_mask:
                    new = choose_mask(out[:done], mask)
                    next_mask = 2 * done
                    if new != mask or not built:
                        mask, built = new, True
                        wit[:] = 0
                        rebuild(mask)
                par = _parity_table(mask, cap)
                while True:
                    moves = (ends, ones, splits, uneq)
                    work = (par, rare, rarev, state, stamp, wit, witk)
                    h = int(_rare_fill(*moves, out[:stop], done, *work))
                    done = h
                    if h >= stop:
                        break
                    if state[0] >= len(rare):  # the rare list is full: twice as long
                        rare = np.concatenate([rare, np.zeros_like(rare)])
                        rarev = np.concatenate([rarev, np.zeros_like(rarev)])
                        continue
                    cap *= 2
                    stamp, wit, witk = grow(cap)
                    par = _parity_table(mask, cap)
            bar.update(done, f"mask {mask:#x}, {int(state[0]):,} rare" if mask else "direct")
            if periodic and rules.guy_smith and done < n:
                period = _proved_period(out, done, rules.t)
                if period is not None:
                    n0, p = period
                    idx = np.arange(done, n)
                    out[done:] = out[n0 + (idx - n0) % p]
                    break
            if path is not None and time.perf_counter() - last_save > CHECKPOINT_SECONDS:
                _write_checkpoint(path, code, out[:done], mask)
                last_save = time.perf_counter()
    finally:
        bar.close()
    computed = done
    if path is not None:
        _write_checkpoint(path, code, out[:computed], mask)
    if period is None and periodic and rules.guy_smith and n:
        period = _proved_period(out, n, rules.t)
    return OctalRun(
        values=out,
        mask=mask,
        rare=int(state[0]) if mask else 0,
        computed=computed,
        period=period,
        witness_steps=int(state[1]),
        resumed=resumed,
        seconds=time.perf_counter() - t0,
    )
