"""Tables and their exports: S18 Table 1 in LaTeX, CSV/JSON/Markdown, outcomes, errors."""

from __future__ import annotations

import csv
import io
import itertools
import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import nimlab
from nimlab.render import (
    compute_table,
    table_to_csv,
    table_to_html,
    table_to_json,
    table_to_latex,
    table_to_markdown,
    table_view,
)

# [S18] Table 1: Grundy values of Ryuo Nim(3), 0 <= x, y <= 8 (rows x, columns y).
# The table is an image in the paper's text extraction; it is transcribed here cell by
# cell as printed (it is also Theorem 8, p(⌊x/p⌋ ⊕ ⌊y/p⌋) + ((x+y) mod p), with p = 3).
S18_TABLE_1 = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8],
    [1, 2, 0, 4, 5, 3, 7, 8, 6],
    [2, 0, 1, 5, 3, 4, 8, 6, 7],
    [3, 4, 5, 0, 1, 2, 9, 10, 11],
    [4, 5, 3, 1, 2, 0, 10, 11, 9],
    [5, 3, 4, 2, 0, 1, 11, 9, 10],
    [6, 7, 8, 9, 10, 11, 0, 1, 2],
    [7, 8, 6, 10, 11, 9, 1, 2, 0],
    [8, 6, 7, 11, 9, 10, 2, 0, 1],
]


def brute_grundy_2heap(moves, n: int) -> list[list[int]]:  # type: ignore[no-untyped-def]
    """Grundy table of a 2-heap game by the definition (mex over options), independent
    of nimlab's solvers."""
    g: dict[tuple[int, int], int] = {}
    for s in range(2 * n):
        for x in range(max(0, s - n + 1), min(s, n - 1) + 1):
            y = s - x
            opts = {g[o] for o in moves(x, y)}
            m = 0
            while m in opts:
                m += 1
            g[(x, y)] = m
    return [[g[(x, y)] for y in range(n)] for x in range(n)]


def ryuo_moves(p: int):  # type: ignore[no-untyped-def]
    def moves(x: int, y: int) -> list[tuple[int, int]]:
        out = [(x - t, y) for t in range(1, x + 1)] + [(x, y - t) for t in range(1, y + 1)]
        for t in range(1, p):
            for a in range(0, t + 1):
                if a <= x and t - a <= y:
                    out.append((x - a, y - (t - a)))
        return out

    return moves


def wythoff_moves(x: int, y: int) -> list[tuple[int, int]]:
    out = [(x - t, y) for t in range(1, x + 1)] + [(x, y - t) for t in range(1, y + 1)]
    return out + [(x - t, y - t) for t in range(1, min(x, y) + 1)]


def test_transcription_agrees_with_the_rules() -> None:
    assert brute_grundy_2heap(ryuo_moves(3), 9) == S18_TABLE_1


def parse_tabular(tex: str) -> tuple[str, list[list[str]]]:
    """Column spec and the cells of every row of a simple tabular."""
    m = re.search(r"\\begin\{tabular\}\{([^}]*)\}(.*)\\end\{tabular\}", tex, re.S)
    assert m is not None
    rows = [r.strip() for r in m.group(2).split("\\\\")]
    cells = [[c.strip() for c in r.split("&")] for r in rows if r and r != "\\hline"]
    cells = [[c.replace("\\hline", "").strip() for c in r] for r in cells]
    return m.group(1), [r for r in cells if any(r)]


def check_structure(tex: str, n_cols: int) -> list[list[str]]:
    for env in ("tabular", "document"):
        assert tex.count(f"\\begin{{{env}}}") == tex.count(f"\\end{{{env}}}")
    assert tex.count("{") == tex.count("}")
    spec, rows = parse_tabular(tex)
    assert len(spec.replace("|", "")) == n_cols + 1
    assert all(len(r) == n_cols + 1 for r in rows)
    return rows


def compile_latex(tex: str, tmp_path: Path) -> None:
    (tmp_path / "t.tex").write_text(tex)
    res = subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "t.tex"],
        cwd=tmp_path,
        capture_output=True,
        timeout=120,
    )
    assert res.returncode == 0, res.stdout[-2000:]
    assert (tmp_path / "t.pdf").stat().st_size > 0


def test_s18_table_1_latex(tmp_path: Path) -> None:
    table = nimlab.table(nimlab.game("ryuo", p=3), (9, 9))
    tex = table_to_latex(table, highlight="p")
    rows = check_structure(tex, 9)
    header, body = rows[0], rows[1:]
    assert header[1:] == [str(y) for y in range(9)]
    assert [r[0] for r in body] == [str(x) for x in range(9)]
    values = [[int(c.replace("\\textbf{", "").rstrip("}")) for c in r[1:]] for r in body]
    assert values == S18_TABLE_1
    bold = [[c.startswith("\\textbf{") for c in r[1:]] for r in body]
    assert bold == [[v == 0 for v in r] for r in S18_TABLE_1]
    if shutil.which("pdflatex"):
        compile_latex(table_to_latex(table, highlight="p", document=True), tmp_path)


def test_latex_machinery_on_wythoff(tmp_path: Path) -> None:
    n = 12
    expected = brute_grundy_2heap(wythoff_moves, n)
    tex = table_view("wythoff", n).to_latex(highlight=3, document=True)
    assert tex.startswith("\\documentclass")
    rows = check_structure(tex, n)
    values = [[int(c.replace("\\textbf{", "").rstrip("}")) for c in r[1:]] for r in rows[1:]]
    assert values == expected
    marked = [[c.startswith("\\textbf") for c in r[1:]] for r in rows[1:]]
    assert marked == [[v == 3 for v in r] for r in expected]
    if shutil.which("pdflatex"):
        compile_latex(tex, tmp_path)


def test_outcome_latex_prints_p_and_n() -> None:
    tex = table_to_latex(compute_table("wythoff", 6, kind="outcome"), kind="outcome")
    rows = check_structure(tex, 6)
    expected = brute_grundy_2heap(wythoff_moves, 6)
    assert [r[1:] for r in rows[1:]] == [["P" if v == 0 else "N" for v in r] for r in expected]


def test_csv_json_markdown_round_trip() -> None:
    n = 10
    expected = brute_grundy_2heap(ryuo_moves(2), n)
    tv = table_view(nimlab.game("ryuo", p=2), n)
    rows = list(csv.reader(io.StringIO(tv.to_csv())))
    assert rows[0] == ["x\\y", *map(str, range(n))]
    assert [[int(c) for c in r[1:]] for r in rows[1:]] == expected
    data = json.loads(tv.to_json())
    assert data["values"] == expected and data["shape"] == [n, n]
    assert data["game"] == "ryuo(p=2)" and data["kind"] == "grundy"
    md = tv.to_markdown().splitlines()
    assert len(md) == n + 2
    cells = [[c.strip().strip("*") for c in line.strip("|").split("|")] for line in md[2:]]
    assert [[int(c) for c in r[1:]] for r in cells] == expected


def test_markdown_highlights_exactly_the_p_positions() -> None:
    a = compute_table("wythoff", 8)
    md = table_to_markdown(a, highlight="p").splitlines()[2:]
    for x, line in enumerate(md):
        cells = [c.strip() for c in line.strip("|").split("|")][1:]
        assert [c.startswith("**") for c in cells] == [int(v) == 0 for v in a[x]]


def test_outcome_and_misere_tables_match_the_solver() -> None:
    for kind, misere in (("outcome", False), ("misere", True)):
        a = compute_table("nim", (5, 6), kind=kind)
        for x in range(5):
            for y in range(6):
                p = nimlab.outcome("nim", (x, y), misere=misere, method="search").value == "P"
                assert (a[x, y] == 0) == p
    csv_text = table_to_csv(compute_table("nim", 3, kind="misere"), kind="misere")
    assert csv_text.splitlines()[1] == "0,N,P,N"  # misère: (0,0) N, (0,1) P, (0,2) N


def _searched(g: nimlab.Ruleset[Any], box: tuple[int, ...], kind: str) -> np.ma.MaskedArray:
    """The table cell by cell by exhaustive search (masked where a cell is no position)."""
    solver = nimlab.Solver(g)
    out = np.zeros(box, dtype=np.int64)
    mask = np.zeros(box, dtype=np.bool_)
    for idx in itertools.product(*(range(n) for n in box)):
        try:
            pos = g.validate(tuple(idx))
        except nimlab.InvalidPositionError:
            mask[idx] = True
            continue
        if kind == "grundy":
            out[idx] = solver.grundy(pos)
        else:
            out[idx] = 0 if solver.is_p(pos, kind == "misere") else 1
    return np.ma.MaskedArray(out, mask=mask)


def test_tables_equal_exhaustive_search() -> None:
    g = nimlab.game("wythoff")
    assert (_searched(g, (7, 9), "grundy") == np.asarray(compute_table(g, (7, 9)))).all()
    fb = _searched(g, (6, 6), "outcome")
    assert (fb == compute_table(g, (6, 6), kind="outcome")).all()


def test_three_heaps_and_one_heap() -> None:
    tv = table_view("nim", 5, heaps=3, slice_z=3)
    assert tv.values.tolist() == [[x ^ y ^ 3 for y in range(5)] for x in range(5)]
    long = list(csv.reader(io.StringIO(table_view("nim", 3, heaps=3).to_csv())))
    assert long[0] == ["x", "y", "z", "value"] and len(long) == 28
    assert all(int(r[3]) == int(r[0]) ^ int(r[1]) ^ int(r[2]) for r in long[1:])
    seq = table_view(nimlab.game("subtraction", S={1, 3, 4}), 14)
    assert seq.values.tolist() == [0, 1, 0, 1, 2, 3, 2, 0, 1, 0, 1, 2, 3, 2]
    assert "\\begin{tabular}{c|" + "c" * 14 + "}" in seq.to_latex()


def test_html_and_rich_views() -> None:
    tv = table_view("wythoff", 5)
    h = tv._repr_html_()
    assert h.count("<tr>") == 6 and h.count("font-weight:bold") == 3
    big = table_to_html(np.zeros((100, 100), dtype=np.uint8))
    assert "first 48" in big and big.count("<tr>") == 49
    assert tv.to_rich().row_count == 5
    assert json.loads(table_to_json([[1]], game="g"))["values"] == [[1]]


@pytest.mark.parametrize(
    ("call", "fragment"),
    [
        (lambda: compute_table("nim", 3, kind="loser"), "unknown table kind"),
        (lambda: compute_table("nim", (0, 3)), "positive sizes"),
        (lambda: table_view("nim", 4, heaps=3, slice_z=9), "outside the table"),
        (lambda: table_view("nim", 4, slice_z=1), "3-heap"),
        (lambda: table_to_latex(np.zeros((2, 2, 2))), "--slice"),
        (lambda: table_view("nim", 4, heaps=4), "1, 2 or 3 heaps"),
    ],
)
def test_user_errors(call, fragment: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(nimlab.NimlabError, match=re.escape(fragment)):
        call()


def test_cells_that_are_not_positions_are_empty(tmp_path: Path) -> None:
    # Welter: equal heaps are not positions; Single-delete: heaps are positive
    tv = table_view("welter", 5)
    data = tv.to_dict()["values"]
    assert [data[i][i] for i in range(5)] == [None] * 5
    assert data[0][1] == nimlab.grundy("welter", (0, 1), method="search")
    assert tv.p_count == sum(
        nimlab.grundy("welter", (x, y), method="search") == 0
        for x in range(5)
        for y in range(5)
        if x != y
    )
    rows = list(csv.reader(io.StringIO(tv.to_csv())))
    assert [rows[i + 1][i + 1] for i in range(5)] == [""] * 5
    sd = nimlab.game("single-delete")
    fb = _searched(sd, (4, 4), "grundy")
    eng = compute_table(sd, (4, 4))
    assert np.ma.getmaskarray(fb).tolist() == np.ma.getmaskarray(eng).tolist()
    assert np.ma.getmaskarray(eng)[0].all() and not np.ma.getmaskarray(eng)[1:, 1:].any()
    assert (np.ma.getdata(fb)[1:, 1:] == np.ma.getdata(eng)[1:, 1:]).all()
    rows_tex = check_structure(table_to_latex(eng, highlight="p"), 4)
    assert rows_tex[1][1:] == ["", "", "", ""]
    out = tv.heatmap(tmp_path / "welter.png", size=(300, 300))
    assert out.stat().st_size > 0


def test_public_api_names() -> None:
    assert nimlab.render.table_to_latex([[0]]).startswith("\\begin{tabular}{c|c}")
    assert isinstance(nimlab.table_view("nim", 2), nimlab.TableView)
    assert isinstance(nimlab.game_tree("nim", (1,)), nimlab.GameTree)
    assert isinstance(nimlab.binary_view("nim", (1,)), nimlab.BinaryView)
    for name in ("render", "game_tree", "binary_view", "table_view", "TableView"):
        assert name in nimlab.__all__
