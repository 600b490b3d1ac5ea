"""Theorems of [S19] §1 and [N99] §2 about the catalog part A games.

2-D Turning Turtles (S19-T6). Moore's Nim_k (S19-T5 = N99-T2.4, misère N99-T2.10), the
Welter–Sato game (S19-T7), Lim (S19-T8), CN(6, 4) (S19-T9) and 2^k-balanced Nimhoff
(S19-T10) are declared by their families (``nimlab.catalog.<family>.theorems``).
Every instance lists a move-closed set of positions in increasing order; the registry compares the game's closed form with exhaustive search there.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from nimlab.catalog import game
from nimlab.catalog.turtles import WholeBoardTurningTurtles
from nimlab.theory.registry import Instance, Theorem, register_theorem
from nimlab.theory.spaces import sorted_box

__all__ = ["distinct_box", "lim_triples", "turtle_boards"]


def distinct_box(n_heaps: int, bound: int) -> Iterator[tuple[int, ...]]:
    """Strictly increasing tuples of *n_heaps* heaps ``< bound``: Welter positions up to order.

    Examples
    --------
    >>> list(distinct_box(2, 3))
    [(0, 1), (0, 2), (1, 2)]
    """
    for t in sorted_box(n_heaps, bound):
        if all(x < y for x, y in itertools.pairwise(t)):
            yield t


def lim_triples(bound: int) -> Iterator[tuple[int, int, int]]:
    """Sorted Lim positions ``a <= b <= c`` with ``a + b + c < bound``, by total.

    Moves keep the number of stones below the bound (the total drops), so the set is
    move-closed although a move adds stones to one heap.

    Examples
    --------
    >>> list(lim_triples(3))
    [(0, 0, 0), (0, 0, 1), (0, 0, 2), (0, 1, 1)]
    """
    for total in range(bound):
        for a in range(total // 3 + 1):
            for b in range(a, (total - a) // 2 + 1):
                yield (a, b, total - a - b)


def turtle_boards(max_coins: int) -> list[tuple[int, int]]:
    """Board shapes ``r x c`` (``r <= c``) with ``r * c <= max_coins``, largest of each r.

    Examples
    --------
    >>> turtle_boards(12)
    [(1, 12), (2, 6), (3, 4)]
    """
    out: list[tuple[int, int]] = []
    r = 1
    while r * r <= max_coins:
        out.append((r, max_coins // r))
        r += 1
    return out


def board_positions(rows: int, cols: int) -> Iterator[frozenset[tuple[int, int]]]:
    """Every set of heads of an ``rows x cols`` board, in increasing order.

    A move turns its head ``(a, b)`` to tails and otherwise only coins before it in
    row-major order, so the bit mask of heads decreases: the set is move-closed and
    options come before positions.

    Examples
    --------
    >>> [sorted(p) for p in board_positions(1, 2)]
    [[], [(1, 1)], [(1, 2)], [(1, 1), (1, 2)]]
    """
    coins = [(a, b) for a in range(1, rows + 1) for b in range(1, cols + 1)]
    for mask in range(1 << len(coins)):
        yield frozenset(c for i, c in enumerate(coins) if mask >> i & 1)


def _turtles(bound: int) -> Iterator[Instance]:
    from nimlab.verification.spaces import IndexSpace

    g = game("turning-turtles")
    for r, c in turtle_boards(bound):  # every set of heads, as its bit mask (compiled)
        if r * c <= 24:
            yield Instance(g, space=IndexSpace(g, (r, c)))
        else:
            yield Instance(g, board_positions(r, c))
    whole = WholeBoardTurningTurtles()
    for r, c in ((1, 6), (2, 3), (3, 3)):
        if r * c <= max(bound, 9):
            yield Instance(whole, board_positions(r, c))


register_theorem(
    Theorem(
        id="S19-T6",
        paper="S19",
        statement="2-D Turning Turtles: G = XOR of a_i ⊗ b_i over the heads (a_i, b_i), "
        "⊗ the nim product",
        game="turning-turtles",
        kind="grundy",
        instances=_turtles,
        default_bound=18,
        deep_bound=22,
        params="boards r x c with r*c <= bound; whole-board search (no splitting) on 1x6, 2x3, 3x3",
        bound_doc="every set of heads on an r x c board with r*c <= bound",
    )
)
