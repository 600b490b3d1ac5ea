"""Theorems of [S19] §2–3: Delete Nim (S19-T11), Emperor Nim (S19-T12), k-Emperor Nim (S19-T13).

Every instance lists a move-closed set of positions in increasing order (options before
positions); the registry compares the game's closed form with exhaustive search there.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from typing import Any

from nimlab.catalog import game
from nimlab.core.ruleset import Ruleset
from nimlab.theory.registry import Instance, Theorem, register_theorem
from nimlab.theory.spaces import sorted_box, sorted_space

__all__ = ["emperor_positions"]


def emperor_positions(shape: Sequence[int], bound: int) -> Iterator[tuple[tuple[int, ...], ...]]:
    """Canonical Emperor Nim positions with ranges of the given sizes and every heap < *bound*.

    Ranges are sorted tuples and the ranges are sorted; positions come by increasing number
    of stones (a move removes stones, so options come first) and the set is move-closed.

    Examples
    --------
    >>> list(emperor_positions((1, 2), 2))
    [((0,), (0, 0)), ((0,), (0, 1)), ((0, 0), (1,)), ((0,), (1, 1)), ((0, 1), (1,)), ((1,), (1, 1))]
    """
    per_size = {r: list(sorted_box(r, bound)) for r in set(shape)}
    found = {tuple(sorted(combo)) for combo in itertools.product(*(per_size[r] for r in shape))}
    yield from sorted(found, key=lambda pos: (sum(map(sum, pos)), pos))


_EMPEROR_SHAPES: tuple[tuple[int, ...], ...] = ((1, 1, 1), (2, 2), (1, 2, 2), (2, 3), (2, 2, 2))


def _delete_nim(bound: int) -> Iterator[Instance]:
    yield Instance(game("delete-nim"), space=sorted_space(2, bound))


def _ranges(g: Ruleset[Any], shape: tuple[int, ...], bound: int) -> Instance:
    """The canonical positions with ranges of *shape* and heaps < *bound*: the game's
    index space (compiled check), or the listed positions when it has none."""
    from nimlab.verification.spaces import IndexSpace

    if bound >= 1 and g.index_model((bound, *shape)) is not None:
        return Instance(g, space=IndexSpace(g, (bound, *shape)))
    return Instance(g, emperor_positions(shape, bound))


def _emperor(bound: int) -> Iterator[Instance]:
    g = game("emperor", k=1)
    for shape in _EMPEROR_SHAPES:
        yield _ranges(g, shape, bound if len(shape) < 3 else bound - 1)


def _k_emperor(bound: int) -> Iterator[Instance]:
    for k in (2, 3):  # k = 1 is S19-T12
        g = game("emperor", k=k)
        yield _ranges(g, (1, 1, 1, 1), bound)
        yield _ranges(g, (2, 2, 2), bound - 1)
        yield _ranges(g, (1, 2, 2, 2), bound - 2)
        yield _ranges(g, (2, 2, 2, 2), bound - 2)


register_theorem(
    Theorem(
        id="S19-T11",
        paper="S19",
        statement="Delete Nim: G(a, b) = tail(a OR b), tail = number of trailing 1 bits",
        game="delete-nim",
        kind="grundy",
        instances=_delete_nim,
        default_bound=512,
        deep_bound=2048,
    )
)
register_theorem(
    Theorem(
        id="S19-T12",
        paper="S19",
        statement="Emperor Nim: P iff every range XORs to 0 and the XOR of the range totals is 0",
        game="emperor",
        kind="p-set",
        instances=_emperor,
        default_bound=12,
        deep_bound=20,
        params="range sizes (1,1,1), (2,2), (1,2,2), (2,3), (2,2,2)",
        bound_doc="every heap < bound (three ranges: < bound - 1)",
    )
)
register_theorem(
    Theorem(
        id="S19-T13",
        paper="S19",
        statement="k-Emperor Nim: P iff every range XORs to 0 and the range totals satisfy "
        "Moore's criterion mod k+1",
        game="emperor",
        kind="p-set",
        instances=_k_emperor,
        default_bound=12,
        deep_bound=16,
        params="k = 2, 3 (k = 1: S19-T12); range sizes (1,1,1,1), (2,2,2), (1,2,2,2), (2,2,2,2)",
        bound_doc="every heap < bound (three ranges of two: < bound - 1; four ranges: < bound - 2)",
    )
)
