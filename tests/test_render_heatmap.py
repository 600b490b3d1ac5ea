"""Heatmaps: valid PNG and SVG files of the requested size, slices, large tables."""

from __future__ import annotations

import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import nimlab
from nimlab.render import compute_table, heatmap, table_view


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert data[12:16] == b"IHDR"
    w, h = struct.unpack(">II", data[16:24])
    assert b"IEND" in data[-12:]
    return w, h


def svg_size(path: Path) -> tuple[str | None, str | None, ET.Element]:
    root = ET.parse(path).getroot()
    assert root.tag.endswith("svg")
    return root.get("width"), root.get("height"), root


def test_png_of_requested_size(tmp_path: Path) -> None:
    tv = table_view(nimlab.game("ryuo", p=3), 9)
    out = tv.heatmap(tmp_path / "ryuo.png", size=(640, 480))
    assert png_size(out) == (640, 480)


def test_svg_of_requested_size_with_title(tmp_path: Path) -> None:
    out = heatmap(
        compute_table("wythoff", 16), tmp_path / "w.svg", title="wythoff: Grundy", size=(500, 420)
    )
    w, h, root = svg_size(out)
    assert (w, h) == ("500px", "420px")
    assert "wythoff: Grundy" in "".join(root.itertext())


def test_outcome_and_three_heap_slices(tmp_path: Path) -> None:
    out = table_view("nim", 6, kind="outcome").heatmap(tmp_path / "o.png", size=(300, 300))
    assert png_size(out) == (300, 300)
    three = table_view("nim", 6, heaps=3)  # no slice: several panels z = const
    assert png_size(three.heatmap(tmp_path / "s.png", size=(700, 600))) == (700, 600)
    one = heatmap(compute_table(nimlab.game("subtraction", S={1, 3, 4}), (40,)), tmp_path / "q.svg")
    assert svg_size(one)[:2] == ("800px", "800px")


# the peak of this process's own memory (VmHWM; ru_maxrss would carry over the forking pytest
# worker's peak across exec)
LARGE = """
import sys
import numpy as np
from nimlab.render import heatmap
n = 4096
a = np.bitwise_xor.outer(np.arange(n, dtype=np.uint16), np.arange(n, dtype=np.uint16))
heatmap(a, sys.argv[1], title="nim 4096", size=(600, 600))
with open("/proc/self/status") as f:
    print(next(line.split()[1] for line in f if line.startswith("VmHWM:")))
"""


def test_large_table_without_running_out_of_memory(tmp_path: Path) -> None:
    out = tmp_path / "big.png"
    res = subprocess.run(
        [sys.executable, "-c", LARGE, str(out)], capture_output=True, text=True, timeout=300
    )
    assert res.returncode == 0, res.stderr
    assert png_size(out) == (600, 600)
    peak_mb = int(res.stdout.split()[-1]) / 1024  # VmHWM is in kB
    # interpreter + numpy + matplotlib + the 32 MB table; a float64 RGBA copy of the
    # table alone would be 512 MB
    assert peak_mb < 400, peak_mb


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"path": "x.pdf"}, ".png or .svg"),
        ({"size": (10, 10)}, "image size"),
        ({"kind": "loser"}, "unknown table kind"),
    ],
)
def test_errors(tmp_path: Path, kwargs: dict[str, object], fragment: str) -> None:
    args: dict[str, object] = {"path": "x.png"}
    args.update(kwargs)
    args["path"] = tmp_path / str(args["path"])
    with pytest.raises(nimlab.NimlabError, match=fragment.replace(".", r"\.")):
        heatmap([[0, 1], [1, 0]], **args)  # type: ignore[arg-type]
