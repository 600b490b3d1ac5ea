"""Compile the catalog's kernels ahead of time: :func:`warm` (``nimlab warm``).

Every compiled kernel nimlab runs is kept on disk by numba: the package's own kernels
next to its modules (or in numba's user-wide cache when that directory is read-only),
the compiled engine's kernel of each game and number of heaps in the user's cache
directory (see :mod:`nimlab.engine._diskcache`). A new process loads the machine code
instead of compiling it. :func:`warm` runs each kernel of the catalog's usual games once
(the games and parameters of :mod:`nimlab.catalog._warm`, or those you name), so that
even the first command of a session starts without compiling. Kernels already on disk
load in milliseconds: warming twice costs about nothing.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from nimlab.core.ruleset import Ruleset

__all__ = ["WarmReport", "warm"]


@dataclass(frozen=True)
class WarmReport:
    """What :func:`warm` did.

    Attributes
    ----------
    kernels : int
        Kernels run (each compiled, or loaded from the disk cache).
    compiled : int
        numba compilations among them (0: every kernel was on disk already).
    compile_seconds : float
        Seconds spent compiling.
    seconds : float
        Wall time of the whole call.
    cache_dir : str
        The directory of the compiled engine's kernels.
    steps : tuple of (str, float)
        Each kernel's label and the seconds it took.
    failed : tuple of (str, str)
        Kernels that could not run, with the error (the others are warmed all the same).

    Examples
    --------
    >>> r = WarmReport(kernels=3, compiled=0, compile_seconds=0.0, seconds=0.2, cache_dir="c")
    >>> r.kernels - r.compiled   # kernels loaded from the disk cache
    3
    """

    kernels: int
    compiled: int
    compile_seconds: float
    seconds: float
    cache_dir: str
    steps: tuple[tuple[str, float], ...] = field(default=(), repr=False)
    failed: tuple[tuple[str, str], ...] = ()


def _steps(
    games: Sequence[Ruleset[Any]], heaps: Sequence[int] | None
) -> list[tuple[str, Callable[[], object]]]:
    from nimlab.catalog._warm import WARM_HEAPS
    from nimlab.core.ruleset import HeapRuleset
    from nimlab.engine.compiled import MAX_HEAPS
    from nimlab.engine.sequences import sequence
    from nimlab.engine.tables import table
    from nimlab.planner import Method, compiled_methods

    out: list[tuple[str, Callable[[], object]]] = []
    for g in games:
        if not isinstance(g, HeapRuleset):
            continue
        fixed = g.n_heaps
        counts = [fixed] if fixed is not None else list(heaps or WARM_HEAPS)
        counts = [n for n in counts if max(1, g.min_heaps) <= n <= MAX_HEAPS]
        if fixed == 1 or Method.COMPILED_SEQUENCE in compiled_methods(g):

            def seq(g: Ruleset[Any] = g) -> object:
                return sequence(g, 40)

            out.append((f"{g.label()}: sequence", seq))
        for n in counts:
            have = compiled_methods(g, n)  # every compiled kernel the game declares
            if Method.COMPILED_ENGINE in have:

                def solve(g: Ruleset[Any] = g, n: int = n) -> object:
                    return table(g, (4,) * n, engine="compiled")

                out.append((f"{g.label()}: compiled engine, {n} heaps", solve))
            if Method.COMPILED_TABLE in have:
                for kind in ("grundy", "outcome"):

                    def kern(g: Ruleset[Any] = g, n: int = n, kind: str = kind) -> object:
                        return table(g, (8,) * n, kind=kind, engine="kernel")

                    out.append((f"{g.label()}: {kind} table kernel, {n} heaps", kern))
    return out


def warm(
    games: Sequence[Ruleset[Any] | str] | None = None,
    *,
    heaps: Sequence[int] | None = None,
    progress: bool = False,
    extra: Sequence[tuple[str, Callable[[], object]]] = (),
) -> WarmReport:
    """Compile (or load from the disk cache) the kernels of the catalog's games.

    Parameters
    ----------
    games : sequence of Ruleset or str, optional
        The games to warm (names take their default parameters); default: the
        catalog's usual games and parameters (:data:`nimlab.catalog._warm.WARM_GAMES`).
    heaps : sequence of int, optional
        Numbers of heaps for games that take any number (default 2, 3 and 4).
    progress : bool
        Show a progress bar counting kernels on a terminal.
    extra : sequence of (str, callable)
        More kernels to warm, each a label and a call that runs it (the layers above the
        engine give theirs: :func:`nimlab.warm` with ``theorems=True`` adds the
        verification walks of the registered results).

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
    from nimlab._progress import Progress
    from nimlab.catalog import game
    from nimlab.catalog._warm import WARM_GAMES
    from nimlab.engine._compilewatch import CompileWatch
    from nimlab.engine._diskcache import cache_dir

    t0 = time.perf_counter()
    if games is None:
        chosen: list[Ruleset[Any]] = [game(name, **params) for name, params in WARM_GAMES]
    else:
        chosen = [game(g) if isinstance(g, str) else g for g in games]
    steps = [*_steps(chosen, heaps), *extra]
    bar = Progress("nimlab warm: compiling kernels", len(steps), "kernels", enabled=progress)
    done: list[tuple[str, float]] = []
    failed: list[tuple[str, str]] = []
    try:
        with CompileWatch() as watch:
            for label, run in steps:
                bar.update(len(done) + len(failed), label)
                s0 = time.perf_counter()
                try:
                    run()
                except Exception as exc:  # one kernel that cannot run: warm the others
                    failed.append((label, f"{type(exc).__name__}: {exc}".splitlines()[0]))
                    continue
                done.append((label, time.perf_counter() - s0))
            bar.update(len(done) + len(failed))
    finally:
        bar.close()
    return WarmReport(
        kernels=len(done),
        compiled=len(watch.compiles),
        compile_seconds=watch.seconds,
        seconds=time.perf_counter() - t0,
        cache_dir=str(cache_dir()),
        steps=tuple(done),
        failed=tuple(failed),
    )
