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

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import numpy as np
import numpy.typing as npt

from nimlab.core.errors import (
    InvalidParameterError,
    WorkTooLargeError,
)
from nimlab.render.exports import (
    KINDS,
    Highlight,
    Kind,
    _check_kind,
    _table_dict,
    parse_highlight,
    table_to_csv,
    table_to_html,
    table_to_json,
    table_to_latex,
    table_to_markdown,
    table_to_rich,
    write_table_csv,
    write_table_json,
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


#: Tables have 1 to this many heaps (grids show 1 to 3; more are summarised).
MAX_HEAPS = 6
#: default budget of cells of :func:`table_view` (and ``nimlab table``): a 5000 x 5000 or
#: 292^3 box, computed and exported in well under a minute; ``max_cells`` raises it
DEFAULT_MAX_CELLS = 25_000_000


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

    Computed by :func:`nimlab.table` (the game's kernel, the compiled engine or the
    exact search, as the planner chooses); outcomes normalised to 0 = P, 1 = N.

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

    opts: dict[str, Any] = {"progress": progress}
    if max_bytes is not None:
        opts["max_bytes"] = max_bytes
    arr: npt.NDArray[Any] = np.ma.asanyarray(nimlab.table(g, box, kind=k, **opts))
    if not np.ma.is_masked(arr):
        arr = np.ma.getdata(arr)
    return _normalise_outcome(arr, k)


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
