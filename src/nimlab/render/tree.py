"""Game trees of positions, as in [S19] Figures 2-4: DOT, TikZ, SVG and text.

A node shows a position and its Grundy value; P-positions (value 0) are marked (filled,
double border). As in the paper's figures, the tree repeats a position once per path that
reaches it (Figure 2 shows ``(0,0)`` five times for Nim ``(1,2)``); ``dag=True`` merges
equal positions into one node (a DAG). Positions are drawn as the moves produce them,
not sorted (``(1,0)`` and ``(0,1)`` are different nodes, as in the figures).

The size is counted before anything is built: a tree with more nodes than
``max_nodes`` is refused with a :class:`~nimlab.core.errors.SearchTooLargeError` that
says which depth would fit. Graphviz ``dot`` lays out SVG when installed; otherwise (or
with ``engine="python"``) a simple layered layout of nimlab's own is used. DOT and TikZ
text never need Graphviz.

References
----------
[S19] Figures 2 (Nim (1,2)), 3 (Welter-Sato game (1,3)) and 4 (Delete Nim).

Examples
--------
>>> from nimlab.render import game_tree
>>> t = game_tree("nim", (1, 2))
>>> len(t.nodes), len(t.edges)
(12, 11)
>>> print(t.render_text())
(1,2) G=3
├── (0,2) G=2
│   ├── (0,0) G=0 P
│   └── (0,1) G=1
│       └── (0,0) G=0 P
├── (1,0) G=1
│   └── (0,0) G=0 P
└── (1,1) G=0 P
    ├── (0,1) G=1
    │   └── (0,0) G=0 P
    └── (1,0) G=1
        └── (0,0) G=0 P
>>> len(game_tree("nim", (1, 2), dag=True).nodes)
6
"""

from __future__ import annotations

import html
import json
import shutil
import subprocess
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from nimlab.core.errors import InvalidParameterError, SearchTooLargeError

if TYPE_CHECKING:
    from nimlab.core.ruleset import Ruleset

__all__ = ["DEFAULT_MAX_NODES", "GameTree", "TreeNode", "format_position", "game_tree"]

DEFAULT_MAX_NODES = 500
#: budget of the exact solver that labels nodes with Grundy values
GRUNDY_BUDGET = 200_000


def format_position(position: object) -> str:
    """The position as the papers print it: ``(1,2)``, ranges ``((1,2),(3))``.

    Examples
    --------
    >>> format_position((1, 2)), format_position(((1, 2), (3,))), format_position(frozenset({(1, 2)}))
    ('(1,2)', '((1,2),(3))', '{(1,2)}')
    """
    if isinstance(position, tuple):
        return "(" + ",".join(format_position(x) for x in position) + ")"
    if isinstance(position, (set, frozenset)):
        return "{" + ",".join(sorted(format_position(x) for x in position)) + "}"
    return str(position)


@dataclass(frozen=True)
class TreeNode:
    """One node of a :class:`GameTree`.

    Attributes
    ----------
    id : int
        Index in ``GameTree.nodes`` (the root is 0).
    position : object
        The position.
    grundy : int or None
        Its Grundy value (None if too costly to compute).
    depth : int
        Moves from the root (in a DAG, the length of the longest path).
    truncated : bool
        The node has options not shown because of the depth limit.
    """

    id: int
    position: Any
    grundy: int | None
    depth: int
    truncated: bool = False

    @property
    def label(self) -> str:
        """The position, as printed in the figures."""
        return format_position(self.position)

    @property
    def is_p(self) -> bool:
        """Whether the node is a P-position (Grundy value 0)."""
        return self.grundy == 0

    @property
    def value_text(self) -> str:
        """``G=3`` (``G=?`` when unknown)."""
        return f"G={'?' if self.grundy is None else self.grundy}"


@dataclass
class GameTree:
    """The game tree (or DAG) of a position, ready to draw.

    Examples
    --------
    >>> from nimlab.render import game_tree
    >>> t = game_tree("nim", (2,), dag=True)
    >>> [n.label for n in t.nodes], t.edges
    (['(2)', '(1)', '(0)'], [(0, 2), (0, 1), (1, 2)])
    >>> print(t.to_dot().splitlines()[5])
      n0 [label="(2)\\nG=2"];
    """

    game: str
    root: Any
    nodes: list[TreeNode]
    edges: list[tuple[int, int]]
    dag: bool = False
    depth: int | None = None
    _children: dict[int, list[int]] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        kids: dict[int, list[int]] = {n.id: [] for n in self.nodes}
        for a, b in self.edges:
            kids[a].append(b)
        self._children = kids

    @property
    def title(self) -> str:
        """``nim: game tree of (1,2)`` (with depth and DAG notes)."""
        what = "game DAG" if self.dag else "game tree"
        extra = f", depth <= {self.depth}" if self.depth is not None else ""
        return f"{self.game}: {what} of {format_position(self.root)}{extra}"

    def children(self, node: int) -> list[int]:
        """Ids of the options of node *node*."""
        return self._children[node]

    # -- text and data ----------------------------------------------------------
    def _line(self, n: TreeNode) -> str:
        mark = " P" if n.is_p else ""
        more = " …" if n.truncated else ""
        return f"{n.label} {n.value_text}{mark}{more}"

    def render_text(self) -> str:
        """The tree drawn with box characters (a DAG: one line per node with its options)."""
        if self.dag:
            lines = []
            for n in self.nodes:
                opts = ", ".join(self.nodes[k].label for k in self.children(n.id))
                lines.append(self._line(n) + (f" -> {opts}" if opts else ""))
            return "\n".join(lines)
        out = [self._line(self.nodes[0])]
        stack: list[tuple[int, str, bool]] = [
            (k, "", i == len(self.children(0)) - 1)
            for i, k in reversed(list(enumerate(self.children(0))))
        ]
        while stack:
            nid, prefix, last = stack.pop()
            out.append(prefix + ("└── " if last else "├── ") + self._line(self.nodes[nid]))
            kids = self.children(nid)
            sub = prefix + ("    " if last else "│   ")
            for i, k in reversed(list(enumerate(kids))):
                stack.append((k, sub, i == len(kids) - 1))
        return "\n".join(out)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict: game, root, dag, depth, nodes and edges."""
        return {
            "game": self.game,
            "root": self.root,
            "dag": self.dag,
            "depth": self.depth,
            "nodes": [
                {
                    "id": n.id,
                    "position": n.position,
                    "label": n.label,
                    "grundy": n.grundy,
                    "p": n.is_p,
                    "depth": n.depth,
                    "truncated": n.truncated,
                }
                for n in self.nodes
            ],
            "edges": [list(e) for e in self.edges],
        }

    def to_json(self) -> str:
        """JSON text of :meth:`to_dict`."""
        return json.dumps(self.to_dict(), default=_json_default)

    # -- DOT --------------------------------------------------------------------
    def to_dot(self) -> str:
        """Graphviz DOT text (no Graphviz needed to produce it)."""
        lines = [
            "digraph gametree {",
            f'  graph [label="{_dot_escape(self.title)}", labelloc=t, fontname="Helvetica", '
            "fontsize=12, nodesep=0.25, ranksep=0.45];",
            '  node [shape=box, style=rounded, fontname="Helvetica", fontsize=11, '
            'margin="0.08,0.04", height=0.3];',
            "  edge [arrowsize=0.6];",
            "",
        ]
        for n in self.nodes:
            attrs = [f'label="{_dot_escape(n.label)}\\n{n.value_text}"']
            style = ["rounded"]
            if n.is_p:
                style.append("filled")
                attrs += ['fillcolor="#222222"', 'fontcolor="white"', "peripheries=2"]
            if n.truncated:
                style.append("dashed")
            if style != ["rounded"]:
                attrs.append(f'style="{",".join(style)}"')
            lines.append(f"  n{n.id} [{', '.join(attrs)}];")
        lines.append("")
        lines += [f"  n{a} -> n{b};" for a, b in self.edges]
        lines.append("}")
        return "\n".join(lines) + "\n"

    # -- layout -----------------------------------------------------------------
    def layout(self) -> dict[int, tuple[float, int]]:
        """Node id -> (x slot, layer): a tidy tree, or a layered DAG (longest path)."""
        if not self.dag:
            pos: dict[int, tuple[float, int]] = {}
            nxt = 0.0
            # post-order without recursion
            stack: list[tuple[int, bool]] = [(0, False)]
            while stack:
                nid, done = stack.pop()
                kids = self.children(nid)
                if not kids:
                    pos[nid] = (nxt, self.nodes[nid].depth)
                    nxt += 1
                elif done:
                    pos[nid] = ((pos[kids[0]][0] + pos[kids[-1]][0]) / 2, self.nodes[nid].depth)
                else:
                    stack.append((nid, True))
                    stack += [(k, False) for k in reversed(kids)]
            return pos
        layers: dict[int, list[int]] = {}
        for n in self.nodes:
            layers.setdefault(n.depth, []).append(n.id)
        parents: dict[int, list[int]] = {n.id: [] for n in self.nodes}
        for a, b in self.edges:
            parents[b].append(a)
        width = max(len(v) for v in layers.values())
        out: dict[int, tuple[float, int]] = {}
        for d in sorted(layers):
            ids = layers[d]
            if d > 0:
                ids.sort(key=lambda i: sum(out[p][0] for p in parents[i]) / len(parents[i]))
            off = (width - len(ids)) / 2
            for j, i in enumerate(ids):
                out[i] = (off + j, d)
        return out

    # -- TikZ -------------------------------------------------------------------
    def to_tikz(self, *, xscale: float = 1.5, yscale: float = 1.3) -> str:
        r"""A ``tikzpicture`` (needs only ``\usepackage{tikz}``), laid out by nimlab.

        Examples
        --------
        >>> from nimlab.render import game_tree
        >>> print(game_tree("nim", (1,)).to_tikz())
        \begin{tikzpicture}[>=stealth, every node/.style={draw, rounded corners, align=center, font=\small}, ppos/.style={fill=black!85, text=white, double}]
        \node (n0) at (0.00,0.00) {$(1)$\\$G=1$};
        \node[ppos] (n1) at (0.00,-1.30) {$(0)$\\$G=0$};
        \draw[->] (n0) -- (n1);
        \end{tikzpicture}
        """
        pos = self.layout()
        xs = [x for x, _ in pos.values()]
        shift = (min(xs) + max(xs)) / 2
        lines = [
            "\\begin{tikzpicture}[>=stealth, every node/.style={draw, rounded corners, "
            "align=center, font=\\small}, ppos/.style={fill=black!85, text=white, double}]"
        ]
        for n in self.nodes:
            x, d = pos[n.id]
            opts = []
            if n.is_p:
                opts.append("ppos")
            if n.truncated:
                opts.append("dashed")
            o = f"[{', '.join(opts)}]" if opts else ""
            g = "?" if n.grundy is None else str(n.grundy)
            label = _tikz_escape(n.label)
            lines.append(
                f"\\node{o} (n{n.id}) at ({(x - shift) * xscale:.2f},{-d * yscale:.2f}) "
                f"{{${label}$\\\\$G={g}$}};"
            )
        lines += [f"\\draw[->] (n{a}) -- (n{b});" for a, b in self.edges]
        lines.append("\\end{tikzpicture}")
        return "\n".join(lines)

    # -- SVG --------------------------------------------------------------------
    def to_svg(self, engine: str = "auto") -> str:
        """SVG text: laid out by Graphviz ``dot`` when installed (``engine="auto"`` or
        ``"graphviz"``), else by nimlab's own layered layout (``engine="python"``)."""
        if engine not in ("auto", "graphviz", "python"):
            raise InvalidParameterError(
                f"unknown layout engine {engine!r}: choose auto, graphviz or python"
            )
        if engine != "python":
            dot = shutil.which("dot")
            if dot is not None:
                try:
                    res = subprocess.run(
                        [dot, "-Tsvg"],
                        input=self.to_dot(),
                        capture_output=True,
                        text=True,
                        timeout=60,
                        check=True,
                    )
                    return res.stdout
                except (OSError, subprocess.SubprocessError):
                    if engine == "graphviz":
                        raise
            elif engine == "graphviz":
                raise InvalidParameterError(
                    "Graphviz `dot` is not installed; install graphviz or use engine='python'"
                )
        return self._svg_python()

    def _svg_python(self) -> str:
        pos = self.layout()
        char_w, box_h, gap_x, gap_y, pad, top = 7.2, 34.0, 14.0, 38.0, 12.0, 30.0
        widths = {n.id: max(len(n.label), len(n.value_text) + 2) * char_w + 14 for n in self.nodes}
        slot = max(widths.values()) + gap_x
        xs = [x for x, _ in pos.values()]
        depth = max(d for _, d in pos.values())
        w = (max(xs) - min(xs)) * slot + max(widths.values()) + 2 * pad
        h = top + (depth + 1) * box_h + depth * gap_y + 2 * pad

        def centre(nid: int) -> tuple[float, float]:
            x, d = pos[nid]
            return (
                pad + (x - min(xs)) * slot + max(widths.values()) / 2,
                top + pad + d * (box_h + gap_y),
            )

        out = [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="{h:.0f}" '
            f'viewBox="0 0 {w:.0f} {h:.0f}" font-family="Helvetica, Arial, sans-serif">',
            '<defs><marker id="arr" viewBox="0 0 10 10" refX="10" refY="5" '
            'markerWidth="6" markerHeight="6" orient="auto-start-reverse">'
            '<path d="M 0 0 L 10 5 L 0 10 z" fill="#333"/></marker></defs>',
            '<rect width="100%" height="100%" fill="white"/>',
            f'<text x="{w / 2:.1f}" y="{pad + 12:.1f}" text-anchor="middle" font-size="13">'
            f"{html.escape(self.title)}</text>",
        ]
        for a, b in self.edges:
            (x1, y1), (x2, y2) = centre(a), centre(b)
            out.append(
                f'<line x1="{x1:.1f}" y1="{y1 + box_h:.1f}" x2="{x2:.1f}" y2="{y2 - 2:.1f}" '
                'stroke="#333" stroke-width="1" marker-end="url(#arr)"/>'
            )
        for n in self.nodes:
            cx, y = centre(n.id)
            bw = widths[n.id]
            fill, ink = ("#222222", "white") if n.is_p else ("white", "black")
            dash = ' stroke-dasharray="4 3"' if n.truncated else ""
            out.append(f'<g class="node" id="n{n.id}">')
            out.append(
                f'<rect x="{cx - bw / 2:.1f}" y="{y:.1f}" width="{bw:.1f}" height="{box_h:.1f}" '
                f'rx="6" fill="{fill}" stroke="black"{dash}/>'
            )
            if n.is_p:
                out.append(
                    f'<rect x="{cx - bw / 2 - 3:.1f}" y="{y - 3:.1f}" width="{bw + 6:.1f}" '
                    f'height="{box_h + 6:.1f}" rx="8" fill="none" stroke="black"/>'
                )
            out.append(
                f'<text x="{cx:.1f}" y="{y + 14:.1f}" text-anchor="middle" font-size="12" '
                f'fill="{ink}">{html.escape(n.label)}</text>'
            )
            out.append(
                f'<text x="{cx:.1f}" y="{y + 28:.1f}" text-anchor="middle" font-size="11" '
                f'fill="{ink}">{html.escape(n.value_text)}</text>'
            )
            out.append("</g>")
        out.append("</svg>")
        return "\n".join(out) + "\n"

    def _repr_svg_(self) -> str:
        return self.to_svg()

    # -- PNG --------------------------------------------------------------------
    def to_png(self, *, dpi: int = 100) -> bytes:
        """PNG bytes of nimlab's own layout (the one of ``to_svg(engine="python")``), drawn
        with matplotlib: boxes with the position and its Grundy value, P-positions filled.

        Examples
        --------
        >>> from nimlab import game_tree
        >>> png = game_tree("nim", (1, 2)).to_png()
        >>> png[1:4]
        b'PNG'
        """
        import io

        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.patches import FancyBboxPatch

        pos = self.layout()
        xs = [x for x, _ in pos.values()]
        depth = max(d for _, d in pos.values())
        longest = max(max(len(n.label), len(n.value_text) + 2) for n in self.nodes)
        slot = max(1.0, longest * 0.09 + 0.35)  # inches per slot: labels never overlap
        width = (max(xs) - min(xs) + 1) * slot + 0.4
        height = (depth + 1) * 1.0 + 0.6
        fig = plt.figure(figsize=(width, height), dpi=dpi)
        ax = fig.add_axes((0, 0, 1, 1))
        ax.set_xlim(0, width)
        ax.set_ylim(height, 0)
        ax.axis("off")
        fig.text(0.5, 1 - 0.2 / height, self.title, ha="center", va="center", fontsize=10)

        def centre(nid: int) -> tuple[float, float]:
            x, d = pos[nid]
            return 0.2 + (x - min(xs) + 0.5) * slot, 0.55 + d * 1.0

        bw, bh = slot * 0.85, 0.5
        for a, b in self.edges:
            (x1, y1), (x2, y2) = centre(a), centre(b)
            ax.annotate(
                "",
                xy=(x2, y2 - 0.02),
                xytext=(x1, y1 + bh),
                arrowprops={"arrowstyle": "->", "color": "#333333", "lw": 0.8},
            )
        for n in self.nodes:
            cx, y = centre(n.id)
            fill, ink = ("#222222", "white") if n.is_p else ("white", "black")
            ax.add_patch(
                FancyBboxPatch(
                    (cx - bw / 2, y),
                    bw,
                    bh,
                    boxstyle="round,pad=0.02",
                    facecolor=fill,
                    edgecolor="black",
                    linestyle="--" if n.truncated else "-",
                )
            )
            ax.text(cx, y + 0.17, n.label, ha="center", va="center", fontsize=9, color=ink)
            ax.text(cx, y + 0.37, n.value_text, ha="center", va="center", fontsize=8, color=ink)
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=dpi, facecolor="white")
        plt.close(fig)
        return buf.getvalue()


def _dot_escape(s: str) -> str:
    return s.replace("\\", "\\\\").replace('"', '\\"')


def _tikz_escape(s: str) -> str:
    return s.replace("{", "\\{").replace("}", "\\}")


def _json_default(obj: object) -> Any:
    if isinstance(obj, (set, frozenset)):
        return sorted(obj, key=repr)
    return str(obj)


# -- counting and building ------------------------------------------------------------


def _options(g: Ruleset[Any], pos: Hashable) -> list[Hashable]:
    return list(dict.fromkeys(g.moves(pos)))


def _explore(
    g: Ruleset[Any], root: Hashable, depth: int | None, cap: int
) -> tuple[dict[Hashable, list[Hashable]], dict[Hashable, int]] | int:
    """Distinct positions within *depth* of *root*: options of expanded positions and
    the BFS level of each. Returns the level where more than *cap* positions appear
    when there are too many."""
    kids: dict[Hashable, list[Hashable]] = {}
    level = {root: 0}
    frontier = [root]
    d = 0
    while frontier and (depth is None or d < depth):
        nxt: list[Hashable] = []
        for p in frontier:
            opts: dict[Hashable, None] = {}
            for c in g.moves(p):  # streamed: a huge position stops at the cap
                if c in opts:
                    continue
                opts[c] = None
                if c not in level:
                    level[c] = d + 1
                    nxt.append(c)
                    if len(level) > cap:
                        return d + 1
            kids[p] = list(opts)
        frontier = nxt
        d += 1
    return kids, level


def _tree_counts(
    kids: dict[Hashable, list[Hashable]], root: Hashable, depth: int | None, stop: int
) -> list[int]:
    """Number of tree nodes of *root* limited to depth 0, 1, 2, ... (up to *depth*,
    or until the count exceeds *stop* / stops growing)."""
    prev: dict[Hashable, int] = {}
    counts: list[int] = []
    d = 0
    while True:
        cur = {p: 1 + sum(prev.get(c, 1) for c in kids.get(p, ())) if d else 1 for p in kids}
        total = cur.get(root, 1)
        counts.append(total)
        if (depth is not None and d >= depth) or total > stop:
            break
        if len(counts) > 1 and counts[-1] == counts[-2]:
            break  # the whole tree fits in this depth
        prev = cur
        d += 1
    return counts


def game_tree(
    game: Ruleset[Any] | str,
    position: object,
    *,
    depth: int | None = None,
    dag: bool = False,
    max_nodes: int = DEFAULT_MAX_NODES,
) -> GameTree:
    """The game tree of *position*: every line of play, or with ``dag=True`` every
    reachable position once.

    Parameters
    ----------
    game : Ruleset or str
        The game.
    position : object
        The root position (validated).
    depth : int, optional
        Show only positions at most this many moves from the root.
    dag : bool
        Merge equal positions (a DAG) instead of repeating them (a tree, as in [S19]).
    max_nodes : int
        Refuse (with a message saying which depth fits) when the drawing would have
        more nodes.

    Returns
    -------
    GameTree

    Raises
    ------
    SearchTooLargeError
        The tree (or DAG) has more than *max_nodes* nodes.

    Examples
    --------
    >>> from nimlab.render import game_tree
    >>> t = game_tree("nim", (3, 4, 5), depth=1, max_nodes=20)
    >>> len(t.nodes), t.nodes[1].truncated
    (13, True)
    >>> game_tree("nim", (3, 4, 5), max_nodes=150)
    Traceback (most recent call last):
    ...
    nimlab.core.errors.SearchTooLargeError: nim: the game tree of (3,4,5) has more than 150 nodes; use --depth 2 (126 nodes) or --dag (merges equal positions: 120 nodes), or raise --max-nodes
    """
    import nimlab
    from nimlab.catalog.registry import as_game

    g: Ruleset[Any] = as_game(game)
    if depth is not None and depth < 0:
        raise InvalidParameterError(f"depth must be >= 0, got {depth}")
    if max_nodes < 1:
        raise InvalidParameterError(f"max_nodes must be >= 1, got {max_nodes}")
    root = g.validate(position)
    kids, level = _explored(g, root, depth, dag, max_nodes)
    name = g.label()

    solver = nimlab.Solver(g, GRUNDY_BUDGET)
    values: dict[Hashable, int | None] = {}

    def value(p: Hashable) -> int | None:
        if p not in values:
            try:
                values[p] = solver.grundy(p)
            except SearchTooLargeError:
                values[p] = None
        return values[p]

    def cut(p: Hashable, d: int) -> bool:
        return depth is not None and d >= depth and bool(_options(g, p))

    if dag:
        nodes, edges = _dag_nodes(kids, level, root, value, cut)
        return GameTree(name, root, nodes, edges, True, depth)
    nodes, edges = _tree_nodes(kids, root, depth, value, cut)
    return GameTree(name, root, nodes, _sorted_edges(edges), False, depth)


def _explored(
    g: Ruleset[Any], root: Hashable, depth: int | None, dag: bool, max_nodes: int
) -> tuple[dict[Hashable, list[Hashable]], dict[Hashable, int]]:
    """The positions of the drawing (:func:`_explore`), refused when there are more
    than *max_nodes* nodes or a line of play never ends."""
    explored = _explore(g, root, depth, max_nodes)
    if isinstance(explored, int):
        raise _too_large(g, root, depth, dag, max_nodes, explored)
    kids, level = explored
    if depth is None:
        cycle = _cycle(kids, root)
        if cycle is not None:
            from nimlab.engine.search import loopy_error

            raise loopy_error(g, cycle)
    if not dag:
        counts = _tree_counts(kids, root, depth, max_nodes)
        if counts[-1] > max_nodes:
            raise _too_large(g, root, depth, dag, max_nodes, None, counts, len(level))
    return kids, level


def _dag_nodes(
    kids: dict[Hashable, list[Hashable]],
    level: dict[Hashable, int],
    root: Hashable,
    value: Callable[[Hashable], int | None],
    cut: Callable[[Hashable, int], bool],
) -> tuple[list[TreeNode], list[tuple[int, int]]]:
    """Every reachable position once, at the length of its longest line from the root."""
    nodes: list[TreeNode] = []
    edges: list[tuple[int, int]] = []
    order = _topological(kids, root)
    ids = {p: i for i, p in enumerate(order)}
    longest = dict.fromkeys(order, 0)
    for p in order:
        for c in kids.get(p, ()):
            longest[c] = max(longest[c], longest[p] + 1)
    for p in order:
        nodes.append(TreeNode(ids[p], p, value(p), longest[p], p not in kids and cut(p, level[p])))
        edges += [(ids[p], ids[c]) for c in kids.get(p, ())]
    return nodes, edges


def _tree_nodes(
    kids: dict[Hashable, list[Hashable]],
    root: Hashable,
    depth: int | None,
    value: Callable[[Hashable], int | None],
    cut: Callable[[Hashable, int], bool],
) -> tuple[list[TreeNode], list[tuple[int, int]]]:
    """Every line of play: a node per position reached, depth first."""
    nodes: list[TreeNode] = []
    edges: list[tuple[int, int]] = []
    stack: list[tuple[Hashable, int, int | None]] = [(root, 0, None)]
    while stack:
        p, d, parent = stack.pop()
        nid = len(nodes)
        expanded = depth is None or d < depth
        nodes.append(TreeNode(nid, p, value(p), d, not expanded and cut(p, d)))
        if parent is not None:
            edges.append((parent, nid))
        if expanded:
            stack += [(c, d + 1, nid) for c in reversed(kids.get(p, []))]
    return nodes, edges


def _sorted_edges(edges: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    return sorted(edges)


def _cycle(kids: dict[Hashable, list[Hashable]], root: Hashable) -> list[Hashable] | None:
    """A cycle of moves reachable from *root* in *kids* (first and last equal), or None."""
    done: set[Hashable] = set()
    path: list[Hashable] = [root]
    on_path = {root}
    stack: list[tuple[Hashable, int]] = [(root, 0)]
    while stack:
        p, i = stack[-1]
        opts = kids.get(p, [])
        if i < len(opts):
            stack[-1] = (p, i + 1)
            c = opts[i]
            if c in on_path:
                return [*path[path.index(c) :], c]
            if c not in done:
                stack.append((c, 0))
                path.append(c)
                on_path.add(c)
        else:
            stack.pop()
            path.pop()
            on_path.discard(p)
            done.add(p)
    return None


def _topological(kids: dict[Hashable, list[Hashable]], root: Hashable) -> list[Hashable]:
    """Positions reachable from *root* in *kids*, parents before children."""
    seen: set[Hashable] = {root}
    post: list[Hashable] = []
    stack: list[tuple[Hashable, int]] = [(root, 0)]
    while stack:
        p, i = stack.pop()
        opts = kids.get(p, [])
        if i < len(opts):
            stack.append((p, i + 1))
            c = opts[i]
            if c not in seen:
                seen.add(c)
                stack.append((c, 0))
        else:
            post.append(p)
    post.reverse()
    return post


def _too_large(
    g: Ruleset[Any],
    root: Hashable,
    depth: int | None,
    dag: bool,
    max_nodes: int,
    dag_level: int | None,
    counts: list[int] | None = None,
    dag_size: int | None = None,
) -> SearchTooLargeError:
    what = "DAG" if dag else "tree"
    at = f" to depth {depth}" if depth is not None else ""
    hints = []
    if counts is None:
        # too many distinct positions: the largest depth whose positions fit
        assert dag_level is not None
        fit = dag_level - 1
        sub = _explore(g, root, fit, max_nodes)
        if not isinstance(sub, int) and fit >= 1:
            if dag:
                hints.append(f"--depth {fit} ({len(sub[1])} nodes)")
            else:
                c = _tree_counts(sub[0], root, fit, max_nodes)
                ok = [i for i, n in enumerate(c) if n <= max_nodes]
                if ok and ok[-1] >= 1:
                    hints.append(f"--depth {ok[-1]} ({c[ok[-1]]} nodes)")
    else:
        ok = [i for i, n in enumerate(counts) if n <= max_nodes]
        if ok and ok[-1] >= 1:
            hints.append(f"--depth {ok[-1]} ({counts[ok[-1]]} nodes)")
        if dag_size is not None and dag_size <= max_nodes:
            hints.append(f"--dag (merges equal positions: {dag_size} nodes)")
    hint = (
        ("use " + " or ".join(hints) + ", or raise --max-nodes")
        if hints
        else ("use a smaller position or --depth, or raise --max-nodes")
    )
    return SearchTooLargeError(
        f"{g.label()}: the game {what} of {format_position(root)}{at} has more than "
        f"{max_nodes} nodes; {hint}"
    )
