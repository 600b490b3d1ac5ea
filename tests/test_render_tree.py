"""Game trees: S19 Figures 2 and 3 exactly, DAG merging, depth limits, refusals, outputs."""

from __future__ import annotations

import json
import re
import shutil
import xml.etree.ElementTree as ET
from collections import Counter
from typing import Any

import pytest

import nimlab
from nimlab.cli import main
from nimlab.render import game_tree

# [S19] Figure 2: the game tree of Nim (1,2). Every line of play is drawn, so a position
# reached along several paths appears several times (the figure repeats (0,0)); the
# paper does not merge shared positions. Written as (position, [subtrees]).
FIGURE_2 = (
    "(1,2)",
    [
        ("(0,2)", [("(0,1)", [("(0,0)", [])]), ("(0,0)", [])]),
        ("(1,1)", [("(0,1)", [("(0,0)", [])]), ("(1,0)", [("(0,0)", [])])]),
        ("(1,0)", [("(0,0)", [])]),
    ],
)

# [S19] Figure 3: the game tree of the Welter-Sato game from (1,3) ((1,0) and (0,1) are
# terminal: a heap of 0 counts as a heap). The figure's labels, as extracted from the
# paper's text: (1,3) (1,2) (1,0) (0,1) (0,2) (1,0) (0,3) (0,1) (0,2) (0,1).
FIGURE_3_LABELS = [
    "(1,3)",
    "(1,2)",
    "(1,0)",
    "(0,1)",
    "(0,2)",
    "(1,0)",
    "(0,3)",
    "(0,1)",
    "(0,2)",
    "(0,1)",
]
FIGURE_3 = (
    "(1,3)",
    [
        ("(1,2)", [("(0,2)", [("(0,1)", [])]), ("(1,0)", [])]),
        ("(1,0)", []),
        ("(0,3)", [("(0,2)", [("(0,1)", [])]), ("(0,1)", [])]),
    ],
)


def canon(t: tuple[str, list[Any]]) -> tuple[str, tuple[Any, ...]]:
    """Order-free form of a rooted tree."""
    return (t[0], tuple(sorted(canon(c) for c in t[1])))


def parse_dot(dot: str) -> tuple[dict[str, tuple[str, int, bool]], list[tuple[str, str]]]:
    """Nodes (id -> label, Grundy value, marked P) and edges of nimlab's DOT text."""
    nodes = {}
    for m in re.finditer(r'^\s*(n\d+) \[label="([^"\\]*)\\nG=(\d+)"(.*)\];$', dot, re.M):
        nodes[m.group(1)] = (m.group(2), int(m.group(3)), "peripheries=2" in m.group(4))
    edges = re.findall(r"^\s*(n\d+) -> (n\d+);$", dot, re.M)
    return nodes, edges


def tree_from_dot(dot: str) -> tuple[str, list[Any]]:
    nodes, edges = parse_dot(dot)
    kids: dict[str, list[str]] = {n: [] for n in nodes}
    has_parent = set()
    for a, b in edges:
        kids[a].append(b)
        has_parent.add(b)
    (root,) = set(nodes) - has_parent

    def build(n: str) -> tuple[str, list[Any]]:
        return (nodes[n][0], [build(k) for k in kids[n]])

    return build(root)


def test_figure_2_nim_1_2_exact_nodes_and_edges() -> None:
    dot = game_tree("nim", (1, 2)).to_dot()
    nodes, edges = parse_dot(dot)
    assert len(nodes) == 12 and len(edges) == 11
    assert canon(tree_from_dot(dot)) == canon(FIGURE_2)
    for label, g, marked in nodes.values():
        pos = tuple(int(v) for v in label.strip("()").split(","))
        assert g == pos[0] ^ pos[1]  # Bouton
        assert marked == (g == 0)


def test_figure_3_welter_1_3() -> None:
    t = game_tree("welter", (1, 3))
    assert Counter(n.label for n in t.nodes) == Counter(FIGURE_3_LABELS)
    assert canon(tree_from_dot(t.to_dot())) == canon(FIGURE_3)
    for n in t.nodes:
        assert n.grundy == nimlab.grundy("welter", n.position, method="search")


def test_dag_merges_shared_positions() -> None:
    t = game_tree("nim", (1, 2), dag=True)
    labels = [n.label for n in t.nodes]
    assert sorted(labels) == sorted(["(1,2)", "(0,2)", "(1,1)", "(1,0)", "(0,1)", "(0,0)"])
    edges = {(t.nodes[a].label, t.nodes[b].label) for a, b in t.edges}
    assert edges == {
        ("(1,2)", "(0,2)"),
        ("(1,2)", "(1,1)"),
        ("(1,2)", "(1,0)"),
        ("(0,2)", "(0,1)"),
        ("(0,2)", "(0,0)"),
        ("(1,1)", "(0,1)"),
        ("(1,1)", "(1,0)"),
        ("(0,1)", "(0,0)"),
        ("(1,0)", "(0,0)"),
    }
    depth = {n.label: n.depth for n in t.nodes}
    assert all(depth[b] > depth[a] for a, b in edges)  # layered: edges point down


def test_depth_limit_marks_cut_nodes() -> None:
    t = game_tree("nim", (2, 2), depth=1)
    assert [n.depth for n in t.nodes].count(1) == 4
    assert {n.label: n.truncated for n in t.nodes if n.depth == 1} == {
        "(0,2)": True,
        "(1,2)": True,
        "(2,0)": True,
        "(2,1)": True,
    }
    assert "…" in t.render_text() and "dashed" in t.to_dot()


def test_refuses_politely_when_too_large() -> None:
    with pytest.raises(nimlab.SearchTooLargeError, match=r"--depth 2 \(126 nodes\)"):
        game_tree("nim", (3, 4, 5), max_nodes=150)
    with pytest.raises(nimlab.SearchTooLargeError, match="more than 50 nodes"):
        game_tree("nim", (30, 40, 50), dag=True, max_nodes=50)
    # the count is made before building: a huge game answers at once
    with pytest.raises(nimlab.SearchTooLargeError, match="use a smaller position"):
        game_tree("nim", (10**9, 10**9), max_nodes=3000)


def test_svg_fallback_and_graphviz() -> None:
    t = game_tree("nim", (1, 2))
    root = ET.fromstring(t.to_svg(engine="python"))
    assert root.tag.endswith("svg") and float(root.get("width", 0)) > 0
    assert len(root.findall(".//{http://www.w3.org/2000/svg}g")) == 12
    if shutil.which("dot"):
        svg = ET.fromstring(t.to_svg(engine="graphviz"))
        assert svg.tag.endswith("svg")
    assert t._repr_svg_().lstrip().startswith(("<?xml", "<svg", "<!--"))


def test_tikz_is_balanced() -> None:
    tikz = game_tree("nim", (1, 2)).to_tikz()
    assert tikz.count("\\node") == 12 and tikz.count("\\draw[->]") == 11
    assert tikz.count("{") == tikz.count("}")
    assert tikz.count("\\node[ppos]") == 6  # (1,1) and five times (0,0)


def test_cli_tree(capsys: pytest.CaptureFixture[str], tmp_path: Any) -> None:
    assert main(["tree", "nim", "1", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["nodes"]) == 12 and len(data["edges"]) == 11
    f = tmp_path / "t.dot"
    assert main(["tree", "nim", "1", "2", "--dag", "--dot", str(f)]) == 0
    nodes, edges = parse_dot(f.read_text())
    assert len(nodes) == 6 and len(edges) == 9
    capsys.readouterr()
    assert main(["tree", "nim", "3", "4", "5"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "--depth" in err
