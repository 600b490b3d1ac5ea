"""Nim arithmetic: 64-bit compiled kernels (scalar and vectorised) and the public API.

The nimbers below ``2^64`` form the field GF(2^64) under nim-sum (XOR) and the nim
product ``⊗``. The kernels use 8-bit subfield tables, as the C reference
``nim_product64.c`` does: with ``a = Σ a_i 2^(8i)`` and ``b = Σ b_j 2^(8j)`` (bytes),
``a ⊗ b = ⊕_{i,j} T2[i, j, T1[a_i, b_j]]`` where ``T1`` is the product of bytes (the
subfield of 256 nimbers) and ``T2[i, j, x] = (2^(8i) ⊗ 2^(8j)) ⊗ x``. The nim square is
GF(2)-linear, so it takes 8 lookups in ``S[i, a_i] = (a_i 2^(8i))^2``; the inverse is
``a^(2^64 - 2)`` by the Itoh–Tsujii addition chain (10 products and 63 squares).

The tables are built from the exact big-integer nim product of
:mod:`nimlab.formulas.nimmul`, which also serves integers of any size.

References
----------
[S19] §1.4, Definition 6. J. H. Conway, *On Numbers and Games*, ch. 6. T. Itoh and
S. Tsujii, *A fast algorithm for computing multiplicative inverses in GF(2^m) using
normal bases*, Inf. Comput. 78 (1988).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from nimlab.core.errors import InvalidParameterError
from nimlab.core.params import as_index
from nimlab.engine import _fastload

_fastload.install()  # load cached kernels without numba's compiler set-up

__all__ = [
    "nim_div",
    "nim_div64",
    "nim_inverse",
    "nim_inverse64",
    "nim_square",
    "nim_square64",
    "nimmul",
    "nimmul64",
    "nimmul_array",
]

_MASK64 = (1 << 64) - 1


@lru_cache(maxsize=1)
def _tables() -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint64], npt.NDArray[np.uint64]]:
    """``T1`` (256×256 uint8), ``T2`` (8×8×256 uint64) and ``S`` (8×256 uint64)."""
    from nimlab.formulas.nimmul import nimmul as exact

    pp = [[exact(1 << a, 1 << b) for b in range(64)] for a in range(64)]

    def mul_pow(v: int, k: int) -> int:  # v ⊗ 2^k by linearity over the bits of v
        r = 0
        m = 0
        while v:
            if v & 1:
                r ^= pp[m][k]
            v >>= 1
            m += 1
        return r

    # byte products: T1[x, y] = XOR over bits of x, y of 2^i ⊗ 2^j
    xs = np.arange(256, dtype=np.int64)
    t1 = np.zeros((256, 256), dtype=np.int64)
    for i in range(8):
        for j in range(8):
            both = ((xs[:, None] >> i) & 1) & ((xs[None, :] >> j) & 1)
            t1 ^= both * pp[i][j]
    t2 = np.zeros((8, 8, 256), dtype=np.uint64)
    sq = np.zeros((8, 256), dtype=np.uint64)
    for i in range(8):
        for j in range(8):
            v = pp[8 * i][8 * j]
            basis = [mul_pow(v, k) for k in range(8)]
            row = [0] * 256
            for x in range(1, 256):
                low = x & -x
                row[x] = row[x ^ low] ^ basis[low.bit_length() - 1]
            t2[i, j] = np.array(row, dtype=np.uint64)
        # squares: (x 2^(8i))^2 = XOR over bits k of x of (2^(8i+k))^2
        sbasis = [pp[8 * i + k][8 * i + k] for k in range(8)]
        srow = [0] * 256
        for x in range(1, 256):
            low = x & -x
            srow[x] = srow[x ^ low] ^ sbasis[low.bit_length() - 1]
        sq[i] = np.array(srow, dtype=np.uint64)
    return t1.astype(np.uint8), t2, sq


@njit(cache=True, nogil=True)
def _mul(a: Any, b: Any, t1: Any, t2: Any) -> Any:  # pragma: no cover - compiled
    r = np.uint64(0)
    for i in range(8):
        ai = (a >> np.uint64(8 * i)) & np.uint64(255)
        if ai == 0:
            continue
        for j in range(8):
            bj = (b >> np.uint64(8 * j)) & np.uint64(255)
            r ^= t2[i, j, t1[ai, bj]]
    return r


@njit(cache=True, nogil=True)
def _sq(a: Any, s: Any) -> Any:  # pragma: no cover - compiled
    r = np.uint64(0)
    for i in range(8):
        r ^= s[i, (a >> np.uint64(8 * i)) & np.uint64(255)]
    return r


@njit(cache=True, nogil=True)
def _inv(a: Any, t1: Any, t2: Any, s: Any) -> Any:  # pragma: no cover - compiled
    # x = a^(2^e - 1); Itoh–Tsujii chain to e = 63, then the inverse is x^2
    x = a
    e = 1
    for bit in (1, 1, 1, 1, 1):  # 63 = 0b111111: five steps after the leading bit
        y = x
        for _ in range(e):
            y = _sq(y, s)
        x = _mul(y, x, t1, t2)
        e = 2 * e
        if bit:
            x = _mul(_sq(x, s), a, t1, t2)
            e += 1
    return _sq(x, s)


@njit(cache=True, nogil=True)
def _mul_arr(a: Any, b: Any, out: Any, t1: Any, t2: Any) -> None:  # pragma: no cover
    for k in range(a.shape[0]):
        out[k] = _mul(a[k], b[k], t1, t2)


@njit(cache=True, nogil=True)
def _sq_arr(a: Any, out: Any, s: Any) -> None:  # pragma: no cover - compiled
    for k in range(a.shape[0]):
        out[k] = _sq(a[k], s)


@njit(cache=True, nogil=True)
def _inv_arr(a: Any, out: Any, t1: Any, t2: Any, s: Any) -> None:  # pragma: no cover
    for k in range(a.shape[0]):
        out[k] = _inv(a[k], t1, t2, s)


# -- 64-bit scalars ---------------------------------------------------------------


def _u64(name: str, x: object) -> int:
    v = as_index(x)
    if v is not None and 0 <= v <= _MASK64:
        return v
    raise InvalidParameterError(
        f"{name} is {x!r}: the 64-bit nim kernels take integers 0 <= {name} < 2^64 "
        "(use nimlab.nimmul for integers of any size)"
    )


def nimmul64(a: int, b: int) -> int:
    """Nim product of two 64-bit values by the compiled table kernel.

    Examples
    --------
    >>> nimmul64(16, 16), nimmul64(2**32, 2**32) == 3 * 2**31
    (24, True)
    """
    t1, t2, _ = _tables()
    return int(_mul(np.uint64(_u64("a", a)), np.uint64(_u64("b", b)), t1, t2))


def nim_square64(a: int) -> int:
    """Nim square of a 64-bit value (8 table lookups).

    Examples
    --------
    >>> nim_square64(2), nim_square64(2**63) == nimmul64(2**63, 2**63)
    (3, True)
    """
    _, _, s = _tables()
    return int(_sq(np.uint64(_u64("a", a)), s))


def nim_inverse64(a: int) -> int:
    """Nim inverse of a non-zero 64-bit value.

    Examples
    --------
    >>> x = nim_inverse64(123456789)
    >>> nimmul64(x, 123456789)
    1
    """
    v = _u64("a", a)
    if v == 0:
        _zero_division("0 has no nim inverse (nim division by zero)")
    t1, t2, s = _tables()
    return int(_inv(np.uint64(v), t1, t2, s))


def nim_div64(a: int, b: int) -> int:
    """Nim quotient ``a ⊘ b`` of 64-bit values (``b ≠ 0``).

    Examples
    --------
    >>> nim_div64(nimmul64(2**40 + 7, 99), 99) == 2**40 + 7
    True
    """
    return nimmul64(a, nim_inverse64(b))


def _zero_division(msg: str) -> None:
    from nimlab.formulas.nimmul import NimDivisionByZeroError

    raise NimDivisionByZeroError(msg)


# -- arrays ---------------------------------------------------------------------------


def _is_array(x: object) -> bool:
    return isinstance(x, (np.ndarray, np.generic)) and not isinstance(x, bool)


def _as_u64(name: str, x: object) -> npt.NDArray[np.uint64]:
    arr = np.asarray(x)
    if arr.dtype == np.uint64:
        return arr
    if arr.dtype.kind == "u" or arr.dtype.kind == "i":
        if arr.dtype.kind == "i" and arr.size and int(arr.min()) < 0:
            raise InvalidParameterError(
                f"{name} has a negative entry: nim arithmetic is defined on non-negative integers"
            )
        return arr.astype(np.uint64)
    if arr.dtype == object:
        try:
            return np.array([_u64(name, v) for v in arr.ravel()], dtype=np.uint64).reshape(
                arr.shape
            )
        except InvalidParameterError:
            raise
    raise InvalidParameterError(
        f"{name} has dtype {arr.dtype}: nim arrays must hold unsigned 64-bit integers "
        "(numpy.uint64)"
    )


def nimmul_array(a: object, b: object) -> npt.NDArray[np.uint64]:
    """Elementwise nim product of two uint64 arrays (broadcast), compiled.

    Examples
    --------
    >>> import numpy as np
    >>> nimmul_array(np.arange(4, dtype=np.uint64), np.uint64(3))
    array([0, 3, 1, 2], dtype=uint64)
    """
    x, y = np.broadcast_arrays(_as_u64("a", a), _as_u64("b", b))
    xf = np.ascontiguousarray(x).ravel()
    yf = np.ascontiguousarray(y).ravel()
    out = np.empty(xf.shape[0], dtype=np.uint64)
    t1, t2, _ = _tables()
    _mul_arr(xf, yf, out, t1, t2)
    return out.reshape(x.shape)


def _square_array(a: object) -> npt.NDArray[np.uint64]:
    x = np.ascontiguousarray(_as_u64("a", a))
    out = np.empty(x.size, dtype=np.uint64)
    _sq_arr(x.ravel(), out, _tables()[2])
    return out.reshape(x.shape)


def _inverse_array(a: object) -> npt.NDArray[np.uint64]:
    x = np.ascontiguousarray(_as_u64("a", a))
    if x.size and not x.all():
        idx = tuple(int(i) for i in np.argwhere(x == 0)[0])
        _zero_division(f"0 has no nim inverse (nim division by zero at index {idx})")
    out = np.empty(x.size, dtype=np.uint64)
    t1, t2, s = _tables()
    _inv_arr(x.ravel(), out, t1, t2, s)
    return out.reshape(x.shape)


# -- public API -------------------------------------------------------------------


def nimmul(a: Any, b: Any) -> Any:
    """Nim product ``a ⊗ b``: Python ints of any size, or numpy uint64 arrays elementwise.

    Parameters
    ----------
    a, b : int or numpy.ndarray
        Non-negative Python ints (exact, any size), or arrays of ``uint64`` (broadcast
        together, computed by the compiled 64-bit kernel).

    Returns
    -------
    int or numpy.ndarray
        An int for int inputs, else a ``uint64`` array.

    Examples
    --------
    >>> import numpy as np
    >>> nimmul(2, 3), nimmul(2**64, 2**64) == 2**64 + 2**63
    (1, True)
    >>> nimmul(np.array([2, 4, 16], dtype=np.uint64), np.array([2, 4, 16], dtype=np.uint64))
    array([ 3,  6, 24], dtype=uint64)
    """
    if _is_array(a) or _is_array(b):
        return nimmul_array(a, b)
    from nimlab.formulas.nimmul import nimmul as exact

    return exact(a, b)


def nim_square(a: Any) -> Any:
    """Nim square ``a ⊗ a`` of an int of any size, or of a uint64 array elementwise.

    Examples
    --------
    >>> import numpy as np
    >>> nim_square(16), nim_square(np.array([2, 3], dtype=np.uint64))
    (24, array([3, 2], dtype=uint64))
    """
    if _is_array(a):
        return _square_array(a)
    from nimlab.formulas.nimmul import nim_square as exact

    return exact(a)


def nim_inverse(a: Any) -> Any:
    """Nim inverse of a non-zero int of any size, or of a uint64 array elementwise.

    Raises
    ------
    InvalidParameterError
        (a ``NimDivisionByZeroError``, also a ``ZeroDivisionError``) for 0.

    Examples
    --------
    >>> import numpy as np
    >>> nim_inverse(2), nim_inverse(np.array([1, 2, 3], dtype=np.uint64))
    (3, array([1, 3, 2], dtype=uint64))
    """
    if _is_array(a):
        return _inverse_array(a)
    from nimlab.formulas.nimmul import nim_inverse as exact

    return exact(a)


def nim_div(a: Any, b: Any) -> Any:
    """Nim quotient ``a ⊘ b``: ints of any size, or uint64 arrays elementwise.

    Examples
    --------
    >>> import numpy as np
    >>> nim_div(1, 2), nim_div(np.array([1, 3], dtype=np.uint64), np.uint64(2))
    (3, array([3, 2], dtype=uint64))
    """
    if _is_array(a) or _is_array(b):
        return nimmul_array(a, _inverse_array(b))
    from nimlab.formulas.nimmul import nim_div as exact

    return exact(a, b)
