"""Delete Nim and its generalizations: heaps are deleted and split.

- ``delete-nim``: the [S19] form on two heaps ``≥ 0``.
- ``single-delete``: [Sh]'s single-delete Nim on ``n ≥ 2`` positive heaps (``n = 2`` is
  [Sh]'s form of Delete Nim).
- ``abo-delete``: [Sh]'s all-but-one (ABO) delete Nim on ``n ≥ 2`` positive heaps.

The two forms of Delete Nim are the same game under ``y = a + 1``: [S19]'s heaps ``(a, b)``
are [Sh]'s ``(a + 1, b + 1)`` (taking one stone and splitting ``a − 1`` into two heaps
``≥ 0`` is splitting ``a + 1`` into two heaps ``≥ 1``).

References
----------
[S19] §2, Game 8, Theorem 11 (``S19-T11``): ``G(a, b) = tail(a ∨ b)``.
[Sh] Definitions 1 and 2; Theorem 1 (``Sh-T1``), Theorem 2 (``Sh-T2``), Theorem 3
(``Sh-T3``), Theorem 6 (``Sh-T6``: refuted; its correction ``Sh-T6*`` is conjectured),
Propositions 7 and 8 (``Sh-P7``, ``Sh-P8``).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from nimlab.catalog.registry import register
from nimlab.core import views
from nimlab.core.kernels import DeleteNimKernel, DeleteSplitKernel, TableKernel
from nimlab.core.ruleset import HeapRuleset, int_heaps
from nimlab.core.status import status_of
from nimlab.core.views import BinaryBlock, BinaryFigure, BinaryRow
from nimlab.formulas.delete import (
    SH_T6_STAR_VERIFIED_BELOW,
    abo_is_p,
    delete_nim_grundy,
    sh_delete_nim_is_p,
    single_delete3_is_p,
    single_delete4_is_p,
    single_delete_all_odd,
    single_delete_twos_is_p,
    tail,
    v2,
)

if TYPE_CHECKING:
    from nimlab.core.strategy import Construction

__all__ = ["AboDelete", "DeleteNim", "SingleDelete", "partitions"]


def partitions(total: int, parts: int, low: int = 1) -> Iterator[tuple[int, ...]]:
    """Non-decreasing tuples of *parts* integers ``≥ low`` summing to *total*.

    Examples
    --------
    >>> list(partitions(6, 3))
    [(1, 1, 4), (1, 2, 3), (2, 2, 2)]
    >>> list(partitions(2, 3))
    []
    """
    if parts == 1:
        if total >= low:
            yield (total,)
        return
    for first in range(low, total // parts + 1):
        for rest in partitions(total - first, parts - 1, first):
            yield (first, *rest)


@register
@dataclass(frozen=True)
class DeleteNim(HeapRuleset):
    """Delete Nim, [S19] form: two heaps ``(a, b)``, ``a, b ≥ 0``.

    A move removes one heap entirely, takes one stone from the other, and splits what is
    left into two heaps (a heap may be 0). ``G(a, b) = tail(a ∨ b)`` (S19-T11).

    Examples
    --------
    >>> from nimlab import grundy, moves
    >>> grundy(DeleteNim(), (3, 5)), grundy(DeleteNim(), (9, 12), method="search")
    (3, 1)
    >>> moves(DeleteNim(), (1, 3))   # the game tree of [S19] Figure 4
    [(0, 0), (0, 2), (1, 1), (2, 0)]
    """

    name = "delete-nim"
    aliases = ("delete", "s19-delete-nim")
    summary = (
        "two heaps >= 0; remove one heap, take one stone from the other, "
        "split the rest into two heaps (0 allowed)"
    )
    theorems = ("S19-T11",)
    grundy_theorem = "S19-T11"
    p_theorem = "S19-T11"
    n_heaps: ClassVar[int | None] = 2

    def strategy(self, position: tuple[int, ...], misere: bool = False) -> Construction | None:
        """The construction of :mod:`nimlab.catalog.delete.strategy`."""
        from nimlab.catalog.delete.strategy import delete_nim_strategy

        return delete_nim_strategy(self, position, misere)

    def estimate_moves(self, position: tuple[int, ...]) -> int | None:
        """Moves counted from the heaps."""
        heaps = int_heaps(position)
        if heaps is None:
            return None
        return 2 * (sum(heaps) + 2)

    def binary_figure(self, position: tuple[int, ...]) -> BinaryFigure:
        """The two heaps, their OR and its trailing ones (S19-T11)."""
        a, b = position
        o = a | b
        t = tail(o)
        width = max(a.bit_length(), b.bit_length(), t, 1)
        marks = views.mark_low(width, t)
        rows = (
            BinaryRow("a", views.bits(a, width), str(a)),
            BinaryRow("b", views.bits(b, width), str(b)),
            BinaryRow("∨", views.bits(o, width), str(o), "result", marks, f"tail = {t}"),
        )
        return BinaryFigure(
            (BinaryBlock("", rows),),
            f"G = tail(a ∨ b) = {t}: {views.pn(t == 0)} (S19-T11)",
            t,
            t == 0,
            "S19-T11",
            ("trailing ones (tail)",),
        )

    def moves(self, position: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        a, b = position
        for keep in dict.fromkeys((a, b)):
            for c in range(keep):  # keep - 1 stones split as (c, keep - 1 - c)
                yield (c, keep - 1 - c)

    def table_kernel(self, shape: tuple[int, ...], kind: str) -> TableKernel | None:
        """Anti-diagonals of two heaps."""
        return DeleteNimKernel() if len(shape) == 2 else None

    def compiled_options(self) -> Any:
        """Compiled move model (see :meth:`HeapRuleset.compiled_options`)."""
        from nimlab.catalog import _compiled
        from nimlab.catalog.delete import compiled as family_compiled

        return _compiled.compiled("delete-nim", family_compiled.delete_nim)

    def explain_notes(self, position: tuple[int, ...], move: tuple[int, ...] | None) -> list[str]:
        """``G(a, b) = tail(a ∨ b)``: the trailing 1 bits of the heaps' OR.

        Examples
        --------
        >>> print(DeleteNim().explain_notes((3, 5), None)[0])
        G(a, b) = tail(a ∨ b), the number of trailing 1 bits of a OR b [S19-T11]: 3 ∨ 5 = 7 = 111₂, tail 3
        """
        if not isinstance(position, tuple) or len(position) != 2:
            return []

        def value(p: tuple[int, ...]) -> str:
            a, b = p
            return f"{a} ∨ {b} = {a | b} = {format(a | b, 'b')}₂, tail {tail(a | b)}"

        out = [
            "G(a, b) = tail(a ∨ b), the number of trailing 1 bits of a OR b [S19-T11]: "
            + value(position)
        ]
        if move is not None and len(move) == 2:
            out.append(f"after the move: {value(move)}")
        return out

    def closed_grundy(self, position: tuple[int, ...]) -> int:
        a, b = position
        return delete_nim_grundy(a, b)


class _PositiveHeaps(HeapRuleset):
    """Games on ``n ≥ 2`` positive heaps whose moves keep the number of heaps."""

    min_heaps: ClassVar[int] = 2
    min_heap_size: ClassVar[int] = 1

    def closed_grundy(self, position: tuple[int, ...]) -> int | None:
        """On two heaps both games are Delete Nim: ``tail((y−1) ∨ (z−1))`` (S19-T11)."""
        if len(position) == 2:
            y, z = position
            return delete_nim_grundy(y - 1, z - 1)
        return None


def _sh_t6_status(printed: str) -> str:
    """*printed* with Sh-T6's registered state, then its correction and the correction's
    status (:mod:`nimlab.core.status`): ``"... is refuted ... Sh-T6* is conjectured: ..."``.

    Examples
    --------
    >>> _sh_t6_status("Sh-T6 is {} and")[:40]
    'Sh-T6 is refuted and Sh-T6* is conjectur'
    """
    st = status_of("Sh-T6")
    fixed = st.replaced_by or "Sh-T6*"
    return f"{printed.format(st.state)} {fixed} is {status_of(fixed).summary()}"


@register
@dataclass(frozen=True)
class SingleDelete(_PositiveHeaps):
    """Single-delete Nim ([Sh] Definition 2) on ``n ≥ 2`` positive heaps.

    A move removes one heap and splits one of the other ``n − 1`` heaps into two positive
    heaps; ``⟨1, …, 1⟩`` is the only terminal position. ``n = 2`` is [Sh]'s Delete Nim.
    Criteria: ``n = 2`` Sh-T1 (both odd), ``n = 3`` Sh-T3, all heaps odd ⇒ P for every
    ``n`` (Sh-P7), ``⟨2, …, 2⟩`` is P iff ``n mod 3 ≠ 2`` (Sh-P8). For ``n = 4``, [Sh]
    Theorem 6 is false as printed (Sh-T6, refuted); its correction Sh-T6* is a conjecture
    verified for heaps below ``SH_T6_STAR_VERIFIED_BELOW`` and used only there:
    larger 4-heap positions are searched. For ``n ≥ 5`` other positions have no known
    criterion.

    Examples
    --------
    >>> from nimlab import outcome
    >>> str(outcome(SingleDelete(), (8, 12, 14, 47)))  # Sh-T6 as printed says N
    'P'
    >>> SingleDelete().closed_theorem((8, 12, 14, 47)), SingleDelete().closed_is_p((1, 2, 3, 300))
    ('Sh-T6*', None)
    >>> str(outcome(SingleDelete(), (2, 6, 12), method="search"))
    'N'
    >>> SingleDelete().closed_is_p((1, 3, 5, 7, 9)), SingleDelete().closed_is_p((1, 3, 5, 7, 8))
    (True, None)
    >>> SingleDelete().closed_is_p((2,) * 8), SingleDelete().closed_is_p((2,) * 9)
    (False, True)
    """

    name = "single-delete"
    aliases = ("single-delete-nim", "sh-delete-nim")
    summary = (
        "n >= 2 positive heaps; remove one heap and split one of the others into two positive heaps"
    )
    theorems = ("Sh-T1", "Sh-T3", "Sh-T6", "Sh-T6*", "Sh-P7", "Sh-P8", "S19-T11")
    grundy_theorem = "S19-T11"
    p_theorem = "Sh-T3"

    def strategy(self, position: tuple[int, ...], misere: bool = False) -> Construction | None:
        """The construction of :mod:`nimlab.catalog.delete.strategy`."""
        from nimlab.catalog.delete.strategy import single_delete_strategy

        return single_delete_strategy(self, position, misere)

    def estimate_moves(self, position: tuple[int, ...]) -> int | None:
        """Moves counted from the heaps."""
        heaps = int_heaps(position)
        if heaps is None:
            return None
        return len(heaps) ** 2 * (max(heaps, default=0) + 1)

    def explain_notes(self, position: tuple[int, ...], move: tuple[int, ...] | None) -> list[str]:
        """The 2-adic valuations of the heaps, before and after the move."""

        def valuations(p: tuple[int, ...]) -> str:
            return ", ".join(str((h & -h).bit_length() - 1) for h in p)

        if not isinstance(position, tuple):
            return []
        out = [f"2-adic valuations before: {valuations(position)}"]
        if move is not None:
            out.append(f"2-adic valuations after:  {valuations(move)}")
        n = len(position)
        if n == 2:
            out.append("[Sh-T1]: P iff both heaps are odd (2-adic valuations 0 and 0)")
        elif n == 3:
            out.append(
                "[Sh-T3]: with three heaps, P iff v2(x) = v2(y) = v2(z), the three "
                "2-adic valuations (the exponents of 2 in the heaps) are equal"
            )
        elif n == 4:
            out.append(
                "[Sh-T6]: with four heaps the criterion reads the sorted 2-adic valuations "
                "a ≤ b ≤ c ≤ d and the binary digits just above them"
            )
        if all(h % 2 for h in position):
            out.append("[Sh-P7]: every heap is odd (2-adic valuation 0), so the position is P")
        return out

    def binary_figure(self, position: tuple[int, ...]) -> BinaryFigure:
        """2-adic valuations, the lowest 1 of each heap marked (Sh-T1, Sh-T3, Sh-T6*, Sh-P7)."""
        n = len(position)
        width = views.width(position)
        vals = [v2(h) for h in position]
        rows = tuple(
            BinaryRow(
                lab,
                views.bits(h, width),
                str(h),
                "heap",
                views.mark_at(width, v),
                f"v2={v}",
                views.mark_low(width, v),
            )
            for lab, h, v in zip(views.heap_labels(n, paper=True), position, vals, strict=True)
        )
        _, p = views.closed_values(self, position)
        if n == 2:
            p, thm, why = vals[0] == vals[1] == 0, "Sh-T1", "P iff both heaps odd"
        elif n == 3:
            p, thm, why = len(set(vals)) == 1, "Sh-T3", "P iff v2(x) = v2(y) = v2(z)"
        elif n == 4:
            used = self.closed_theorem(position)
            why = "sorted v2: " + " ≤ ".join(map(str, sorted(vals)))
            if used is None:
                thm = "Sh-T6*"
                why += f"; {_sh_t6_status('Sh-T6 is {} and')}: no criterion applies to heaps this large"
            else:
                thm = used
                why += f"; {used} is {status_of(used).summary()}"
                if len(set(vals)) == 1:
                    why += ", case (1) a = b = c = d"
        else:
            thm = "Sh-P7"
            why = "all heaps odd ⇒ P" if all(v == 0 for v in vals) else "n ≥ 5 is open"
            if all(v == 0 for v in vals):
                p = True
        verdict = "undecided by a proved criterion" if p is None else views.pn(p)
        return BinaryFigure(
            (BinaryBlock("", rows),),
            f"v2 = {', '.join(map(str, vals))}: {verdict} ({thm}: {why})",
            None,
            p,
            thm,
            ("lowest 1 of each heap (v2 = the zeros to its right)",),
        )

    def moves(self, position: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        n = len(position)
        for i in range(n):
            for j in range(n):
                h = position[j]
                if j == i or h < 2:
                    continue
                rest = tuple(position[k] for k in range(n) if k != i and k != j)
                for u in range(1, h // 2 + 1):
                    yield (*rest, u, h - u)

    def table_kernel(self, shape: tuple[int, ...], kind: str) -> TableKernel | None:
        """Normal play on 2 to 6 heaps: a bitset of option values per multiset of kept heaps
        and heap split, shared by the positions that differ in the heap removed."""
        return DeleteSplitKernel() if 2 <= len(shape) <= 6 and kind != "misere" else None

    def compiled_options(self) -> Any:
        """Compiled move model (see :meth:`HeapRuleset.compiled_options`)."""
        from nimlab.catalog import _compiled
        from nimlab.catalog.delete import compiled as family_compiled

        return _compiled.compiled("single-delete", family_compiled.single_delete)

    def compiled_option_index(self) -> tuple[Any, Any, Any]:
        """Option index (see :meth:`HeapRuleset.compiled_option_index`): a cell per split
        heap and multiset of heaps kept."""
        from nimlab.catalog.delete import compiled as family_compiled

        return (
            family_compiled.single_delete_index_prepare,
            family_compiled.single_delete_note,
            family_compiled.single_delete_reaches,
        )

    def closed_is_p(self, position: tuple[int, ...]) -> bool | None:
        n = len(position)
        if n == 2:
            return sh_delete_nim_is_p(*position)
        if n == 3:
            return single_delete3_is_p(*position)
        if single_delete_all_odd(position):  # Sh-P7
            return True
        if n == 4 and max(position) < SH_T6_STAR_VERIFIED_BELOW:
            return single_delete4_is_p(*position)  # Sh-T6*, only where it is verified
        if all(h == 2 for h in position):  # Sh-P8
            return single_delete_twos_is_p(n)
        return None

    def closed_form_gap(self, position: tuple[int, ...], kind: str = "p") -> str | None:
        """Four heaps, one of them at least ``SH_T6_STAR_VERIFIED_BELOW``: no criterion.

        Examples
        --------
        >>> SingleDelete().closed_form_gap((8, 12, 14, 300))[:30]
        'Sh-T6 (as printed) is refuted,'
        >>> SingleDelete().closed_form_gap((8, 12, 14, 47)) is None
        True
        """
        if kind != "p" or len(position) != 4 or self.closed_theorem(position) is not None:
            return None
        return _sh_t6_status("Sh-T6 (as printed) is {}, and the corrected criterion") + (
            ", so nimlab does not use it here"
        )

    def closed_theorem(self, position: tuple[int, ...], kind: str = "p") -> str | None:
        """The criterion :meth:`closed_is_p` uses at *position* (None: none applies).

        Examples
        --------
        >>> g = SingleDelete()
        >>> [g.closed_theorem(p) for p in [(1, 2), (2, 4, 6), (3, 5, 7, 9), (2, 4, 6, 8)]]
        ['Sh-T1', 'Sh-T3', 'Sh-P7', 'Sh-T6*']
        >>> g.closed_theorem((2, 4, 6, 800)), g.closed_theorem((2, 2, 2, 2, 2))
        (None, 'Sh-P8')
        """
        if kind == "grundy":
            return "S19-T11" if len(position) == 2 else None
        if kind != "p":
            return None
        n = len(position)
        if n == 2:
            return "Sh-T1"
        if n == 3:
            return "Sh-T3"
        if single_delete_all_odd(position):
            return "Sh-P7"
        if n == 4:
            return "Sh-T6*" if max(position) < SH_T6_STAR_VERIFIED_BELOW else None
        if all(h == 2 for h in position):
            return "Sh-P8"
        return None


@register
@dataclass(frozen=True)
class AboDelete(_PositiveHeaps):
    """All-but-one delete Nim ([Sh] Definition 1) on ``n ≥ 2`` positive heaps.

    A move removes ``n − 1`` heaps and splits the remaining one into ``n`` positive heaps.
    P iff every heap ``z`` has ``1 ≤ z mod n(n−1) ≤ n−1`` (Sh-T2).

    Examples
    --------
    >>> from nimlab import outcome, moves
    >>> str(outcome(AboDelete(), (7, 1, 13))), str(outcome(AboDelete(), (7, 1, 12)))
    ('P', 'N')
    >>> moves(AboDelete(), (1, 2, 5))
    [(1, 1, 3), (1, 2, 2)]
    """

    name = "abo-delete"
    aliases = ("abo-delete-nim", "all-but-one-delete")
    summary = "n >= 2 positive heaps; remove n-1 heaps and split the last into n positive heaps"
    theorems = ("Sh-T2", "Sh-T1", "S19-T11")
    grundy_theorem = "S19-T11"
    p_theorem = "Sh-T2"

    def strategy(self, position: tuple[int, ...], misere: bool = False) -> Construction | None:
        """The construction of :mod:`nimlab.catalog.delete.strategy`."""
        from nimlab.catalog.delete.strategy import abo_strategy

        return abo_strategy(self, position, misere)

    def estimate_moves(self, position: tuple[int, ...]) -> int | None:
        """Moves counted from the heaps."""
        heaps = int_heaps(position)
        if heaps is None:
            return None
        n = len(heaps)
        return sum(math.comb(max(h - 1, 0), n - 1) for h in heaps) * math.factorial(n)

    def binary_figure(self, position: tuple[int, ...]) -> BinaryFigure:
        """Each heap mod n(n-1) (Sh-T2)."""
        n = len(position)
        mod = n * (n - 1)
        width = views.width(position)
        rows = tuple(
            BinaryRow(lab, views.bits(h, width), str(h), note=f"mod {mod} = {h % mod}")
            for lab, h in zip(views.heap_labels(n), position, strict=True)
        )
        p = all(1 <= h % mod <= n - 1 for h in position)
        return BinaryFigure(
            (BinaryBlock("", rows),),
            f"every heap z has 1 ≤ z mod {mod} ≤ {n - 1}: {'yes' if p else 'no'}: "
            f"{views.pn(p)} (Sh-T2)",
            None,
            p,
            "Sh-T2",
        )

    def moves(self, position: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        n = len(position)
        for h in dict.fromkeys(position):
            yield from partitions(h, n)

    def compiled_options(self) -> Any:
        """Compiled move model (see :meth:`HeapRuleset.compiled_options`)."""
        from nimlab.catalog import _compiled
        from nimlab.catalog.delete import compiled as family_compiled

        return _compiled.compiled("abo-delete", family_compiled.abo_delete)

    def compiled_predecessors(self) -> Any:
        """Compiled inverse moves (see :meth:`HeapRuleset.compiled_predecessors`)."""
        from nimlab.catalog import _compiled
        from nimlab.catalog.delete import compiled as family_compiled

        return _compiled.compiled("abo-delete-pred", family_compiled.abo_delete_predecessors)

    def explain_notes(self, position: tuple[int, ...], move: tuple[int, ...] | None) -> list[str]:
        """Each heap modulo ``n(n−1)`` against the window ``1..n−1`` of Sh-T2.

        Examples
        --------
        >>> print(AboDelete().explain_notes((7, 1, 12), None)[0])
        [Sh-T2]: P iff every heap z has 1 <= z mod n(n−1) <= n−1; here n = 3, n(n−1) = 6: 7 mod 6 = 1, 1 mod 6 = 1, 12 mod 6 = 0 (outside 1..2)
        """
        if not isinstance(position, tuple) or len(position) < 2:
            return []

        def residues(p: tuple[int, ...]) -> str:
            n = len(p)
            m = n * (n - 1)
            return ", ".join(
                f"{z} mod {m} = {z % m}" + ("" if 1 <= z % m <= n - 1 else f" (outside 1..{n - 1})")
                for z in p
            )

        n = len(position)
        out = [
            f"[Sh-T2]: P iff every heap z has 1 <= z mod n(n−1) <= n−1; here n = {n}, "
            f"n(n−1) = {n * (n - 1)}: {residues(position)}"
        ]
        if move is not None:
            out.append(f"after the move: {residues(move)}")
        return out

    def closed_is_p(self, position: tuple[int, ...]) -> bool:
        return abo_is_p(position)
