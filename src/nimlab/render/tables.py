"""Grundy and outcome tables: computing them, and exporting them for papers and notebooks.

A table is a numpy array indexed by heap sizes: ``a[x, y]`` is the value of the position
``(x, y)``. Grundy tables hold Grundy values; outcome and misère tables hold ``0`` for a
P-position and ``1`` for an N-position (so that, as for Grundy values, 0 means P). Cells
that are not positions of the game (a heap of 0 where heaps are positive, equal heaps in
Welter's game) are masked (a ``numpy.ma.MaskedArray``) and shown empty.

The exporters take any such array (or nested lists) and return text: CSV, JSON, Markdown,
HTML and LaTeX (a ``tabular`` that compiles as is). :class:`TableView` bundles an array with
its game, kind and axes, and renders itself in a terminal (rich) and in Jupyter.

Examples
--------
>>> from nimlab.render import table_view
>>> tv = table_view("nim", 4)
>>> tv.values.tolist()
[[0, 1, 2, 3], [1, 0, 3, 2], [2, 3, 0, 1], [3, 2, 1, 0]]
>>> print(tv.to_csv().strip())
x\\y,0,1,2,3
0,0,1,2,3
1,1,0,3,2
2,2,3,0,1
3,3,2,1,0
"""

from __future__ import annotations

import html
import io
import itertools
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TextIO

import numpy as np
import numpy.typing as npt

from nimlab.core.errors import (
    InvalidParameterError,
    InvalidPositionError,
    SearchTooLargeError,
    WorkTooLargeError,
)

if TYPE_CHECKING:
    from rich.table import Table

    from nimlab.core.ruleset import Ruleset

__all__ = [
    "DEFAULT_MAX_CELLS",
    "KINDS",
    "TableView",
    "check_cells",
    "compute_table",
    "parse_highlight",
    "table_to_csv",
    "table_to_html",
    "table_to_json",
    "table_to_latex",
    "table_to_markdown",
    "table_view",
    "write_table_csv",
    "write_table_json",
]

Kind = Literal["grundy", "outcome", "misere"]
KINDS: tuple[str, ...] = ("grundy", "outcome", "misere")
Highlight = Literal["p"] | int | None

#: largest number of cells the pure-Python fallback computes (when nimlab.table is absent)
FALLBACK_MAX_CELLS = 1_000_000
#: Tables have 1 to this many heaps (grids show 1 to 3; more are summarised).
MAX_HEAPS = 6
#: largest table shown in a terminal or notebook (rows and columns); exports have no limit
DISPLAY_MAX = 48
#: default budget of cells of :func:`table_view` (and ``nimlab table``): a 5000 x 5000 or
#: 292^3 box, computed and exported in well under a minute; ``max_cells`` raises it
DEFAULT_MAX_CELLS = 25_000_000


def _check_kind(kind: str) -> Kind:
    if kind not in KINDS:
        raise InvalidParameterError(
            f"unknown table kind {kind!r}: choose one of {', '.join(KINDS)}"
        )
    return kind  # type: ignore[return-value]


def _as_game(game: Ruleset[Any] | str) -> Ruleset[Any]:
    if isinstance(game, str):
        import nimlab

        return nimlab.game(game)
    return game


def default_heaps(game: Ruleset[Any]) -> int:
    """Number of heaps of a table of *game*: its fixed heap count, else 2.

    Examples
    --------
    >>> import nimlab
    >>> default_heaps(nimlab.game("wythoff")), default_heaps(nimlab.game("nim"))
    (2, 2)
    >>> default_heaps(nimlab.game("subtraction", S={1, 2}))
    1
    """
    n = getattr(game, "n_heaps", None)
    return n if isinstance(n, int) and 1 <= n <= MAX_HEAPS else 2


def compute_table(
    game: Ruleset[Any] | str,
    shape: int | Sequence[int],
    *,
    kind: str = "grundy",
    max_bytes: int | None = None,
    progress: bool = False,
) -> npt.NDArray[Any]:
    """The table of *game* over the box ``0 <= heap_i < shape[i]``.

    Uses the fast engine ``nimlab.table`` when it is available, else the exact solver
    cell by cell (with a shared memo; limited to ``FALLBACK_MAX_CELLS`` cells).

    Parameters
    ----------
    game : Ruleset or str
        The game.
    shape : int or sequence of int
        Box size per heap (one to six heaps); an int means a 2-heap square box.
    kind : {"grundy", "outcome", "misere"}
        Grundy values, or normal / misère outcomes (0 = P, 1 = N).
    max_bytes : int, optional
        Memory budget of the engine (``nimlab.table``'s ``max_bytes``; its default when
        None), checked before any work.
    progress : bool
        Show a progress bar on a terminal while a long table is computed.

    Returns
    -------
    numpy.ndarray
        The table, indexed by heap sizes.

    Examples
    --------
    >>> compute_table("wythoff", (3, 4)).tolist()
    [[0, 1, 2, 3], [1, 2, 0, 4], [2, 0, 1, 5]]
    >>> compute_table("nim", (2, 2), kind="misere").tolist()
    [[1, 0], [0, 1]]
    """
    g = _as_game(game)
    k = _check_kind(kind)
    box = _check_shape(shape)
    import nimlab

    if hasattr(nimlab, "table"):
        opts: dict[str, Any] = {"progress": progress}
        if max_bytes is not None:
            opts["max_bytes"] = max_bytes
        arr: npt.NDArray[Any] = np.ma.asanyarray(nimlab.table(g, box, kind=k, **opts))
        if not np.ma.is_masked(arr):
            arr = np.ma.getdata(arr)
        return _normalise_outcome(arr, k)
    return _fallback_table(g, box, k)


def _check_shape(shape: int | Sequence[int]) -> tuple[int, ...]:
    box = (shape, shape) if isinstance(shape, int) else tuple(shape)
    if not 1 <= len(box) <= MAX_HEAPS or any(
        not isinstance(n, int) or isinstance(n, bool) or n < 1 for n in box
    ):
        raise InvalidParameterError(
            f"a table shape is one to {MAX_HEAPS} positive sizes (one per heap), got {shape!r}"
        )
    return box


def _normalise_outcome(arr: npt.NDArray[Any], kind: Kind) -> npt.NDArray[Any]:
    """Outcome tables as uint8 with 0 = P, 1 = N, whatever the engine's encoding
    (masks are kept)."""
    if kind == "grundy":
        return arr
    data = np.ma.getdata(arr)
    if data.dtype == np.bool_:
        # a boolean outcome table marks P-positions with True
        out: npt.NDArray[Any] = (~data).astype(np.uint8)
    else:
        out = (data != ("P" if data.dtype.kind in "US" else 0)).astype(np.uint8)
    if np.ma.is_masked(arr):
        return np.ma.MaskedArray(out, mask=np.ma.getmaskarray(arr))
    return out


def _fallback_table(g: Ruleset[Any], box: tuple[int, ...], kind: Kind) -> npt.NDArray[Any]:
    import nimlab

    cells = int(np.prod(box))
    if cells > FALLBACK_MAX_CELLS:
        raise SearchTooLargeError(
            f"a {'x'.join(map(str, box))} table has {cells:,} cells, more than the "
            f"{FALLBACK_MAX_CELLS:,} the exact solver computes cell by cell; "
            "use a smaller --size (the fast engine nimlab.table lifts this limit)"
        )
    solver = nimlab.Solver(g)
    out = np.zeros(box, dtype=np.int64)
    mask = np.zeros(box, dtype=np.bool_)
    for idx in itertools.product(*(range(n) for n in box)):
        try:
            pos = g.validate(tuple(idx))
        except InvalidPositionError:
            mask[idx] = True
            continue
        if kind == "grundy":
            out[idx] = solver.grundy(pos)
        else:
            out[idx] = 0 if solver.is_p(pos, kind == "misere") else 1
    if mask.all():
        raise InvalidParameterError(
            f"{g.label()}: no position of the box {box} is valid for this game"
        )
    res = out.astype(np.uint8 if kind != "grundy" or out.max(initial=0) < 256 else np.uint32)
    return np.ma.MaskedArray(res, mask=mask) if mask.any() else res


# -- cells and labels -----------------------------------------------------------------


def parse_highlight(text: str | None) -> Highlight:
    """Read a ``--highlight`` value: ``p`` (P-positions), a Grundy value, or nothing.

    Examples
    --------
    >>> parse_highlight("p"), parse_highlight("3"), parse_highlight(None)
    ('p', 3, None)
    """
    if text is None or text.strip().lower() in ("", "none"):
        return None
    t = text.strip().lower()
    if t in ("p", "P"):
        return "p"
    try:
        v = int(t)
    except ValueError:
        raise InvalidParameterError(
            f"cannot read highlight {text!r}: write p (P-positions) or a value like 2"
        ) from None
    if v < 0:
        raise InvalidParameterError(f"highlight value must be >= 0, got {v}")
    return v


def _cell(v: Any, kind: str) -> str:
    if v is None or v is np.ma.masked:
        return ""
    if kind == "grundy":
        return str(int(v))
    return "P" if int(v) == 0 else "N"


def _is_marked(v: Any, highlight: Highlight) -> bool:
    if highlight is None or v is None or v is np.ma.masked:
        return False
    if highlight == "p":
        return int(v) == 0
    return int(v) == highlight


def _matrix(array: Any) -> tuple[npt.NDArray[Any], list[str], list[str], str]:
    """A 2-D view of a 1-D or 2-D table with row labels, column labels, corner."""
    a = np.ma.asanyarray(array) if isinstance(array, np.ma.MaskedArray) else np.asarray(array)
    if a.ndim == 1:
        return a.reshape(1, -1), ["G"], [str(i) for i in range(a.shape[0])], "n"
    if a.ndim == 2:
        return (
            a,
            [str(i) for i in range(a.shape[0])],
            [str(j) for j in range(a.shape[1])],
            "x \\ y",
        )
    raise InvalidParameterError(
        f"this export shows 1- or 2-dimensional tables, got {a.ndim} dimensions; "
        "choose a slice of a 3-heap table (--slice Z)"
    )


# -- exporters ------------------------------------------------------------------------


def table_to_csv(array: Any, *, kind: str = "grundy") -> str:
    """CSV text: a matrix with heap-size headers (2-D), ``n,value`` rows (1-D), or
    ``x,y,z,value`` rows (3-D).

    Examples
    --------
    >>> print(table_to_csv([[0, 1], [1, 0]], kind="outcome").strip())
    x\\y,0,1
    0,P,N
    1,N,P
    >>> print(table_to_csv([0, 1, 2]).strip())
    n,value
    0,0
    1,1
    2,2
    """
    buf = io.StringIO()
    write_table_csv(array, buf, kind=kind)
    return buf.getvalue()


def _as_table(array: Any) -> npt.NDArray[Any]:
    return np.ma.asanyarray(array) if isinstance(array, np.ma.MaskedArray) else np.asarray(array)


def _cells(row: Any, kind: str) -> list[str]:
    """One row of a table as cell texts (empty where masked), without a Python call per
    cell: exports of millions of cells stay fast."""
    data = np.ma.getdata(row)
    if kind == "grundy":
        out = [str(v) for v in data.astype(np.int64).tolist()]
    else:
        out = np.where(data.astype(np.int64) == 0, "P", "N").tolist()
    mask = np.ma.getmaskarray(row) if isinstance(row, np.ma.MaskedArray) else None
    if mask is not None and mask.any():
        for j in np.flatnonzero(mask).tolist():
            out[j] = ""
    return out


def _export_bar(label: str, total: int, progress: bool) -> Any:
    from nimlab._progress import Progress

    return Progress(label, total, "rows", enabled=progress)


def write_table_csv(
    array: Any, file: TextIO, *, kind: str = "grundy", progress: bool = False
) -> None:
    """Write :func:`table_to_csv`'s text to *file* row by row (a table of any size, in
    little memory; with *progress*, a progress bar of the rows on a terminal).

    Examples
    --------
    >>> import io
    >>> buf = io.StringIO()
    >>> write_table_csv([[0, 1], [1, 0]], buf)
    >>> buf.getvalue().splitlines()
    ['x\\\\y,0,1', '0,0,1', '1,1,0']
    """
    k = _check_kind(kind)
    a = _as_table(array)
    if a.ndim == 1:
        file.write("n,value\n")
        for i, v in enumerate(_cells(a, k)):
            file.write(f"{i},{v}\n")
        return
    if a.ndim not in (2, 3):
        raise InvalidParameterError(f"tables have 1 to 3 dimensions, got {a.ndim}")
    bar = _export_bar("writing CSV", a.shape[0], progress)
    try:
        if a.ndim == 2:
            file.write("x\\y," + ",".join(str(j) for j in range(a.shape[1])) + "\n")
            for i in range(a.shape[0]):
                file.write(f"{i}," + ",".join(_cells(a[i], k)) + "\n")
                bar.update(i + 1)
            return
        file.write("x,y,z,value\n")
        for x in range(a.shape[0]):
            for y in range(a.shape[1]):
                head = f"{x},{y},"
                file.write("".join(f"{head}{z},{v}\n" for z, v in enumerate(_cells(a[x, y], k))))
            bar.update(x + 1)
    finally:
        bar.close()


def write_table_json(
    array: Any,
    file: TextIO,
    *,
    kind: str = "grundy",
    progress: bool = False,
    **meta: Any,
) -> None:
    """Write :func:`table_to_json`'s text to *file* row by row (the same text, in little
    memory; with *progress*, a progress bar of the rows on a terminal).

    Examples
    --------
    >>> import io
    >>> buf = io.StringIO()
    >>> write_table_json([[0, 1], [1, 0]], buf, game="nim")
    >>> buf.getvalue() == table_to_json([[0, 1], [1, 0]], game="nim")
    True
    """
    k = _check_kind(kind)
    a = _as_table(array)
    head = dict(meta)
    head.update({"kind": k, "shape": list(a.shape), "values": None})
    text = json.dumps(head)
    before, _, after = text.rpartition("null")
    file.write(before)

    def cell_row(row: Any) -> str:
        if k == "grundy":
            vals: list[Any] = np.ma.getdata(row).astype(np.int64).tolist()
        else:
            vals = np.where(np.ma.getdata(row) == 0, "P", "N").tolist()
        if isinstance(row, np.ma.MaskedArray):
            for j in np.flatnonzero(np.ma.getmaskarray(row)).tolist():
                vals[j] = None
        return json.dumps(vals)

    if a.ndim <= 1:
        file.write(cell_row(a))
    else:
        bar = _export_bar("writing JSON", a.shape[0], progress)
        try:
            file.write("[")
            for i in range(a.shape[0]):
                if i:
                    file.write(", ")
                if a.ndim == 2:
                    file.write(cell_row(a[i]))
                else:
                    file.write("[" + ", ".join(cell_row(r) for r in a[i]) + "]")
                bar.update(i + 1)
            file.write("]")
        finally:
            bar.close()
    file.write(after)


def table_to_json(array: Any, *, kind: str = "grundy", **meta: Any) -> str:
    """JSON text: ``{"kind", "shape", "values", ...meta}``; outcome cells are ``"P"``/``"N"``.

    Examples
    --------
    >>> table_to_json([[0, 1], [1, 0]], game="nim")
    '{"game": "nim", "kind": "grundy", "shape": [2, 2], "values": [[0, 1], [1, 0]]}'
    """
    return json.dumps(_table_dict(array, kind, meta))


def _table_dict(array: Any, kind: str, meta: dict[str, Any]) -> dict[str, Any]:
    k = _check_kind(kind)
    a = np.ma.asanyarray(array) if isinstance(array, np.ma.MaskedArray) else np.asarray(array)
    if k == "grundy":
        values: Any = a.tolist()  # masked cells (not positions) become null
    else:
        pn = np.where(np.ma.getdata(a) == 0, "P", "N").astype(object)
        pn[np.ma.getmaskarray(a)] = None
        values = pn.tolist()
    out: dict[str, Any] = dict(meta)
    out.update({"kind": k, "shape": list(a.shape), "values": values})
    return out


def table_to_markdown(array: Any, *, kind: str = "grundy", highlight: Highlight = "p") -> str:
    """A Markdown table; highlighted cells (P-positions by default) in bold.

    Examples
    --------
    >>> print(table_to_markdown([[0, 1], [1, 0]], highlight=1))
    | x \\ y | 0 | 1 |
    |---|---|---|
    | **0** | 0 | **1** |
    | **1** | **1** | 0 |
    """
    k = _check_kind(kind)
    a, rows, cols, corner = _matrix(array)
    lines = [
        "| " + " | ".join([corner, *cols]) + " |",
        "|" + "---|" * (len(cols) + 1),
    ]
    for label, row in zip(rows, a.tolist(), strict=True):
        cells = [f"**{_cell(v, k)}**" if _is_marked(v, highlight) else _cell(v, k) for v in row]
        lines.append("| " + " | ".join([f"**{label}**", *cells]) + " |")
    return "\n".join(lines)


def table_to_latex(
    array: Any,
    *,
    kind: str = "grundy",
    highlight: Highlight = None,
    corner: str | None = None,
    document: bool = False,
) -> str:
    r"""A LaTeX ``tabular`` of the table that compiles as is (no packages needed).

    Rows are the first heap, columns the second; highlighted cells (``"p"`` for
    P-positions, or a value) are set in bold.

    Parameters
    ----------
    array : array-like
        A 1-D or 2-D table.
    kind : {"grundy", "outcome", "misere"}
        How to print cells (values, or P/N).
    highlight : "p", int or None
        Cells to set in bold.
    corner : str, optional
        LaTeX of the top-left cell (default ``$x \backslash y$``, ``$n$`` for 1-D).
    document : bool
        Wrap the tabular in a minimal ``article`` document.

    Examples
    --------
    >>> print(table_to_latex([[0, 1], [1, 0]], highlight="p"))
    \begin{tabular}{c|cc}
    $x \backslash y$ & 0 & 1 \\
    \hline
    0 & \textbf{0} & 1 \\
    1 & 1 & \textbf{0} \\
    \end{tabular}
    """
    k = _check_kind(kind)
    a, rows, cols, default_corner = _matrix(array)
    if corner is None:
        corner = "$x \\backslash y$" if default_corner.startswith("x") else "$n$"
    lines = [
        "\\begin{tabular}{c|" + "c" * len(cols) + "}",
        " & ".join([corner, *cols]) + " \\\\",
        "\\hline",
    ]
    for label, row in zip(rows, a.tolist(), strict=True):
        cells = [
            f"\\textbf{{{_cell(v, k)}}}" if _is_marked(v, highlight) else _cell(v, k) for v in row
        ]
        lines.append(" & ".join([label, *cells]) + " \\\\")
    lines.append("\\end{tabular}")
    body = "\n".join(lines)
    if document:
        return (
            "\\documentclass{article}\n\\usepackage[margin=1cm,landscape]{geometry}\n"
            "\\begin{document}\n" + body + "\n\\end{document}\n"
        )
    return body


_PALETTE = (
    "#e6f2ff",
    "#d9f2d9",
    "#fff2cc",
    "#fde0dd",
    "#e8e0f5",
    "#d5f0f0",
    "#f5e6d3",
    "#eeeeee",
)


def table_to_html(
    array: Any,
    *,
    kind: str = "grundy",
    highlight: Highlight = "p",
    caption: str | None = None,
    max_size: int = DISPLAY_MAX,
) -> str:
    """An HTML table for notebooks: P-positions (or the highlighted value) dark, other
    values on pale colours; larger tables are cut to ``max_size`` rows and columns.

    Examples
    --------
    >>> "<table" in table_to_html([[0, 1], [1, 0]])
    True
    """
    k = _check_kind(kind)
    a, rows, cols, corner = _matrix(array)
    cut = a.shape[0] > max_size or a.shape[1] > max_size
    a = a[:max_size, :max_size]
    td = "padding:1px 4px;text-align:right;font-family:monospace;border:1px solid #ddd"
    out = ['<table style="border-collapse:collapse;font-size:11px">']
    if caption or cut:
        note = f" (first {max_size} rows and columns)" if cut else ""
        out.append(f"<caption>{html.escape(caption or '')}{note}</caption>")
    out.append(
        "<tr>"
        + "".join(
            f'<th style="{td};background:#f4f4f4">{html.escape(c)}</th>'
            for c in [corner, *cols[: a.shape[1]]]
        )
        + "</tr>"
    )
    for label, row in zip(rows, a.tolist(), strict=False):
        tds = []
        for v in row:
            if _is_marked(v, highlight):
                style = f"{td};background:#222;color:#fff;font-weight:bold"
            else:
                style = (
                    f"{td};background:#fff"
                    if v is None
                    else f"{td};background:{_PALETTE[int(v) % len(_PALETTE)]}"
                )
            tds.append(f'<td style="{style}">{_cell(v, k)}</td>')
        out.append(f'<tr><th style="{td};background:#f4f4f4">{label}</th>{"".join(tds)}</tr>')
    out.append("</table>")
    return "".join(out)


_RICH_STYLES = ("cyan", "green", "yellow", "magenta", "blue", "red", "bright_cyan", "white")


def table_to_rich(
    array: Any,
    *,
    kind: str = "grundy",
    highlight: Highlight = "p",
    title: str | None = None,
    max_size: int = DISPLAY_MAX,
    width: int | None = None,
) -> Table:
    """A rich :class:`~rich.table.Table`: values coloured, P-positions reverse bold.

    At most *max_size* rows and columns are shown, and no more columns than fit in
    *width* characters when given; a caption says what was cut.

    Examples
    --------
    >>> t = table_to_rich([[0, 1], [1, 0]])
    >>> t.row_count, len(t.columns)
    (2, 3)
    >>> t = table_to_rich([[7] * 30] * 3, width=40)
    >>> len(t.columns) - 1, t.caption
    (6, 'rows 0..2 and columns 0..5 of a 3 x 30 table; export with --csv or --png for all')
    """
    from rich.table import Table

    k = _check_kind(kind)
    a, rows, cols, corner = _matrix(array)
    n_rows, n_cols = a.shape
    max_cols = max_size
    if width is not None:
        cell = max(len(c) for c in cols) if k == "grundy" else 1
        if k == "grundy" and a.size:
            cell = max(cell, len(str(int(a.max()))))
        max_cols = max(1, min(max_cols, (width - len(corner) - 4) // (cell + 3)))
    a = a[:max_size, :max_cols]
    caption = None
    if a.shape != (n_rows, n_cols):
        caption = (
            f"rows 0..{a.shape[0] - 1} and columns 0..{a.shape[1] - 1} of a {n_rows} x "
            f"{n_cols} table; export with --csv or --png for all"
        )
    t = Table(title=title, caption=caption, show_lines=False, padding=(0, 1))
    t.add_column(corner, justify="right", style="bold")
    for c in cols[: a.shape[1]]:
        t.add_column(c, justify="right")
    for label, row in zip(rows, a.tolist(), strict=False):
        cells = []
        for v in row:
            s = _cell(v, k)
            if v is None:
                cells.append("[dim]·[/]")
            elif _is_marked(v, highlight):
                cells.append(f"[bold reverse]{s}[/]")
            else:
                cells.append(f"[{_RICH_STYLES[int(v) % len(_RICH_STYLES)]}]{s}[/]")
        t.add_row(label, *cells)
    return t


# -- the typed view -------------------------------------------------------------------


@dataclass
class TableView:
    """A table with its game, kind and axes, for terminals, notebooks and files.

    Attributes
    ----------
    array : numpy.ndarray
        The whole table (1 to 3 dimensions, indexed by heap sizes).
    game : str
        The game's label with parameters (``ryuo(p=3)``).
    kind : {"grundy", "outcome", "misere"}
        What the cells hold.
    slice_z : int or None
        For 3-heap tables, the third heap's size shown by 2-D views.
    """

    array: npt.NDArray[Any]
    game: str
    kind: str = "grundy"
    slice_z: int | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    #: For a 2-D slice of a table of 4 to 6 heaps: the sizes of heaps 3, 4, ... (fixed).
    fixed: tuple[int, ...] = ()

    @property
    def values(self) -> npt.NDArray[Any]:
        """The table as shown: the array, or its slice ``[:, :, z]`` for 3 heaps."""
        if self.array.ndim == 3:
            return self.array[:, :, self.slice_z or 0]
        return self.array

    @property
    def title(self) -> str:
        """``ryuo(p=3): Grundy values, x, y = 0..8`` and the like."""
        what = {
            "grundy": "Grundy values",
            "outcome": "outcomes",
            "misere": "misère outcomes",
        }[self.kind]
        shape = self.array.shape
        if len(shape) == 1:
            where = f"n = 0..{shape[0] - 1}"
        else:
            where = f"x = 0..{shape[0] - 1}, y = 0..{shape[1] - 1}"
            if len(shape) == 3:
                where += f", z = {self.slice_z or 0}"
            if self.fixed:
                last = len(self.fixed) + 2
                names = "heap 3" if last == 3 else f"heaps 3..{last}"
                where += f"; {names} = " + ", ".join(map(str, self.fixed))
        return f"{self.game}: {what}, {where}"

    @property
    def p_count(self) -> int:
        """Number of P-positions in the shown table."""
        zero = np.ma.getdata(self.values) == 0
        return int(np.count_nonzero(zero & ~np.ma.getmaskarray(self.values)))

    def to_csv(self) -> str:
        """CSV text (the whole 3-D table in long form when no slice was chosen)."""
        whole = self.array.ndim == 3 and self.slice_z is None
        return table_to_csv(self.array if whole else self.values, kind=self.kind)

    def write_csv(self, path: str | Path, *, progress: bool = False) -> Path:
        """Write :meth:`to_csv`'s text to *path*, row by row (little memory; with
        *progress*, a progress bar on a terminal)."""
        whole = self.array.ndim == 3 and self.slice_z is None
        return _write_file(
            path, lambda f: write_table_csv(
                self.array if whole else self.values, f, kind=self.kind, progress=progress
            ),
        )  # fmt: skip

    def write_json(self, file: str | Path | TextIO, *, progress: bool = False) -> None:
        """Write :meth:`to_json`'s text to a path or an open text file, row by row."""
        whole = self.array.ndim == 3 and self.slice_z is None
        meta: dict[str, Any] = {"game": self.game, **self.meta}
        if self.array.ndim == 3:
            meta["slice_z"] = self.slice_z
        data = self.array if whole else self.values

        def write(f: TextIO) -> None:
            write_table_json(data, f, kind=self.kind, progress=progress, **meta)

        if isinstance(file, (str, Path)):

            def write_line(f: TextIO) -> None:
                write(f)
                f.write("\n")

            _write_file(file, write_line)
        else:
            write(file)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict with game, kind, shape, slice and values."""
        whole = self.array.ndim == 3 and self.slice_z is None
        meta: dict[str, Any] = {"game": self.game, **self.meta}
        if self.array.ndim == 3:
            meta["slice_z"] = self.slice_z
        return _table_dict(self.array if whole else self.values, self.kind, meta)

    def to_json(self) -> str:
        """JSON text of :meth:`to_dict`."""
        return json.dumps(self.to_dict())

    def to_markdown(self, highlight: Highlight = "p") -> str:
        """Markdown table (P-positions in bold by default)."""
        return table_to_markdown(self.values, kind=self.kind, highlight=highlight)

    def to_latex(self, highlight: Highlight = None, *, document: bool = False) -> str:
        """LaTeX ``tabular`` (see :func:`table_to_latex`)."""
        return table_to_latex(self.values, kind=self.kind, highlight=highlight, document=document)

    def heatmap(self, path: str | Path, **kwargs: Any) -> Path:
        """Write a PNG or SVG heatmap (see :func:`nimlab.render.heatmap`)."""
        from nimlab.render.heatmaps import heatmap

        kwargs.setdefault("title", self.title)
        kwargs.setdefault("kind", self.kind)
        data = self.array if self.array.ndim == 3 and self.slice_z is None else self.values
        return heatmap(data, path, **kwargs)

    def to_rich(
        self, highlight: Highlight = "p", *, width: int | None = None, title: bool = True
    ) -> Table:
        """A rich table for the terminal (columns cut to *width* characters if given)."""
        return table_to_rich(
            self.values,
            kind=self.kind,
            highlight=highlight,
            title=self.title if title else None,
            width=width,
        )

    def __rich__(self) -> Table:
        return self.to_rich()

    def _repr_html_(self) -> str:
        return table_to_html(self.values, kind=self.kind, caption=self.title)


def _write_file(path: str | Path, write: Any) -> Path:
    """Open a checked output path and let *write* fill it; OS failures are one clear error."""
    from nimlab.core.errors import OutputPathError
    from nimlab.core.paths import output_path

    p = output_path(path)
    try:
        with open(p, "w", encoding="utf-8", newline="") as f:
            write(f)
    except OSError as exc:
        raise OutputPathError(f"cannot write the output to {path}: {exc.strerror}") from None
    return p


def check_cells(label: str, shape: Sequence[int], max_cells: int) -> None:
    """Refuse a table of more than *max_cells* cells before any work (WorkTooLargeError).

    Examples
    --------
    >>> check_cells("wythoff", (20000, 20000), 25_000_000)
    Traceback (most recent call last):
    ...
    nimlab.core.errors.WorkTooLargeError: wythoff: a 20000x20000 table has 400,000,000 cells (about 763 MiB of values, and more to export them), more than the budget of 25,000,000 cells; use a smaller --size, or raise the budget (--max-cells N, max_cells=N): a long run shows its progress and stops on Ctrl-C
    """
    if isinstance(max_cells, bool) or not isinstance(max_cells, int) or max_cells < 1:
        from nimlab.core.errors import InvalidArgumentError

        raise InvalidArgumentError(f"max_cells must be an integer >= 1, got {max_cells!r:.40}")
    cells = 1
    for n in shape:
        cells *= int(n)
    if cells > max_cells:
        mib = cells * 2 / 2**20
        raise WorkTooLargeError(
            f"{label}: a {'x'.join(str(n) for n in shape)} table has {cells:,} cells (about "
            f"{mib:,.0f} MiB of values, and more to export them), more than the budget of "
            f"{max_cells:,} cells; use a smaller --size, or raise the budget (--max-cells N, "
            "max_cells=N): a long run shows its progress and stops on Ctrl-C"
        )


def table_view(
    game: Ruleset[Any] | str,
    size: int | Sequence[int],
    *,
    kind: str = "grundy",
    heaps: int | None = None,
    slice_z: int | None = None,
    max_cells: int = DEFAULT_MAX_CELLS,
    progress: bool = False,
    max_bytes: int | None = None,
) -> TableView:
    """Compute the table of *game* and wrap it in a :class:`TableView`.

    Parameters
    ----------
    game : Ruleset or str
        The game.
    size : int or sequence of int
        Heap sizes ``0..size-1`` on every axis, or one size per heap.
    kind : {"grundy", "outcome", "misere"}
        Grundy values or outcomes.
    heaps : int, optional
        Number of heaps (1, 2 or 3); default: the game's fixed heap count, else 2.
    slice_z : int, optional
        For 3 heaps, the third heap's size shown by 2-D views.
    max_cells : int
        Budget of cells, checked before any work (:class:`WorkTooLargeError` beyond it).
    progress : bool
        Show a progress bar on a terminal while a long table is computed.
    max_bytes : int, optional
        Memory budget of the engine (see :func:`compute_table`).

    Examples
    --------
    >>> tv = table_view("nim", 4, heaps=3, slice_z=1)
    >>> tv.values.tolist()[0]
    [1, 0, 3, 2]
    >>> tv.title
    'nim: Grundy values, x = 0..3, y = 0..3, z = 1'
    """
    g = _as_game(game)
    n = default_heaps(g) if heaps is None else heaps
    if n not in (1, 2, 3):
        raise InvalidParameterError(f"tables have 1, 2 or 3 heaps, got {n}")
    shape = (size,) * n if isinstance(size, int) else tuple(size)
    if len(shape) != n:
        raise InvalidParameterError(f"{n} heaps need {n} sizes, got {len(shape)}")
    if slice_z is not None:
        if n != 3:
            raise InvalidParameterError("--slice Z applies to 3-heap tables (--heaps 3)")
        if not 0 <= slice_z < shape[2]:
            raise InvalidParameterError(
                f"slice z = {slice_z} is outside the table (0..{shape[2] - 1})"
            )
    k = _check_kind(kind)
    if all(isinstance(n, int) and not isinstance(n, bool) and n >= 1 for n in shape):
        check_cells(g.label(), shape, max_cells)
    arr = compute_table(g, shape, kind=k, progress=progress, max_bytes=max_bytes)
    return TableView(arr, g.label(), k, slice_z)
