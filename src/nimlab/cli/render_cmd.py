"""Commands that show games: table, tree, binary (issue 8).

``nimlab table`` prints a coloured Grundy or outcome table and exports it (CSV, JSON,
Markdown, LaTeX, PNG, SVG); ``nimlab tree`` draws the game tree of a position (text, DOT,
SVG, TikZ, JSON); ``nimlab binary`` lines up the heaps in binary with the quantity the
game's criterion reads.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import click

from nimlab.cli.app import (
    HEAP_CONTEXT,
    Count,
    emit_json,
    game_from_cli,
    param_option,
    position_from_cli,
)


def _size(text: str) -> list[int]:
    from nimlab.core.errors import InvalidParameterError

    try:
        if not text.isascii() or len(text) > 200:
            raise ValueError
        parts = [int(p) for p in text.lower().replace("×", "x").split("x")]
    except ValueError:
        raise InvalidParameterError(
            f"cannot read size {text!r}: write N (heaps 0..N-1) or NxM"
        ) from None
    if any(p < 1 for p in parts):
        raise InvalidParameterError(f"sizes must be >= 1, got {text!r}")
    if any(p > 10**12 for p in parts):
        raise InvalidParameterError(
            f"size {text[:40]!r} is beyond any table (a side of at most 10^12; the cells "
            "budget is --max-cells N)"
        )
    return parts


_UNITS = {
    "": 1,
    "b": 1,
    "kb": 10**3,
    "mb": 10**6,
    "gb": 10**9,
    "tb": 10**12,
    "k": 2**10,
    "m": 2**20,
    "g": 2**30,
    "t": 2**40,
    "kib": 2**10,
    "mib": 2**20,
    "gib": 2**30,
    "tib": 2**40,
}


def memory_budget(text: str) -> int:
    """Bytes of a budget written ``4GB``, ``512MiB``, ``2G`` or a number of bytes.

    KB, MB, GB, TB are powers of 1000; KiB, MiB, GiB, TiB (and K, M, G, T) powers of 1024.

    Examples
    --------
    >>> memory_budget("4GB"), memory_budget("512 MiB"), memory_budget("2g"), memory_budget("1000")
    (4000000000, 536870912, 2147483648, 1000)
    """
    import re

    from nimlab.core.errors import InvalidParameterError

    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*", text)
    unit = m.group(2).lower() if m else ""
    if m is None or unit not in _UNITS:
        raise InvalidParameterError(
            f"cannot read memory budget {text!r}: write for example 4GB, 512MiB or a number "
            "of bytes"
        )
    value = int(float(m.group(1)) * _UNITS[unit])
    if value < 1:
        raise InvalidParameterError(f"the memory budget must be at least 1 byte, got {text!r}")
    return value


def _image_size(text: str) -> tuple[int, int]:
    parts = _size(text)
    if len(parts) == 1:
        return parts[0], parts[0]
    if len(parts) != 2:
        from nimlab.core.errors import InvalidParameterError

        raise InvalidParameterError(f"image size is WIDTHxHEIGHT in pixels, got {text!r}")
    return parts[0], parts[1]


def _write(path: str, text: str) -> None:
    from nimlab.core.paths import write_text

    write_text(path, text if text.endswith("\n") else text + "\n")
    click.echo(f"wrote {path}", err=True)


def _check_outputs(*paths: str | None) -> None:
    """Refuse a bad output path before anything is computed."""
    from nimlab.core.paths import output_path

    for path in paths:
        if path is not None:
            output_path(path)


@click.command("table")
@click.argument("game_name", metavar="GAME")
@param_option
@click.option(
    "--size",
    "size_text",
    default="10",
    show_default=True,
    help="Heap sizes 0..N-1 on every axis (N), or one size per heap (NxM).",
)
@click.option(
    "--kind",
    type=click.Choice(["grundy", "outcome", "misere"]),
    default="grundy",
    show_default=True,
    help="Grundy values, or P/N outcomes in normal or misère play.",
)
@click.option(
    "--heaps",
    type=Count(1, 6),
    default=None,
    help="Number of heaps (1-6; 4 to 6 heaps: a summary, --csv rows or --json).",
)
@click.option(
    "--slice",
    "slice_text",
    default=None,
    metavar="Z[,Z4,...]",
    help="A 2-D slice: 3 heaps, the third heap's size; 4 to 6 heaps, the sizes of heaps "
    "3, 4, ... separated by commas (--slice 1,2 for 4 heaps).",
)
@click.option(
    "--canonical",
    is_flag=True,
    help="Order-free games: each sorted position once (any number of heaps); a summary, "
    "--csv or --npy rows, --json counts.",
)
@click.option("--csv", "csv_file", metavar="FILE", help="Write CSV.")
@click.option("--npy", "npy_file", metavar="FILE", help="With --canonical: write a NumPy .npy.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON on stdout.")
@click.option("--json-file", metavar="FILE", help="Write JSON to a file.")
@click.option("--markdown", "md_file", metavar="FILE", help="Write a Markdown table.")
@click.option("--latex", "latex_file", metavar="FILE", help="Write a LaTeX tabular.")
@click.option(
    "--highlight",
    default=None,
    metavar="p|VALUE",
    help="Highlight P-positions (p, the default on screen) or cells of a value.",
)
@click.option("--latex-document", is_flag=True, help="Wrap the LaTeX tabular in a document.")
@click.option("--png", "png_file", metavar="FILE", help="Write a PNG heatmap.")
@click.option("--svg", "svg_file", metavar="FILE", help="Write an SVG heatmap.")
@click.option(
    "--image-size", default="800x800", show_default=True, help="Heatmap size WIDTHxHEIGHT (px)."
)
@click.option(
    "--max-cells",
    type=Count(1),
    default=None,
    metavar="N",
    help="Budget of cells, checked before any work (default 25,000,000: a 5000x5000 table). "
    "Long runs show their progress; Ctrl-C stops them.",
)
@click.option(
    "--memory-budget",
    "memory_text",
    default=None,
    metavar="SIZE",
    help="Memory the engine may use (4GB, 512MiB, ...; default 4 GiB), checked before any work.",
)
@click.option(
    "--chunk-dir",
    metavar="DIR",
    default=None,
    help="With --canonical: solve level by level, writing the values to DIR in chunks "
    "(resumed when run again), then DIR/values.npy.",
)
@click.option(
    "--workers",
    type=Count(1),
    default=None,
    metavar="N",
    help="With --chunk-dir: threads, or with --dask-local processes (default: all cores).",
)
@click.option("--dask-local", is_flag=True, help="With --chunk-dir: on a local Dask cluster.")
@click.option("--scheduler", metavar="ADDRESS", help="With --chunk-dir: on this Dask scheduler.")
def table_cmd(
    game_name: str,
    params: tuple[str, ...],
    size_text: str,
    kind: str,
    heaps: int | None,
    slice_text: str | None,
    canonical: bool,
    csv_file: str | None,
    npy_file: str | None,
    as_json: bool,
    json_file: str | None,
    md_file: str | None,
    latex_file: str | None,
    highlight: str | None,
    latex_document: bool,
    png_file: str | None,
    svg_file: str | None,
    image_size: str,
    max_cells: int | None,
    memory_text: str | None,
    **chunks: Any,
) -> None:
    """Grundy (or outcome) table of a game: nimlab table wythoff --size 16.

    P-positions are highlighted. Exports: --csv, --json, --json-file, --markdown,
    --latex (with --highlight p), --png and --svg heatmaps. 3-heap games: --heaps 3
    with --slice Z for 2-D views (heatmaps without --slice draw several slices).
    4 to 6 heaps: a summary (the first P-positions, how many positions have each
    value), --csv rows h1,...,hn,value, --json (the summary) and --json-file (summary
    and values); --slice Z3,Z4,... fixes heaps 3, 4, ... for a 2-D grid with every
    export and picture of a two-heap table.
    --canonical (games whose heap order does not matter): every sorted position once,
    in memory proportional to their number: nimlab table single-delete --heaps 4
    --size 256 --canonical --kind outcome (the summary: positions, P-positions).
    """
    from nimlab.render import table_view
    from nimlab.render.tables import parse_highlight

    _check_outputs(csv_file, npy_file, json_file, md_file, latex_file, png_file, svg_file)
    g = game_from_cli(game_name, params)
    sizes = _size(size_text)
    mark = parse_highlight(highlight)
    from nimlab.render.tables import default_heaps

    n = heaps if heaps is not None else len(sizes) if len(sizes) > 1 else default_heaps(g)
    budget = memory_budget(memory_text) if memory_text is not None else None
    grids = {
        "--markdown": md_file,
        "--latex": latex_file,
        "--png": png_file,
        "--svg": svg_file,
        "--highlight": highlight,
    }
    if canonical or npy_file or [v for v in chunks.values() if v is not None and v is not False]:
        flags = {
            "--slice": slice_text is not None,
            "--json-file": json_file,
            **grids,
            "--max-cells": max_cells is not None,
        }
        _check_canonical(canonical, sizes, [flag for flag, value in flags.items() if value])
        _canonical(g, sizes[0], n, kind, budget, csv_file, npy_file, as_json, chunks)
        return
    fixed = _slice_sizes(slice_text, n)
    slice_z = fixed[0] if n == 3 and fixed else None
    if n >= 4 and fixed:
        tv = _many_heaps_slice(g, sizes, n, kind, fixed, budget, max_cells)
    elif n >= 4:
        _refuse_grids(n, [flag for flag, value in grids.items() if value])
        _many_heaps(g, sizes, n, kind, budget, max_cells, csv_file, as_json, json_file)
        return
    else:
        size: int | list[int] = sizes[0] if len(sizes) == 1 else sizes
        cells = {} if max_cells is None else {"max_cells": max_cells}
        tv = table_view(
            g, size, kind=kind, heaps=n, slice_z=slice_z, progress=True, max_bytes=budget, **cells
        )
    files = _TableFiles(csv_file, json_file, md_file, latex_file, png_file, svg_file)
    _show_table(tv, mark, files, latex_document, image_size, as_json)


def _refuse_grids(n: int, used: list[str]) -> None:
    """Refuse grid outputs (*used*: those given) for a table of *n* >= 4 heaps unsliced."""
    if used:
        from nimlab.core.errors import InvalidParameterError

        raise InvalidParameterError(
            f"{used[0]} draws a grid of 1 to 3 heaps; a table of {n} heaps is shown as "
            f"a summary, or written with --csv, --json or --json-file; a 2-D slice "
            f"(--slice {','.join(['0'] * (n - 2))}) draws it as a grid"
        )


def _check_canonical(canonical: bool, sizes: list[int], used: list[str]) -> None:
    """Refuse options that do not go with a canonical table (*used*: those given)."""
    if not canonical or used or len(sizes) != 1:
        from nimlab.core.errors import InvalidParameterError

        what = used[0] if used else ("--npy, --chunk-dir ..." if not canonical else "NxM")
        raise InvalidParameterError(
            f"{what} does not go with a canonical table: --canonical takes one --size N "
            "and writes --csv, --npy or --json (--npy, --chunk-dir, --workers, --dask-local "
            "and --scheduler need --canonical)"
        )


class _TableFiles(NamedTuple):
    """The files a table is written to (None: not asked)."""

    csv: str | None
    json: str | None
    markdown: str | None
    latex: str | None
    png: str | None
    svg: str | None


def _show_table(
    tv: Any,
    mark: Any,
    files: _TableFiles,
    latex_document: bool,
    image_size: str,
    as_json: bool,
) -> None:
    """Write a table view to its files, as JSON on stdout, or on screen when neither."""
    csv_file, json_file, md_file, latex_file, png_file, svg_file = files
    wrote = False
    if csv_file:
        tv.write_csv(csv_file, progress=True)
        click.echo(f"wrote {csv_file}", err=True)
        wrote = True
    if json_file:
        tv.write_json(json_file, progress=True)
        click.echo(f"wrote {json_file}", err=True)
        wrote = True
    if md_file:
        _write(md_file, tv.to_markdown("p" if mark is None else mark))
        wrote = True
    if latex_file:
        _write(latex_file, tv.to_latex(mark, document=latex_document))
        wrote = True
    for f in (png_file, svg_file):
        if f:
            tv.heatmap(f, size=_image_size(image_size))
            click.echo(f"wrote {f}", err=True)
            wrote = True
    if as_json:
        import sys

        tv.write_json(sys.stdout)
        sys.stdout.write("\n")
        return
    if not wrote:
        from rich.console import Console

        console = Console()
        console.print(tv.title, style="bold", highlight=False)
        console.print(tv.to_rich("p" if mark is None else mark, width=console.width, title=False))
        click.echo(f"{tv.p_count} P-positions in the table")


def _canonical(
    g: Any,
    size: int,
    n: int,
    kind: str,
    budget: int | None,
    csv_file: str | None,
    npy_file: str | None,
    as_json: bool,
    chunks: dict[str, Any],
) -> None:
    """A canonical table: its counts on screen or as JSON, its rows as CSV or .npy."""
    import nimlab

    t = nimlab.canonical_table(
        g, size, heaps=n, kind=kind, max_bytes=budget, progress=True, **chunks
    )
    for path, write in ((csv_file, t.write_csv), (npy_file, t.write_npy)):
        if path:
            write(path)
            click.echo(f"wrote {path}", err=True)
    summary = t.summary()
    if as_json:
        emit_json(summary)
        return
    what = {"grundy": "Grundy values", "outcome": "outcomes", "misere": "misère outcomes"}
    lines = [
        f"{t.game}: {what[kind]}, {n} heaps {t.low}..{size - 1}, canonical table "
        f"(each sorted position once)",
        f"positions: {summary['positions']:,}",
        f"P-positions: {summary['p_positions']:,}",
    ]
    if kind == "grundy":
        lines.append(f"largest value: {summary['max_value']}")
        hist = summary["histogram"]
        lines.append("value  positions")
        lines += [f"{v:>5}  {c:,}" for v, c in list(hist.items())[:40]]
        if len(hist) > 40:
            lines.append(f"... {len(hist) - 40} more values (--json lists them all)")
    else:
        lines.append(f"N-positions: {summary['n_positions']:,}")
    click.echo("\n".join(lines))


def _slice_sizes(text: str | None, n: int) -> tuple[int, ...]:
    """The sizes of heaps 3..n that ``--slice`` fixes (empty without ``--slice``)."""
    from nimlab.core.errors import InvalidParameterError
    from nimlab.core.params import parse_int_set

    if text is None:
        return ()
    want = max(n - 2, 1)
    items = [t.strip() for t in text.split(",")]
    if n < 3 or len(items) != want:
        if n < 3:
            raise InvalidParameterError(
                f"--slice applies to 3-heap tables and larger (--heaps 3 to 6); a table of "
                f"{n} heaps has no heap 3"
            )
        example = ",".join(["0"] * want)
        raise InvalidParameterError(
            f"--slice of a {n}-heap table takes {want} size(s), of heaps 3..{n}, separated "
            f"by commas (for example --slice {example}), got {text!r}"
        )
    for t in items:
        parse_int_set("--slice", t)  # one integer each: "1 2" is refused with the syntax
    try:
        sizes = tuple(int(t) for t in items)
    except ValueError:
        raise InvalidParameterError(f"--slice takes integers, got {text!r}") from None
    return sizes


def _many_heaps_slice(
    g: Any,
    sizes: list[int],
    n: int,
    kind: str,
    fixed: tuple[int, ...],
    budget: int | None,
    max_cells: int | None,
) -> Any:
    """The 2-D slice of a table of *n* heaps where heaps 3..n have the sizes *fixed*."""
    from nimlab.core.errors import InvalidParameterError
    from nimlab.render.tables import DEFAULT_MAX_CELLS, TableView, check_cells, compute_table

    if len(sizes) not in (1, n):
        raise InvalidParameterError(f"{n} heaps need one size or {n} sizes, got {len(sizes)}")
    shape = tuple(sizes) if len(sizes) == n else (sizes[0],) * n
    for i, z in enumerate(fixed):
        if not 0 <= z < shape[i + 2]:
            raise InvalidParameterError(
                f"--slice: heap {i + 3} = {z} is outside the table (0..{shape[i + 2] - 1})"
            )
    check_cells(g.label(), shape, DEFAULT_MAX_CELLS if max_cells is None else max_cells)
    arr = compute_table(g, shape, kind=kind, max_bytes=budget, progress=True)
    meta = {"heaps": n, "fixed_heaps": list(fixed)}
    index: tuple[Any, ...] = (slice(None), slice(None), *fixed)
    view = arr[index]
    return TableView(view, g.label(), kind, meta=meta, fixed=fixed)


def _many_heaps(
    g: Any,
    sizes: list[int],
    n: int,
    kind: str,
    budget: int | None,
    max_cells: int | None,
    csv_file: str | None,
    as_json: bool,
    json_file: str | None,
) -> None:
    """A table of 4 to 6 heaps: its summary on screen or as JSON, its cells as CSV rows."""
    from nimlab.core.errors import InvalidParameterError
    from nimlab.render.summary import long_csv_chunks, summary_text, table_summary
    from nimlab.render.tables import (
        DEFAULT_MAX_CELLS,
        check_cells,
        compute_table,
        table_to_json,
    )

    if len(sizes) not in (1, n):
        raise InvalidParameterError(f"{n} heaps need one size or {n} sizes, got {len(sizes)}")
    shape = tuple(sizes) if len(sizes) == n else (sizes[0],) * n
    check_cells(g.label(), shape, DEFAULT_MAX_CELLS if max_cells is None else max_cells)
    arr = compute_table(g, shape, kind=kind, max_bytes=budget, progress=True)
    summary = table_summary(arr, kind, g.label())
    if csv_file:
        from nimlab.core.errors import OutputPathError
        from nimlab.core.paths import output_path

        path = output_path(csv_file)
        try:
            with path.open("w", encoding="utf-8") as f:
                for piece in long_csv_chunks(arr, kind):
                    f.write(piece)
        except OSError as exc:
            raise OutputPathError(
                f"cannot write the output to {csv_file}: {exc.strerror}"
            ) from None
        click.echo(f"wrote {csv_file}", err=True)
    if json_file:
        meta = {k: v for k, v in summary.items() if k not in ("kind", "shape")}
        _write(json_file, table_to_json(arr, kind=kind, **meta))
    if as_json:
        emit_json(summary)
        return
    click.echo(summary_text(summary))


@click.command("tree", context_settings=HEAP_CONTEXT)
@click.argument("game_name", metavar="GAME")
@click.argument("heaps", nargs=-1, type=click.UNPROCESSED)
@param_option
@click.option("--depth", type=Count(0), default=None, help="Show at most D moves.")
@click.option("--dag", is_flag=True, help="Merge equal positions (a DAG).")
@click.option("--max-nodes", type=Count(1), default=500, show_default=True)
@click.option("--dot", "dot_file", metavar="FILE", help="Write Graphviz DOT.")
@click.option("--svg", "svg_file", metavar="FILE", help="Write SVG (Graphviz if installed).")
@click.option("--tikz", "tikz_file", metavar="FILE", help="Write a TikZ picture.")
@click.option("--png", "png_file", metavar="FILE", help="Write a PNG picture (nimlab's layout).")
@click.option(
    "--layout",
    type=click.Choice(["auto", "graphviz", "python"]),
    default="auto",
    show_default=True,
    help="SVG layout: Graphviz dot when installed (auto), or nimlab's own.",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON on stdout.")
def tree_cmd(
    game_name: str,
    heaps: tuple[str, ...],
    params: tuple[str, ...],
    depth: int | None,
    dag: bool,
    max_nodes: int,
    dot_file: str | None,
    svg_file: str | None,
    tikz_file: str | None,
    png_file: str | None,
    layout: str,
    as_json: bool,
) -> None:
    """Game tree of a position, as in S19 Figures 2-4: nimlab tree nim 1 2.

    Nodes show the position and its Grundy value; P-positions are marked. Equal
    positions are repeated (one node per line of play) unless --dag merges them.
    """
    import nimlab

    _check_outputs(dot_file, svg_file, tikz_file, png_file)
    g = game_from_cli(game_name, params)
    pos = position_from_cli(g, heaps)
    t = nimlab.game_tree(g, pos, depth=depth, dag=dag, max_nodes=max_nodes)
    wrote = False
    if dot_file:
        _write(dot_file, t.to_dot())
        wrote = True
    if svg_file:
        _write(svg_file, t.to_svg(engine=layout))
        wrote = True
    if tikz_file:
        _write(tikz_file, t.to_tikz())
        wrote = True
    if png_file:
        from nimlab.core.paths import output_path

        output_path(png_file).write_bytes(t.to_png())
        click.echo(f"wrote {png_file}", err=True)
        wrote = True
    if as_json:
        emit_json(t.to_dict())
    elif not wrote:
        click.echo(t.render_text())


@click.command("binary", context_settings=HEAP_CONTEXT)
@click.argument("game_name", metavar="GAME")
@click.argument("heaps", nargs=-1, type=click.UNPROCESSED)
@param_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON on stdout.")
def binary_cmd(
    game_name: str, heaps: tuple[str, ...], params: tuple[str, ...], as_json: bool
) -> None:
    """Heaps in binary, digit under digit, with what the game's criterion reads.

    Nim: the XOR row; Moore's Nim_k: digit sums mod k+1; Delete Nim: OR and its tail;
    Single-delete: 2-adic valuations; Emperor: XOR per range and of the totals.
    Example: nimlab binary single-delete 1440 864 672 1120.
    """
    import nimlab

    g = game_from_cli(game_name, params)
    pos = position_from_cli(g, heaps)
    view: Any = nimlab.binary_view(g, pos)
    if as_json:
        emit_json(view.to_dict())
    else:
        click.echo(view.render_text())
