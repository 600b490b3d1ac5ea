"""2-D Turning Turtles (Turning Corners): a winning move by factoring in the nim field.

Flipping the corners of the rectangle spanned by a head ``(a, b)`` and ``(a', b')`` is, in
nim-value, the move of the product game to ``(α, β)`` with ``α < a``, ``β < b``
(``α = a'`` when ``a' < a`` and ``α = 0`` when ``a' = a``; likewise ``β``); the value changes
from ``G`` to ``G ⊕ (a⊕α)⊗(b⊕β)``. So a winning move is a factorisation ``G = u ⊗ v``
with ``u = a⊕α``, ``v = b⊕β``, that is with the highest binary digit of ``u`` set in ``a``
and that of ``v`` set in ``b``.

The factorisation is found by halving the field: with ``F = 2^h`` a Fermat 2-power,
``x = x1·F ⊕ x0`` and ``F⊗F = F ⊕ F/2``,
``u⊗v = (u1v1 ⊕ u1v0 ⊕ u0v1)·F ⊕ (u1v1⊗F/2 ⊕ u0v0)``. Either one of ``u1, v1`` is 0 and the
problem recurses in the half field, or both are chosen and ``u0`` solves a quadratic
``s² ⊕ B s = C`` over the half field (a GF(2)-linear system, solved by elimination).

References
----------
[S19] §1.4, Theorem 6 (``S19-T6``); Berlekamp, Conway, Guy, *Winning Ways*, ch. 14.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import TYPE_CHECKING

from nimlab.core.errors import SearchTooLargeError
from nimlab.core.strategy import Construction

if TYPE_CHECKING:
    from nimlab.catalog.turtles.rules import TurningTurtles

__all__ = ["PAIR_BUDGET", "factor_below", "turtles_move", "turtles_strategy"]

Heads = frozenset[tuple[int, int]]


def _below(a: int, limit: int = 8) -> Iterator[int]:
    """Some ``u`` whose highest binary digit is set in *a* (``a ⊕ u < a``), a first."""
    for alpha in range(min(a, limit)):
        yield a ^ alpha


def _every_below(a: int) -> Iterator[int]:
    """Every ``u`` whose highest binary digit is set in *a*: ``a`` of them in all."""
    for t in range(a.bit_length()):
        if (a >> t) & 1:
            yield from range(1 << t, 2 << t)


#: How many pairs of top halves ``(u1, v1)`` :func:`factor_below` tries in one field: the
#: 64 of the fast search (``_below``) and then every pair. Below ``2^16`` every field has
#: fewer than ``2^16 − 64`` pairs, so the search there is complete.
PAIR_BUDGET = 1 << 16


def _in_below(u: int, a: int) -> bool:
    return u != 0 and (a >> (u.bit_length() - 1)) & 1 == 1


def _solve_linear(cols: list[int], target: int) -> int | None:
    """``s`` with ``XOR of cols[t] for bits t of s == target`` over GF(2), or None."""
    basis: dict[int, tuple[int, int]] = {}  # pivot bit -> (vector, combination)
    for t, col in enumerate(cols):
        vec, comb = col, 1 << t
        while vec:
            top = vec.bit_length() - 1
            if top not in basis:
                basis[top] = (vec, comb)
                break
            bv, bc = basis[top]
            vec ^= bv
            comb ^= bc
    vec, comb = target, 0
    while vec:
        top = vec.bit_length() - 1
        if top not in basis:
            return None
        bv, bc = basis[top]
        vec ^= bv
        comb ^= bc
    return comb


def factor_below(a: int, b: int, g: int, n: int | None = None) -> tuple[int, int] | None:
    """``(u, v)`` with ``u ⊗ v = g``, ``a ⊕ u < a`` and ``b ⊕ v < b``, or None if none found.

    The search is complete (None means that no such pair exists) when ``a``, ``b`` and
    ``g`` are below ``2^16``; in larger fields it tries :data:`PAIR_BUDGET` pairs of top
    halves per field and may return None although a pair exists. Which pair is returned
    is not specified.

    Parameters
    ----------
    a, b, g : int
        Non-negative ints (``g > 0``).
    n : int, optional
        Work in the field of ``2^(2^n)`` nimbers (default: the smallest holding all three).

    Examples
    --------
    >>> from nimlab.formulas.nimmul import nimmul
    >>> u, v = factor_below(5, 6, 3)
    >>> nimmul(u, v), 5 ^ u < 5, 6 ^ v < 6
    (3, True, True)
    >>> u, v = factor_below(2**40 + 7, 2**50 + 1, 2**63 + 12345)
    >>> nimmul(u, v) == 2**63 + 12345
    True
    """
    from nimlab.formulas.nimmul import nim_div, nimmul

    if g == 0 or a == 0 or b == 0:
        return None
    if n is None:
        width = max(a, b, g).bit_length()
        n = 0
        while (1 << n) < width:
            n += 1
    if n <= 2:
        for u in range(1, 1 << (1 << n)):
            if _in_below(u, a):
                v = nim_div(g, u)
                if _in_below(v, b):
                    return u, v
        return None
    h = 1 << (n - 1)
    F = 1 << h
    c = F >> 1
    a1, a0, b1, b0 = a >> h, a & (F - 1), b >> h, b & (F - 1)
    g1, g0 = g >> h, g & (F - 1)
    if g1 == 0 and a0 and b0:  # u1 = v1 = 0
        r = factor_below(a0, b0, g0, n - 1)
        if r is not None:
            return r
    if g1 and a1 and b0:  # v1 = 0: u1 v0 = g1, u0 v0 = g0
        r = factor_below(a1, b0, g1, n - 1)
        if r is not None:
            u1, v0 = r
            return (u1 << h) | nim_div(g0, v0), v0
    if g1 and a0 and b1:  # u1 = 0: u0 v1 = g1, u0 v0 = g0
        r = factor_below(a0, b1, g1, n - 1)
        if r is not None:
            u0, v1 = r
            return u0, (v1 << h) | nim_div(g0, u0)
    if a1 and b1:  # both halves: a quadratic for u0
        squares = [nimmul(1 << t, 1 << t) for t in range(h)]
        pairs = itertools.chain(
            itertools.product(_below(a1), _below(b1)),
            itertools.product(_every_below(a1), _every_below(b1)),
        )
        for u1, v1 in itertools.islice(pairs, PAIR_BUDGET):
            pi = nimmul(u1, v1)
            e1 = g1 ^ pi
            e0 = g0 ^ nimmul(c, pi)
            if e0 == 0:
                return u1 << h, (v1 << h) | nim_div(e1, u1)
            bb = nim_div(e1, v1)
            cc = nim_div(nimmul(u1, e0), v1)
            cols = [squares[t] ^ nimmul(bb, 1 << t) for t in range(h)]
            s = _solve_linear(cols, cc)
            if s:
                return (u1 << h) | s, (v1 << h) | nim_div(e0, s)
    return None


def turtles_move(heads: Heads) -> Heads | None:
    """A winning move of 2-D Turning Turtles, or None at a P-position.

    Which winning move is returned is not specified. The heads whose nim product has the
    highest binary digit of the nim-value are tried first: one of them always has a
    factorisation, which :func:`factor_below` finds for coordinates below ``2^16``. If the
    search gives up on every head (:data:`PAIR_BUDGET`, possible only for larger
    coordinates), it raises :class:`~nimlab.core.errors.SearchTooLargeError` rather than
    call an N-position P.

    Examples
    --------
    >>> turtles_move(frozenset({(1, 1), (2, 2)}))
    frozenset({(1, 2), (2, 1)})
    >>> turtles_move(frozenset({(2, 2), (3, 1)})) is None
    True
    """
    from nimlab.formulas.nimmul import nimmul

    values = {hd: nimmul(*hd) for hd in heads}
    g = 0
    for v in values.values():
        g ^= v
    if g == 0:
        return None
    order = sorted(heads, key=lambda hd: (g ^ values[hd] >= values[hd], hd))
    for a, b in order:
        r = factor_below(a, b, g)
        if r is None:
            continue
        u, v = r
        alpha, beta = a ^ u, b ^ v
        a2 = alpha if alpha else a
        b2 = beta if beta else b
        return heads ^ {(a, b), (a2, b), (a, b2), (a2, b2)}
    # An N-position: the head with the highest digit of g has a factorisation (every value
    # below a ⊗ b is an option of the head), which the search misses only beyond 2^16.
    raise SearchTooLargeError(
        f"turning-turtles: the nim-value {g} of this position is not 0, but factoring it "
        f"tried {PAIR_BUDGET:,} pairs per field and found no winning move"
    )


def turtles_strategy(game: TurningTurtles, position: Heads, misere: bool) -> Construction | None:
    """Turning Turtles: one winning move by factoring the nim-value (normal play)."""
    if misere:
        return None
    return Construction(
        procedure="factoring the nim-value in the nim field (S19 Theorem 6)",
        theorem="S19-T6",
        one=lambda: turtles_move(frozenset(position)),
    )
