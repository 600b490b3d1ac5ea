"""Verification walks kept in the disk cache, with their model's functions bound."""

from __future__ import annotations

import threading
from typing import Any

_LOCK = threading.Lock()

#: (caller's key, model functions) -> (module name, walk) of the disk cache, or None
_DISK: dict[tuple[Any, ...], tuple[str, Any] | None] = {}


def _walk_text(kernel: Any, named: tuple[tuple[str, Any], ...]) -> str | None:
    """The source of a module holding *kernel* as ``walk`` and the functions *named*; a
    function of a module of the disk cache (a claim of ``_cached_scalar``, say) is loaded
    from that module, any other is written out. None when one cannot be written."""
    from nimlab.catalog._source import module_source
    from nimlab.engine import _diskcache

    pre: list[str] = []
    written: list[tuple[str, Any, tuple[str, ...]]] = []
    for n, f in named:
        mod = getattr(getattr(f, "py_func", None), "__module__", "") or ""
        if _diskcache.is_cached_module(mod):
            pre.append(f"{n} = _nimlab_load({mod!r}).{f.py_func.__name__}")
        else:
            written.append((n, f, ()))
    text = module_source([*written, ("walk", kernel, tuple(n for n, _ in named))])
    if text is not None and pre:
        head = "from nimlab.engine._diskcache import load_module as _nimlab_load\n"
        text = head + "\n".join(pre) + "\n" + text
    return text


def call_walk(
    key: tuple[Any, ...], kernel: Any, named: tuple[tuple[str, Any], ...], *args: Any
) -> Any:
    """Run *kernel* with the compiled functions *named* (its first parameters, by name)
    bound, on *args*.

    The kernel and the functions are written into one module of the disk cache
    (:func:`nimlab.engine._diskcache.cached_module`), so numba keeps the machine code
    and every later process (workers too) loads it; when they cannot be written as
    source or the cache cannot be used, the kernel compiled in memory runs. *key* names
    the kernel (with *named*, the entry of this process's table of loaded walks).
    """
    from nimlab.engine import _diskcache

    full = (*key, *named)
    with _LOCK:
        known = full in _DISK
        disk = _DISK.get(full)
    if not known:
        text = _walk_text(kernel, named)
        got = _diskcache.cached_module(text) if text is not None else None
        disk = (got[0], got[1].walk) if got is not None else None
        with _LOCK:
            _DISK[full] = disk
    if disk is not None:
        try:
            return disk[1](*args)
        except Exception:  # numba could not load or keep its files: compile in memory
            _diskcache.discard_module(disk[0])
            with _LOCK:
                _DISK[full] = None
    return kernel(*(f for _, f in named), *args)
