"""Parameter specifications of rulesets.

A :class:`Param` says what a ruleset parameter is, how to read it from a command-line
string (``-p S=1,3,4``) and how to check a Python value. The registry uses these specs
for the API, the CLI and the web app alike.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Final

from nimlab.core.errors import InvalidParameterError

__all__ = [
    "REQUIRED",
    "Param",
    "as_index",
    "parse_int",
    "parse_int_set",
    "to_int",
    "to_int_set",
]


class _Required:
    def __repr__(self) -> str:
        return "REQUIRED"


REQUIRED: Final[Any] = _Required()


def as_index(value: object) -> int | None:
    """*value* as an int if it is an integer (``operator.index``, e.g. numpy ints), else None.

    Bools are not integers here. Callers raise their own error on None.

    Examples
    --------
    >>> import numpy as np
    >>> as_index(7), as_index(np.int64(7)), as_index(True), as_index(2.0), as_index("3")
    (7, 7, None, None, None)
    """
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


def to_int(name: str, value: object) -> int:
    """Check that *value* is an integer (bools are refused) and return it.

    Examples
    --------
    >>> to_int("k", 3)
    3
    >>> to_int("k", "x")
    Traceback (most recent call last):
    ...
    nimlab.core.errors.InvalidParameterError: parameter k must be an integer, got 'x'
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidParameterError(f"parameter {name} must be an integer, got {value!r}")
    return value


def parse_int(name: str, text: str) -> int:
    """Read an integer parameter from text, with a clear error."""
    try:
        return int(text.strip())
    except ValueError:
        raise InvalidParameterError(
            f"parameter {name} must be an integer, got {text!r} (example: -p {name}=3)"
        ) from None


def to_int_set(name: str, value: object) -> frozenset[int]:
    """Check a finite set of integers given as any iterable of ints (or a string)."""
    if isinstance(value, str):
        return parse_int_set(name, value)
    if isinstance(value, int) and not isinstance(value, bool):
        return frozenset({value})
    if not isinstance(value, Iterable):
        raise InvalidParameterError(
            f"parameter {name} must be a finite set of integers, got {value!r}"
        )
    return frozenset(to_int(name, v) for v in value)


def parse_int_set(name: str, text: str) -> frozenset[int]:
    """Read a set of integers: ``1,3,4``, ranges ``1..5`` allowed, empty text is the empty set.

    Examples
    --------
    >>> sorted(parse_int_set("S", "1,3..5"))
    [1, 3, 4, 5]
    >>> parse_int_set("S", "")
    frozenset()
    """
    out: set[int] = set()
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        try:
            if ".." in part:
                lo, hi = part.split("..", 1)
                out.update(range(int(lo), int(hi) + 1))
            else:
                out.add(int(part))
        except ValueError:
            raise InvalidParameterError(
                f"parameter {name} must be integers separated by commas (ranges a..b allowed), "
                f"got {text!r} (example: -p {name}=1,3,4)"
            ) from None
    return frozenset(out)


@dataclass(frozen=True)
class Param:
    """Specification of one ruleset parameter.

    Parameters
    ----------
    name : str
        Parameter name as used in ``nimlab.game(name, **params)`` and ``-p NAME=VALUE``.
    doc : str
        One-line description.
    parse : callable
        ``parse(name, text)`` reads the value from a command-line string.
    convert : callable
        ``convert(name, value)`` checks and normalises a Python value.
    default : object
        Default value, or :data:`REQUIRED`.
    """

    name: str
    doc: str
    parse: Callable[[str, str], Any] = field(default=parse_int, repr=False)
    convert: Callable[[str, Any], Any] = field(default=to_int, repr=False)
    default: Any = REQUIRED

    @property
    def required(self) -> bool:
        """Whether the parameter has no default."""
        return self.default is REQUIRED

    def read(self, value: object) -> Any:
        """Return the checked value of *value*, parsing it first when it is a string."""
        if isinstance(value, str):
            return self.convert(self.name, self.parse(self.name, value))
        return self.convert(self.name, value)
