"""Seeing the games: tables, heatmaps, game trees and binary views.

Everything here is a free function over the public API, with typed results that render
in a terminal (rich), in a notebook (``_repr_html_`` / ``_repr_svg_``) and as files for
papers (CSV, JSON, Markdown, LaTeX, PNG, SVG, DOT, TikZ).

Submodules load lazily: ``nimlab.render.game_tree`` imports neither numpy nor
matplotlib; tables import numpy; only :func:`heatmap` imports matplotlib (Agg backend).

Examples
--------
>>> from nimlab import render
>>> render.binary_view("nim", (3, 5, 6)).rows()[-1]
('⊕', '000')
>>> print(render.table_to_markdown([[0, 1], [1, 0]]))
| x \\ y | 0 | 1 |
|---|---|---|
| **0** | **0** | 1 |
| **1** | 1 | **0** |
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from nimlab._lazy import lazy_attributes

__all__ = [
    "BinaryView",
    "GameTree",
    "TableView",
    "binary_view",
    "compute_table",
    "game_tree",
    "heatmap",
    "table_to_csv",
    "table_to_html",
    "table_to_json",
    "table_to_latex",
    "table_to_markdown",
    "table_view",
]

_LAZY: dict[str, str] = {
    "BinaryView": "nimlab.render.binary",
    "binary_view": "nimlab.render.binary",
    "GameTree": "nimlab.render.tree",
    "game_tree": "nimlab.render.tree",
    "TableView": "nimlab.render.tables",
    "table_view": "nimlab.render.tables",
    "compute_table": "nimlab.render.tables",
    "table_to_csv": "nimlab.render.tables",
    "table_to_html": "nimlab.render.tables",
    "table_to_json": "nimlab.render.tables",
    "table_to_latex": "nimlab.render.tables",
    "table_to_markdown": "nimlab.render.tables",
    "heatmap": "nimlab.render.heatmaps",
}


_load, __dir__ = lazy_attributes(__name__, _LAZY, globals())


def __getattr__(attr: str) -> Any:
    if attr == "render":  # ``nimlab.render`` reached through nimlab's lazy table
        return sys.modules[__name__]
    return _load(attr)


if TYPE_CHECKING:
    from nimlab.render.binary import BinaryView, binary_view
    from nimlab.render.heatmaps import heatmap
    from nimlab.render.tables import (
        TableView,
        compute_table,
        table_to_csv,
        table_to_html,
        table_to_json,
        table_to_latex,
        table_to_markdown,
        table_view,
    )
    from nimlab.render.tree import GameTree, game_tree
