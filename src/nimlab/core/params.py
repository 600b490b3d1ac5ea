"""Parameter specifications of rulesets.

A :class:`Param` says what a ruleset parameter is, how to read it from a command-line
string (``-p S=1,3,4``) and how to check a Python value. The registry uses these specs
for the API, the CLI and the web app alike.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from nimlab.core.errors import InvalidParameterError

__all__ = [
    "MAX_INT_DIGITS",
    "MAX_SET_SIZE",
    "REQUIRED",
    "IntTextError",
    "Param",
    "as_index",
    "parse_int",
    "parse_int_set",
    "read_int",
    "to_int",
    "to_int_set",
]


class _Required:
    def __repr__(self) -> str:
        return "REQUIRED"


REQUIRED: Final[Any] = _Required()

# The longest integer nimlab reads from text (heaps, parameters): 10**4000 is far beyond
# any exact computation, and reading longer digit strings costs quadratic time.
MAX_INT_DIGITS: Final = 4000
# The largest set of integers a parameter such as S may hold (ranges 1..N included).
MAX_SET_SIZE: Final = 1_000_000


def shown(text: str, width: int = 40) -> str:
    """*text* quoted and cut to *width* characters for an error message."""
    return repr(text) if len(text) <= width else repr(text[: width - 3] + "...")


class IntTextError(ValueError):
    """Text that nimlab does not read as an integer for a reason worth saying (too many
    digits, digits that are not 0-9); its message is the reason."""


def read_int(text: str) -> int:
    """Read a decimal integer of at most :data:`MAX_INT_DIGITS` digits.

    Raises :class:`IntTextError` (a ValueError whose message is the reason) on too many
    digits or non-ASCII digits, a plain ValueError on anything else; callers turn either
    into their own precise error.

    Examples
    --------
    >>> read_int(" -12 ")
    -12
    >>> read_int("9" * 5000)
    Traceback (most recent call last):
    ...
    nimlab.core.params.IntTextError: an integer of 5,000 digits is longer than the 4,000 digits nimlab reads
    """
    t = text.strip()
    digits = len(t.lstrip("+-"))
    if digits > MAX_INT_DIGITS:
        raise IntTextError(
            f"an integer of {digits:,} digits is longer than the {MAX_INT_DIGITS:,} digits "
            "nimlab reads"
        )
    if not t.isascii():
        raise IntTextError(f"{t[:20]!r} is not written with the digits 0-9")
    return int(t)


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
        return read_int(text)
    except ValueError as exc:
        why = str(exc) if isinstance(exc, IntTextError) else f"got {shown(text)}"
        raise InvalidParameterError(
            f"parameter {name} must be an integer, {why}: for example {name}=3"
        ) from None


def to_int_set(name: str, value: object) -> frozenset[int]:
    """Check a finite set of integers given as any iterable of ints (or a string).

    A mapping is refused (``{1: 2}`` is not a set), and so is a set larger than
    :data:`MAX_SET_SIZE`, before it is built.

    Examples
    --------
    >>> sorted(to_int_set("S", range(1, 4)))
    [1, 2, 3]
    >>> to_int_set("S", {1: 2})
    Traceback (most recent call last):
    ...
    nimlab.core.errors.InvalidParameterError: parameter S must be a finite set of integers, got {1: 2}
    """
    if isinstance(value, str):
        return parse_int_set(name, value)
    if isinstance(value, int) and not isinstance(value, bool):
        return frozenset({value})
    if isinstance(value, Mapping) or not isinstance(value, Iterable):
        raise InvalidParameterError(
            f"parameter {name} must be a finite set of integers, got {value!r}"
        )
    if isinstance(value, range) and _range_len(value) > MAX_SET_SIZE:
        raise InvalidParameterError(_too_many(name, _range_len(value)))
    out: set[int] = set()
    for v in value:
        out.add(to_int(name, v))
        if len(out) > MAX_SET_SIZE:
            raise InvalidParameterError(_too_many(name, None))
    return frozenset(out)


def _range_len(r: range) -> int:
    """``len(r)``, also for ranges longer than the largest C integer."""
    return max(0, (r.stop - r.start + r.step - (1 if r.step > 0 else -1)) // r.step)


def _too_many(name: str, n: int | None) -> str:
    count = f"{n:,}" if n is not None else f"more than {MAX_SET_SIZE:,}"
    return (
        f"parameter {name} has {count} elements, too many: nimlab takes at most "
        f"{MAX_SET_SIZE:,} (a set of moves that large is better written as an all-but game)"
    )


def _set_example(name: str, text: str) -> str:
    """``NAME=a,b,c`` written with the integers of *text* when it has some, else ``1,3,4``."""
    items = [t for t in text.replace(",", " ").split() if t.lstrip("+-").isdigit()][:6]
    return f"{name}=" + ",".join(items if len(items) > 1 else ["1", "3", "4"])


def parse_int_set(name: str, text: str) -> frozenset[int]:
    """Read a set of integers: ``1,3,4``, ranges ``1..5`` allowed, empty text is the empty set.

    The syntax is the same everywhere (command line, playground, Python strings): integers
    separated by commas, spaces allowed only around a comma. Integers separated by spaces
    (``1 3 4``) are an error that shows the right syntax, never the number 134.

    Examples
    --------
    >>> sorted(parse_int_set("S", "1,3..5"))
    [1, 3, 4, 5]
    >>> sorted(parse_int_set("S", " 1, 3 ,4 "))
    [1, 3, 4]
    >>> parse_int_set("S", "")
    frozenset()
    >>> parse_int_set("S", "1 3 4")
    Traceback (most recent call last):
    ...
    nimlab.core.errors.InvalidParameterError: parameter S must be integers separated by commas, got '1 3 4': write it S=1,3,4
    """
    out: set[int] = set()
    stripped = text.strip()
    for raw in stripped.split(",") if stripped else ():
        part = raw.strip()
        if not part:
            raise InvalidParameterError(
                f"parameter {name} has an empty item in {shown(text)}: write integers "
                f"separated by single commas, for example {_set_example(name, text)}"
            )
        if any(c.isspace() for c in part):
            raise InvalidParameterError(
                f"parameter {name} must be integers separated by commas, got {shown(text)}: "
                f"write it {_set_example(name, text)}"
            )
        try:
            if ".." in part:
                lo, hi = part.split("..", 1)
                r = range(read_int(lo), read_int(hi) + 1)
                if _range_len(r) + len(out) > MAX_SET_SIZE:
                    raise InvalidParameterError(_too_many(name, _range_len(r) + len(out)))
                out.update(r)
            else:
                out.add(read_int(part))
        except InvalidParameterError:
            raise
        except ValueError as exc:
            why = f" ({exc})" if isinstance(exc, IntTextError) else ""
            raise InvalidParameterError(
                f"parameter {name} must be integers separated by commas (ranges a..b allowed), "
                f"got {shown(text)}{why}: for example {name}=1,3,4"
            ) from None
        if len(out) > MAX_SET_SIZE:
            raise InvalidParameterError(_too_many(name, None))
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
