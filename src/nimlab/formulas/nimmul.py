"""Exact nim multiplication for Python ints of any size.

The nim product ``⊗`` of [S19] Definition 6 is
``a ⊗ b = mex{a'⊗b ⊕ a⊗b' ⊕ a'⊗b' : a' < a, b' < b}``; with the nim-sum ``⊕`` (XOR) it
makes the non-negative integers a field of characteristic 2 (Conway). It gives the
Grundy values of 2-D Turning Turtles (``S19-T6``).

This module computes it with the Fermat 2-power recursion: for ``a, b < 2^(2h)`` with
``h`` a power of two and ``F = 2^h`` (a Fermat 2-power), write ``a = a1·F + a0``; since
``F ⊗ F = F ⊕ F/2`` and ``x ⊗ F = x·F`` for ``x < F``,

``a ⊗ b = ((a0⊗b0) ⊕ (a0⊕a1)⊗(b0⊕b1)) · F  ⊕  (a0⊗b0) ⊕ (a1⊗b1) ⊗ F/2``,

three half-size products (Karatsuba style) and one product by ``F/2``, itself three
quarter-size products by halves. Products of bytes come from log/exp tables of the
field of 256 nimbers, built on first use. Everything is exact for ints of any size;
:func:`nimmul_by_mex` is the definition itself, for small values (tests).

References
----------
[S19] §1.4, Definition 6 and Theorem 6. J. H. Conway, *On Numbers and Games*, ch. 6;
Berlekamp, Conway, Guy, *Winning Ways*, ch. 14 (Fermat 2-powers).
"""

from __future__ import annotations

import operator

from nimlab.core.errors import InvalidParameterError

__all__ = [
    "NimDivisionByZeroError",
    "nim_div",
    "nim_inverse",
    "nim_product_table",
    "nim_square",
    "nimmul",
    "nimmul_by_mex",
]

MEX_LIMIT = 64
"""Largest factor bound accepted by :func:`nimmul_by_mex` and :func:`nim_product_table`."""


class NimDivisionByZeroError(InvalidParameterError, ZeroDivisionError):
    """Nim division or inverse of 0 (0 has no inverse in the nim field)."""


_EXP: list[int] | None = None
_LOG: list[int] | None = None


def _check(name: str, x: object) -> int:
    if not isinstance(x, bool):
        try:
            v = operator.index(x)  # type: ignore[arg-type]
        except TypeError:
            pass
        else:
            if v >= 0:
                return v
            raise InvalidParameterError(
                f"{name} is {v}: nim arithmetic is defined on non-negative integers"
            )
    raise InvalidParameterError(f"{name} must be a non-negative integer, got {x!r}")


def _width(x: int) -> int:
    """Smallest power of two ``w >= 8`` with ``x < 2^w`` (the nim field holding x)."""
    w = 8
    n = x.bit_length()
    while w < n:
        w *= 2
    return w


def _tables() -> tuple[list[int], list[int]]:
    """Log/exp tables of the multiplicative group of the 256 nimbers (cyclic, order 255)."""
    global _EXP, _LOG
    if _EXP is None or _LOG is None:
        for g in range(2, 256):
            powers = [1]
            x = g
            while x != 1:
                powers.append(x)
                x = _mul(x, g, 8, tables=False)
            if len(powers) == 255:
                break
        exp = powers + powers + [1]
        log = [0] * 256
        for i, v in enumerate(powers):
            log[v] = i
        _EXP, _LOG = exp, log
    return _EXP, _LOG


def _mul(a: int, b: int, w: int, tables: bool = True) -> int:
    """Nim product of ``a, b < 2^w`` (``w`` a power of two)."""
    if not a or not b:
        return 0
    if a == 1:
        return b
    if b == 1:
        return a
    if w == 8 and tables:
        exp, log = _tables()
        return exp[log[a] + log[b]]
    h = w >> 1
    mask = (1 << h) - 1
    a1, a0 = a >> h, a & mask
    b1, b0 = b >> h, b & mask
    if not a1 and not b1:
        return _mul(a0, b0, h, tables)
    if not a1:
        return (_mul(a0, b1, h, tables) << h) | _mul(a0, b0, h, tables)
    if not b1:
        return (_mul(a1, b0, h, tables) << h) | _mul(a0, b0, h, tables)
    p = _mul(a0, b0, h, tables)
    q = _mul(a1, b1, h, tables)
    r = _mul(a0 ^ a1, b0 ^ b1, h, tables)
    return ((r ^ p) << h) | (p ^ _mul_half(q, h, tables))


def _mul_half(x: int, w: int, tables: bool = True) -> int:
    """``x ⊗ 2^(w-1)`` for ``x < 2^w``: the product by half a Fermat 2-power."""
    if not x:
        return 0
    if w == 1:
        return x
    if w == 8 and tables:
        return _mul(x, 128, 8)
    h = w >> 1
    x1, x0 = x >> h, x & ((1 << h) - 1)
    v = _mul_half(x0, h, tables)
    if not x1:
        return v << h
    u = _mul_half(x1, h, tables)
    return ((u ^ v) << h) | _mul_half(u, h, tables)


def _sq(a: int, w: int) -> int:
    """Nim square of ``a < 2^w``; squaring is additive in characteristic 2."""
    if a < 2:
        return a
    if w == 8:
        return _mul(a, a, 8)
    h = w >> 1
    a1, a0 = a >> h, a & ((1 << h) - 1)
    if not a1:
        return _sq(a0, h)
    s1 = _sq(a1, h)
    return (s1 << h) | (_sq(a0, h) ^ _mul_half(s1, h))


def _inv(a: int, w: int) -> int:
    """Nim inverse of ``0 < a < 2^w``.

    With ``a = a1·F + a0``, the conjugate of ``F`` is ``F ⊕ 1``, and the norm
    ``N = a0² ⊕ a0⊗a1 ⊕ a1²⊗F/2`` lies in the subfield: ``a⁻¹ = (a1·F ⊕ a0 ⊕ a1) ⊗ N⁻¹``.
    """
    if w == 8:
        exp, log = _tables()
        return exp[(255 - log[a]) % 255]
    h = w >> 1
    a1, a0 = a >> h, a & ((1 << h) - 1)
    if not a1:
        return _inv(a0, h)
    n = _sq(a0, h) ^ _mul(a0, a1, h) ^ _mul_half(_sq(a1, h), h)
    ni = _inv(n, h)
    return (_mul(a1, ni, h) << h) | _mul(a0 ^ a1, ni, h)


def nimmul(a: int, b: int) -> int:
    """Nim product ``a ⊗ b`` of two non-negative integers of any size.

    Parameters
    ----------
    a, b : int
        Non-negative integers (Python ints of any size).

    Returns
    -------
    int
        The nim product, ``< 2^w`` when ``a, b < 2^w`` for ``w`` a power of two.

    Raises
    ------
    InvalidParameterError
        If a factor is negative or not an integer.

    Examples
    --------
    >>> nimmul(2, 2), nimmul(2, 3), nimmul(4, 4), nimmul(8, 8)
    (3, 1, 6, 13)
    >>> nimmul(16, 16)  # a Fermat 2-power F squares to F + F/2
    24
    >>> nimmul(2**64, 2**64) == 2**64 + 2**63
    True
    >>> nimmul(-1, 3)
    Traceback (most recent call last):
    ...
    nimlab.core.errors.InvalidParameterError: a is -1: nim arithmetic is defined on non-negative integers
    """
    a = _check("a", a)
    b = _check("b", b)
    return _mul(a, b, _width(max(a, b)))


def nim_square(a: int) -> int:
    """Nim square ``a ⊗ a``.

    Examples
    --------
    >>> nim_square(2), nim_square(16)
    (3, 24)
    """
    a = _check("a", a)
    return _sq(a, _width(a))


def nim_inverse(a: int) -> int:
    """Inverse of ``a > 0`` in the nim field: the ``x`` with ``a ⊗ x = 1``.

    Raises
    ------
    NimDivisionByZeroError
        If ``a == 0``.

    Examples
    --------
    >>> nim_inverse(2), nimmul(2, nim_inverse(2))
    (3, 1)
    >>> x = 3**50
    >>> nimmul(x, nim_inverse(x))
    1
    >>> try:
    ...     nim_inverse(0)
    ... except ZeroDivisionError as e:
    ...     print(e)
    0 has no nim inverse (nim division by zero)
    """
    a = _check("a", a)
    if a == 0:
        raise NimDivisionByZeroError("0 has no nim inverse (nim division by zero)")
    return _inv(a, _width(a))


def nim_div(a: int, b: int) -> int:
    """Nim quotient: the ``x`` with ``b ⊗ x = a`` (``b > 0``).

    Examples
    --------
    >>> nim_div(1, 2)
    3
    >>> nim_div(nimmul(123456789, 987654321), 987654321)
    123456789
    """
    a = _check("a", a)
    b = _check("b", b)
    if b == 0:
        raise NimDivisionByZeroError(f"cannot nim-divide {a} by 0 (0 has no nim inverse)")
    return nimmul(a, _inv(b, _width(b)))


def nim_product_table(n: int) -> list[list[int]]:
    """The table ``T[a][b] = a ⊗ b`` for ``0 <= a, b < n``, by the mex definition.

    This is [S19] Definition 6 computed literally (``O(n^4)``), as an independent check
    of :func:`nimmul`; ``n`` is at most ``MEX_LIMIT``.

    Examples
    --------
    >>> nim_product_table(4)
    [[0, 0, 0, 0], [0, 1, 2, 3], [0, 2, 3, 1], [0, 3, 1, 2]]
    """
    n = _check("n", n)
    if n > MEX_LIMIT:
        raise InvalidParameterError(
            f"nim_product_table({n}) by the mex definition is too slow; use n <= {MEX_LIMIT} "
            "or nimmul for single products"
        )
    t = [[0] * n for _ in range(n)]
    for a in range(n):
        for b in range(n):
            seen = {t[a2][b] ^ t[a][b2] ^ t[a2][b2] for a2 in range(a) for b2 in range(b)}
            m = 0
            while m in seen:
                m += 1
            t[a][b] = m
    return t


def nimmul_by_mex(a: int, b: int) -> int:
    """Nim product by the mex definition ([S19] Definition 6), for ``a, b < MEX_LIMIT``.

    Examples
    --------
    >>> nimmul_by_mex(5, 7), nimmul(5, 7)
    (13, 13)
    """
    a = _check("a", a)
    b = _check("b", b)
    return nim_product_table(max(a, b) + 1)[a][b]
