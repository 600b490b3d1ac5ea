"""Grundy values of a two-heap game by exhaustive search over its moves (the independent
reference of the vectorised checks' tests)."""

from __future__ import annotations

from typing import Any

import numpy as np

from nimlab.core.ruleset import Ruleset


def grundy_box(game: Ruleset[Any], n: int) -> Any:
    """Grundy values of every ``(a, b)`` below *n* by exhaustive search over the game's moves."""
    t = np.zeros((n, n), np.int64)
    for a in range(n):
        for b in range(n):
            seen = {int(t[q]) for q in game.moves((a, b))}
            t[a, b] = min(set(range(len(seen) + 1)) - seen)
    return t
