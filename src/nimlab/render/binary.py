"""Binary views: heaps written in binary, digit under digit, with what the criterion reads.

As the papers print them ([S19] §1-3, [Sh] §6): one row per heap, padded with leading
zeros to a common width, then the quantity the game's theorem reads from the columns:

- Nim: the XOR row (``S19-T1``); Welter: XOR and the ``M(x, y)`` terms (``S19-T7``);
  2^k-balanced Nimhoff: XOR and the bit-0 correction (``S19-T10``); Lim: the majority
  row (``S19-T8``);
- Moore's Nim_k: digit sums mod k+1 (``S19-T5``);
- Delete Nim: the OR row and its tail of trailing ones (``S19-T11``);
- Single-delete Nim: 2-adic valuations, the lowest 1 of each heap marked (``Sh-T3``, ``Sh-T6``);
- Emperor Nim: XOR per range, and the range totals' XOR or digit sums (``S19-T12``, ``S19-T13``).

The game names its criterion through its ``binary_criterion`` hook (a description from
:mod:`nimlab.core.views`); other heap games get their heaps and the plain nim-sum,
labelled as such.

Examples
--------
>>> from nimlab.render import binary_view
>>> print(binary_view("nim", (3, 5, 6)).render_text())
nim (3,5,6)
  n1  011  3
  n2  101  5
  n3  110  6
  --  ---
   ⊕  000  0
nim-sum 0: P-position (S19-T1: G = n1 ⊕ … ⊕ nr)
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from nimlab.core import views
from nimlab.core.errors import InvalidPositionError, NimlabError

if TYPE_CHECKING:
    from nimlab.core.ruleset import Ruleset

__all__ = ["BinaryRow", "BinaryView", "binary_view", "digit_sums", "tail", "v2"]


def v2(z: int) -> int:
    """2-adic valuation: the number of trailing zeros of ``z > 0``.

    Examples
    --------
    >>> v2(1440), v2(1), v2(12)
    (5, 0, 2)
    """
    return (z & -z).bit_length() - 1


def tail(x: int) -> int:
    """Number of trailing 1 bits ([S19] Definition 9).

    Examples
    --------
    >>> tail(3), tail(10), tail(21)
    (2, 0, 1)
    """
    return (~x & (x + 1)).bit_length() - 1


def digit_sums(values: Sequence[int], modulus: int) -> list[int]:
    """Binary digit sums mod *modulus*, least significant digit first.

    Examples
    --------
    >>> digit_sums([3, 5, 7], 3)  # 3 ⊕3 5 ⊕3 7 = '220' in [S19]
    [0, 2, 2]
    """
    width = max((v.bit_length() for v in values), default=0)
    return [sum((v >> i) & 1 for v in values) % modulus for i in range(width)]


@dataclass(frozen=True)
class BinaryRow:
    """One row of a :class:`BinaryView`.

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


@dataclass
class BinaryView:
    """Heaps in binary with the quantity the game's criterion reads.

    Attributes
    ----------
    game : str
        Game label with parameters.
    position : object
        The validated position.
    blocks : list of BinaryBlock
        Rows, grouped.
    conclusion : str
        What the criterion says here, with the theorem id.
    grundy : int or None
        Grundy value when a proved formula gives it.
    is_p : bool or None
        Whether the position is P, when a proved criterion decides it.
    theorem : str or None
        The result id the view illustrates.
    """

    game: str
    position: Any
    blocks: list[BinaryBlock]
    conclusion: str
    grundy: int | None = None
    is_p: bool | None = None
    theorem: str | None = None
    legend: list[str] = field(default_factory=list)

    def rows(self) -> list[tuple[str, str]]:
        """All rows as ``(label, digits)`` pairs, in order.

        Examples
        --------
        >>> from nimlab.render import binary_view
        >>> binary_view("nim", (1, 2)).rows()
        [('n1', '01'), ('n2', '10'), ('⊕', '11')]
        """
        return [(r.label, r.text) for b in self.blocks for r in b.rows]

    def heap_digits(self) -> list[str]:
        """The digit strings of the heap rows, in order."""
        return [r.text for b in self.blocks for r in b.rows if r.role == "heap"]

    def render_text(self) -> str:
        """Plain text: aligned rows, a rule before results, marks on a line of ``^``."""
        from nimlab.render.tree import format_position

        lw = max((len(r.label) for b in self.blocks for r in b.rows), default=1)
        dw = max((len(r.text) for b in self.blocks for r in b.rows), default=1)
        vw = max((len(r.value) for b in self.blocks for r in b.rows), default=1)
        out = [f"{self.game} {format_position(self.position)}"]
        for b in self.blocks:
            if b.title:
                out.append(f" {b.title}")
            rule_done = False
            marked: list[bool] = []
            for r in b.rows:
                if r.role in ("result", "total") and not rule_done:
                    out.append(f"  {'-' * min(lw, 2):>{lw}}  {'-' * dw}")
                    rule_done = True
                note = f"  {r.note}" if r.note else ""
                line = f"  {r.label:>{lw}}  {r.text:>{dw}}  {r.value:>{vw}}{note}"
                out.append(line.rstrip())
                if r.marks:
                    marked = [
                        a or bb
                        for a, bb in zip(marked or [False] * len(r.marks), r.marks, strict=True)
                    ]
            if any(marked):
                legend = self.legend[0] if self.legend else ""
                marks = "".join("^" if m else " " for m in marked)
                out.append(f"  {'':>{lw}}  {marks:>{dw}}  {legend}".rstrip())
        out.append(self.conclusion)
        return "\n".join(out)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict: game, position, blocks of rows, conclusion, grundy, p, theorem."""
        return {
            "game": self.game,
            "position": self.position,
            "blocks": [
                {
                    "title": b.title,
                    "rows": [
                        {
                            "label": r.label,
                            "digits": r.text,
                            "value": r.value,
                            "role": r.role,
                            "marks": [i for i, m in enumerate(r.marks) if m],
                            "shade": [i for i, m in enumerate(r.shade) if m],
                            "note": r.note,
                        }
                        for r in b.rows
                    ],
                }
                for b in self.blocks
            ],
            "conclusion": self.conclusion,
            "grundy": self.grundy,
            "p": self.is_p,
            "theorem": self.theorem,
        }

    def _repr_html_(self) -> str:
        from nimlab.render.tree import format_position

        cell = "padding:0 3px;font-family:monospace;text-align:center"
        out = [
            '<table style="border-collapse:collapse">',
            f'<caption style="text-align:left">{html.escape(self.game)} '
            f"{html.escape(format_position(self.position))}</caption>",
        ]
        for b in self.blocks:
            if b.title:
                out.append(
                    f'<tr><th colspan="99" style="text-align:left">{html.escape(b.title)}</th></tr>'
                )
            for r in b.rows:
                border = "border-top:1px solid #333;" if r.role in ("result", "total") else ""
                tds = []
                marks = r.marks or (False,) * len(r.digits)
                shade = r.shade or (False,) * len(r.digits)
                for d, m, sh in zip(r.digits, marks, shade, strict=True):
                    bg = "background:#ffe08a;" if m else ("background:#fff6d6;" if sh else "")
                    tds.append(f'<td style="{cell};{border}{bg}">{html.escape(d)}</td>')
                weight = "font-weight:bold;" if r.role in ("result", "total") else ""
                out.append(
                    f'<tr><th style="{cell};{border}text-align:right">{html.escape(r.label)}</th>'
                    + "".join(tds)
                    + f'<td style="{cell};{border}{weight}text-align:right;padding-left:12px">'
                    f"{html.escape(r.value)}</td>"
                    f'<td style="{cell};{border}color:#666">{html.escape(r.note)}</td></tr>'
                )
        out.append("</table>")
        out.append(f"<p>{html.escape(self.conclusion)}</p>")
        return "".join(out)


# -- building -------------------------------------------------------------------------


def _bits(v: int, width: int) -> tuple[str, ...]:
    return tuple(format(v, "b").zfill(width)) if width else ("0",)


def _digits_row(sums: Sequence[int], width: int) -> tuple[str, ...]:
    """Digit sums (least significant first) as columns, most significant first."""
    cols = [str(sums[i]) if i < len(sums) else "0" for i in range(width)]
    return tuple(reversed(cols))


def _mark_low(width: int, count: int) -> tuple[bool, ...]:
    """Marks on the lowest *count* columns."""
    return tuple(i >= width - count for i in range(width))


def _mark_at(width: int, bit: int) -> tuple[bool, ...]:
    """A mark on the column of bit *bit* (0 = least significant)."""
    return tuple(i == width - 1 - bit for i in range(width))


def _heap_labels(n: int, paper: bool) -> list[str]:
    if paper and 2 <= n <= 4:
        return list("wxyz"[-n:])
    return [f"n{i}" for i in range(1, n + 1)]


def _s19_string(sums: Sequence[int]) -> str:
    """[S19]'s digit string of a mod sum: most significant first, leading zeros gone."""
    s = "".join(str(d) if d < 10 else f"[{d}]" for d in reversed(sums)).lstrip("0")
    return s or "0"


def binary_view(game: Ruleset[Any] | str, position: object) -> BinaryView:
    """The binary view of *position*: heaps in binary and the game's criterion.

    Parameters
    ----------
    game : Ruleset or str
        The game (Nim, Moore's Nim_k, Welter, Lim, Nimhoff, Delete Nim, Single-delete,
        ABO-delete, Emperor; other heap games show the plain nim-sum).
    position : object
        A position of the game (validated).

    Returns
    -------
    BinaryView

    Examples
    --------
    >>> from nimlab.render import binary_view
    >>> bv = binary_view("nim", (4, 5, 7))
    >>> bv.rows()[-1], bv.grundy
    (('⊕', '110'), 6)
    """
    import nimlab

    g: Ruleset[Any] = nimlab.game(game) if isinstance(game, str) else game
    pos = g.validate(position)
    crit = g.binary_criterion()
    builder = None if crit is None else _BUILDERS.get(type(crit))
    if crit is None or builder is None:
        if not (isinstance(pos, tuple) and all(isinstance(h, int) for h in pos)):
            raise NimlabError(
                f"{g.label()}: a binary view needs a position of heaps; this game's positions "
                f"look like {pos!r}"
            )
        return _build_other(g, pos)
    view: BinaryView = builder(g, pos, crit)
    return view


def _formula(g: Ruleset[Any], pos: Any) -> tuple[int | None, bool | None]:
    """Grundy value and P/N from proved closed forms only (never a search)."""
    import nimlab

    try:
        value: int | None = nimlab.grundy(g, pos, method="formula")
    except NimlabError:
        value = None
    try:
        p: bool | None = nimlab.outcome(g, pos, method="formula").value == "P"
    except NimlabError:
        p = None if value is None else value == 0
    return value, p


def _pn(p: bool | None) -> str:
    return "P-position" if p else "N-position"


def _xor_all(vals: Sequence[int]) -> int:
    x = 0
    for v in vals:
        x ^= v
    return x


def _width(values: Iterable[int], least: int = 1) -> int:
    """Binary digits needed to show every one of *values*, and at least *least*."""
    return max(max((v.bit_length() for v in values), default=0), least)


def _heap_rows(pos: Sequence[int], width: int, marks: tuple[bool, ...] = ()) -> list[BinaryRow]:
    """One binary row per heap, labelled ``n1``, ``n2``, …"""
    return [
        BinaryRow(lab, _bits(h, width), str(h), marks=marks)
        for lab, h in zip(_heap_labels(len(pos), False), pos, strict=True)
    ]


def _xor_rows(labelled: Sequence[tuple[str, int]]) -> tuple[list[BinaryRow], int]:
    """Rows of the labelled values in binary and their nim-sum below a rule (``⊕``)."""
    x = _xor_all([v for _, v in labelled])
    width = _width(v for _, v in labelled)
    rows = [BinaryRow(lab, _bits(v, width), str(v)) for lab, v in labelled]
    rows.append(BinaryRow("⊕", _bits(x, width), str(x), "result"))
    return rows, x


def _build_nim(g: Ruleset[Any], pos: tuple[int, ...], crit: Any) -> BinaryView:
    rows, x = _xor_rows(list(zip(_heap_labels(len(pos), False), pos, strict=True)))
    return BinaryView(
        g.label(),
        pos,
        [BinaryBlock("", tuple(rows))],
        f"nim-sum {x}: {_pn(x == 0)} (S19-T1: G = n1 ⊕ … ⊕ nr)",
        x,
        x == 0,
        "S19-T1",
    )


def _build_moore(g: Ruleset[Any], pos: tuple[int, ...], crit: Any) -> BinaryView:
    k = int(crit.k)
    m = k + 1
    sums = digit_sums(pos, m)
    width = max(len(sums), 1)
    dw = len(str(k))

    def pad(d: str) -> str:
        return d.rjust(dw)

    rows = [
        BinaryRow(lab, tuple(pad(d) for d in _bits(h, width)), str(h))
        for lab, h in zip(_heap_labels(len(pos), False), pos, strict=True)
    ]
    s = _s19_string(sums)
    rows.append(BinaryRow(f"mod {m}", tuple(pad(d) for d in _digits_row(sums, width)), s, "result"))
    p = all(d == 0 for d in sums)
    return BinaryView(
        g.label(),
        pos,
        [BinaryBlock("", tuple(rows))],
        f"digit sums mod {m}: {s!r}: {_pn(p)} (S19-T5: P iff every column sums to 0 mod k+1)",
        _formula(g, pos)[0],
        p,
        "S19-T5",
    )


def _welter_m(x: int, y: int) -> int:
    e = v2(x ^ y)
    return (1 << (e + 1)) - 1


def _build_welter(g: Ruleset[Any], pos: tuple[int, ...], crit: Any) -> BinaryView:
    x = _xor_all(pos)
    terms = [
        (f"M(n{i + 1},n{j + 1})", _welter_m(pos[i], pos[j]))
        for i in range(len(pos))
        for j in range(i + 1, len(pos))
    ]
    total = x ^ _xor_all([t for _, t in terms])
    width = _width((*pos, *(t for _, t in terms)))
    rows = _heap_rows(pos, width)
    rows += [BinaryRow(lab, _bits(t, width), str(t), "term") for lab, t in terms]
    rows.append(BinaryRow("G", _bits(total, width), str(total), "result"))
    return BinaryView(
        g.label(),
        pos,
        [BinaryBlock("", tuple(rows))],
        f"G = ⊕ heaps ⊕ ⊕ M(ni,nj) = {total}: {_pn(total == 0)} "
        "(S19-T7; M(x,y) = 2^(e+1)-1 where x, y agree in the lowest e digits only)",
        total,
        total == 0,
        "S19-T7",
    )


def _build_nimhoff(g: Ruleset[Any], pos: tuple[int, ...], crit: Any) -> BinaryView:
    k = int(crit.k)
    x = _xor_all(pos)
    acc = pos[0] if pos else 0
    carry = 0
    for h in pos[1:]:
        c = ((acc >> k) & 1) & ((h >> k) & 1)
        carry ^= c
        acc = acc ^ h ^ c
    width = _width(pos, k + 1)
    bitk = tuple(i == width - 1 - k for i in range(width))
    rows = _heap_rows(pos, width, bitk)
    rows.append(BinaryRow("⊕", _bits(x, width), str(x), "result"))
    rows.append(BinaryRow("bit 0 +", _bits(carry, width), str(carry), "result"))
    rows.append(BinaryRow("G", _bits(acc, width), str(acc), "result"))
    view = BinaryView(
        g.label(),
        pos,
        [BinaryBlock("", tuple(rows))],
        f"G = n1 ⓚ … ⓚ nr = {acc}: {_pn(acc == 0)} (S19-T10: a ⓚ b = a ⊕ b ⊕ a_k·b_k, "
        f"k = {k}; the marked column is bit k)",
        acc,
        acc == 0,
        "S19-T10",
    )
    view.legend = [f"bit k = {k}"]
    return view


def _build_lim(g: Ruleset[Any], pos: tuple[int, ...], crit: Any) -> BinaryView:
    a, b, c = pos
    maj = (a & b) | (b & c) | (a & c)
    width = max(max(h.bit_length() for h in pos), 1)
    rows = [
        BinaryRow(lab, _bits(h, width), str(h)) for lab, h in zip(("a", "b", "c"), pos, strict=True)
    ]
    rows.append(BinaryRow("maj", _bits(maj, width), str(maj), "result"))
    return BinaryView(
        g.label(),
        pos,
        [BinaryBlock("", tuple(rows))],
        f"G = bitwise majority = ((a+b+c) − (a⊕b⊕c))/2 = {maj}: {_pn(maj == 0)} (S19-T8)",
        maj,
        maj == 0,
        "S19-T8",
    )


def _build_delete(g: Ruleset[Any], pos: tuple[int, ...], crit: Any) -> BinaryView:
    a, b = pos
    o = a | b
    t = tail(o)
    width = max(a.bit_length(), b.bit_length(), t, 1)
    rows = [
        BinaryRow("a", _bits(a, width), str(a)),
        BinaryRow("b", _bits(b, width), str(b)),
        BinaryRow("∨", _bits(o, width), str(o), "result", _mark_low(width, t), f"tail = {t}"),
    ]
    view = BinaryView(
        g.label(),
        pos,
        [BinaryBlock("", tuple(rows))],
        f"G = tail(a ∨ b) = {t}: {_pn(t == 0)} (S19-T11)",
        t,
        t == 0,
        "S19-T11",
    )
    view.legend = ["trailing ones (tail)"]
    return view


def _build_single_delete(g: Ruleset[Any], pos: tuple[int, ...], crit: Any) -> BinaryView:
    n = len(pos)
    width = max(max(h.bit_length() for h in pos), 1)
    vals = [v2(h) for h in pos]
    rows = [
        BinaryRow(
            lab,
            _bits(h, width),
            str(h),
            "heap",
            _mark_at(width, v),
            f"v2={v}",
            _mark_low(width, v),
        )
        for lab, h, v in zip(_heap_labels(n, True), pos, vals, strict=True)
    ]
    _, p = _formula(g, pos)
    if n == 2:
        p, thm, why = vals[0] == vals[1] == 0, "Sh-T1", "P iff both heaps odd"
    elif n == 3:
        p, thm, why = len(set(vals)) == 1, "Sh-T3", "P iff v2(x) = v2(y) = v2(z)"
    elif n == 4:
        from nimlab import status_of

        used = g.closed_theorem(pos)
        order = sorted(vals)
        why = "sorted v2: " + " ≤ ".join(map(str, order))
        if used is None:
            thm = "Sh-T6*"
            why += (
                f"; Sh-T6 is refuted and Sh-T6* is {status_of('Sh-T6*').summary()}: "
                "no criterion applies to heaps this large"
            )
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
    verdict = "undecided by a proved criterion" if p is None else _pn(p)
    view = BinaryView(
        g.label(),
        pos,
        [BinaryBlock("", tuple(rows))],
        f"v2 = {', '.join(map(str, vals))}: {verdict} ({thm}: {why})",
        None,
        p,
        thm,
    )
    view.legend = ["lowest 1 of each heap (v2 = the zeros to its right)"]
    return view


def _build_abo(g: Ruleset[Any], pos: tuple[int, ...], crit: Any) -> BinaryView:
    n = len(pos)
    mod = n * (n - 1)
    width = max(max(h.bit_length() for h in pos), 1)
    ok = [1 <= h % mod <= n - 1 for h in pos]
    rows = [
        BinaryRow(lab, _bits(h, width), str(h), note=f"mod {mod} = {h % mod}")
        for lab, h in zip(_heap_labels(n, False), pos, strict=True)
    ]
    p = all(ok)
    return BinaryView(
        g.label(),
        pos,
        [BinaryBlock("", tuple(rows))],
        f"every heap z has 1 ≤ z mod {mod} ≤ {n - 1}: {'yes' if p else 'no'}: {_pn(p)} (Sh-T2)",
        None,
        p,
        "Sh-T2",
    )


def _build_emperor(g: Ruleset[Any], pos: Any, crit: Any) -> BinaryView:
    k = int(crit.k or 1)
    ranges: list[tuple[int, ...]] = [tuple(r) if isinstance(r, tuple) else (int(r),) for r in pos]
    totals = [sum(r) for r in ranges]
    xors = [_xor_all(r) for r in ranges]
    width = _width((*totals, *(h for r in ranges for h in r)))
    blocks = []
    for i, (r, x, t) in enumerate(zip(ranges, xors, totals, strict=True), 1):
        rows = [BinaryRow(f"n{i}.{j}", _bits(h, width), str(h)) for j, h in enumerate(r, 1)]
        rows.append(BinaryRow("⊕", _bits(x, width), str(x), "result"))
        rows.append(BinaryRow("Σ", _bits(t, width), str(t), "total"))
        blocks.append(BinaryBlock(f"range {i}", tuple(rows)))
    trows = [BinaryRow(f"Σ{i}", _bits(t, width), str(t)) for i, t in enumerate(totals, 1)]
    if k == 1:
        tx = _xor_all(totals)
        trows.append(BinaryRow("⊕", _bits(tx, width), str(tx), "result"))
        totals_ok = tx == 0
        how = f"XOR of totals = {tx}"
        thm = "S19-T12"
    else:
        sums = digit_sums(totals, k + 1)
        s = _s19_string(sums)
        trows.append(BinaryRow(f"mod {k + 1}", _digits_row(sums, width), s, "result"))
        totals_ok = all(d == 0 for d in sums)
        how = f"digit sums of totals mod {k + 1} = {s!r}"
        thm = "S19-T13"
    blocks.append(BinaryBlock("range totals", tuple(trows)))
    p = all(x == 0 for x in xors) and totals_ok
    return BinaryView(
        g.label(),
        pos,
        blocks,
        f"range XORs {', '.join(map(str, xors))}; {how}: {_pn(p)} "
        f"({thm}: P iff every range XORs to 0 and the totals satisfy the criterion)",
        None,
        p,
        thm,
    )


def _build_turtles(g: Ruleset[Any], pos: Any, crit: Any) -> BinaryView:
    from nimlab.formulas.nimmul import nimmul  # exact, pure Python (no numpy)

    heads = sorted(pos)
    prods = [(f"{a}⊗{b}", int(nimmul(a, b))) for a, b in heads]
    rows, x = _xor_rows(prods)
    return BinaryView(
        g.label(),
        pos,
        [BinaryBlock("", tuple(rows))],
        f"G = ⊕ a⊗b = {x}: {_pn(x == 0)} (S19-T6)",
        x,
        x == 0,
        "S19-T6",
    )


def _build_other(g: Ruleset[Any], pos: tuple[int, ...]) -> BinaryView:
    if not pos:
        raise InvalidPositionError(f"{g.label()}: an empty position has no binary view")
    rows, x = _xor_rows(list(zip(_heap_labels(len(pos), False), pos, strict=True)))
    value, p = _formula(g, pos)
    verdict = (
        ""
        if p is None
        else f"; {_pn(p)} by {g.closed_theorem(pos) or g.closed_theorem(pos, 'grundy') or 'its closed form'}"
    )
    return BinaryView(
        g.label(),
        pos,
        [BinaryBlock("", tuple(rows))],
        f"plain nim-sum {x} (not this game's criterion){verdict}",
        value,
        p,
        None,
    )


_BUILDERS: dict[type, Any] = {
    views.XorCriterion: _build_nim,
    views.DigitSumCriterion: _build_moore,
    views.WelterCriterion: _build_welter,
    views.NimhoffCriterion: _build_nimhoff,
    views.MajorityCriterion: _build_lim,
    views.OrTailCriterion: _build_delete,
    views.ValuationCriterion: _build_single_delete,
    views.ResidueCriterion: _build_abo,
    views.RangeCriterion: _build_emperor,
    views.NimProductCriterion: _build_turtles,
}
