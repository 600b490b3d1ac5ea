"""The position spaces of the CLI and of :func:`~nimlab.verification.runner.verify`:
:func:`heap_space` (every heap below a bound, or the total below it when moves raise a
heap) and :func:`multiset_space` (sorted positions for a claim about a user's order-free
game).
"""

from __future__ import annotations

from typing import Any

from nimlab.core.errors import InvalidParameterError
from nimlab.core.ruleset import Ruleset
from nimlab.verification.local import Claim
from nimlab.verification.spaces import (
    BoxSpace,
    SortedBoxSpace,
    Space,
    TotalSpace,
    heap_box,
    rows_per_chunk,
)
from nimlab.verification.spec import COMPILED_CHUNK, FAST_CHUNK, PY_CHUNK

__all__ = ["SYMMETRY_SAMPLE", "game_space", "heap_space", "multiset_space"]


def _default_heaps(game: Ruleset[Any]) -> int:
    """The game's own number of heaps, else the first of 3, 2, 1, 4, ... it accepts."""
    from nimlab.core.errors import NimlabError

    n = getattr(type(game), "n_heaps", None)
    if isinstance(n, int):
        return n
    low = int(getattr(type(game), "min_heap_size", 0))
    for k in (3, 2, 1, 4, 5, 6, 7, 8):
        try:
            game.validate(tuple(range(low, low + k)))
        except NimlabError:
            continue
        return k
    return 3


def _probe_closed(game: Ruleset[Any], n: int, low: int, bound: int) -> str:
    """``"box"`` if moves never leave a box, ``"total"`` if they keep the total, else refuse."""
    import itertools

    from nimlab.core.errors import InvalidPositionError

    top = min(bound, low + 5)
    leaves_box = False
    for t in itertools.product(range(low, top), repeat=n):
        try:
            pos = game.validate(t)
        except InvalidPositionError:
            continue
        for q in game.moves(pos):
            if not isinstance(q, tuple) or len(q) != n:
                raise InvalidParameterError(
                    f"{game.label()}: moves change the number of heaps; verify positions of "
                    "this game through the Python API with an explicit move-closed space"
                )
            if any(h >= top for h in q):
                leaves_box = True
                if sum(q) > sum(t):
                    raise InvalidParameterError(
                        f"{game.label()}: a move adds stones ({t} -> {q}), so no box of heaps "
                        "is move-closed and a local check cannot be bounded; use the Python "
                        "API with an explicit move-closed space"
                    )
    return "total" if leaves_box else "box"


#: What a space must answer (:class:`~nimlab.verification.spaces.Space`).
_SPACE_MEMBERS = ("chunk", "contains", "describe")


def game_space(
    game: Ruleset[Any], bound: int, heaps: int | None, chunk_size: int | None
) -> Space | None:
    """The game's own verification space for *bound*, *heaps* and *chunk_size* (from its
    optional ``verification_space(bound, heaps, chunk_size)`` hook), or None when it
    has none (the verifier then builds a box of heaps).

    A space of a kind the verifier does not know answers the
    :class:`~nimlab.verification.spaces.Space` protocol: chunks, membership, a
    description, and optionally its size, a stable identity for the results store and
    its own compiled check of a chunk.

    Examples
    --------
    >>> from nimlab import game
    >>> game_space(game("nim"), 4, 2, None) is None
    True
    """
    from nimlab.core.errors import GameDefinitionError

    hook = getattr(game, "verification_space", None)
    if not callable(hook):
        return None
    space = hook(bound, heaps, chunk_size)
    if space is None:
        return None
    n = getattr(space, "n_chunks", None)
    if not (isinstance(n, int) and n >= 0) or not all(
        callable(getattr(space, m, None)) for m in _SPACE_MEMBERS
    ):
        raise GameDefinitionError(
            f"{game.label()}: verification_space gave {type(space).__name__}, not a space "
            "(n_chunks, chunk(i), contains(position), describe())"
        )
    return space  # type: ignore[no-any-return]


def heap_space(
    game: Ruleset[Any],
    bound: int,
    heaps: int | None = None,
    *,
    fast: bool = False,
    chunk_size: int | None = None,
) -> Space:
    """The CLI's position space: every heap < *bound*, or the total < *bound* if moves
    can raise a heap (Lim); invalid tuples are skipped.

    A game that brings its own space (:func:`game_space`) is checked on it instead.

    Examples
    --------
    >>> from nimlab import game
    >>> heap_space(game("nim"), 4, 2)
    BoxSpace(n_heaps=2, bound=4, low=0, rows=4, game=Nim())
    """
    from nimlab.core.ruleset import HeapRuleset

    if not isinstance(bound, int) or bound < 1:
        raise InvalidParameterError(f"bound must be a positive integer, got {bound!r}")
    own = game_space(game, bound, heaps, chunk_size)
    if own is not None:
        return own
    if not isinstance(game, HeapRuleset):
        raise InvalidParameterError(
            f"{game.label()}: positions are not tuples of heaps; verify it through the "
            "Python API (nimlab.verify(game, ..., positions=...))"
        )
    n = heaps if heaps is not None else _default_heaps(game)
    fixed = getattr(type(game), "n_heaps", None)
    if fixed is not None and n != fixed:
        raise InvalidParameterError(f"{game.name} is played on exactly {fixed} heaps, not {n}")
    least = max(1, getattr(type(game), "min_heaps", 0))
    if n < least:
        raise InvalidParameterError(f"{game.name} needs at least {least} heaps, got {n}")
    if n > 8:
        raise InvalidParameterError(f"at most 8 heaps can be enumerated, got {n}")
    low = int(getattr(type(game), "min_heap_size", 0))
    if bound <= low:
        raise InvalidParameterError(f"bound must be > {low} for {game.name} (heaps >= {low})")
    span = bound - low
    if span**n > 10**11:
        raise InvalidParameterError(
            f"{span}^{n} positions is too many to enumerate; lower --bound or --heaps"
        )
    mode = _probe_closed(game, n, low, bound)
    row_size = span ** (n - 1)
    target = chunk_size if chunk_size else (FAST_CHUNK if fast else PY_CHUNK)
    rows = rows_per_chunk(span, row_size, target)
    if mode == "total":
        return TotalSpace(n, bound, low, rows, game)
    return BoxSpace(n, bound, low, rows, game)


#: Positions on which a claim about an order-free game is tried in every order of its
#: heaps before only sorted positions are checked.
SYMMETRY_SAMPLE = 64


def multiset_space(
    g: Ruleset[Any], claim: Claim, space: Space, chunk_size: int | None, compiled: bool
) -> SortedBoxSpace | None:
    """Sorted positions (one per multiset of heaps) for a claim about a user's order-free
    game on a box, or None to keep the box: a catalog game (its conjectures keep the box
    of every heap order, as their stored runs and counts do), the game's heap order
    matters, a tuple of the box is not a position, or the claim gives different values
    to some position's heap orders on a sample (so it is not a claim about multisets)."""
    import itertools
    import random

    from nimlab.catalog.user import UserHeapGame
    from nimlab.core.ruleset import HeapRuleset

    box = heap_box(space)
    if box is None or not isinstance(g, HeapRuleset) or g.ordered:
        return None
    mine = isinstance(g, UserHeapGame) or not type(g).__module__.startswith("nimlab.")
    if not mine:
        return None
    n, low, bound = box.n_heaps, box.low, box.bound
    if n < 2:
        return None
    target = chunk_size or (COMPILED_CHUNK if compiled else PY_CHUNK)
    sp = SortedBoxSpace(n, bound, low, target)
    rng = random.Random(20)
    probe = [tuple(range(low, low + n))] + [
        tuple(sorted(rng.randrange(low, bound) for _ in range(n))) for _ in range(SYMMETRY_SAMPLE)
    ]
    try:
        for t in probe:
            g.validate(t)
            want = claim.value(g, t)
            for q in itertools.islice(itertools.permutations(t), 1, 8):
                g.validate(q)
                if claim.value(g, q) != want:
                    return None
    except Exception:  # not a position, or the claim fails here: the box reports it
        return None
    return sp
