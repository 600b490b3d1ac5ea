"""Exporting tables: CSV, JSON, Markdown, LaTeX, HTML and rich text.

Each exporter takes a table (a numpy array indexed by heap sizes, masked where a cell is
not a position, or nested lists) and returns text or writes a file row by row; a cell
holds a Grundy value or, for outcome kinds, 0 for P and 1 for N.
:class:`~nimlab.render.tables.TableView` calls them.
"""

from __future__ import annotations

import html
import io
import json
from typing import TYPE_CHECKING, Any, Literal, TextIO

import numpy as np
import numpy.typing as npt

from nimlab.core.errors import InvalidParameterError

if TYPE_CHECKING:
    from rich.table import Table

__all__ = [
    "DISPLAY_MAX",
    "KINDS",
    "parse_highlight",
    "table_to_csv",
    "table_to_html",
    "table_to_json",
    "table_to_latex",
    "table_to_markdown",
    "table_to_rich",
    "write_table_csv",
    "write_table_json",
]

Kind = Literal["grundy", "outcome", "misere"]
KINDS: tuple[str, ...] = ("grundy", "outcome", "misere")
Highlight = Literal["p"] | int | None

#: largest table shown in a terminal or notebook (rows and columns); exports have no limit
DISPLAY_MAX = 48


def _check_kind(kind: str) -> Kind:
    if kind not in KINDS:
        raise InvalidParameterError(
            f"unknown table kind {kind!r}: choose one of {', '.join(KINDS)}"
        )
    return kind  # type: ignore[return-value]


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
