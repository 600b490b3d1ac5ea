"""Candidate terms over a table of positions, enumerated shortest first.

A :class:`Term` is a statement of the expression language of
:mod:`nimlab.verification.expr` together with its values on every cell of a table (a
numpy array of int64). :func:`enumerate_terms` builds terms bottom-up by size from the heap
variables, constants taken from the data and symmetric aggregates (the XOR, sum, OR, AND,
minimum and maximum of one-heap terms over all heaps), and keeps one term per distinct
value vector: two expressions that agree on every cell are the same candidate, and the
shorter is kept.

Examples
--------
>>> import numpy as np
>>> a, b = np.meshgrid(np.arange(4), np.arange(4), indexing="ij")
>>> terms = enumerate_terms([a.ravel(), b.ravel()], max_size=3, constants=(1, 2))
>>> any(t.text == "a ^ b" for t in terms)
True
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["LETTERS", "Term", "enumerate_terms", "np_tail", "np_v2", "one_heap_terms"]

LETTERS = "abcdefgh"
Array = npt.NDArray[np.int64]
# values are kept well inside int64: a term whose values leave this range is dropped
_LIMIT = 1 << 40


@dataclass(frozen=True)
class Term:
    """A candidate expression and its values on the table's cells.

    Attributes
    ----------
    text : str
        The expression (language of :mod:`nimlab.verification.expr`).
    values : numpy.ndarray
        Its value on each cell (int64).
    size : int
        Number of nodes of its syntax tree (the shortest-first order).
    atomic : bool
        Whether *text* needs no parentheses as an operand.
    """

    text: str
    values: Array
    size: int
    atomic: bool = True

    def wrapped(self) -> str:
        """*text*, in parentheses unless it is atomic."""
        return self.text if self.atomic else f"({self.text})"


def np_v2(x: Array) -> Array:
    """2-adic valuation of positive int64 values (the expression language's ``v2``).

    Examples
    --------
    >>> np_v2(np.array([1, 2, 12, 8])).tolist()
    [0, 1, 2, 3]
    """
    x = np.asarray(x, dtype=np.int64)
    low = x & -x
    out: Array = np.log2(np.maximum(low, 1)).astype(np.int64)
    return out


def np_tail(x: Array) -> Array:
    """Number of trailing 1 bits (the expression language's ``tail``).

    Examples
    --------
    >>> np_tail(np.array([0, 1, 3, 10, 23])).tolist()
    [0, 1, 2, 0, 3]
    """
    x = np.asarray(x, dtype=np.int64)
    return np_v2(x + 1)


def one_heap_terms(var: str, x: Array, constants: Sequence[int], positive: bool) -> list[Term]:
    """The short terms of one heap variable: ``x``, ``x % m``, ``x // m``, ``v2(x)`` (heaps
    that are all positive), ``tail(x)``, ``x >> k`` and ``x & m`` for the constants *m*.

    Examples
    --------
    >>> [t.text for t in one_heap_terms("a", np.arange(1, 5), (2,), True)][:4]
    ['a', 'tail(a)', 'v2(a)', 'a % 2']
    """
    out = [Term(var, x, 1), Term(f"tail({var})", np_tail(x), 2)]
    if positive:
        out.append(Term(f"v2({var})", np_v2(x), 2))
    for m in constants:
        if m >= 2:
            out.append(Term(f"{var} % {m}", x % m, 3, atomic=False))
            out.append(Term(f"{var} // {m}", x // m, 3, atomic=False))
    return out


_AGGREGATES: tuple[tuple[str, str, Callable[[Array, Array], Array]], ...] = (
    ("xor", " ^ ", np.bitwise_xor),
    ("sum", " + ", np.add),
    ("or", " | ", np.bitwise_or),
    ("and", " & ", np.bitwise_and),
)


def _aggregates(per_heap: list[list[Term]]) -> Iterator[Term]:
    """XOR, sum, OR, AND, min and max over all heaps of each one-heap term (the same term
    of every heap variable)."""
    n = len(per_heap)
    if n < 2:
        return
    for j in range(len(per_heap[0])):
        parts = [per_heap[i][j] for i in range(n)]
        # an aggregate over all heaps counts as one node above its one-heap term
        size = parts[0].size + 1
        for _, op, fn in _AGGREGATES:
            vals = parts[0].values
            for p in parts[1:]:
                vals = fn(vals, p.values)
            yield Term(op.join(p.wrapped() for p in parts), vals, size, atomic=False)
        stack = np.stack([p.values for p in parts])
        args = ", ".join(p.text for p in parts)
        yield Term(f"min({args})", stack.min(axis=0), size)
        yield Term(f"max({args})", stack.max(axis=0), size)


_BINARY: tuple[tuple[str, Callable[[Array, Array], Array], bool], ...] = (
    ("^", np.bitwise_xor, True),
    ("&", np.bitwise_and, True),
    ("|", np.bitwise_or, True),
    ("+", np.add, True),
    ("-", np.subtract, False),
    ("*", np.multiply, True),
)


def enumerate_terms(
    heaps: Sequence[Array],
    *,
    max_size: int = 7,
    constants: Sequence[int] = (1, 2, 3),
    positive: bool = False,
    max_terms: int = 400_000,
    deadline: float | None = None,
    stop: Callable[[Term], bool] | None = None,
    keep_last: bool = True,
) -> list[Term]:
    """Terms over the heap variables, shortest first, one per distinct value vector.

    Parameters
    ----------
    heaps : sequence of numpy.ndarray
        The value of each heap variable on each cell.
    max_size : int
        Largest term size (nodes of the syntax tree; aggregates count their parts).
    constants : sequence of int
        Integer constants (from the data: small numbers, periods, moduli).
    positive : bool
        Every heap is positive on the cells (``v2`` is defined).
    max_terms : int
        Stop after this many distinct terms.
    deadline : float, optional
        A ``time.monotonic()`` time after which no new term is built.
    stop : callable, optional
        Called on each new term; enumeration ends when it returns True (the term is kept).
    keep_last : bool
        Return the terms of the largest size too (False: only *stop* sees them, which
        keeps the memory to the smaller sizes).

    Returns
    -------
    list of Term
        The terms found, in order of size.

    Examples
    --------
    >>> a, b, c = (np.arange(8) >> k & 1 for k in range(3))
    >>> [t.text for t in enumerate_terms([a, b, c], max_size=1, constants=())]
    ['a', 'b', 'c']
    """
    pool = _Pool(max_size, max_terms, stop, keep_last)
    per_heap = [
        one_heap_terms(LETTERS[i], np.asarray(h, dtype=np.int64), constants, positive)
        for i, h in enumerate(heaps)
    ]
    shape = np.asarray(heaps[0]).shape
    for c in sorted(set(constants)):
        pool.add(Term(str(c), np.full(shape, c, dtype=np.int64), 1))
    for size in range(1, max_size + 1):
        for terms in per_heap:
            for t in terms:
                if t.size == size:
                    pool.add(t)
        for t in _aggregates(per_heap):
            if t.size == size:
                pool.add(t)
        _unary(pool, size, constants)
        if not _binary(pool, size, deadline) or pool.done:
            break
    return pool.out


class _Pool:
    """The terms built so far: one per value vector, by size."""

    def __init__(
        self,
        max_size: int,
        max_terms: int,
        stop: Callable[[Term], bool] | None,
        keep_last: bool,
    ) -> None:
        self.max_size, self.max_terms, self.stop, self.keep_last = (
            max_size,
            max_terms,
            stop,
            keep_last,
        )
        self.seen: set[bytes] = set()
        self.by_size: dict[int, list[Term]] = {}
        self.out: list[Term] = []
        self.done = False

    def add(self, t: Term) -> None:
        """Keep *t* unless a term with its values is known (or it is too large)."""
        if self.done or t.size > self.max_size:
            return
        v = t.values
        if v.size and (int(v.max()) > _LIMIT or int(v.min()) < -_LIMIT):
            return
        key = v.tobytes()
        if key in self.seen:
            return
        self.seen.add(key)
        if t.size < self.max_size:  # the largest terms are tested, never operands: not kept
            self.by_size.setdefault(t.size, []).append(t)
            self.out.append(t)
        elif self.keep_last:
            self.out.append(t)
        if (self.stop is not None and self.stop(t)) or len(self.seen) >= self.max_terms:
            self.done = True


def _unary(pool: _Pool, size: int, constants: Sequence[int]) -> None:
    """Terms of *size* made of one smaller term: ``tail`` (and ``v2`` where every value is
    positive) of a term one size smaller; division, remainder and shifts by a constant
    (before the binary operations of the same size: cheap, and the scalings of the
    papers)."""
    for t in list(pool.by_size.get(size - 1, ())):
        if pool.done:
            return
        if int(t.values.min()) >= 0:
            pool.add(Term(f"tail({t.text})", np_tail(t.values), size))
        if int(t.values.min()) >= 1:
            pool.add(Term(f"v2({t.text})", np_v2(t.values), size))
    for left in list(pool.by_size.get(size - 2, ())):
        for c in constants:
            if pool.done:
                return
            if c >= 2:
                pool.add(Term(f"{left.wrapped()} // {c}", left.values // c, size, False))
                pool.add(Term(f"{left.wrapped()} % {c}", left.values % c, size, False))
            if c >= 1:
                pool.add(Term(f"{left.wrapped()} >> {c}", left.values >> c, size, False))


def _binary(pool: _Pool, size: int, deadline: float | None) -> bool:
    """Binary operations whose operand sizes add up to ``size - 1``; False when the
    enumeration must end (done, or past the deadline)."""
    for left_size in range(1, size - 1):
        right_size = size - 1 - left_size
        lefts = list(pool.by_size.get(left_size, ()))
        rights = list(pool.by_size.get(right_size, ()))
        for op, fn, commutes in _BINARY:
            for i, left in enumerate(lefts):
                if pool.done or (deadline is not None and time.monotonic() > deadline):
                    return False
                for j, right in enumerate(rights):
                    if commutes and left_size == right_size and j < i:
                        continue
                    with np.errstate(over="ignore"):
                        vals = fn(left.values, right.values)
                    pool.add(Term(f"{left.wrapped()} {op} {right.wrapped()}", vals, size, False))
    return True


def evaluate(text: str, heaps: Sequence[Array]) -> Any:
    """Values of the expression *text* on the cells (through the expression language's own
    numpy form, so a statement is judged by the code that verifies it)."""
    from nimlab.verification.expr import parse_expression

    expr = parse_expression(text, len(heaps))
    with np.errstate(all="ignore"):
        return _values(expr, heaps)


def _values(expr: Any, heaps: Sequence[Array]) -> Any:
    fn = expr.numpy_function(int(max(int(np.max(h)) for h in heaps)) + 1)
    if fn is not None:
        return fn(*heaps)
    f = expr.function()
    cells = zip(*(np.asarray(h).tolist() for h in heaps), strict=True)
    return np.array([f(tuple(c)) for c in cells])
