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

import contextlib
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from nimlab.core.errors import InvalidParameterError, StoreError
from nimlab.engine._octal_kernels import (
    BLOCK,
    BLOCK_AFTER,
    BLOCK_MIN_RARE,
    BLOCK_PARTS,
    GROUP,
    rare_fill,
)

__all__ = ["OctalRun", "choose_sparse", "octal_run", "rules_of_code"]

#: Terms computed by the direct method before the rare-value method starts.
NAIVE_TERMS = 2048
#: Seconds between two checkpoint writes of a long run.
CHECKPOINT_SECONDS = 30.0
#: A new mask replaces the current one when it makes at most this fraction of its rare heaps.
MASK_GAIN = 0.8
#: With ``threads > 1``, heaps are computed in blocks on several cores from this heap on.
PARALLEL_FROM = 1 << 15
#: Bytes of the per-heap work rows of a parallel block (its length is this / the table size).
BLOCK_BYTES = 1 << 19


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

    @property
    def tpar(self) -> int | None:
        """The parity of every split's take, or None when they differ (then only the
        range form of the sparse space applies)."""
        parities = {s & 1 for s in self.splits}
        return parities.pop() if len(parities) == 1 else None

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
        Small parts tried in the searches for values of the rare parity (the common ×
        common work).
    resumed : int
        Terms read from a checkpoint.
    seconds : float
        Wall time of the run.
    domain : bool
        Whether the classes are those of the domain form (a heap is rare when the parity
        of its value under the mask equals that of ``n + t``, ``t`` a take of the splits;
        Flammenkamp's "1+pos" masks) rather than the range form (its value has even parity).
    """

    values: npt.NDArray[np.int64]
    mask: int
    rare: int
    computed: int
    period: tuple[int, int] | None
    witness_steps: int
    resumed: int
    seconds: float
    domain: bool = False

    @property
    def rate(self) -> float:
        """Values per second of the heaps computed in this run."""
        return (self.computed - self.resumed) / max(self.seconds, 1e-9)


def _parity_table(mask: int, cap: int) -> npt.NDArray[np.uint8]:
    v = np.arange(cap, dtype=np.int64) & mask
    table: npt.NDArray[np.uint8] = (np.bitwise_count(v) & 1).astype(np.uint8)
    return table


def _rare_count(
    vals: npt.NDArray[Any], masks: npt.NDArray[np.int64], flips: npt.NDArray[Any] | None = None
) -> npt.NDArray[np.int64]:
    """For each mask, the number of *vals* whose class is rare (even parity, XOR the
    heap's *flips* bit in the domain form)."""
    keys = vals.astype(np.int64) * 2 + (0 if flips is None else flips)
    counts = np.bincount(keys)  # the values are small: a count per key, no sort
    uniq = np.flatnonzero(counts)
    counts = counts[uniq]
    par = np.bitwise_count((uniq[:, None] >> 1) & masks[None, :]) & 1
    par ^= (uniq[:, None] & 1).astype(par.dtype)
    return np.asarray(counts @ (1 - par), dtype=np.int64)


def choose_sparse(
    values: npt.NDArray[Any], current: tuple[int, int] = (0, 0), tpar: int | None = None
) -> tuple[int, int]:
    """The mask and form ``(mask, domain)`` that make the fewest heaps rare, the recent
    half counted twice; the domain form is tried only when *tpar* (the parity of every
    split's take) is given.

    *current* is kept unless the best makes at most :data:`MASK_GAIN` of its rare heaps
    (changing the classes rebuilds the rare list).

    Examples
    --------
    >>> vals = np.array([0, 1, 2, 4, 7, 1, 2, 4, 7, 8, 11, 13, 14] * 10)
    >>> choose_sparse(vals)
    (15, 0)
    """
    vals = np.asarray(values, dtype=np.int64)[1:]
    if vals.size == 0:
        return current if current[0] else (1, 0)
    nbits = max(1, int(vals.max()).bit_length())
    if nbits > 14:
        return current if current[0] else (1, 0)
    masks = np.arange(1, 1 << nbits, dtype=np.int64)
    recent = len(vals) // 2
    scores = [_rare_count(vals, masks) + _rare_count(vals[recent:], masks)]
    if tpar is not None:
        flips = (np.arange(1, len(vals) + 1) + tpar) & 1
        scores.append(
            _rare_count(vals, masks, flips) + _rare_count(vals[recent:], masks, flips[recent:])
        )
    score = np.concatenate(scores)
    k = int(np.argmin(score))
    best = (int(masks[k % len(masks)]), k // len(masks))
    cur_mask, cur_dom = current
    if cur_mask and cur_mask < (1 << nbits) and cur_dom < len(scores):
        cur = int(score[cur_dom * len(masks) + cur_mask - 1])
        if score[k] > MASK_GAIN * cur:
            return current
    return best


def choose_mask(values: npt.NDArray[Any], current: int = 0) -> int:
    """The mask of the range form that makes the fewest heaps rare (see
    :func:`choose_sparse`).

    Examples
    --------
    >>> vals = np.array([0, 1, 2, 4, 7, 1, 2, 4, 7, 8, 11, 13, 14] * 10)
    >>> bin(choose_mask(vals))
    '0b1111'
    """
    return choose_sparse(values, (current, 0))[0]


#: The bits of a mask above the values so far (set: leading ones).
_LEADING_ONES = (1 << 31) - 1


def _value_bits(vals: npt.NDArray[Any]) -> int:
    """The mask of the bits that the values *vals* use."""
    return (1 << max(1, int(vals.max()).bit_length())) - 1


def _small_parts(values: npt.NDArray[Any], limit: int = 1 << 17, per: int = 80) -> Any:
    """Small parts for the witness searches: the first *per* heaps below *limit* of each
    value, the values taken in turn, the most frequent (in the recent half) first. A split
    with a part of a frequent value ``y`` gives the rare value ``v`` when its other part
    has the value ``v ^ y``: each value of the rare parity is soon met."""
    vals = np.asarray(values)  # uint16 values sort by radix (0.6 to 2^15: 2.4 ms, not 8)
    head = vals[1 : min(len(vals), limit)]
    freq = np.bincount(vals[len(vals) // 2 :], minlength=int(vals.max()) + 1)
    by_value = np.argsort(head, kind="stable")  # heaps by value, then by size
    sorted_vals = head[by_value].astype(np.int64)
    counts = np.bincount(sorted_vals, minlength=len(freq))
    rank = np.arange(len(head)) - (np.cumsum(counts) - counts)[sorted_vals]  # in its value
    sel = (rank < per) & (freq[sorted_vals] > 0)
    heaps, ranks, vals_sel = by_value[sel] + 1, rank[sel], sorted_vals[sel]
    pos = np.lexsort((vals_sel, -freq[vals_sel], ranks))  # in turn, frequent values first
    return np.ascontiguousarray(heaps[pos], dtype=np.int64)


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


class _Run:
    """The state of one :func:`octal_run`: the values, the classes and the rare list."""

    def __init__(self, code: str, n: int, rules: _Rules, direct: bool, threads: int = 1) -> None:
        self.code, self.n, self.rules, self.threads = code, n, rules, threads
        self.rows: tuple[npt.NDArray[Any], ...] = ()  # work rows of the parallel blocks
        self.moves = rules.arrays()
        self.out: npt.NDArray[Any] = np.zeros(n, dtype=np.uint16)
        self.done = 1
        self.cap = 256  # stamp length: a power of two above twice every value
        self.stamp = np.full(self.cap, -1, np.int32)
        self.stamps = np.full((GROUP, self.cap), -1, np.int32)
        self.miss = np.zeros(self.cap, np.int32)
        self.bits = np.zeros(self.cap, np.uint64)  # work space of the blocks of heaps
        self.hws = np.zeros((BLOCK, self.cap // 64), np.uint64)
        self.use_rare = not direct and not rules.triples and bool(rules.splits)
        self.sparse = (0, 0)  # (mask, domain form)
        self.next_choice = 0
        self.chosen = -1  # the rare heaps when the classes were last chosen
        self.state = np.zeros(2, np.int64)
        self.rare = np.zeros((1 << 10, 2), np.int32)  # rows (heap, value)
        self.order = np.zeros((0, 2), np.int32)

    def load(self, vals: npt.NDArray[Any]) -> None:
        """Start from the terms *vals* (a checkpoint)."""
        self.done = max(1, min(self.n, len(vals)))
        top = int(vals[: self.done].max()) if self.done else 0
        self.widen(top)
        self.out[: self.done] = vals[: self.done]

    def widen(self, top: int) -> None:
        """Make room for values up to *top*: a longer stamp, int32 values past uint16."""
        while self.cap <= 2 * top + 2:
            self.cap *= 2
        if len(self.stamp) != self.cap:
            self.stamp = np.full(self.cap, -1, np.int32)
            self.stamps = np.full((GROUP, self.cap), -1, np.int32)
            self.miss = np.zeros(self.cap, np.int32)
            self.bits = np.zeros(self.cap, np.uint64)
            self.hws = np.zeros((BLOCK, self.cap // 64), np.uint64)
        if self.cap > 1 << 17 and self.out.dtype != np.int32:
            self.out = self.out.astype(np.int32)

    def direct(self, stop: int) -> None:
        ends, ones, splits, uneq, triples = self.moves
        while self.done < stop:
            args = (ends, ones, splits, uneq, triples)
            h = int(_direct_fill(*args, self.out[:stop], self.done, self.stamp))
            self.done = h
            if h < stop:
                self.widen(self.cap)

    def classes(self) -> None:
        """Choose the classes again when the run has doubled and heaps have become rare
        since the last choice (with none, the classes keep their rare heaps: 0.6 to 2^20
        spent 0.13 s of its 1.5 s choosing them again); rebuild the rare list."""
        if self.sparse[0] and (self.done < self.next_choice or self.state[0] == self.chosen):
            return
        self.next_choice = 2 * self.done
        vals = self.out[: self.done]
        heaps = _small_parts(vals)
        self.order = np.ascontiguousarray(np.stack([heaps, vals[heaps]], axis=1), np.int32)
        low = _value_bits(vals)
        new = choose_sparse(vals, (self.sparse[0] & low, self.sparse[1]), self.rules.tpar)
        # the bits above the values so far are set (the masks of Winning Ways and of
        # Flammenkamp's tables are bit strings with leading ones: Officers' is ~0x11): a
        # new larger value then keeps its class under the mask that wins on the smaller
        # ones (0.6 kept 0xee from 8,192 to 32,768 heaps with 4 times the rare heaps of
        # 0x1ee, the heaps to 2^15 taking a tenth of the time of a run to 2^20)
        new = (new[0] | (_LEADING_ONES & ~low), new[1])
        self.chosen = int(self.state[0])
        if new == self.sparse:
            return
        self.sparse = new
        mask, dom = new
        tpar = self.rules.tpar or 0
        cls = _parity_table(mask, self.cap)[vals] ^ (dom * ((np.arange(self.done) + tpar) & 1))
        idx = np.flatnonzero(cls[1:] == 0) + 1
        if len(idx) >= len(self.rare):
            self.rare = np.zeros((2 * len(idx) + 1, 2), np.int32)
        self.rare[: len(idx), 0] = idx
        self.rare[: len(idx), 1] = vals[idx]
        self.state[0] = self.chosen = len(idx)

    def sparse_fill(self, stop: int) -> None:
        ends, ones, splits, uneq, _ = self.moves
        mask, dom = self.sparse
        while self.done < stop:
            cls = (_parity_table(mask, self.cap), dom, self.rules.tpar or 0)
            rules = (ends, ones, splits, uneq)
            if self.threads > 1 and self.done >= PARALLEL_FROM:
                h = self.blocks(rules, cls, stop)
            else:
                work = (self.rare, self.order, self.state, self.stamps, self.miss)
                blocks = (self.bits, self.hws, BLOCK_PARTS, BLOCK_AFTER, BLOCK_MIN_RARE)
                h = int(rare_fill(rules, self.out[:stop], self.done, cls, *work, blocks))
            self.done = h
            if h >= stop:
                break
            if self.state[0] + GROUP >= len(self.rare):  # the rare list is full: twice as long
                self.rare = np.concatenate([self.rare, np.zeros_like(self.rare)])
            else:
                self.widen(self.cap)

    def blocks(self, rules: tuple[Any, ...], cls: tuple[Any, ...], stop: int) -> int:
        """Blocks of heaps on ``self.threads`` cores (:mod:`nimlab.engine._octal_parallel`)
        up to *stop*; returns the first heap not done (before *stop*: the rare list is
        full or the tables are too short). A block is shorter soon after a rare heap (a
        rare heap makes the rest of its block be computed again)."""
        import numba

        from nimlab.engine._octal_parallel import block_fill

        nrows = max(32, min(512, BLOCK_BYTES // self.cap))
        if not self.rows or self.rows[0].shape[1] != self.cap:
            self.rows = (
                np.zeros((nrows, self.cap), np.uint8),
                np.zeros((nrows, self.cap), np.int32),
                np.zeros((nrows, 3), np.int64),
            )
        before = numba.get_num_threads()
        with contextlib.suppress(ValueError):  # more than numba's threads: all of them
            numba.set_num_threads(self.threads)
        try:
            h = self.done
            while h < stop:
                nr = int(self.state[0])
                last = int(self.rare[nr - 1, 0]) if nr else 0
                nb = min(nrows, stop - h, max(32, (h - last) // 4))
                args = (self.rare, self.order, self.state, *self.rows)
                got = int(block_fill(rules, self.out[:stop], h, h + nb, cls, *args))
                if got <= h:  # -1: the rare list is full; h: the tables are too short
                    return h
                h = got
            return h
        finally:
            numba.set_num_threads(before)

    def step(self, stop: int) -> None:
        """Compute the terms up to *stop*."""
        if not self.use_rare or self.done < NAIVE_TERMS:
            self.direct(min(stop, NAIVE_TERMS) if self.use_rare else stop)
            return
        self.classes()
        self.sparse_fill(stop)

    def mask(self) -> int:
        """The mask on the bits of the values so far (0: none chosen)."""
        return self.sparse[0] & _value_bits(self.out[: max(1, self.done)])

    def detail(self) -> str:
        # cut to the values below half the tables (reading every value for the exact bits
        # at each step cost 24 ms of a run of 0.6 to 2^20)
        mask, dom = self.sparse[0] & (self.cap // 2 - 1), self.sparse[1]
        if not mask:
            return "direct"
        form = " by position" if dom else ""
        return f"mask {mask:#x}{form}, {int(self.state[0]):,} rare"


def _count(value: Any, name: str, low: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
        raise InvalidParameterError(f"{name} must be an integer >= {low} ({what}), got {value!r}")
    return int(value)


def octal_run(
    code: str,
    n: int,
    *,
    direct: bool = False,
    periodic: bool = True,
    checkpoint: str | os.PathLike[str] | None = None,
    progress: bool = False,
    chunk: int | None = None,
    threads: int = 1,
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
    threads : int
        Cores to use (default 1): with more, the heaps past :data:`PARALLEL_FROM` are
        computed in blocks whose rare-heap splits and witness searches run in parallel
        (:mod:`nimlab.engine._octal_parallel`; same values). At most numba's thread count.
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

    n = _count(n, "n", 0, "the number of terms")
    t0 = time.perf_counter()
    run = _Run(code, n, rules_of_code(code), direct, _count(threads, "threads", 1, "cores"))
    path = Path(checkpoint) if checkpoint is not None else None
    got = _read_checkpoint(path, code) if path is not None else None
    if got is not None:
        run.load(got[0])
    resumed = run.done if run.done > 1 else 0
    bar = Progress(f"octal({code}): Grundy values", n, "terms", start=run.done, enabled=progress)
    step = chunk if chunk is not None else max(1 << 14, n // 200)
    period = _loop(run, bar, step, periodic, path)
    computed = run.done
    if path is not None:
        _write_checkpoint(path, code, run.out[:computed], run.mask())
    if period is None and periodic and run.rules.guy_smith and n:
        period = _proved_period(run.out, n, run.rules.t)
    return OctalRun(
        values=run.out.astype(np.int64),
        mask=run.mask(),
        rare=int(run.state[0]) if run.sparse[0] else 0,
        computed=computed,
        period=period,
        witness_steps=int(run.state[1]),
        resumed=resumed,
        seconds=time.perf_counter() - t0,
        domain=bool(run.sparse[1]),
    )


def _loop(
    run: _Run, bar: Any, step: int, periodic: bool, path: Path | None
) -> tuple[int, int] | None:
    """Compute chunk after chunk; extend a period once it is proved. Returns the period."""
    last_save = time.perf_counter()
    n = run.n
    # the period is looked for each time the run grows by half: the search reads the whole
    # sequence (after every chunk, it took three quarters of the run of .376)
    next_check = 0
    try:
        while run.done < n:
            run.step(min(n, run.done + max(1, step)))
            bar.update(run.done, run.detail())
            if periodic and run.rules.guy_smith and next_check <= run.done < n:
                next_check = run.done + run.done // 2
                period = _proved_period(run.out, run.done, run.rules.t)
                if period is not None:
                    n0, p = period
                    idx = np.arange(run.done, n)
                    run.out[run.done :] = run.out[n0 + (idx - n0) % p]
                    return period
            if path is not None and time.perf_counter() - last_save > CHECKPOINT_SECONDS:
                _write_checkpoint(path, run.code, run.out[: run.done], run.mask())
                last_save = time.perf_counter()
    finally:
        bar.close()
    return None
