"""Verification walks kept in the disk cache, with their model's functions bound."""

from __future__ import annotations

import threading
from typing import Any

_LOCK = threading.Lock()

#: (caller's key, model functions) -> (module name, walk, the parameters it takes last)
#: of the disk cache, or None
_DISK: dict[tuple[Any, ...], tuple[str, Any, tuple[Any, ...]] | None] = {}


def model_gen(game: Any) -> Any:
    """*game*'s compiled move model for the walks: a game that writes its own source (a
    user's game, :meth:`~nimlab.core.ruleset.HeapRuleset.compiled_source`) gets the
    ``gen`` of its module in the disk cache (the compiled engine's module of the game),
    so that its walks are written out and kept on disk too (loaded by every later
    process: a check's workers, the next run) instead of compiled in memory by each
    process; any other game (or a cache that cannot be used), ``compiled_options()``.

    Examples
    --------
    >>> import nimlab
    >>> model_gen(nimlab.game("nim")) is nimlab.game("nim").compiled_options()
    True
    """
    gen = game.compiled_options()
    source_of = getattr(game, "compiled_source", None)
    if gen is None or source_of is None:
        return gen
    try:
        if source_of() is None:
            return gen
        from nimlab.engine import _diskcache

        got = _diskcache.model_module(game, _diskcache._solve_source)
    except Exception:  # a cache directory that cannot be used: the move model in memory
        return gen
    if got is None or got[2] is not None or not hasattr(got[1], "gen"):
        return gen
    return got[1].gen


def _walk_text(
    kernel: Any, named: tuple[tuple[str, Any], ...]
) -> tuple[str, tuple[Any, ...]] | None:
    """The source of a module holding *kernel* as ``walk`` and the functions *named*,
    and the values of their parameters, which the walk takes as its last argument (one
    module serves every value: :func:`nimlab.catalog._source.lifted_source`); a function
    of a module of the disk cache (a claim of ``_cached_scalar``, say) is loaded from that
    module, any other is written out. None when one cannot be written."""
    from nimlab.catalog._source import lifted_source
    from nimlab.engine import _diskcache

    pre: list[str] = []
    written: list[tuple[str, Any, tuple[str, ...]]] = []
    for n, f in named:
        mod = getattr(getattr(f, "py_func", None), "__module__", "") or ""
        if _diskcache.is_cached_module(mod):
            pre.append(f"{n} = _nimlab_load({mod!r}).{f.py_func.__name__}")
        else:
            written.append((n, f, ()))
    walk = ("walk", kernel, tuple(n for n, _ in named))
    got = lifted_source([*written, walk], keep=frozenset({"walk"}))  # its mode: a constant
    if got is None or not pre:
        return got
    head = "from nimlab.engine._diskcache import load_module as _nimlab_load\n"
    return head + "\n".join(pre) + "\n" + got[0], got[1]


def call_walk(
    key: tuple[Any, ...], kernel: Any, named: tuple[tuple[str, Any], ...], *args: Any
) -> Any:
    """Run *kernel* with the compiled functions *named* (its first parameters, by name)
    bound, on *args*.

    The kernel and the functions are written into one module of the disk cache
    (:func:`nimlab.engine._diskcache.cached_module`), so numba keeps the machine code
    and every later process (workers too) loads it; when they cannot be written as
    source or the cache cannot be used, the kernel compiled in memory runs. *key* names
    the kernel (with *named*, the entry of this process's table of loaded walks). A
    walk's first call for its argument types compiles (or loads) it under its module's
    lock file (:func:`nimlab.engine._diskcache.compile_locked`), so two processes needing
    it at once compile it once.
    """
    from nimlab.engine import _diskcache

    full = (*key, *named)
    with _LOCK:
        known = full in _DISK
        disk = _DISK.get(full)
    if not known:
        made = _walk_text(kernel, named)
        got = _diskcache.cached_module(made[0]) if made is not None else None
        disk = (got[0], got[1].walk, made[1]) if got is not None and made else None
        with _LOCK:
            _DISK[full] = disk
    if disk is not None:
        try:
            _diskcache.compile_locked(disk[0], disk[1], (*args, disk[2]))
            return disk[1](*args, disk[2])
        except Exception:  # numba could not load or keep its files: compile in memory
            _diskcache.discard_module(disk[0])
            with _LOCK:
                _DISK[full] = None
    return kernel(*(f for _, f in named), *args)
