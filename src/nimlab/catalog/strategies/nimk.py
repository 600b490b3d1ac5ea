"""Nim and Nim_K (Moore's Nim): Bouton's move, Naito's procedure, misère play.

References
----------
[S19] Theorem 1 (``S19-T1``, Bouton); [N99] Theorem 1.4 and Example 1.5 (Nim),
Theorem 2.4 and Example 2.5 (Naito's procedure for Nim_K, ``N99-T2.4`` = ``S19-T5``),
Theorems 1.11 and 2.10 (misère Nim and misère Nim_K).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from nimlab.core.errors import InvalidParameterError
from nimlab.core.ruleset import Ruleset
from nimlab.core.strategy import Construction

if TYPE_CHECKING:
    from nimlab.catalog.circular.rules import Circular
    from nimlab.catalog.moore.rules import Moore

__all__ = [
    "bouton_moves",
    "circular_strategy",
    "misere_nimk_moves",
    "moore_strategy",
    "naito_procedure",
    "nim_strategy",
    "nimk_is_p",
    "nimk_moves",
]

Heaps = tuple[int, ...]


def _modulus(K: object) -> int:
    """``K + 1`` for a valid ``K`` (an integer ``>= 1``), else a precise error."""
    if isinstance(K, bool) or not isinstance(K, int) or K < 1:
        raise InvalidParameterError(
            f"K must be an integer >= 1 (the number of heaps a move may touch), got {K!r}"
        )
    return K + 1


def nimk_is_p(heaps: Heaps, K: int) -> bool:
    """Moore's criterion: every binary digit is set in a multiple of ``K+1`` heaps.

    Examples
    --------
    >>> nimk_is_p((3, 3, 3), 2), nimk_is_p((3, 4, 5), 2)
    (True, False)
    """
    m = _modulus(K)
    width = max(heaps, default=0).bit_length()
    return all(sum((h >> j) & 1 for h in heaps) % m == 0 for j in range(width))


def _misere_nimk_is_p(heaps: Heaps, K: int) -> bool:
    if any(h > 1 for h in heaps):
        return nimk_is_p(heaps, K)
    return sum(heaps) % _modulus(K) == 1


# -- Nim -------------------------------------------------------------------------------
def bouton_moves(heaps: Heaps) -> list[Heaps]:
    """Bouton's winning moves: reduce a heap ``h`` with ``h ⊕ s < h`` to ``h ⊕ s``.

    The first one is [N99]'s choice (Theorem 1.4): the first heap having the highest
    binary digit of the nim-sum ``s``.

    Examples
    --------
    >>> bouton_moves((7, 6, 5))
    [(3, 6, 5), (7, 2, 5), (7, 6, 1)]
    """
    s = 0
    for h in heaps:
        s ^= h
    if s == 0:
        return []
    return [heaps[:i] + (h ^ s,) + heaps[i + 1 :] for i, h in enumerate(heaps) if h ^ s < h]


def _misere_nim_moves(heaps: Heaps) -> list[Heaps]:
    big = [i for i, h in enumerate(heaps) if h > 1]
    if not big:
        ones = sum(heaps)
        if ones % 2 == 1 or ones == 0:
            return []
        return [heaps[:i] + (0,) + heaps[i + 1 :] for i, h in enumerate(heaps) if h == 1]
    if len(big) == 1:
        i = big[0]
        ones = sum(1 for h in heaps if h == 1)
        v = 1 if ones % 2 == 0 else 0  # leave an odd number of 1-heaps
        return [heaps[:i] + (v,) + heaps[i + 1 :]]
    return bouton_moves(heaps)


def nim_strategy(game: Ruleset[Any], position: Heaps, misere: bool) -> Construction:
    """Bouton's construction (normal play) and its misère variant ([N99] Theorem 1.11)."""
    moves = _misere_nim_moves(position) if misere else bouton_moves(position)
    return Construction.listed(
        "Bouton's rule, misère variant (N99 §1.3)" if misere else "Bouton's rule (N99 Theorem 1.4)",
        "N99-T1.11" if misere else "S19-T1",
        moves,
    )


# -- Nim_K -----------------------------------------------------------------------------
def naito_procedure(heaps: Heaps, K: int) -> Heaps | None:
    """The winning move built by Naito's procedure ([N99] proof of Theorem 2.4).

    From the highest binary digit down: where the digit sum mod ``K+1`` is ``r ≠ 0``,
    either ``r`` of the heaps already chosen get this digit cleared (when at least
    ``r`` are chosen), or all chosen heaps get it cleared and ``r − c`` more heaps
    having this digit (the first ones, in heap order) are chosen, their digit set to 0
    and every lower digit to 1. At most ``K`` heaps are chosen. Returns None when the
    position is a P-position.

    Examples
    --------
    [N99] Examples 1.5 and 2.5:

    >>> naito_procedure((7, 6, 5), 1)
    (3, 6, 5)
    >>> naito_procedure((3, 4, 5), 2)
    (3, 3, 3)
    >>> naito_procedure((3, 4, 5, 9), 2)
    (1, 4, 5, 5)
    >>> naito_procedure((3, 3, 3), 2) is None   # a P-position: no winning move
    True
    """
    m = _modulus(K)
    if K == 1:  # the procedure is Bouton's move on the first heap with the top digit
        s = 0
        for h in heaps:
            s ^= h
        for i, h in enumerate(heaps):
            if h ^ s < h:
                return heaps[:i] + (h ^ s,) + heaps[i + 1 :]
        return None
    new = list(heaps)
    chosen: list[int] = []
    in_chosen = [False] * len(heaps)
    for j in range(max(heaps, default=0).bit_length() - 1, -1, -1):
        bit = 1 << j
        r = sum(1 for h in new if h & bit) % m
        if r == 0:
            continue
        c = len(chosen)  # every chosen heap has digit j set (lower digits were filled)
        if r <= c:
            for i in chosen[:r]:
                new[i] &= ~bit
            continue
        for i in chosen:
            new[i] &= ~bit
        need = r - c
        low = bit - 1
        for i, h in enumerate(new):
            if need == 0:
                break
            if not in_chosen[i] and h & bit:
                new[i] = (h & ~(bit | low)) | low
                chosen.append(i)
                in_chosen[i] = True
                need -= 1
    chosen.sort()
    return tuple(new) if chosen else None


def nimk_moves(heaps: Heaps, K: int) -> Iterator[Heaps]:
    """Every winning move of Nim_K, lazily (a digit-by-digit enumeration).

    A move is built from the highest binary digit down: heaps not yet changed keep
    their digits or (if the digit is 1) drop it to 0 and become *free*; free heaps take
    any digit; every digit sum must be ≡ 0 (mod K+1), and at most ``K`` heaps may be
    free. Each branch of the enumeration ends in a winning move (the greedy step of
    Naito's proof is always available), so the cost per move is linear in the digits.

    Examples
    --------
    >>> sorted(nimk_moves((3, 4, 5), 2))
    [(3, 3, 3)]
    >>> sorted(nimk_moves((7, 6, 5), 1))
    [(3, 6, 5), (7, 2, 5), (7, 6, 1)]

    A P-position has no winning move:

    >>> list(nimk_moves((3, 3, 3), 2)), list(nimk_moves((0, 0), 1))
    ([], [])
    """
    m = _modulus(K)
    n = len(heaps)
    width = max(heaps, default=0).bit_length()
    if width == 0:
        return

    def options(j: int, vals: tuple[int, ...], free: frozenset[int]) -> Iterator[Any]:
        bit = 1 << j
        tight_ones = [i for i in range(n) if i not in free and heaps[i] & bit]
        tight_ones_set = set(tight_ones)
        fl = sorted(free)
        u = len(tight_ones)
        f = len(fl)
        for a in range(min(u, K - f) + 1):
            for c in range(f + 1):
                if (u - a + c) % m:
                    continue
                for drop in itertools.combinations(tight_ones, a):
                    dset = set(drop)
                    for ones in itertools.combinations(fl, c):
                        oset = set(ones)
                        nv = tuple(
                            (v << 1)
                            | (1 if (i in oset or (i in tight_ones_set and i not in dset)) else 0)
                            for i, v in enumerate(vals)
                        )
                        yield nv, free | dset

    # explicit stack: one iterator of options per digit
    stack: list[Iterator[Any]] = [options(width - 1, (0,) * n, frozenset())]
    while stack:
        nxt = next(stack[-1], None)
        if nxt is None:
            stack.pop()
            continue
        vals, free = nxt
        level = width - len(stack)  # digit just decided
        if level == 0:
            if free:
                yield vals
            continue
        stack.append(options(level - 1, vals, free))


def misere_nimk_moves(heaps: Heaps, K: int) -> Iterator[Heaps]:
    """Every winning move of misère Nim_K ([N99] Theorem 2.10), lazily.

    Examples
    --------
    >>> list(misere_nimk_moves((1, 1, 1), 2))
    [(0, 0, 1), (0, 1, 0), (1, 0, 0)]
    >>> list(misere_nimk_moves((2, 3, 1), 2))
    [(0, 0, 1)]
    """
    m = _modulus(K)
    n = len(heaps)
    if _misere_nimk_is_p(heaps, K):
        return
    big = [i for i, h in enumerate(heaps) if h > 1]
    if not big:
        ones = [i for i, h in enumerate(heaps) if h == 1]
        for d in range(1, min(K, len(ones)) + 1):
            if (len(ones) - d) % m == 1:
                for drop in itertools.combinations(ones, d):
                    new = list(heaps)
                    for i in drop:
                        new[i] = 0
                    yield tuple(new)
        return
    # (b) moves to all heaps <= 1 with a number of 1-heaps ≡ 1 (mod K+1)
    if len(big) <= K:
        ones = [i for i, h in enumerate(heaps) if h == 1]
        for nb1 in range(len(big), -1, -1):
            for to_one in itertools.combinations(big, nb1):
                for d in range(0, min(K - len(big), len(ones)) + 1):
                    if (nb1 + len(ones) - d) % m != 1:
                        continue
                    for drop in itertools.combinations(ones, d):
                        new = list(heaps)
                        for i in big:
                            new[i] = 1 if i in to_one else 0
                        for i in drop:
                            new[i] = 0
                        yield tuple(new)
    # (a) normal-play winning moves that leave a heap > 1
    for mv in nimk_moves(heaps, K):
        if any(h > 1 for h in mv) and len(mv) == n:
            yield mv


def _first_then(first: Heaps | None, rest: Iterator[Heaps]) -> Iterator[Heaps]:
    if first is None:
        return
    yield first
    for mv in rest:
        if mv != first:
            yield mv


def moore_strategy(game: Moore, position: Heaps, misere: bool) -> Construction:
    """Naito's procedure and the full enumeration for Moore's Nim_k (parameter ``k``)."""
    K = int(game.k)
    return _nimk_construction(position, K, misere)


def _nimk_construction(position: Heaps, K: int, misere: bool) -> Construction:
    if misere:

        def one() -> Heaps | None:
            return next(_misere_first(position, K), None)

        return Construction(
            procedure="Naito's procedure, misère variant (N99 §2.3)",
            theorem="N99-T2.10",
            one=one,
            every=lambda: _first_then(one(), misere_nimk_moves(position, K)),
        )
    return Construction(
        procedure="Naito's procedure (N99 §2.1)",
        theorem="S19-T5",
        one=lambda: naito_procedure(position, K),
        every=lambda: _first_then(naito_procedure(position, K), nimk_moves(position, K)),
    )


def _misere_first(heaps: Heaps, K: int) -> Iterator[Heaps]:
    """Naito's misère move: the normal move, repaired when it leaves only heaps <= 1."""
    if _misere_nimk_is_p(heaps, K):
        return
    mv = naito_procedure(heaps, K) if any(h > 1 for h in heaps) else None
    if mv is not None:
        if any(h > 1 for h in mv):
            yield mv
            return
        # all heaps <= 1 now: leave one more stone on a changed heap that became 0
        for i, (h, v) in enumerate(zip(heaps, mv, strict=True)):
            if v == 0 and h > 1:
                cand = mv[:i] + (1,) + mv[i + 1 :]
                if _misere_nimk_is_p(cand, K):
                    yield cand
                    return
    yield from misere_nimk_moves(heaps, K)


def circular_strategy(game: Circular, position: Heaps, misere: bool) -> Construction | None:
    """Circular Nim CN(n, k) where it is Nim (k = 1), Nim_{n-1} (k = n-1) or one heap."""
    k = int(game.k)
    n = len(position)
    if misere:
        return None
    if k == n:
        target = (0,) * n
        moves = [] if position == target else [target]
        return Construction.listed("take everything (CN(n,n) is one heap)", None, moves)
    if k == 1:
        return nim_strategy(game, position, False)
    if k == n - 1:
        return _nimk_construction(position, k, False)
    return None
