"""Games of one's own, as in README.md's "Your own game": ``nimlab table
examples/my_games.py:pow2-both --size 256`` runs this file and tabulates the game."""

import nimlab


@nimlab.heap_game("pow2-both", heaps=2)
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
