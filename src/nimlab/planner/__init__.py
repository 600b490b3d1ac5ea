"""The planner: which method answers a question about a game, and why.

Every interface (the Python API, the command line, the web playground, explanations,
tables and verification) asks :func:`plan` how to answer a question instead of choosing
for itself; the :class:`Plan` it returns names the method (:class:`Method`), the result
behind a closed form, one human sentence saying why (for explanations), and, when the
question leaves the fast paths, a note with the expected cost and how to stay fast.
Every threshold of those choices lives in one :class:`Budgets`.

The planner sits just above the catalog and below the engine: it asks the game through
its hooks (``closed_grundy``, ``closed_is_p``, ``closed_misere_is_p``, ``closed_theorem``,
``components``, ``table_kernel``, ``sequence_kernel``, ``compiled_options``,
``closed_form_gap``, ``strategy``, ``strategy_moves``) and never imports numpy or numba:
the engines that run a plan do.

Examples
--------
>>> from nimlab import game
>>> p = plan(game("nim"), "grundy", (3, 4, 5))
>>> p.method, p.theorem, p.value
(<Method.CLOSED_FORM: 'closed form'>, 'S19-T1', 2)
>>> str(plan(game("wythoff"), "grundy", (300, 500)).method)
'compiled table'
>>> str(plan(game("wythoff"), "grundy", (3, 5), method="search").method)
'search'
>>> str(plan(game("octal", code="0.77"), "grundy", (3000, 2999)).method)
'sum of components'
>>> p = plan(game("octal", code="0.77"), "moves", (100,))
>>> str(p.method), str(p.value.method)
('scan', 'compiled sequence')
"""

from __future__ import annotations

from typing import Any

from nimlab.core.errors import InvalidParameterError
from nimlab.core.ruleset import HeapRuleset, Ruleset, has_split_model
from nimlab.planner._base import (
    Budgets,
    Method,
    Plan,
    Question,
    _kernel,
    has_compiled_model,
)
from nimlab.planner._checks import _can_run, _check_plan, register_check
from nimlab.planner._values import (
    _moves_plan,
    _sequence_plan,
    _table_plan,
    _value_plan,
    closed_value,
)

__all__ = [
    "DEFAULT_BUDGETS",
    "Budgets",
    "Method",
    "Plan",
    "Question",
    "check_method",
    "closed_value",
    "compiled_methods",
    "has_compiled_model",
    "plan",
    "register_check",
]


#: The budgets every interface uses unless told otherwise.
DEFAULT_BUDGETS = Budgets()


def compiled_methods(game: Ruleset[Any] | str, heaps: int | None = None) -> frozenset[Method]:
    """The compiled methods *game* declares through its hooks, for positions of *heaps*
    heaps (any number when None): ``compiled sequence`` (a one-heap recurrence, its
    ``sequence_kernel``), ``compiled table`` (a table kernel for that many heaps, its
    ``table_kernel``), ``compiled engine`` (a compiled move model, its
    ``compiled_options``, for 1 to 6 heaps, or a take-and-break game's one-heap model, its
    ``split_move_table``, for 1 to 64). What may be compiled ahead of time (``nimlab
    warm``) or suggested; which one answers a question is :func:`plan`'s choice.

    Examples
    --------
    >>> from nimlab import game
    >>> sorted(map(str, compiled_methods(game("wythoff"), 2)))
    ['compiled engine', 'compiled table']
    >>> sorted(map(str, compiled_methods(game("octal", code="0.77"))))
    ['compiled engine', 'compiled sequence']
    >>> sorted(map(str, compiled_methods(game("welter"), 7)))
    []
    """
    g = _game(game)
    out: set[Method] = set()
    if isinstance(g, HeapRuleset) and g.sequence_kernel() is not None:
        out.add(Method.COMPILED_SEQUENCE)
    most = 64 if has_split_model(g) else 6
    if has_compiled_model(g) and (heaps is None or 1 <= heaps <= most):
        out.add(Method.COMPILED_ENGINE)
    if heaps is not None:
        try:
            if _kernel(g, (1,) * heaps, "grundy") is not None:
                out.add(Method.COMPILED_TABLE)
        except InvalidParameterError:  # a hook that cannot describe this many heaps
            pass
    return frozenset(out)


def check_method(spec: Any) -> Method:
    """The method that runs the chunks of the check *spec* (a verification
    ``CheckSpec``): :func:`plan` of its space, kind and allowed paths, each kept when its
    registered test says it can run (a chunk is a slice of a space: no compiled sequence).

    Examples
    --------
    >>> from nimlab.verification.runner import conjecture_spec
    >>> str(check_method(conjecture_spec("nim", "a ^ b", bound=8, compiled=False)))
    'python check'
    """
    avoid = frozenset({Method.COMPILED_SEQUENCE})
    return plan(spec.game, Question.CHECK, spec=spec, avoid=avoid).method


def plan(
    game: Ruleset[Any] | str,
    question: Question | str,
    position: Any = None,
    *,
    shape: tuple[int, ...] | None = None,
    misere: bool = False,
    kind: str = "grundy",
    method: str = "auto",
    budgets: Budgets | None = None,
    calls: int = 1,
    avoid: frozenset[Method] = frozenset(),
    space: Any = None,
    vectorised: bool = False,
    compiled: bool = False,
    spec: Any = None,
) -> Plan:
    """Choose how to answer *question* about *game* (at a valid *position*).

    Parameters
    ----------
    game : Ruleset or str
        The game, or its registry name.
    question : Question or str
        ``grundy``, ``outcome`` (``misere=True`` means ``misere``), ``misere``, ``moves``
        (winning moves), ``table`` (over the box *shape*, values of *kind*: ``grundy``,
        ``outcome``, ``misere``), ``sequence`` or ``check``.
    position, misere : object, bool
        A valid position (values, outcomes, moves), and misère play.
    method : str
        Values, outcomes and moves: ``auto``, ``search`` (exhaustive search only) or
        ``formula`` (closed forms only). Tables: ``auto``, ``kernel``, ``compiled``,
        ``generic``.
    budgets, calls : Budgets, int
        Thresholds and the search's budgets (by default :data:`DEFAULT_BUDGETS`, read at
        each call; non-default search budgets keep the Python search), and how many times
        this game (and number of heaps) was asked in a row.
    avoid : frozenset of Method
        Methods that could not run: the plan picks the next one.
    space, vectorised, compiled, spec : optional
        Checks: the verification space (None with a *shape*: positions that are not
        move-closed, compared with solved values; its ``walk`` says how it is walked),
        *kind* is the claim's (``grundy``, ``p-set``, ``misere-p-set``), whether a
        vectorised or a compiled form of the claim exists; or the ``CheckSpec`` itself,
        each path kept only when its module's test (:func:`register_check`) says it runs.

    Returns
    -------
    Plan

    Raises
    ------
    InvalidParameterError
        An unknown question, or an engine asked for that the game does not have.

    Examples
    --------
    >>> from nimlab import game
    >>> str(plan(game("nim"), "moves", (3, 4, 5)).method)
    'construction'
    >>> p = plan(game("wythoff"), "table", shape=(512, 512), kind="outcome")
    >>> str(p.method), str(p.fallback)
    ('compiled table', 'compiled engine')
    """
    g, q = _game(game), _question(question, misere)
    budgets = DEFAULT_BUDGETS if budgets is None else budgets
    if q in (Question.GRUNDY, Question.OUTCOME, Question.MISERE):
        return _value_plan(g, q, position, method, budgets, calls, avoid)
    if q is Question.MOVES:
        return _moves_plan(g, position, misere, method, budgets, avoid)
    if q is Question.TABLE:
        if shape is None:
            raise InvalidParameterError("a table plan needs its shape")
        return _table_plan(g, tuple(shape), kind, method, budgets, avoid)
    if q is Question.SEQUENCE:
        return _sequence_plan(g)
    if spec is not None:
        return _spec_plan(g, spec, budgets, avoid)
    box = None if shape is None else tuple(shape)
    return _check_plan(g, space, box, budgets, kind, vectorised, compiled, avoid)


def _spec_plan(g: Ruleset[Any], spec: Any, budgets: Budgets, avoid: frozenset[Method]) -> Plan:
    """The plan of the check *spec*: its space and kind, the paths it allows that can run."""
    vectorised = bool(getattr(spec, "fast", False)) and _can_run(Method.VECTORISED_CHECK, spec)
    compiled = bool(getattr(spec, "compiled", False)) and (
        callable(getattr(spec.space, "compiled_chunk", None))  # the space's own walk
        or _can_run(Method.COMPILED_CHECK, spec)
    )
    return _check_plan(g, spec.space, None, budgets, spec.kind, vectorised, compiled, avoid)


def _game(game: Ruleset[Any] | str) -> Ruleset[Any]:
    if isinstance(game, str):
        from nimlab.catalog.registry import as_game

        return as_game(game)
    return game


def _question(question: Question | str, misere: bool) -> Question:
    try:
        q = Question(question)
    except ValueError:
        raise InvalidParameterError(
            f"unknown question {question!r}: choose one of {', '.join(Question)}"
        ) from None
    return Question.MISERE if q is Question.OUTCOME and misere else q
