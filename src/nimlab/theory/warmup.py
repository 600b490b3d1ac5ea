"""``nimlab warm`` with the verification walks of the registered results.

:func:`nimlab.engine.warm.warm` compiles the catalog's engine, table and sequence
kernels; the checks of the theorems compile walks of their own (the local rules with the
game's move model and the theorem's claim, index-space walks, option indexes), kept on
disk as well (:mod:`nimlab.engine._diskcache`). :func:`warm` adds them, each theorem
checked once at its default bound, so that ``nimlab verify`` and ``nimlab reproduce``
load them in every later process.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from nimlab.core.ruleset import Ruleset
from nimlab.engine.warm import WarmReport
from nimlab.engine.warm import warm as warm_engine

__all__ = ["theorem_steps", "warm"]


def theorem_steps(ids: Sequence[str] | None = None) -> list[tuple[str, Callable[[], object]]]:
    """One warm-up step per registered result (or per id of *ids*): its check at its
    default bound, in this process.

    Examples
    --------
    >>> [label for label, _ in theorem_steps(["S19-T1"])]
    ['S19-T1: verification walk']
    """
    from nimlab.theory.registry import check_theorem, theorem, theorems

    chosen = theorems() if ids is None else [theorem(t) for t in ids]
    out: list[tuple[str, Callable[[], object]]] = []
    for t in chosen:

        def run(tid: str = t.id) -> object:
            return check_theorem(tid, workers=1)

        out.append((f"{t.id}: verification walk", run))
    return out


def warm(
    games: Sequence[Ruleset[Any] | str] | None = None,
    *,
    heaps: Sequence[int] | None = None,
    theorems: bool = False,
    progress: bool = False,
) -> WarmReport:
    """Compile (or load from the disk cache) the kernels of the catalog's games, and with
    *theorems* the verification walks of every registered result.

    Parameters
    ----------
    games : sequence of Ruleset or str, optional
        The games to warm (names take their default parameters); default: the
        catalog's usual games and parameters (:data:`nimlab.catalog._warm.WARM_GAMES`),
        and the compiled loops of misère quotients.
    heaps : sequence of int, optional
        Numbers of heaps for games that take any number (default 2, 3 and 4).
    theorems : bool
        Also check every registered result once at its default bound (a few minutes the
        first time), which compiles and keeps on disk the walks ``nimlab verify`` and
        ``nimlab reproduce`` run.
    progress : bool
        Show a progress bar counting kernels on a terminal.

    Returns
    -------
    WarmReport
        Kernels run, numba compilations among them and their seconds.

    Examples
    --------
    >>> from nimlab import warm
    >>> r = warm(["wythoff"])        # its kernels, compiled once per machine
    >>> r.kernels
    3
    >>> warm(["wythoff"]).compiled   # a second time: everything is on disk already
    0
    """
    extra = theorem_steps() if theorems else []
    if games is None:  # the catalog's usual kernels: also the misère quotients' loops
        from nimlab.misere._compiled import warm as warm_misere

        extra.insert(0, ("misère quotients: compiled candidate loops", warm_misere))
    return warm_engine(games, heaps=heaps, progress=progress, extra=extra)
