"""The source of a catalog game's compiled move model, for the engine's disk cache.

numba keeps machine code on disk only for functions of a module file that the next
process finds again, never for closures; the catalog's move models
(each family's ``compiled`` module) are closures over their parameters. This module writes
such a closure out as the text of a module (see :mod:`nimlab.engine._diskcache`).
"""

from __future__ import annotations

from typing import Any

__all__ = ["generator_source", "module_source"]


def generator_source(gen: Any) -> str | None:
    """Source text of a module that defines ``gen``: the move model *gen* of a catalog game.

    The catalog's move models are closures over their parameters (``subtraction(S)``
    closes over the sorted amounts), which numba cannot keep on disk. This writes the same
    function as a module (:func:`module_source`). The compiled engine writes the text to
    the user's cache directory (:mod:`nimlab.engine._diskcache`) so that numba loads the
    machine code in the next process instead of compiling it. None when *gen* is not a
    catalog closure of that kind (then the engine compiles it in memory, as before).

    Examples
    --------
    >>> from nimlab.catalog.onepile.compiled import subtraction
    >>> text = generator_source(subtraction((4, 1, 3)))
    >>> "s_list = (1, 3, 4)" in text and "gen = _nimlab_njit(gen)" in text
    True
    """
    return module_source([("gen", gen, ())])


def module_source(functions: list[tuple[str, Any, tuple[str, ...]]]) -> str | None:
    """Source text of a module defining compiled functions, each under a given name.

    *functions*: ``(name, dispatcher, dropped)`` triples: the numba dispatcher is written
    out under *name*, without its parameters *dropped* (the function then finds them as
    globals of the module: other functions of the list). Closures' captured values become
    module constants (numbers, tuples, numeric arrays), compiled helper functions they
    close over are written out the same way (``inline="always"`` kept), and every global a
    function names is imported from its own module. Only functions of nimlab's own modules
    are written; None when something cannot be written as text (the caller then compiles
    in memory) or two values would share a name.

    Examples
    --------
    >>> from nimlab.catalog.nim.compiled import nim
    >>> text = module_source([("moves", nim(), ())])
    >>> "def moves(h):" in text
    True
    """
    import ast
    import hashlib
    import inspect
    import textwrap
    import types
    from pathlib import Path

    from nimlab.catalog.user import _binding, _code_names

    bound: dict[str, str] = {}
    emitted: dict[str, Any] = {}  # name -> the compiled function written under it
    defs: list[str] = []
    files: set[str] = set()

    def emit(disp: Any, name: str, dropped: tuple[str, ...] = ()) -> bool:
        fn = getattr(disp, "py_func", None)
        mod = getattr(fn, "__module__", None) or ""
        if fn is None or not mod.startswith("nimlab.") or name in bound:
            return False
        try:
            text = textwrap.dedent(inspect.getsource(fn))
            files.add(inspect.getfile(fn))
            tree = ast.parse(text)
        except (OSError, TypeError, SyntaxError):
            return False
        if len(tree.body) != 1 or not isinstance(tree.body[0], ast.FunctionDef):
            return False
        f = tree.body[0]
        f.decorator_list = []
        f.returns = None
        if any(a not in [x.arg for x in f.args.args] for a in dropped):
            return False
        f.args.args = [a for a in f.args.args if a.arg not in dropped]
        for a in (*f.args.posonlyargs, *f.args.args, *f.args.kwonlyargs):
            a.annotation = None
        f.name = name
        bound[name] = f"<def {name}>"
        emitted[name] = disp
        code = fn.__code__
        cells = [c.cell_contents for c in fn.__closure__ or ()]
        free = dict(zip(code.co_freevars, cells, strict=True))
        for var, value in free.items():
            if var != fn.__name__ and hasattr(value, "py_func"):
                if var in emitted and _same(emitted[var], value):
                    continue  # the same helper, written already (shared by two closures)
                if var == name or not emit(value, var):
                    return False
                continue
            line = _binding(var, value, "")
            if line is None or bound.get(var, line) != line:
                return False
            bound[var] = line
        for n in sorted(_code_names(code)):
            if n in free or n in dropped or n not in fn.__globals__:
                continue
            value = fn.__globals__[n]
            if isinstance(value, types.ModuleType):  # numpy as np in two source modules
                line = f"import {value.__name__} as {n}"
            else:
                line = f"from {mod} import {n}"
            if bound.get(n, line) != line:
                return False
            bound[n] = line
        options = getattr(disp, "targetoptions", {})
        deco = "_nimlab_njit(cache=True" + (", nogil=True)" if options.get("nogil") else ")")
        if options.get("inline") == "always":
            deco = '_nimlab_njit(inline="always")'
        if inspect.isgeneratorfunction(fn):
            # not cached itself: a generator loaded from numba's cache cannot be lowered
            # into a caller compiled later (KeyError in lowering); the cached callers
            # hold its code, so it compiles only when one of them does
            deco = "_nimlab_njit"
        defs.extend(["", "", ast.unparse(tree), "", f"{name} = {deco}({name})"])
        return True

    for name, disp, dropped in functions:
        if not emit(disp, name, dropped):
            return None
    digest = hashlib.sha256()
    for path in sorted(files):
        digest.update(Path(path).read_bytes())
    out = [
        '"""Generated by nimlab from compiled functions of its own modules; do not edit."""',
        f"# sources: {digest.hexdigest()[:24]}",
        "import numpy as _np",
        "from numba import njit as _nimlab_njit",
        *sorted(line for line in bound.values() if not line.startswith("<def ")),
        *defs,
    ]
    return "\n".join(out) + "\n"


def _same(a: Any, b: Any) -> bool:
    """Whether compiled functions *a* and *b* are the same code over equal captured values
    (two closures made by one factory with the same parameters)."""
    if a is b:
        return True
    fa, fb = getattr(a, "py_func", None), getattr(b, "py_func", None)
    if fa is None or fb is None or fa.__code__ is not fb.__code__:
        return False
    for ca, cb in zip(fa.__closure__ or (), fb.__closure__ or (), strict=True):
        x, y = ca.cell_contents, cb.cell_contents
        if hasattr(x, "py_func"):
            if not _same(x, y):
                return False
        elif type(x) is not type(y):
            return False
        elif hasattr(x, "shape"):  # a numeric array: every element
            import numpy as np

            if not np.array_equal(x, y):
                return False
        elif repr(x) != repr(y):
            return False
    return True
