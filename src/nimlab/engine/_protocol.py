"""The engine's side of the open kernel protocol: kernels of kinds it has no runner for.

A game's kernel description (:mod:`nimlab.core.kernels`) names its ``kind``. The engine
runs the kinds it knows with its own compiled runners (``tables._TABLE_RUNNERS``,
``sequences._RECURRENCES``); a description of any other kind runs itself through its
``run`` method, and the answer is checked here before any caller sees it (shape, dtype,
values), so a game's own kernel is held to the engine's contract: a broken answer is a
:class:`~nimlab.core.errors.GameDefinitionError`, never a wrong table.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt

from nimlab.core.errors import GameDefinitionError, SearchTooLargeError
from nimlab.core.kernels import TableRequest

__all__ = ["own_sequence", "own_table"]


def _refuse(label: str, kind: str, what: str) -> GameDefinitionError:
    return GameDefinitionError(
        f"{label}: the game's compiled kernel of kind {kind!r} {what} (its run method must "
        "answer a numpy array of the asked shape, or None)"
    )


def _values(label: str, kind: str, out: Any, shape: tuple[int, ...]) -> npt.NDArray[Any]:
    """*out* as a checked array of Grundy values (integers >= 0) of *shape*."""
    arr = np.asarray(out)
    if arr.shape != shape:
        raise _refuse(label, kind, f"answered an array of shape {arr.shape}, not {shape}")
    if arr.dtype.kind not in "iu":
        raise _refuse(label, kind, f"answered values of dtype {arr.dtype}, not integers")
    if arr.size and int(arr.min()) < 0:
        raise _refuse(label, kind, "answered a negative Grundy value")
    return arr


def own_table(
    spec: Any, shape: tuple[int, ...], kind: str, max_bytes: int, label: str
) -> npt.NDArray[Any] | None:
    """The table of *spec*, a kernel of a kind the engine has no runner for, in the form
    of the engine's runners (Grundy values; for ``outcome`` 0 at the P-positions; for
    ``misere`` True at the P-positions), or None when the kernel does not apply.

    Examples
    --------
    >>> from nimlab.core.kernels import LimKernel
    >>> own_table(LimKernel(), (2, 2, 2), "grundy", 1 << 20, "Lim") is None
    True
    """
    nbytes = math.prod(shape) * 8
    if nbytes > max_bytes:
        raise SearchTooLargeError(
            f"{label}: a table of shape {shape} needs about {nbytes / 2**20:,.0f} MiB, more "
            f"than the limit of {max_bytes / 2**20:,.0f} MiB; use a smaller shape or raise "
            "max_bytes"
        )
    out = spec.run(TableRequest(shape, kind, max_bytes, label))
    if out is None:
        return None
    if kind == "grundy":
        return _values(label, spec.kind, out, shape)
    arr = np.asarray(out)
    if arr.shape != shape or arr.dtype != np.bool_:
        raise _refuse(
            label, spec.kind, f"answered {arr.dtype} of shape {arr.shape}, not booleans {shape}"
        )
    return arr if kind == "misere" else (~arr).astype(np.uint8)


def own_sequence(model: Any, n: int, label: str) -> npt.NDArray[Any] | None:
    """The *n* Grundy values of *model*, a one-heap recurrence of a kind the engine has no
    runner for, checked, or None when it does not apply.

    Examples
    --------
    >>> from nimlab.core.kernels import OctalKernel
    >>> own_sequence(OctalKernel("0.07"), 8, "Dawson's Kayles") is None
    True
    """
    out = model.run(n)
    return None if out is None else _values(label, model.kind, out, (n,))
