"""Games of one's own, as in README.md's "Your own game": ``nimlab table
examples/my_games.py:pow2-both --size 256`` runs this file and tabulates the game, and
``nimlab serve examples/my_games.py`` puts both games of the file in the playground's menu
(with their summaries)."""

from dataclasses import dataclass

import nimlab


@nimlab.heap_game(
    "pow2-both",
    heaps=2,
    summary="two heaps; take any number from one heap, or the same power of 2 from both",
)
def pow2_both(h):
    """Take any number from one heap, or the same power of 2 from both."""
    x, y = h
    for t in range(1, x + 1):
        yield (x - t, y)
    for t in range(1, y + 1):
        yield (x, y - t)
    p = 1
    while p <= min(x, y):
        yield (x - p, y - p)
        p *= 2


@dataclass(frozen=True)
class TakeOneOrHalf(nimlab.HeapRuleset):
    """A ruleset class: registered under its ``name`` when the file is loaded."""

    name = "take-1-or-halve"
    summary = "one heap; take 1 stone, or take half of an even heap"
    n_heaps = 1

    def moves(self, position):
        (n,) = position
        if n >= 1:
            yield (n - 1,)
        if n >= 2 and n % 2 == 0:
            yield (n // 2,)
