"""Every counterexample of a failed check, and their structure (``verify --all``).

A failed local check stops at its smallest counterexample. To find a correction one wants
all of them: :func:`all_failures` lists every position of a spec's space where the local
rule fails (compiled when the spec can run compiled, else in Python), and
:func:`group_failures` groups them by a key of safe expressions over the heaps (for
example the 2-adic valuations ``v2(a), v2(b), v2(c), v2(d)``).
"""

from __future__ import annotations

import csv
import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from nimlab.core.errors import InvalidParameterError
from nimlab.verification.local import Failure, check_position

__all__ = ["FailureGroup", "all_failures", "group_failures", "write_csv"]

#: Most counterexamples listed by default.
DEFAULT_LIMIT = 1_000_000


def _advance(sp: Any, h: tuple[int, ...]) -> tuple[int, ...]:
    from nimlab.verification.spaces import successor

    return successor(sp, h)


def _compiled_failures(spec: Any, i: int, limit: int) -> list[Failure] | None:
    from nimlab.planner import Method, check_method
    from nimlab.verification import _heapwalks as c
    from nimlab.verification._claims import compiled_claim
    from nimlab.verification.spaces import heap_walk

    if not heap_walk(spec.space) or check_method(spec) is not Method.COMPILED_CHECK:
        return None
    import numpy as np

    got = compiled_claim(spec)
    assert got is not None
    claim, table, radix = got
    sp = spec.space
    h, count = c._starts(sp, i)
    out: list[Failure] = []
    from nimlab.verification._walkcache import model_gen

    gen = model_gen(spec.game)
    mode = c._mode(sp)
    while count > 0 and len(out) < limit:
        status, k = c._kernel(
            gen,
            claim,
            table,
            radix,
            tuple(np.int64(x) for x in h),
            count,
            mode,
            sp.low,
            sp.bound,
            c.KIND_CODES[spec.kind],
        )
        if status == 0:
            break
        pos = h
        for _ in range(int(k)):
            pos = _advance(sp, pos)
        fail = check_position(
            spec.game, spec.kind, lambda p: spec.claim.value(spec.game, p), pos, sp
        )
        if fail is None:
            return None  # kernel and exact check disagree: the Python path decides
        out.append(fail)
        h = _advance(sp, pos)
        count -= int(k) + 1
    return out


def all_failures(spec: Any, limit: int = DEFAULT_LIMIT) -> list[Failure]:
    """Every position of *spec*'s space where the local rule fails, in the space's order.

    Examples
    --------
    >>> from nimlab import game
    >>> from nimlab.verification.runner import CheckSpec
    >>> from nimlab.verification.local import FunctionClaim
    >>> from nimlab.verification.spaces import BoxSpace
    >>> spec = CheckSpec(game("nim"), "grundy", FunctionClaim(lambda a, b: a | b),
    ...                  BoxSpace(2, 4), "a | b", 4)
    >>> [f.position for f in all_failures(spec)]
    [(1, 1), (1, 2), (1, 3), (2, 1), (2, 2), (2, 3), (3, 1), (3, 2), (3, 3)]
    """
    out: list[Failure] = []
    for i in range(spec.space.n_chunks):
        left = limit - len(out)
        if left <= 0:
            break
        got = _compiled_failures(spec, i, left) if getattr(spec, "compiled", False) else None
        if got is None:
            got = []
            for pos in spec.space.chunk(i):
                fail = check_position(
                    spec.game, spec.kind, lambda p: spec.claim.value(spec.game, p), pos, spec.space
                )
                if fail is not None:
                    got.append(fail)
                    if len(got) >= left:
                        break
        out.extend(got)
    return out


@dataclass(frozen=True)
class FailureGroup:
    """Counterexamples sharing one value of the grouping key."""

    key: tuple[Any, ...]
    count: int
    first: Any

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"key": list(self.key), "count": self.count, "first": self.first}


def _key_functions(keys: str, n_heaps: int, consts: dict[str, int]) -> list[Any]:
    from nimlab.verification.expr import parse_expression

    parts = _split_top_level(keys)
    if not parts:
        raise InvalidParameterError("--group-by needs at least one expression, e.g. 'v2(a)'")
    return [parse_expression(p, n_heaps, consts).function() for p in parts]


def _split_top_level(text: str) -> list[str]:
    """Split *text* at commas outside parentheses.

    Examples
    --------
    >>> _split_top_level("v2(a), max(a, b), c")
    ['v2(a)', 'max(a, b)', 'c']
    """
    out: list[str] = []
    cur: list[str] = []
    depth = 0
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        out.append("".join(cur).strip())
    return [p for p in out if p]


def group_failures(
    failures: Sequence[Failure], keys: str, n_heaps: int, consts: dict[str, int] | None = None
) -> list[FailureGroup]:
    """Group *failures* by the values of the comma-separated expressions *keys*.

    Groups come largest first (ties: in order of first appearance).

    Examples
    --------
    >>> fs = [Failure((1, 1), 1, ""), Failure((2, 3), 3, ""), Failure((3, 3), 3, "")]
    >>> [(g.key, g.count) for g in group_failures(fs, "a % 2, b % 2", 2)]
    [((1, 1), 2), ((0, 1), 1)]
    """
    fns = _key_functions(keys, n_heaps, consts or {})
    counts: dict[tuple[Any, ...], list[Any]] = {}
    for f in failures:
        key = tuple(fn(f.position) for fn in fns)
        slot = counts.setdefault(key, [0, f.position])
        slot[0] += 1
    order = {k: i for i, k in enumerate(counts)}
    return [
        FailureGroup(k, v[0], v[1])
        for k, v in sorted(counts.items(), key=lambda kv: (-kv[1][0], order[kv[0]]))
    ]


def write_csv(
    path: str,
    failures: Iterable[Failure],
    keys: str | None = None,
    n_heaps: int = 0,
    consts: dict[str, int] | None = None,
) -> int:
    """Write one row per counterexample (heaps, claimed value, rule broken, key values).

    Returns the number of rows written.
    """
    fns = _key_functions(keys, n_heaps, consts or {}) if keys else []
    names = _split_top_level(keys) if keys else []
    rows = 0
    try:
        fh = open(path, "w", newline="", encoding="utf-8")  # noqa: SIM115
    except OSError as exc:
        raise InvalidParameterError(f"cannot write {path!r}: {exc.strerror or exc}") from None
    with fh:
        w = csv.writer(fh)
        first = True
        for f in failures:
            pos = f.position if isinstance(f.position, tuple) else (f.position,)
            if first:
                w.writerow(
                    [*(f"heap{i + 1}" for i in range(len(pos))), "claimed", "detail", *names]
                )
                first = False
            w.writerow([*pos, f.claimed, f.detail, *(fn(f.position) for fn in fns)])
            rows += 1
        if first:
            w.writerow(["position", "claimed", "detail", *names])
    return rows


def chain(*lists: Iterable[Failure]) -> list[Failure]:
    """All failures of several specs, in order."""
    return list(itertools.chain(*lists))
