"""The local check: a claim is correct on a move-closed set iff it is correct at each position.

A claimed Grundy function ``f`` is the Grundy function on a move-closed set ``S`` iff at
every ``p ∈ S`` no option ``q`` has ``f(q) = f(p)`` and every value below ``f(p)`` is
``f(q)`` for some option ``q`` (induction on the game tree). A claimed P-set is correct
iff no move leads from P to P and every other position has a move into P; in misère
play a terminal position is N and the second rule is waived there. Each position is
checked on its own, so chunks of positions are independent.
"""

from __future__ import annotations

import inspect
import operator
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from nimlab.core.errors import InvalidParameterError, NimlabError, NotMoveClosedError
from nimlab.core.ruleset import Ruleset
from nimlab.verification.expr import Expression
from nimlab.verification.spaces import Space

__all__ = [
    "ChunkResult",
    "Claim",
    "ExprClaim",
    "Failure",
    "FunctionClaim",
    "check_position",
    "local_check",
]

CheckKind = Literal["grundy", "p-set", "misere-p-set"]


class Claim:
    """A claimed value at each position (Grundy value, or P-membership)."""

    def value(self, game: Ruleset[Any], position: Any) -> Any:
        """The claimed value at *position*."""
        raise NotImplementedError

    def key(self) -> str:
        """Stable text identifying the claim (for the results store)."""
        raise NotImplementedError

    def vectorised(self, game: Ruleset[Any], bound: int) -> Callable[..., Any] | None:
        """A function over numpy arrays of heaps, or None. It is applied elementwise:
        the arrays it receives may differ in shape and broadcast (the vectorised check
        passes one heap as a column, the other as a row)."""
        return None

    def scalar(self) -> tuple[Callable[..., Any], bool] | None:
        """A plain function numba may compile, and whether it takes the heaps spread
        (``f(*heaps)``) rather than as one tuple; None when there is none."""
        return None

    def scalar_args(self, game: Ruleset[Any]) -> tuple[int, ...]:
        """The integers the :meth:`scalar` function takes after the heaps in *game* (the
        game's parameters it reads; none by default). The compiled claim has them as
        constants: one compiled form per game."""
        return ()


@dataclass(frozen=True)
class ExprClaim(Claim):
    """A claim given by a parsed :class:`~nimlab.verification.expr.Expression`."""

    expr: Expression

    def value(self, game: Ruleset[Any], position: Any) -> Any:
        try:
            return self.expr.function()(position)
        except NimlabError:
            raise
        except (ArithmeticError, ValueError, TypeError) as exc:
            raise InvalidParameterError(
                f"the expression {self.expr.source!r} cannot be evaluated at "
                f"{_fmt(game, position)}: {exc}"
            ) from None

    def key(self) -> str:
        return f"expr:{self.expr.source}"

    def vectorised(self, game: Ruleset[Any], bound: int) -> Callable[..., Any] | None:
        return self.expr.numpy_function(bound)


@dataclass(frozen=True)
class FunctionClaim(Claim):
    """A claim given by a Python callable: ``f(*heaps)`` when it takes as many arguments
    as the position has heaps (``lambda n: ...`` for one heap), else ``f(position)``."""

    fn: Callable[..., Any]
    _spread: dict[str, bool] = field(default_factory=dict, compare=False, repr=False, hash=False)

    def value(self, game: Ruleset[Any], position: Any) -> Any:
        spread = self._spread.get("s")
        if spread is None:
            spread = False
            if isinstance(position, tuple):
                try:
                    inspect.signature(self.fn).bind(*position)
                    spread = True
                except (TypeError, ValueError):
                    spread = False
            self._spread["s"] = spread
        return self.fn(*position) if spread else self.fn(position)

    def scalar(self) -> tuple[Callable[..., Any], bool] | None:
        try:
            params = list(inspect.signature(self.fn).parameters.values())
        except (TypeError, ValueError):
            return None
        if any(p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params):
            return None
        return self.fn, len(params) != 1

    def key(self) -> str:
        code = getattr(self.fn, "__code__", None)
        name = getattr(self.fn, "__qualname__", repr(self.fn))
        if code is None:
            return f"fn:{name}"
        import hashlib

        cells = [_stable(c.cell_contents) for c in getattr(self.fn, "__closure__", None) or ()]
        text = repr(code.co_consts) + (repr(cells) if cells else "")  # closures differ by cells
        h = hashlib.sha1(code.co_code + text.encode()).hexdigest()[:12]
        return f"fn:{name}:{h}"


def _stable(v: object) -> object:
    """A value's repr when it is the same in every run (numbers, text, tuples of them)."""
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, tuple):
        return tuple(_stable(x) for x in v)
    return type(v).__qualname__


@dataclass(frozen=True)
class Failure:
    """Why the local rule fails at one position."""

    position: Any
    claimed: Any
    detail: str
    option: Any = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "position": self.position,
            "claimed": self.claimed,
            "detail": self.detail,
            "option": self.option,
        }


@dataclass(frozen=True)
class ChunkResult:
    """What one chunk reports: positions checked, time, and its first failure."""

    index: int
    count: int
    seconds: float
    failure: Failure | None = None
    method: str = "python"


def _as_value(kind: CheckKind, v: Any) -> Any:
    t = type(v)
    if kind == "grundy":
        if t is int or v is None:
            return v
        try:
            return operator.index(v)
        except TypeError:
            return v
    if t is bool or v is None:
        return v
    return bool(v)


def _fmt(game: Ruleset[Any], pos: Any) -> str:
    try:
        return "(" + game.format_position(pos).replace(" ", ", ") + ")"
    except Exception:  # pragma: no cover - formatting is best effort
        return repr(pos)


def check_position(
    game: Ruleset[Any],
    kind: CheckKind,
    claim: Callable[[Any], Any],
    position: Any,
    space: Space | None = None,
) -> Failure | None:
    """Local check at one position; None when the rule holds there.

    Parameters
    ----------
    game : Ruleset
        The rules.
    kind : {"grundy", "p-set", "misere-p-set"}
        What is claimed.
    claim : callable
        ``claim(position)``: the claimed Grundy value, or whether the position is P.
    position : object
        The position.
    space : Space, optional
        When given, every option must lie in it (else the set is not move-closed and
        :class:`~nimlab.core.errors.InvalidParameterError` is raised).

    Examples
    --------
    >>> from nimlab import game
    >>> nim = game("nim")
    >>> check_position(nim, "grundy", lambda p: p[0] ^ p[1], (2, 3)) is None
    True
    >>> check_position(nim, "grundy", lambda p: p[0] ^ p[1] ^ 1, (0, 0)).detail
    "value 0 is missing among the options' values"
    >>> check_position(nim, "grundy", lambda p: p[0] | p[1], (1, 1)).detail
    'option (0, 1) has f(q) = f(p) = 1'
    """
    f = _as_value(kind, claim(position))
    opts = list(game.moves(position))
    if space is not None:
        _require_inside(game, position, opts, space)
    if f is None:
        return Failure(position, None, "the claim gives no value here")
    if kind == "grundy":
        return _grundy_rule(game, claim, position, f, opts)
    return _p_set_rule(game, kind, claim, position, f, opts)


def _require_inside(game: Ruleset[Any], position: Any, opts: list[Any], space: Space) -> None:
    """Raise :class:`NotMoveClosedError` when an option of *position* leaves *space*."""
    contains = space.contains
    for q in opts:
        if not contains(q):
            raise NotMoveClosedError(
                f"{game.label()}: the position set is not move-closed: the move "
                f"{_fmt(game, position)} -> {_fmt(game, q)} leaves it "
                f"({space.describe()}); a local check needs every option inside "
                "(for games whose moves add stones, bound the total of the heaps)"
            )


def _grundy_rule(
    game: Ruleset[Any], claim: Callable[[Any], Any], position: Any, f: Any, opts: list[Any]
) -> Failure | None:
    """The mex rule at *position*, claimed value *f* (not None), options *opts*."""
    if not isinstance(f, int) or f < 0:
        return Failure(position, f, f"claimed value {f!r} is not an integer >= 0")
    seen: set[int] = set()
    for q in opts:
        g = _as_value("grundy", claim(q))
        if g == f:
            return Failure(position, f, f"option {_fmt(game, q)} has f(q) = f(p) = {f}", q)
        if isinstance(g, int):
            seen.add(g)
    for v in range(f):
        if v not in seen:
            return Failure(position, f, f"value {v} is missing among the options' values")
    return None


def _p_set_rule(
    game: Ruleset[Any],
    kind: CheckKind,
    claim: Callable[[Any], Any],
    position: Any,
    f: Any,
    opts: list[Any],
) -> Failure | None:
    """The P-set rule (normal or misère) at *position*, claimed P when *f* is true."""
    if kind == "misere-p-set" and not opts:
        if f:
            return Failure(
                position, True, "a terminal position is N in misère play, but it is claimed P"
            )
        return None
    if f:
        for q in opts:
            if _as_value(kind, claim(q)):
                return Failure(
                    position,
                    True,
                    f"claimed P, but the move to {_fmt(game, q)} reaches a claimed P-position",
                    q,
                )
        return None
    for q in opts:
        if _as_value(kind, claim(q)):
            return None
    return Failure(position, False, "claimed N, but no move leads to a claimed P-position")


def local_check(
    game: Ruleset[Any],
    positions: Any,
    *,
    formula: Callable[..., Any] | None = None,
    p_set: Callable[..., Any] | None = None,
    misere: bool = False,
) -> Failure | None:
    """Serial local check over *positions* (a move-closed iterable); first failure or None.

    Examples
    --------
    >>> from nimlab import game
    >>> from itertools import product
    >>> local_check(game("nim"), product(range(6), repeat=2), formula=lambda a, b: a ^ b) is None
    True
    >>> local_check(game("nim"), product(range(6), repeat=2), formula=lambda a, b: a + b).position
    (1, 1)
    """
    if (formula is None) == (p_set is None):
        raise InvalidParameterError("give exactly one of formula= or p_set=")
    kind: CheckKind = "grundy" if formula is not None else ("misere-p-set" if misere else "p-set")
    fc = FunctionClaim(formula if formula is not None else p_set)  # type: ignore[arg-type]
    for pos in positions:
        fail = check_position(game, kind, lambda p: fc.value(game, p), pos)
        if fail is not None:
            return fail
    return None
