"""Heatmaps of Grundy and outcome tables (PNG or SVG) with matplotlib's Agg backend.

matplotlib is imported here only, inside :func:`heatmap`. Large tables (4096 x 4096 and
beyond) are reduced before drawing: the image shows every ``s``-th row and column
(``s`` chosen so the image has about one cell per pixel), and a displayed cell is
black when its block holds a P-position, so P-positions stay visible at any size.
Memory is proportional to the table plus the image, never a float copy of the table.

Examples
--------
>>> import tempfile, pathlib
>>> from nimlab.render import compute_table, heatmap
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> p = heatmap(compute_table("wythoff", 16), d / "w.png", title="wythoff", size=(320, 300))
>>> p.read_bytes()[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from nimlab.core.errors import InvalidParameterError

__all__ = ["heatmap"]

_FORMATS = ("png", "svg")
_P_COLOUR = (0, 0, 0, 255)
_N_COLOUR = (225, 225, 225, 255)
_NONE_COLOUR = (255, 255, 255, 255)  # cells that are not positions of the game


def _lut(vmax: int, kind: str) -> npt.NDArray[np.uint8]:
    """Colour of each value 0..vmax as RGBA bytes; 0 (a P-position) is black."""
    from matplotlib import colormaps

    if kind != "grundy":
        return np.array([_P_COLOUR, _N_COLOUR], dtype=np.uint8)
    n = max(vmax, 1)
    if n <= 20:
        base = colormaps["tab20"]
        cols = [base(((i - 1) * 2 + (i - 1) // 10) % 20) for i in range(1, n + 1)]
    else:
        base = colormaps["viridis"]
        cols = [base(i / (n - 1)) for i in range(n)]
    lut = np.empty((n + 1, 4), dtype=np.uint8)
    lut[0] = _P_COLOUR
    lut[1:] = (np.asarray(cols) * 255).round().astype(np.uint8)
    return lut


def _reduce(
    a: npt.NDArray[Any], valid: npt.NDArray[np.bool_], step: int
) -> tuple[npt.NDArray[Any], npt.NDArray[np.bool_]]:
    """Every ``step``-th cell, and whether each ``step x step`` block holds a zero."""
    zero = (a == 0) & valid
    if step == 1:
        return a, zero
    shown = a[::step, ::step]
    starts0 = np.arange(0, a.shape[0], step)
    starts1 = np.arange(0, a.shape[1], step)
    block = np.logical_or.reduceat(np.logical_or.reduceat(zero, starts0, axis=0), starts1, axis=1)
    return shown, block


def _panel(
    fig: Any,
    ax: Any,
    a: npt.NDArray[Any],
    lut: npt.NDArray[np.uint8],
    kind: str,
    max_display: int,
    annotate: bool | None,
    subtitle: str | None,
) -> None:
    from matplotlib.ticker import MaxNLocator

    rows, cols = a.shape
    step = max(1, math.ceil(max(rows, cols) / max_display))
    invalid = np.ma.getmaskarray(a)
    data = np.ma.getdata(a)
    shown, p_block = _reduce(data, ~invalid, step)
    idx = np.minimum(shown, len(lut) - 1) if kind == "grundy" else (shown != 0)
    rgba = lut[idx.astype(np.intp)]
    rgba[invalid[::step, ::step]] = _NONE_COLOUR
    rgba[p_block] = _P_COLOUR
    h, w = shown.shape
    ax.imshow(
        rgba,
        interpolation="nearest",
        extent=(-0.5, w * step - 0.5, h * step - 0.5, -0.5),
        aspect="auto" if rows == 1 else "equal",
    )
    ax.set_xlim(-0.5, cols - 0.5)
    ax.set_ylim(rows - 0.5, -0.5)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    if rows == 1:
        ax.set_yticks([])
        ax.set_xlabel("n (heap size)")
    else:
        ax.set_xlabel("y (second heap)")
        ax.set_ylabel("x (first heap)")
    ax.xaxis.set_label_position("top")
    ax.xaxis.tick_top()
    if subtitle:
        ax.set_title(subtitle, fontsize=9, pad=22)
    if annotate is None:
        annotate = step == 1 and max(rows, cols) <= 24
    if annotate and step == 1:
        for (i, j), v in np.ndenumerate(data):
            if invalid[i, j]:
                continue
            text = str(int(v)) if kind == "grundy" else ("P" if v == 0 else "N")
            ax.text(
                j,
                i,
                text,
                ha="center",
                va="center",
                fontsize=7 if max(rows, cols) > 12 else 9,
                color="white" if v == 0 else "black",
                fontweight="bold" if v == 0 else "normal",
            )
    if step > 1:
        ax.text(
            1.0,
            -0.02,
            f"every {step}th heap size shown; black: block holds a P-position",
            transform=ax.transAxes,
            ha="right",
            va="top",
            fontsize=7,
            color="#555",
        )


def _legend(fig: Any, axes: Sequence[Any], lut: npt.NDArray[np.uint8], kind: str) -> None:
    from matplotlib.colors import BoundaryNorm, ListedColormap, Normalize
    from matplotlib.patches import Patch

    if kind != "grundy":
        handles = [
            Patch(color="#000000", label="P"),
            Patch(color="#e1e1e1", label="N"),
        ]
        fig.legend(handles=handles, loc="lower right", fontsize=8, frameon=False)
        return
    n = len(lut)
    from matplotlib.cm import ScalarMappable
    from matplotlib.ticker import MaxNLocator

    if n <= 21:
        cmap = ListedColormap(lut / 255.0)
        sm = ScalarMappable(norm=BoundaryNorm(np.arange(-0.5, n + 0.5), n), cmap=cmap)
        cb = fig.colorbar(sm, ax=list(axes), shrink=0.8, pad=0.02)
        cb.set_ticks(list(range(n)))
        cb.set_ticklabels(["0 (P)", *(str(i) for i in range(1, n))])
    else:
        # many values: a continuous bar over the same colours (one patch, not n)
        sm = ScalarMappable(norm=Normalize(0, n - 1), cmap=ListedColormap(lut / 255.0))
        cb = fig.colorbar(sm, ax=list(axes), shrink=0.8, pad=0.02)
        cb.locator = MaxNLocator(integer=True)
        cb.update_ticks()
    cb.set_label("Grundy value (black: P-position)", fontsize=8)
    cb.ax.tick_params(labelsize=7)


def _fix_svg_size(path: Path, size: tuple[int, int]) -> None:
    """Give the SVG root the requested size in pixels (its viewBox keeps the drawing)."""
    text = path.read_text(encoding="utf-8")
    m = re.search(r"<svg\b[^>]*>", text)
    if m is None:  # pragma: no cover - matplotlib always writes an svg root
        return
    tag = re.sub(r'\swidth="[^"]*"', f' width="{size[0]}px"', m.group(0), count=1)
    tag = re.sub(r'\sheight="[^"]*"', f' height="{size[1]}px"', tag, count=1)
    path.write_text(text[: m.start()] + tag + text[m.end() :], encoding="utf-8")


def heatmap(
    array: Any,
    path: str | Path,
    *,
    title: str | None = None,
    kind: str = "grundy",
    size: tuple[int, int] = (800, 800),
    dpi: int = 100,
    max_display: int | None = None,
    annotate: bool | None = None,
    slices: Sequence[int] | None = None,
) -> Path:
    """Write a heatmap of a table as PNG or SVG (chosen by the file suffix).

    Grundy values get a discrete colour map (one colour per value, a colour bar with the
    values), P-positions are black (and, for small tables, every cell shows its value);
    axes are labelled with heap sizes. 3-dimensional tables are drawn as slices
    ``z = const`` side by side.

    Parameters
    ----------
    array : array-like
        A 1-, 2- or 3-dimensional table (0 = P-position for every kind).
    path : str or Path
        Output file, ``.png`` or ``.svg``.
    title : str, optional
        Figure title (name the game and its parameters).
    kind : {"grundy", "outcome", "misere"}
        Grundy values, or outcome tables (0 = P, 1 = N).
    size : (int, int)
        Image width and height in pixels (SVG: its ``width``/``height`` in px).
    dpi : int
        Resolution of the PNG (figure size is ``size / dpi`` inches).
    max_display : int, optional
        Most rows/columns drawn per panel (default: the image's size in pixels).
    annotate : bool, optional
        Write the values in the cells (default: for tables up to 24 x 24).
    slices : sequence of int, optional
        For 3-dimensional tables, the values of z to draw (default: up to 4, evenly spaced).

    Returns
    -------
    Path
        The written file.

    Examples
    --------
    >>> import tempfile, pathlib, xml.etree.ElementTree as ET
    >>> from nimlab.render import compute_table
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "nim.svg"
    >>> _ = heatmap(compute_table("nim", 8), f, title="nim", size=(400, 380))
    >>> root = ET.parse(f).getroot()
    >>> root.get("width"), root.get("height")
    ('400px', '380px')
    """
    from nimlab.core.paths import output_path

    out = output_path(path, "heatmap")
    fmt = out.suffix.lower().lstrip(".")
    if fmt not in _FORMATS:
        raise InvalidParameterError(
            f"cannot write a heatmap to {out.name!r}: use a .png or .svg file name"
        )
    panels = _panels(array, kind, size, slices)
    fig = _figure(panels, kind, size, dpi, max_display, annotate)
    if title:
        import textwrap

        fig.suptitle(textwrap.fill(title, max(20, int(size[0] / 9.5))), fontsize=11)
    _save(fig, out, fmt, dpi, path)
    if fmt == "svg":
        _fix_svg_size(out, size)
    return out


def _panels(
    array: Any, kind: str, size: tuple[int, int], slices: Sequence[int] | None
) -> list[tuple[npt.NDArray[Any], str | None]]:
    """The checked panels of a heatmap: the table (1-D as one row), or slices of a 3-D one."""
    if kind not in ("grundy", "outcome", "misere"):
        raise InvalidParameterError(f"unknown table kind {kind!r}")
    w, h = size
    if w < 50 or h < 50 or w > 20000 or h > 20000:
        raise InvalidParameterError(f"image size must be 50..20000 pixels, got {w}x{h}")
    a = np.ma.asanyarray(array) if isinstance(array, np.ma.MaskedArray) else np.asarray(array)
    if a.ndim == 1:
        a = a.reshape(1, -1)
    if a.ndim not in (2, 3) or a.size == 0:
        raise InvalidParameterError(f"a heatmap needs a 1-, 2- or 3-D table, got shape {a.shape}")
    if a.dtype.kind not in "iub":
        raise InvalidParameterError(f"a heatmap needs an integer table, got dtype {a.dtype}")
    if a.dtype.kind == "i" and a.size and int(a.min()) < 0:
        raise InvalidParameterError("table values must be >= 0")
    if a.ndim == 3:
        zs = list(slices) if slices is not None else _even(a.shape[2], 4)
        if not zs or any(not 0 <= z < a.shape[2] for z in zs):
            raise InvalidParameterError(f"slices must lie in 0..{a.shape[2] - 1}, got {zs}")
        panels: list[tuple[npt.NDArray[Any], str | None]] = [(a[:, :, z], f"z = {z}") for z in zs]
    else:
        panels = [(a, None)]
    return panels


def _figure(
    panels: list[tuple[npt.NDArray[Any], str | None]],
    kind: str,
    size: tuple[int, int],
    dpi: int,
    max_display: int | None,
    annotate: bool | None,
) -> Any:
    """The figure of the panels side by side, with its legend."""
    w, h = size
    from matplotlib.figure import Figure

    vmax = int(max(int(p.max()) for p, _ in panels)) if kind == "grundy" else 1
    lut = _lut(min(vmax, 65535), kind)
    n = len(panels)
    ncols = math.ceil(math.sqrt(n))
    nrows = math.ceil(n / ncols)
    fig = Figure(figsize=(w / dpi, h / dpi), dpi=dpi, layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False).ravel().tolist()
    md = max_display or max(w, h) // max(ncols, nrows)
    for ax, (p, sub) in zip(axes, panels, strict=False):
        _panel(fig, ax, p, lut, kind, max(md, 16), annotate, sub)
    for ax in axes[n:]:
        ax.set_visible(False)
    _legend(fig, axes[:n], lut, kind)
    return fig


def _save(fig: Any, out: Path, fmt: str, dpi: int, path: str | Path) -> None:
    """Write the figure (SVG: text kept as text, reproducible ids)."""
    import matplotlib

    # SVG: keep text as text (searchable, smaller) and ids reproducible
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "nimlab"}):
        try:
            fig.savefig(out, format=fmt, dpi=dpi, metadata={"Date": None} if fmt == "svg" else None)
        except OSError as exc:
            from nimlab.core.errors import OutputPathError

            raise OutputPathError(f"cannot write the heatmap to {path}: {exc.strerror}") from None


def _even(n: int, k: int) -> list[int]:
    """Up to *k* evenly spaced values of ``0..n-1`` (always including 0)."""
    if n <= k:
        return list(range(n))
    return sorted({round(i * (n - 1) / (k - 1)) for i in range(k)})
