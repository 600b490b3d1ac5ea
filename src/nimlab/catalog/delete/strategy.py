"""Delete Nim (both forms), Single-delete Nim (n = 2, 3, 4) and ABO-delete Nim.

References
----------
[S19] Theorem 11 (``S19-T11``): Delete Nim, ``G(a, b) = tail(a ∨ b)``.
[Sh] Theorem 1 (``Sh-T1``, n = 2), Theorem 2 (``Sh-T2``, ABO-delete), Theorem 3
(``Sh-T3``, single-delete n = 3). For n = 4, Theorem 6 is false as printed (``Sh-T6``,
refuted); its correction ``Sh-T6*`` is a conjecture verified for heaps below
``SH_T6_STAR_VERIFIED_BELOW``, so the four-heap strategy works only there: it tries the
splits ``h → (h − 2^k, 2^k)`` of Lemma 10 first and then every move, each scored by
``Sh-T6*`` (every option of a position below the bound is below it too).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from nimlab.core.status import status_of
from nimlab.core.strategy import Construction
from nimlab.formulas.delete import SH_T6_STAR_VERIFIED_BELOW

if TYPE_CHECKING:
    from nimlab.catalog.delete.rules import AboDelete, DeleteNim, SingleDelete

__all__ = [
    "abo_move",
    "abo_strategy",
    "delete_nim_moves",
    "delete_nim_strategy",
    "sd4_is_p",
    "single_delete4_move",
    "single_delete_moves",
    "single_delete_strategy",
]

Heaps = tuple[int, ...]


def _v2(z: int) -> int:
    return (z & -z).bit_length() - 1


def _listing(procedure: str, theorem: str, gen: Any, count: Any = None) -> Construction:
    def one() -> Heaps | None:
        return next(gen(), None)

    return Construction(procedure=procedure, theorem=theorem, one=one, every=gen, count=count)


# -- Delete Nim ([S19] form) -----------------------------------------------------------
def delete_nim_moves(heaps: Heaps) -> Iterator[Heaps]:
    """All winning moves of Delete Nim ``(a, b)``: keep an odd heap, split it into evens.

    ``tail(a ∨ b) = 0`` iff both heaps are even; keeping heap ``h`` leaves ``h − 1``
    stones to split, both parts even iff ``h`` is odd.

    Examples
    --------
    >>> list(delete_nim_moves((5, 2)))
    [(0, 4), (2, 2), (4, 0)]
    >>> list(delete_nim_moves((4, 2)))
    []
    """
    a, b = heaps
    if (a | b) & 1 == 0:
        return
    for keep in dict.fromkeys((a, b)):
        if keep & 1:
            for c in range(0, keep, 2):
                yield (c, keep - 1 - c)


def delete_nim_strategy(game: DeleteNim, position: Heaps, misere: bool) -> Construction | None:
    """Delete Nim's winning moves (normal play)."""
    if misere:
        return None
    a, b = position

    def count() -> int:
        if (a | b) & 1 == 0:
            return 0
        return sum((k + 1) // 2 for k in dict.fromkeys((a, b)) if k & 1)

    return _listing(
        "keep an odd heap and split the rest into two even heaps (S19 Theorem 11)",
        "S19-T11",
        lambda: delete_nim_moves(position),
        count,
    )


# -- Single-delete Nim -----------------------------------------------------------------
def single_delete_moves(heaps: Heaps) -> Iterator[Heaps]:
    """All winning moves of Single-delete Nim with 2 or 3 heaps, lazily.

    n = 2 (Sh-T1): P iff both heaps odd, so split an even heap into two odd ones.
    n = 3 (Sh-T3): P iff ``v2`` is equal on the three heaps, so split a heap divisible by
    ``2^(e+1)`` into two parts of valuation ``e = v2`` of the heap kept.

    Examples
    --------
    >>> list(single_delete_moves((3, 4)))
    [(1, 3)]
    >>> list(single_delete_moves((2, 8, 5)))
    [(5, 1, 7), (5, 3, 5), (5, 1, 1), (2, 2, 6)]
    """
    n = len(heaps)
    if n == 2:
        if heaps[0] & 1 and heaps[1] & 1:
            return
        for h in dict.fromkeys(heaps):
            if h % 2 == 0:
                for u in range(1, h // 2 + 1, 2):
                    yield (u, h - u)
        return
    if n != 3 or _v2(heaps[0]) == _v2(heaps[1]) == _v2(heaps[2]):
        return
    seen: set[Heaps] = set()
    for i in range(3):
        for j in range(3):
            if j == i:
                continue
            k = 3 - i - j
            z, h = heaps[k], heaps[j]
            e = _v2(z)
            step = 1 << (e + 1)
            if h % step:
                continue
            for u in range(1 << e, h // 2 + 1, step):
                mv = (z, u, h - u)
                if mv not in seen:
                    seen.add(mv)
                    yield mv


def _ones(lo: int, hi: int) -> int:
    """Mask of the 0-based binary digits ``lo..hi`` (empty when lo > hi)."""
    return ((1 << (hi + 1)) - (1 << lo)) if lo <= hi else 0


def sd4_is_p(heaps: Heaps) -> bool:
    """``Sh-T6*`` (the corrected Theorem 6 of [Sh], a conjecture) with whole-number bit masks.

    The same criterion as :func:`nimlab.formulas.delete.single_delete4_is_p`, written
    independently (the tests compare the two); verified only for heaps below
    :data:`~nimlab.formulas.delete.SH_T6_STAR_VERIFIED_BELOW`.

    Examples
    --------
    >>> sd4_is_p((1440, 864, 672, 1120)), sd4_is_p((310, 208, 304, 432))
    (True, False)
    >>> sd4_is_p((12, 14, 15, 40)), sd4_is_p((8, 12, 14, 47))
    (True, True)
    """
    w, x, y, z = sorted(heaps, key=_v2)
    a, b, c, d = _v2(w), _v2(x), _v2(y), _v2(z)
    # 0-based digit j here is I_{j+1} of the paper
    if a == b == c == d:
        return True
    if a < b == c == d:
        return (w >> d) & 1 == 0
    if a < b < c == d:
        m = _ones(b + 1, d - 1)
        return (w >> d) & 1 == 0 and (x >> d) & 1 == 0 and ((w | x) & m) == m and (w >> b) & 1 == 1
    if a < b < c < d:
        maj = (w & x) | (w & y) | (x & y)
        m1 = _ones(c + 1, d - 1)
        m2 = _ones(b + 1, c - 1)
        if not (
            (maj & m1) == m1
            and (w >> c) & 1 == 1
            and (x >> c) & 1 == 1
            and ((w | x) & m2) == m2
            and (w >> b) & 1 == 1
        ):
            return False
        top = ((w >> d) & 1, (x >> d) & 1, (y >> d) & 1)
        if top == (0, 0, 0):
            return True
        if top == (1, 1, 1):
            # columns d+1, d+2, ... (0-based): the first whose digit sum is not 3 or 4
            width = max(w, x, y, z).bit_length() + 1
            some = w | x | y | z
            three = (w & x & y) | (w & x & z) | (w & y & z) | (x & y & z)
            stop = (~three & _ones(0, width)) >> (d + 1)
            j = _lowest(stop)
            assert j is not None  # the column above the highest digit has sum 0
            return (some >> (d + 1 + j)) & 1 == 0
        return False
    return False


def _lowest(mask: int) -> int | None:
    return (mask & -mask).bit_length() - 1 if mask else None


def _candidate_ks(heaps: Heaps) -> list[int]:
    """The ``k`` of Lemma 10's splits ``h → (h − 2^k, 2^k)`` for this position."""
    w, x, y, z = sorted(heaps, key=_v2)
    a, b, c, d = _v2(w), _v2(x), _v2(y), _v2(z)
    ks = [a, b, c, d]
    maj = (w & x) | (w & y) | (x & y)
    three = (w & x & y) | (w & x & z) | (w & y & z) | (x & y & z)
    for found in (
        _lowest(~(w | x) & _ones(b + 1, c - 1)),  # (4D) fails
        _lowest(~(w | x) & _ones(b + 1, d - 1)),  # (3B) fails
        _lowest(~maj & _ones(c + 1, d - 1)),  # (4B) fails
        _lowest((w | x | y | z) & ~three & ~_ones(0, d)),  # a column of sum 1 or 2
    ):
        if found is not None:
            ks.append(found)
    return list(dict.fromkeys(ks))


def single_delete4_move(heaps: Heaps) -> Heaps | None:
    """A winning move of Single-delete Nim on 4 heaps below the verified bound, or None at P.

    The move deletes a heap and splits another, ``h``, into ``h − 2^k`` and ``2^k`` (as
    Lemma 10 of [Sh] does); it is written as the two heaps kept, then the two parts. Every
    N-position with heaps below the bound has such a winning split (all 163,225,826 of
    them were checked), so the final scan of every other move is a safeguard that no
    position reaches. The ``k`` that Lemma 10's proof uses (the valuations and the first
    digits where a condition fails) are tried before every other ``k``, only to find a
    split sooner: which winning split is returned is not specified. Each move is scored by
    ``Sh-T6*``, which is verified for heaps below
    :data:`~nimlab.formulas.delete.SH_T6_STAR_VERIFIED_BELOW` only: larger positions are
    refused (``ValueError``; the public functions search there instead).

    Examples
    --------
    >>> single_delete4_move((8, 12, 14, 46))
    (14, 46, 2, 10)
    >>> single_delete4_move((8, 12, 14, 47)) is None
    True
    """
    if max(heaps) >= SH_T6_STAR_VERIFIED_BELOW:
        raise ValueError(
            f"Sh-T6* is verified only for heaps < {SH_T6_STAR_VERIFIED_BELOW}, got {heaps}"
        )
    if sd4_is_p(heaps):
        return None
    n = 4
    for ks in (_candidate_ks(heaps), range(max(heaps).bit_length())):
        for k in ks:
            u = 1 << k
            for i in range(n):
                for j in range(n):
                    h = heaps[j]
                    if j == i or h <= u:
                        continue
                    rest = tuple(heaps[t] for t in range(n) if t != i and t != j)
                    lo, hi = min(u, h - u), max(u, h - u)
                    mv = (*rest, lo, hi)
                    if sd4_is_p(mv):
                        return mv
    for i in range(n):  # every other move
        for j in range(n):
            h = heaps[j]
            if j == i or h < 2:
                continue
            rest = tuple(heaps[t] for t in range(n) if t != i and t != j)
            for u in range(1, h // 2 + 1):
                mv = (*rest, u, h - u)
                if sd4_is_p(mv):
                    return mv
    raise AssertionError(f"Sh-T6* calls {heaps} N but no move reaches a P-position")


def single_delete_strategy(
    game: SingleDelete, position: Heaps, misere: bool
) -> Construction | None:
    """Single-delete Nim: full lists for n = 2, 3; Lemma 10's move for n = 4."""
    if misere:
        return None
    n = len(position)
    if n in (2, 3):
        return _listing(
            "splitting a heap into two parts of the right 2-adic valuation "
            + ("(Sh Theorem 1)" if n == 2 else "(Sh Theorem 3)"),
            "Sh-T1" if n == 2 else "Sh-T3",
            lambda: single_delete_moves(position),
        )
    if n == 4 and max(position) < SH_T6_STAR_VERIFIED_BELOW:
        return Construction(
            procedure=(
                f"a split scored by Sh-T6* ({status_of('Sh-T6*').state}, verified for heaps "
                f"< {SH_T6_STAR_VERIFIED_BELOW}), Lemma 10's splits h → (h − 2^k, 2^k) first"
            ),
            theorem="Sh-T6*",
            one=lambda: single_delete4_move(position),
        )
    if all(h & 1 for h in position):  # Sh-P7: a P-position
        return _listing("all heaps odd (Sh Proposition 7)", "Sh-P7", lambda: iter(()))
    return None


# -- ABO-delete Nim --------------------------------------------------------------------
def abo_move(heaps: Heaps) -> Heaps | None:
    """A winning move of ABO-delete Nim ([Sh] Theorem 2), or None at a P-position.

    With ``m = n(n−1)``, a heap ``z`` can be split into ``n`` parts each ``≡ 1..n−1
    (mod m)`` iff ``z mod m`` is 0 (and ``z ≥ m``) or at least ``n``: the residues add to
    ``R`` (``n ≤ R ≤ m``) and the multiples of ``m`` go to one part (which one, and so
    which winning move is returned, is not specified).

    Examples
    --------
    >>> abo_move((1, 2, 7)), abo_move((1, 2, 6))
    (None, (2, 2, 2))
    """
    n = len(heaps)
    m = n * (n - 1)
    if all(1 <= z % m <= n - 1 for z in heaps):
        return None
    for z in heaps:
        r = z % m
        if r == 0 and z >= m:
            R = m
        elif r >= n:
            R = r
        else:
            continue
        q = (z - R) // m
        parts = [1] * n
        extra = R - n
        for i in range(n):
            add = min(n - 2, extra)
            parts[i] += add
            extra -= add
        parts[0] += q * m
        return tuple(sorted(parts))
    return None


def abo_strategy(game: AboDelete, position: Heaps, misere: bool) -> Construction | None:
    """ABO-delete Nim: the construction of Theorem 2's proof."""
    if misere:
        return None
    return Construction(
        procedure="splitting a heap into parts ≡ 1..n−1 (mod n(n−1)) (Sh Theorem 2)",
        theorem="Sh-T2",
        one=lambda: abo_move(position),
    )
