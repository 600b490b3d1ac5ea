"""The planner's choices for checks of claims (question ``check``)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from nimlab.core.ruleset import HeapRuleset, Ruleset
from nimlab.planner._base import Budgets, Method, Plan, Question, has_compiled_model

#: Whether a check method can run a check (its space, claim and the game's hooks): each
#: test is registered by the module that owns the method's kernels
#: (``verification.fast``, ``verification.compiled``) and asked by the planner only.
_CAN_RUN: dict[Method, Callable[[Any], bool]] = {}


def register_check(method: Method, can_run: Callable[[Any], bool]) -> None:
    """Register *can_run(spec)*, whether the check method *method* can run the check
    *spec*; :func:`plan` asks it for a check given as ``spec=`` (a method without a test
    is not chosen for a spec).

    Examples
    --------
    >>> def never(spec):
    ...     return False
    >>> register_check(Method.PYTHON_CHECK, never)
    >>> _CAN_RUN.pop(Method.PYTHON_CHECK) is never
    True
    """
    _CAN_RUN[method] = can_run


def _can_run(method: Method, spec: Any) -> bool:
    test = _CAN_RUN.get(method)
    return test is not None and bool(test(spec))


#: The walks of verification spaces (their ``walk`` class attribute) by each check.
_VECTORISED_WALKS = frozenset({"box"})
_COMPILED_WALKS = frozenset({"box", "sorted box", "distinct box", "sorted total", "index"})


def _check_plan(
    g: Ruleset[Any],
    space: Any,
    shape: tuple[int, ...] | None,
    budgets: Budgets,
    kind: str,
    vectorised: bool,
    compiled: bool,
    avoid: frozenset[Method],
) -> Plan:
    """The plan of a check of a claim of *kind* over *space* (a verification space).

    *vectorised*: a vectorised form of the claim exists; *compiled*: the claim may be
    compiled (or tabulated) with the game's compiled move model.
    """
    q = Question.CHECK
    if space is None and shape is not None:
        # positions that are not move-closed: the claim is compared with solved values
        n = len(shape)
        multisets = math.comb(max(shape) + n - 1, n) if n else 0
        if (
            has_compiled_model(g)
            and 1 <= n <= 6
            and multisets >= budgets.engine_min_positions
            and Method.COMPILED_ENGINE not in avoid
        ):
            return Plan(
                q,
                Method.COMPILED_ENGINE,
                None,
                "the positions are not move-closed: the claim is compared with the values "
                f"of the compiled engine's solve of the {multisets:,} multisets of heaps below",
                fallback=Method.SEARCH,
            )
        return Plan(
            q,
            Method.SEARCH,
            None,
            "the positions are not move-closed: the claim is compared with exhaustive search",
        )
    walk = getattr(space, "walk", "list")
    if (
        kind == "grundy"
        and Method.COMPILED_SEQUENCE not in avoid
        and walk in ("box", "sorted box")
        and getattr(space, "n_heaps", None) == 1
        and getattr(space, "low", None) == 0
        and isinstance(g, HeapRuleset)
        and g.sequence_kernel() is not None
    ):
        return Plan(
            q,
            Method.COMPILED_SEQUENCE,
            None,
            "the claim is compared, heap by heap, with the game's compiled sequence",
        )
    if vectorised and walk in _VECTORISED_WALKS and Method.VECTORISED_CHECK not in avoid:
        return Plan(
            q,
            Method.VECTORISED_CHECK,
            None,
            "the claim is evaluated over whole arrays of the box",
            fallback=Method.PYTHON_CHECK,
        )
    own = callable(getattr(space, "compiled_chunk", None))  # a space's own compiled walk
    if compiled and (walk in _COMPILED_WALKS or own) and Method.COMPILED_CHECK not in avoid:
        return Plan(
            q,
            Method.COMPILED_CHECK,
            None,
            "a compiled walk of the positions checks the claim",
            fallback=Method.PYTHON_CHECK,
        )
    return Plan(
        q,
        Method.PYTHON_CHECK,
        None,
        "the claim is checked position by position in Python",
        note="a check in Python costs about 10-50 µs per position and option",
    )
