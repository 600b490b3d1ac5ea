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
