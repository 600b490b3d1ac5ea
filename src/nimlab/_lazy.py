"""Lazy module attributes (PEP 562) shared by ``nimlab`` and ``nimlab.render``.

A package lists ``public name -> defining module`` and gets a ``__getattr__`` that imports
the defining module on first access (and caches the value in the package namespace) and a
``__dir__`` that lists the lazy names too. This module imports nothing heavy.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_attributes"]


def lazy_attributes(
    module: str, table: Mapping[str, str], namespace: dict[str, Any]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for *module*, loading the names of *table* on demand.

    Parameters
    ----------
    module : str
        The package's ``__name__`` (for the AttributeError message).
    table : Mapping[str, str]
        Public name -> module defining it.
    namespace : dict
        The package's ``globals()``; a loaded value is stored there, so the next access
        does not go through ``__getattr__``.

    Examples
    --------
    >>> ns: dict[str, Any] = {}
    >>> get, names = lazy_attributes("pkg", {"sqrt": "math"}, ns)
    >>> get("sqrt")(9.0), "sqrt" in ns, names()
    (3.0, True, ['sqrt'])
    >>> get("nope")
    Traceback (most recent call last):
    ...
    AttributeError: module 'pkg' has no attribute 'nope'
    """

    def __getattr__(name: str) -> Any:
        mod = table.get(name)
        if mod is None:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(mod), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted(set(namespace) | set(table))

    return __getattr__, __dir__
