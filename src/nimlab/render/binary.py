"""Binary views: heaps written in binary, digit under digit, with what the criterion reads.

As the papers print them ([S19] §1-3, [Sh] §6): one row per heap, padded with leading
zeros to a common width, then the quantity the game's theorem reads from the columns (the
nim-sum, digit sums mod k+1, the OR and its tail, 2-adic valuations, ...).

The game draws its rows through its ``binary_figure`` hook (a
:class:`~nimlab.core.views.BinaryFigure`, built in the game's own module); this module lays
them out as text, HTML or JSON. Other heap games get their heaps and the plain nim-sum,
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
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from nimlab.core.errors import InvalidPositionError, NimlabError
from nimlab.core.views import BinaryBlock, BinaryRow, heap_labels, pn, xor_rows

if TYPE_CHECKING:
    from nimlab.core.ruleset import Ruleset

__all__ = ["BinaryBlock", "BinaryRow", "BinaryView", "binary_view"]


@dataclass
class BinaryView:
    """Heaps in binary with the quantity the game's criterion reads.

    Attributes
    ----------
    game : str
        Game label with parameters.
    position : object
        The validated position.
    blocks, conclusion, grundy, is_p, theorem, legend
        What the game's :class:`~nimlab.core.views.BinaryFigure` holds (rows, verdict,
        values, result id, legend of the marks).
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


def binary_view(game: Ruleset[Any] | str, position: object) -> BinaryView:
    """The binary view of *position*: heaps in binary and the game's criterion.

    Parameters
    ----------
    game : Ruleset or str
        The game. Its ``binary_figure`` hook draws the rows of its criterion (Nim, Moore's
        Nim_k, Welter, Lim, Nimhoff, Delete Nim, Single-delete, ABO-delete, Emperor,
        Turning Turtles, or a user's game with the hook); other heap games show the plain
        nim-sum.
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

    from nimlab.catalog.registry import as_game

    g: Ruleset[Any] = as_game(game)
    pos = g.validate(position)
    fig = g.binary_figure(pos)
    if fig is None:
        if not (isinstance(pos, tuple) and all(isinstance(h, int) for h in pos)):
            raise NimlabError(
                f"{g.label()}: a binary view needs a position of heaps; this game's positions "
                f"look like {pos!r}"
            )
        return _plain_nim_sum(g, pos)
    return BinaryView(
        g.label(),
        pos,
        list(fig.blocks),
        fig.conclusion,
        fig.grundy,
        fig.is_p,
        fig.theorem,
        list(fig.legend),
    )


def _formula(g: Ruleset[Any], pos: Any) -> tuple[int | None, bool | None, str | None]:
    """Grundy value, P/N and the result behind them, from proved closed forms only (never
    a search)."""
    import nimlab

    value: int | None = None
    p: bool | None = None
    theorems: list[str | None] = []
    try:
        a = nimlab.answer(g, pos, method="formula")
        p, theorems = str(a.value) == "P", [a.theorem]
    except NimlabError:
        pass
    try:
        a = nimlab.answer(g, pos, kind="grundy", method="formula")
        value = a.value if isinstance(a.value, int) else None
        theorems.append(a.theorem)
    except NimlabError:
        pass
    if p is None and value is not None:
        p = value == 0
    return value, p, next((t for t in theorems if t), None)


def _plain_nim_sum(g: Ruleset[Any], pos: tuple[int, ...]) -> BinaryView:
    if not pos:
        raise InvalidPositionError(f"{g.label()}: an empty position has no binary view")
    rows, x = xor_rows(list(zip(heap_labels(len(pos)), pos, strict=True)))
    value, p, theorem = _formula(g, pos)
    verdict = "" if p is None else f"; {pn(p)} by {theorem or 'its closed form'}"
    return BinaryView(
        g.label(),
        pos,
        [BinaryBlock("", tuple(rows))],
        f"plain nim-sum {x} (not this game's criterion){verdict}",
        value,
        p,
        None,
    )
