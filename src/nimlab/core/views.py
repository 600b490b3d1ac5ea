"""What a game's binary view shows: heaps in binary, the rows its criterion reads, a verdict.

A ruleset draws its own binary view through the optional
:meth:`~nimlab.core.ruleset.Ruleset.binary_figure` hook: given a valid position it returns a
:class:`BinaryFigure` (blocks of :class:`BinaryRow`, plain text, built with the helpers
below), and :func:`nimlab.render.binary_view` lays it out as text, HTML or JSON. A game
without one gets its heaps and their plain nim-sum, labelled as not being its criterion.
The catalog's families draw theirs in their own modules (Nim's nim-sum, Moore's digit sums,
Welter's ``M`` terms, ...); a user's game does the same.

Examples
--------
>>> from nimlab import game
>>> fig = game("nim").binary_figure((3, 5))
>>> [(r.label, r.text) for b in fig.blocks for r in b.rows], fig.theorem
([('n1', '011'), ('n2', '101'), ('⊕', '110')], 'S19-T1')
>>> game("wythoff").binary_figure((3, 5)) is None
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from nimlab.core.ruleset import Ruleset

__all__ = [
    "BinaryBlock",
    "BinaryFigure",
    "BinaryRow",
    "bits",
    "closed_values",
    "column_sums",
    "digits_row",
    "heap_labels",
    "heap_rows",
    "mark_at",
    "mark_low",
    "pn",
    "s19_string",
    "width",
    "xor_figure",
    "xor_rows",
]


@dataclass(frozen=True)
class BinaryRow:
    """One row of a binary view.

    Attributes
    ----------
    label : str
        ``w``, ``n1``, ``⊕``, ``∨``, ``mod 3``...
    digits : tuple of str
        One digit per column, most significant first (all rows share the width).
    value : str
        The decimal value (or the [S19] digit string) shown on the right.
    role : str
        ``heap``, ``result`` (below a rule), ``term`` or ``total``.
    marks : tuple of bool
        Columns to emphasise (the lowest 1 for v2, trailing ones for tail, bit k).
    note : str
        Short note (``v2=5``).
    shade : tuple of bool
        Columns to shade lightly (the trailing zeros counted by v2).
    """

    label: str
    digits: tuple[str, ...]
    value: str
    role: str = "heap"
    marks: tuple[bool, ...] = ()
    note: str = ""
    shade: tuple[bool, ...] = ()

    @property
    def text(self) -> str:
        """The digits as one string (digits wider than one character are spaced)."""
        sep = "" if all(len(d) == 1 for d in self.digits) else " "
        return sep.join(self.digits)


@dataclass(frozen=True)
class BinaryBlock:
    """A group of rows (Emperor Nim has one per range, and one for the totals)."""

    title: str
    rows: tuple[BinaryRow, ...]


@dataclass(frozen=True)
class BinaryFigure:
    """What a game's ``binary_figure`` hook returns: the rows and what they show.

    Attributes
    ----------
    blocks : tuple of BinaryBlock
        Rows, grouped.
    conclusion : str
        What the criterion says here, with the theorem id.
    grundy : int or None
        Grundy value when a proved formula gives it.
    is_p : bool or None
        Whether the position is P, when a proved criterion decides it.
    theorem : str or None
        The result id the view illustrates.
    legend : tuple of str
        What the marked columns mean (the first entry is printed under the marks).
    """

    blocks: tuple[BinaryBlock, ...]
    conclusion: str
    grundy: int | None = None
    is_p: bool | None = None
    theorem: str | None = None
    legend: tuple[str, ...] = ()


# -- helpers for building rows -------------------------------------------------------------


def bits(v: int, width: int) -> tuple[str, ...]:
    """The binary digits of *v*, most significant first, padded to *width*.

    Examples
    --------
    >>> bits(5, 4), bits(0, 0)
    (('0', '1', '0', '1'), ('0',))
    """
    return tuple(format(v, "b").zfill(width)) if width else ("0",)


def width(values: Iterable[int], least: int = 1) -> int:
    """Binary digits needed to show every one of *values*, and at least *least*.

    Examples
    --------
    >>> width([3, 8]), width([], 2)
    (4, 2)
    """
    return max(max((v.bit_length() for v in values), default=0), least)


def column_sums(values: Sequence[int], modulus: int) -> list[int]:
    """Binary digit sums mod *modulus*, least significant column first, one per column of
    the widest value (zero sums kept, so the list spans the whole width).

    Examples
    --------
    >>> column_sums([3, 5, 7], 3)  # 3 ⊕3 5 ⊕3 7 = '220' in [S19]
    [0, 2, 2]
    >>> column_sums([4, 4], 2)
    [0, 0, 0]
    """
    w = max((v.bit_length() for v in values), default=0)
    return [sum((v >> i) & 1 for v in values) % modulus for i in range(w)]


def digits_row(sums: Sequence[int], width: int) -> tuple[str, ...]:
    """Column sums (least significant first) as the columns of a row, most significant first.

    Examples
    --------
    >>> digits_row([0, 2], 3)
    ('0', '2', '0')
    """
    cols = [str(sums[i]) if i < len(sums) else "0" for i in range(width)]
    return tuple(reversed(cols))


def mark_low(width: int, count: int) -> tuple[bool, ...]:
    """Marks on the lowest *count* columns.

    Examples
    --------
    >>> mark_low(3, 1)
    (False, False, True)
    """
    return tuple(i >= width - count for i in range(width))


def mark_at(width: int, bit: int) -> tuple[bool, ...]:
    """A mark on the column of bit *bit* (0 = least significant).

    Examples
    --------
    >>> mark_at(3, 2)
    (True, False, False)
    """
    return tuple(i == width - 1 - bit for i in range(width))


def heap_labels(n: int, paper: bool = False) -> list[str]:
    """Labels of *n* heap rows: ``n1``, ``n2``, … (``w x y z`` as the papers print 2 to 4
    heaps when *paper*).

    Examples
    --------
    >>> heap_labels(3), heap_labels(3, paper=True)
    (['n1', 'n2', 'n3'], ['x', 'y', 'z'])
    """
    if paper and 2 <= n <= 4:
        return list("wxyz"[-n:])
    return [f"n{i}" for i in range(1, n + 1)]


def s19_string(sums: Sequence[int]) -> str:
    """[S19]'s digit string of a mod sum: most significant first, leading zeros gone.

    Examples
    --------
    >>> s19_string([0, 2, 2]), s19_string([0, 0])
    ('220', '0')
    """
    s = "".join(str(d) if d < 10 else f"[{d}]" for d in reversed(sums)).lstrip("0")
    return s or "0"


def heap_rows(pos: Sequence[int], width: int, marks: tuple[bool, ...] = ()) -> list[BinaryRow]:
    """One binary row per heap, labelled ``n1``, ``n2``, …

    Examples
    --------
    >>> [r.text for r in heap_rows((1, 2), 2)]
    ['01', '10']
    """
    return [
        BinaryRow(lab, bits(h, width), str(h), marks=marks)
        for lab, h in zip(heap_labels(len(pos)), pos, strict=True)
    ]


def xor_rows(labelled: Sequence[tuple[str, int]]) -> tuple[list[BinaryRow], int]:
    """Rows of the labelled values in binary and their nim-sum below a rule (``⊕``).

    Examples
    --------
    >>> rows, x = xor_rows([("a", 3), ("b", 5)])
    >>> [(r.label, r.text, r.role) for r in rows], x
    ([('a', '011', 'heap'), ('b', '101', 'heap'), ('⊕', '110', 'result')], 6)
    """
    x = 0
    for _, v in labelled:
        x ^= v
    w = width(v for _, v in labelled)
    rows = [BinaryRow(lab, bits(v, w), str(v)) for lab, v in labelled]
    rows.append(BinaryRow("⊕", bits(x, w), str(x), "result"))
    return rows, x


def xor_figure(
    labelled: Sequence[tuple[str, int]], lead: str, theorem: str, note: str
) -> BinaryFigure:
    """The figure of a game whose Grundy value is the nim-sum of the labelled values:
    their rows, the ``⊕`` row, and ``"{lead} G: P/N-position ({theorem}{note})"``.

    Examples
    --------
    >>> xor_figure([("a", 3), ("b", 3)], "nim-sum", "S19-T1", "").conclusion
    'nim-sum 0: P-position (S19-T1)'
    """
    rows, x = xor_rows(labelled)
    return BinaryFigure(
        (BinaryBlock("", tuple(rows)),),
        f"{lead} {x}: {pn(x == 0)} ({theorem}{note})",
        x,
        x == 0,
        theorem,
    )


def pn(p: bool | None) -> str:
    """``P-position`` or ``N-position``.

    Examples
    --------
    >>> pn(True), pn(False)
    ('P-position', 'N-position')
    """
    return "P-position" if p else "N-position"


def closed_values(game: Ruleset[Any], position: Any) -> tuple[int | None, bool | None]:
    """Grundy value and P/N of a valid *position* from the game's proved closed forms only
    (never a search): ``closed_grundy``, and ``closed_is_p`` or else ``G == 0``.

    Examples
    --------
    >>> from nimlab import game
    >>> closed_values(game("nim"), (1, 2, 3)), closed_values(game("wythoff"), (1, 2))
    ((0, True), (None, True))
    >>> closed_values(game("single-delete"), (2**70,) * 4)   # no proved criterion there
    (None, None)
    """
    value = game.closed_grundy(position)
    p = game.closed_is_p(position)
    if p is None and value is not None:
        p = value == 0
    return value, p
