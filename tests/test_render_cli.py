"""`nimlab table`: terminal table, every export, JSON, and one-line errors."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from test_render_heatmap import png_size, svg_size
from test_render_tables import S18_TABLE_1, check_structure

from nimlab.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_terminal_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "table", "ryuo", "-p", "p=3", "--size", "9")
    assert code == 0
    assert "ryuo(p=3)" in out and "9 P-positions in the table" in out
    rows = [line for line in out.splitlines() if line.startswith("│")]
    cells = [[c.strip() for c in r.strip("│").split("│")] for r in rows]
    assert [[int(c) for c in r[1:]] for r in cells] == S18_TABLE_1


def test_all_exports(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = {k: tmp_path / f"t.{k}" for k in ("csv", "json", "md", "tex", "png", "svg")}
    code, out, err = run(
        capsys,
        "table",
        "ryuo",
        "-p",
        "p=3",
        "--size",
        "9",
        "--csv",
        str(f["csv"]),
        "--json-file",
        str(f["json"]),
        "--markdown",
        str(f["md"]),
        "--latex",
        str(f["tex"]),
        "--highlight",
        "p",
        "--png",
        str(f["png"]),
        "--svg",
        str(f["svg"]),
        "--image-size",
        "420x400",
    )
    assert code == 0, err
    assert err.count("wrote") == 6 and out == ""
    rows = list(csv.reader(f["csv"].open()))
    assert [[int(c) for c in r[1:]] for r in rows[1:]] == S18_TABLE_1
    assert json.loads(f["json"].read_text())["values"] == S18_TABLE_1
    assert len(f["md"].read_text().splitlines()) == 11
    tex_rows = check_structure(f["tex"].read_text(), 9)
    assert sum(c.startswith("\\textbf") for r in tex_rows for c in r) == 9
    assert png_size(f["png"]) == (420, 400)
    assert svg_size(f["svg"])[:2] == ("420px", "400px")


def test_json_stdout_outcome_and_slices(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "table", "wythoff", "--size", "4", "--kind", "outcome", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["values"][1][2] == "P" and data["values"][0][0] == "P"
    assert data["values"][1][1] == "N"
    code, out, _ = run(
        capsys, "table", "nim", "--heaps", "3", "--size", "4", "--slice", "2", "--json"
    )
    data = json.loads(out)
    assert data["values"] == [[x ^ y ^ 2 for y in range(4)] for x in range(4)]
    assert data["slice_z"] == 2


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("table", "nim", "--size", "x"), "cannot read size"),
        (("table", "nim", "--size", "4", "--slice", "1"), "3-heap"),
        (("table", "nim", "--size", "4", "--latex", "t.tex", "--highlight", "q"), "highlight"),
        (("table", "nimm", "--size", "4"), "unknown game"),
        (("tree", "nim", "3", "4", "5", "--max-nodes", "10"), "--max-nodes"),
        (("binary", "nim", "x"), "cannot read 'x'"),
    ],
)
def test_user_errors_exit_2_one_line(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], fragment: str
) -> None:
    code, _, err = run(capsys, *args)
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and fragment in err


ROOT = Path(__file__).resolve().parent.parent


def test_readme_pictures_are_what_the_commands_make(capsys: pytest.CaptureFixture[str]) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Pictures", 1)[1].split("\n## ", 1)[0]
    block = section.split("$ nimlab binary single-delete 12 14 15 40\n", 1)[1]
    shown = block.split("```", 1)[0].rstrip("\n")
    code, out, _ = run(capsys, "binary", "single-delete", "12", "14", "15", "40")
    assert code == 0 and out.rstrip("\n") == shown
    tex = (ROOT / "docs/images/ryuo3-table1.tex").read_text(encoding="utf-8")
    assert tex.rstrip("\n") in section
    rows = check_structure(tex, 9)
    assert [[int(c.replace("\\textbf{", "").rstrip("}")) for c in r[1:]] for r in rows[1:]] == (
        S18_TABLE_1
    )
    assert png_size(ROOT / "docs/images/rgame-example2.png") == (640, 600)
    assert svg_size(ROOT / "docs/images/nim-1-2-tree.svg")[2].tag.endswith("svg")
    for name in ("rgame-example2.png", "nim-1-2-tree.svg"):
        assert f"docs/images/{name}" in section


# -- issue 24, item 3: tables of 4+ heaps and tree pictures from the command line ----------


def test_four_heap_table_lists_its_p_positions(capsys: pytest.CaptureFixture[str]) -> None:
    import itertools

    import nimlab

    code, out, _ = run(capsys, "table", "moore", "-p", "k=2", "--heaps", "4", "--size", "3")
    assert code == 0
    line = next(x for x in out.splitlines() if x.startswith("  "))
    shown = [tuple(int(h) for h in p.split()) for p in line.strip().split("; ") if p[0].isdigit()]
    every_p = [
        p
        for p in itertools.product(range(3), repeat=4)
        if str(nimlab.outcome(nimlab.game("moore", k=2), p, method="search")) == "P"
    ]
    assert shown == every_p[: len(shown)] and len(shown) == min(30, len(every_p))
    code, out, _ = run(
        capsys, "table", "moore", "-p", "k=2", "--heaps", "4", "--size", "3", "--json"
    )
    assert json.loads(out)["first_p_positions"] == [list(p) for p in every_p[:30]]


def test_four_heap_slice_is_a_grid_with_every_export(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    import nimlab

    g = nimlab.game("moore", k=2)
    png, md = tmp_path / "slice.png", tmp_path / "slice.md"
    args = ("table", "moore", "-p", "k=2", "--heaps", "4", "--size", "5", "--slice", "1,3")
    code, out, _ = run(capsys, *args, "--json")
    assert code == 0
    data = json.loads(out)
    expected = [
        [nimlab.grundy(g, (x, y, 1, 3), method="search") for y in range(5)] for x in range(5)
    ]
    values = data.get("values") or data.get("rows")
    assert values == expected, data.keys()
    code, _, err = run(capsys, *args, "--png", str(png), "--markdown", str(md))
    assert code == 0 and png_size(png)[0] > 0 and "| **0** |" in md.read_text()
    code, out, _ = run(capsys, *args)
    assert "heaps 3..4 = 1, 3" in out
    code, _, err = run(capsys, "table", "nim", "--heaps", "4", "--size", "4", "--slice", "1 2")
    assert code == 2 and "separated by commas (for example --slice 0,0)" in err
    code, _, err = run(capsys, "table", "nim", "--heaps", "4", "--size", "4", "--png", str(png))
    assert code == 2 and "--slice 0,0" in err


def test_tree_png_is_written(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from PIL import Image

    out = tmp_path / "tree.png"
    code, _, err = run(capsys, "tree", "nim", "1", "2", "--png", str(out))
    assert code == 0 and f"wrote {out}" in err
    img = Image.open(out).convert("L")
    w, h = img.size
    assert w > 300 and h > 300
    dark = sum(1 for v in img.tobytes() if v < 60) / (w * h)  # mode L: one byte a pixel
    assert 0.02 < dark < 0.5  # P-positions are filled: 7 of the 12 nodes of Nim (1,2)
    code, _, err = run(capsys, "tree", "nim", "1", "2", "--png", str(tmp_path / "no" / "t.png"))
    assert code == 2
