"""Ryuo Nim, restricted Ryuo Nim and RGAMES: winning moves from the closed forms.

Every closed form here reads ``G = p·(⊕ quotients) + (sum of heaps mod p)``, so a
P-position has XOR of quotients 0 and sum ≡ 0 (mod p). A one-heap move therefore has
at most a few targets, computed directly (for an All-but part, by inverting its
arithmetic-periodic Grundy sequence); a sum move takes ``t ≡ sum (mod p)``, ``t < p``, and
its few splits are checked one by one.

References
----------
[S18] Theorems 8, 9, 10 and 12 (``S18-T8``, ``S18-T9``, ``S18-T12``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from nimlab.catalog.ryuo.formulas import splits
from nimlab.core.errors import InvalidParameterError
from nimlab.core.strategy import Construction
from nimlab.formulas.onepile import Periodicity, preimages

if TYPE_CHECKING:
    from nimlab.catalog.ryuo.rules import RestrictedRyuo, RGames, Ryuo

__all__ = [
    "restricted_ryuo_moves",
    "restricted_ryuo_strategy",
    "rgames_moves",
    "rgames_strategy",
    "ryuo_moves",
    "ryuo_strategy",
]

Heaps = tuple[int, ...]


def _positive(name: str, v: object) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v < 1:
        raise InvalidParameterError(f"{name} must be an integer >= 1, got {v!r}")
    return v


def _ryuo_like(x: int, y: int, p: int, q: int | None) -> list[Heaps]:
    _positive("p", p)
    if q is not None and _positive("q", q) % p:
        raise InvalidParameterError(f"S18-T9 needs p | q, got p={p}, q={q}")

    def quo(h: int) -> int:
        return (h if q is None else h % q) // p

    def is_p(a: int, b: int) -> bool:
        return quo(a) == quo(b) and (a + b) % p == 0

    if is_p(x, y):
        return []
    out: list[Heaps] = []
    for i, (h, other) in enumerate(((x, y), (y, x))):
        rho = quo(other) * p + (-other) % p
        if q is None:
            new = rho
        else:
            t = (h - rho) % q
            new = h - t if t else h
        if 0 <= new < h and is_p(*((new, other) if i == 0 else (other, new))):
            out.append((new, y) if i == 0 else (x, new))
    t = (x + y) % p
    if t:
        for mv in splits((x, y), t):
            if is_p(*mv):
                out.append(mv)
    return list(dict.fromkeys(out))


def ryuo_moves(x: int, y: int, p: int) -> list[Heaps]:
    """All winning moves of Ryuo Nim(p) (S18-T8).

    Examples
    --------
    >>> ryuo_moves(4, 6, 3)
    [(4, 5)]
    """
    return _ryuo_like(x, y, p, None)


def restricted_ryuo_moves(x: int, y: int, p: int, q: int) -> list[Heaps]:
    """All winning moves of restricted Ryuo Nim(p, q), ``p | q`` (S18-T9).

    Examples
    --------
    >>> restricted_ryuo_moves(7, 3, 3, 6)
    [(3, 3), (7, 2)]
    >>> restricted_ryuo_moves(7, 3, 0, 6)
    Traceback (most recent call last):
    ...
    nimlab.core.errors.InvalidParameterError: p must be an integer >= 1, got 0
    """
    return _ryuo_like(x, y, p, q)


def ryuo_strategy(game: Ryuo, position: Heaps, misere: bool) -> Construction | None:
    """Ryuo Nim's winning moves (normal play)."""
    if misere:
        return None
    x, y = position
    return Construction.listed(
        "inverting the Ryuo formula (S18 Theorem 8)",
        "S18-T8",
        ryuo_moves(x, y, int(game.p)),
    )


def restricted_ryuo_strategy(
    game: RestrictedRyuo, position: Heaps, misere: bool
) -> Construction | None:
    """Restricted Ryuo Nim's winning moves, when ``p | q`` (normal play)."""
    p = _positive("p", game.p)
    q = _positive("q", game.q)
    if misere or q % p:
        return None
    x, y = position
    return Construction.listed(
        "inverting the restricted Ryuo formula (S18 Theorem 9)",
        "S18-T9",
        restricted_ryuo_moves(x, y, p, q),
    )


def rgames_moves(game: RGames, heaps: Heaps) -> list[Heaps] | None:
    """All winning moves of RGAMES under S18-T12's hypothesis, else None.

    Examples
    --------
    >>> from nimlab import game
    >>> g = game("rgames", g0="subtraction:1,2,3", parts="allbut:8;allbut:4,8")
    >>> rgames_moves(g, (9, 13))
    [(7, 13), (9, 3), (9, 7), (9, 11)]
    """
    g0 = game.g0
    parts = game.parts
    p = g0.sum_move_period()
    if p is None or game.closed_grundy(heaps) is None:
        return None
    pers: list[Periodicity] = []
    for part in parts:
        per = part.exact_periodicity()
        if per is None:
            return None
        pers.append(per)
    quot = [per.grundy(h) // p for per, h in zip(pers, heaps, strict=True)]
    if game.closed_is_p(heaps):
        return []
    total_q = 0
    for qv in quot:
        total_q ^= qv
    s = sum(heaps)
    out: list[Heaps] = []
    for i, (h, g, per) in enumerate(zip(heaps, parts, pers, strict=True)):
        target = (total_q ^ quot[i]) * p + (-(s - h)) % p
        if g.takes_listed:
            cands = [h - t for t in sorted(g.S) if t <= h]
        else:
            cands = [n for n in preimages(per, target, h) if h - n not in g.S]
        for n in cands:
            mv = heaps[:i] + (n,) + heaps[i + 1 :]
            if game.closed_is_p(mv):
                out.append(mv)
    t = s % p
    if t and t in g0.S:
        for mv in splits(heaps, t):
            if game.closed_is_p(mv):
                out.append(mv)
    return list(dict.fromkeys(out))


def rgames_strategy(game: RGames, position: Heaps, misere: bool) -> Construction | None:
    """RGAMES winning moves when S18-T12 applies (normal play)."""
    if misere:
        return None
    moves = rgames_moves(game, position)
    if moves is None:
        return None
    return Construction.listed("inverting the RGAMES formula (S18 Theorem 12)", "S18-T12", moves)
