"""Theorems of [Sh]: Delete Nim (Sh-T1), ABO-delete Nim (Sh-T2), single-delete Nim on 3 and 4
heaps (Sh-T3; Sh-T6, refuted, and its correction Sh-T6*, conjectured), all heaps odd ⇒ P
(Sh-P7) and ``⟨2, …, 2⟩`` (Sh-P8).

Sh-T6 is registered as printed, so that ``nimlab reproduce`` re-finds its smallest
counterexample; its claim (``_sh_t6_printed``: the case analysis of
:func:`~nimlab.formulas.delete.sh_t6_rule` with case (5A) as printed) is made here only and
is never used to answer a question about a position.

Positions are multisets of positive heaps below the bound, in increasing order (sorted
tuples by largest heap): moves split a heap into smaller ones and delete others, so the
sets are move-closed. Sh-P7 and Sh-P8 carry claims of their own.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from nimlab.catalog import game
from nimlab.catalog.delete import SingleDelete
from nimlab.core.ruleset import Ruleset
from nimlab.formulas.delete import sh_t6_rule, single_delete4_is_p, single_delete_twos_is_p
from nimlab.theory.registry import Instance, Theorem, register_theorem
from nimlab.theory.spaces import sorted_box, sorted_space
from nimlab.verification.spaces import SortedBoxSpace

COMPILED_CHUNK = 1 << 17  # positions per chunk of the compiled local check

__all__ = ["SingleDeleteBySize", "odd_box"]


def odd_box(n_heaps: int, bound: int) -> Iterator[tuple[int, ...]]:
    """Sorted tuples of *n_heaps* odd heaps ``< bound``, by largest heap.

    Examples
    --------
    >>> list(odd_box(2, 5))
    [(1, 1), (1, 3), (3, 3)]
    """
    for t in sorted_box(n_heaps, bound, low=1):
        if all(h % 2 for h in t):
            yield t


def _sh_t1(bound: int) -> Iterator[Instance]:
    yield Instance(game("single-delete"), space=sorted_space(2, bound, low=1))
    yield Instance(game("abo-delete"), space=sorted_space(2, bound, low=1))


def _sh_t2(bound: int) -> Iterator[Instance]:
    g = game("abo-delete")
    yield Instance(g, space=sorted_space(2, 2 * bound, low=1))
    yield Instance(g, space=sorted_space(3, bound, low=1))
    yield Instance(g, space=sorted_space(4, bound - 8, low=1))
    yield Instance(g, space=sorted_space(5, bound - 14, low=1))


def _sh_t3(bound: int) -> Iterator[Instance]:
    yield Instance(game("single-delete"), space=sorted_space(3, bound, low=1))


def _sh_t6(bound: int) -> Iterator[Instance]:
    yield Instance(game("single-delete"), space=SortedBoxSpace(4, bound, 1, COMPILED_CHUNK))


def _sh_p7(bound: int) -> Iterator[Instance]:
    g = game("single-delete")
    for n in range(2, 7):
        # not move-closed (moves make even heaps): a list, compared with the engine
        yield Instance(g, list(odd_box(n, bound if n <= 4 else bound - 2 * (n - 3))))


@dataclass(frozen=True)
class SingleDeleteBySize(SingleDelete):
    """Single-delete Nim with its moves listed once per pair of heap sizes (the deleted
    heap's and the split heap's): the same options, as a set, as
    :class:`~nimlab.catalog.delete.SingleDelete`, with far fewer repeats when many heaps
    are equal, so the search of ``<2, ..., 2>`` with hundreds of heaps lists a handful of
    moves at each position instead of about n².

    Examples
    --------
    >>> g, by_size = game("single-delete"), SingleDeleteBySize()
    >>> p = (1, 2, 2, 2, 3)
    >>> len(list(g.moves(p))), len(list(by_size.moves(p)))
    (16, 5)
    >>> {g.canonical(q) for q in g.moves(p)} == {g.canonical(q) for q in by_size.moves(p)}
    True
    """

    def moves(self, position: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        n = len(position)
        first: dict[int, int] = {}
        for k, h in enumerate(position):
            first.setdefault(h, k)
        for i in first.values():  # the heap deleted: one of each size
            for h, j in first.items():  # the heap split: one of each size, not heap i
                if h < 2:
                    continue
                if j == i:
                    j = next((k for k in range(j + 1, n) if position[k] == h), -1)
                    if j < 0:
                        continue
                rest = tuple(position[k] for k in range(n) if k != i and k != j)
                for u in range(1, h // 2 + 1):
                    yield (*rest, u, h - u)

    def estimate_moves(self, position: tuple[int, ...]) -> int | None:
        """Moves counted from the heap sizes."""
        sizes = len(set(position))
        return sizes * sizes * (max(position, default=0) + 1)


def _sh_p8(bound: int) -> Iterator[Instance]:
    g = SingleDeleteBySize()
    for n in range(2, bound + 1):
        yield Instance(g, [(2,) * n])  # not move-closed: compared with search


#: [Sh] Theorem 6 exactly as printed (refuted: ⟨12, 14, 15, 40⟩ is P, this says N); the same
#: case analysis as Sh-T6* but for case (5A).
_sh_t6_printed = sh_t6_rule(printed=True)


def _all_odd_claim(g: Ruleset[Any], position: tuple[int, ...]) -> bool:
    return True  # every position of the instances is all-odd: each is claimed P


def _twos_claim(g: Ruleset[Any], position: tuple[int, ...]) -> bool:
    return single_delete_twos_is_p(len(position))


def _sh(
    id_: str, statement: str, instances: Any, *, game: str = "single-delete", **more: Any
) -> None:
    """Register a result of [Sh]: a P-set of *game* (Single-delete Nim unless said)."""
    register_theorem(
        Theorem(
            id=id_,
            paper="Sh",
            statement=statement,
            game=game,
            kind="p-set",
            instances=instances,
            **more,
        )
    )


_sh(
    "Sh-T1",
    "Delete Nim ([Sh] form, heaps >= 1): P iff both heaps are odd",
    _sh_t1,
    default_bound=256,
    deep_bound=1024,
    params="n = 2 (single-delete and ABO-delete coincide)",
)
_sh(
    "Sh-T2",
    "ABO-delete Nim on n heaps: P iff every heap z has 1 <= z mod n(n-1) <= n-1",
    _sh_t2,
    game="abo-delete",
    default_bound=60,
    deep_bound=72,
    params="n = 2..5",
    bound_doc="n = 2: heaps < 2*bound; n = 3: < bound; n = 4: < bound - 8; n = 5: < bound - 14",
)
_sh(
    "Sh-T3",
    "single-delete Nim, 3 heaps: P iff v2(x) = v2(y) = v2(z)",
    _sh_t3,
    default_bound=160,
    deep_bound=256,
)
_sh(
    "Sh-T6",
    "single-delete Nim, 4 heaps: P iff one of the five cases of [Sh] Theorem 6",
    _sh_t6,
    scalar_claim=_sh_t6_printed,
    default_bound=96,
    deep_bound=256,
)
_sh(
    "Sh-T6*",
    (
        "single-delete Nim, 4 heaps: [Sh] Theorem 6 with (5A) replaced by a column scan "
        "i = d+2, d+3, ... from the bottom (sum 1 or 2: N; 0: P; 3 or 4: go on)"
    ),
    _sh_t6,
    scalar_claim=single_delete4_is_p,
    default_bound=96,
    deep_bound=384,
)
_sh(
    "Sh-P7",
    "single-delete Nim, n >= 2 heaps: every heap odd => P",
    _sh_p7,
    claim=_all_odd_claim,
    default_bound=30,
    deep_bound=48,
    params="n = 2..6",
    bound_doc="odd heaps < bound (n = 5, 6: < bound - 2(n - 3))",
)
_sh(
    "Sh-P8",
    "single-delete Nim: <2, ..., 2> (n heaps) is N iff n = 2 mod 3",
    _sh_p8,
    claim=_twos_claim,
    default_bound=240,
    deep_bound=600,
    params="n = 2..bound",
    bound_doc="n = 2..bound heaps of 2",
)
