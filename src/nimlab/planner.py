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
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from nimlab.core.errors import InvalidParameterError
from nimlab.core.ruleset import HeapRuleset, Ruleset
from nimlab.core.strategy import Construction

__all__ = [
    "DEFAULT_BUDGETS",
    "Budgets",
    "Method",
    "Plan",
    "Question",
    "check_method",
    "has_compiled_model",
    "plan",
    "register_check",
]


class Question(StrEnum):
    """What is asked about a game.

    Examples
    --------
    >>> Question("misere") is Question.MISERE
    True
    """

    GRUNDY = "grundy"
    """The Grundy value of a position."""
    OUTCOME = "outcome"
    """The outcome (P or N) of a position in normal play."""
    MISERE = "misere"
    """The outcome of a position in misère play."""
    MOVES = "moves"
    """The winning moves of a position."""
    TABLE = "table"
    """A table of values over a box of positions."""
    SEQUENCE = "sequence"
    """The Grundy values of one heap, 0 to n - 1."""
    CHECK = "check"
    """A check of a claim over a set of positions."""


class Method(StrEnum):
    """How a question is answered (the words of :attr:`nimlab.Answer.method`).

    Examples
    --------
    >>> str(Method.COMPILED_TABLE)
    'compiled table'
    """

    CLOSED_FORM = "closed form"
    """A registered closed form (proved, or conjectured and verified to a bound)."""
    SUM_OF_COMPONENTS = "sum of components"
    """The XOR of the Grundy values of the parts of a disjunctive sum."""
    COMPILED_TABLE = "compiled table"
    """A game's compiled kernel over the box of positions below."""
    COMPILED_SEQUENCE = "compiled sequence"
    """A one-heap game's compiled recurrence."""
    COMPILED_ENGINE = "compiled engine"
    """The compiled solver of the game's move model (``compiled_options``)."""
    SEARCH = "search"
    """Exhaustive memoised search in Python."""
    CONSTRUCTION = "construction"
    """A winning move built by the procedure of a proof (``strategy``)."""
    SCAN = "scan"
    """Every move scored, one by one."""
    COMPILED_CHECK = "compiled check"
    """A claim checked by a compiled walk of the positions."""
    VECTORISED_CHECK = "vectorised check"
    """A claim checked over whole arrays (two-heap boxes)."""
    PYTHON_CHECK = "python check"
    """A claim checked position by position in Python."""


@dataclass(frozen=True)
class Budgets:
    """Every threshold of the planner's choices, and the default budgets of the methods.

    Attributes
    ----------
    kernel_min_cells, kernel_max_cells : int
        A position whose box of smaller positions has this many cells (inclusive) is
        read from a compiled table kernel of the game, when it has one (below, a search
        is cheaper than compiling; above, the table would not fit).
    sequence_min_heap : int
        One heap of a game with a compiled sequence from this size on is read from the
        sequence rather than searched.
    repeat_calls : int
        After this many value questions on one game (and number of heaps), even small
        positions go to the shared compiled engine: a loop over positions then costs
        about one table.
    compiled_min_cells : int
        ``table(engine="auto")`` uses the compiled engine from this many cells on.
    max_table_heaps : int
        Tables have 1 to this many heaps.
    table_max_bytes : int
        Default memory budget of one table (values plus the kernel's bitsets), in bytes.
    table_max_positions : int
        Default budget of positions of a table by search.
    max_positions, max_moves : int
        Default budgets of an exhaustive search: positions stored, options generated.
        Answers with other search budgets skip the compiled engine and sums (the
        budgets given are the search's).
    scan_max_moves : int
        Most moves a scan of winning moves scores one by one.
    list_limit : int
        Most winning moves listed when no limit is given.
    max_listed : int
        Most positions a check of an explicit list of positions materialises.
    engine_min_positions : int
        A claim over positions that are not move-closed is compared with the compiled
        engine's solve of every multiset of heaps below the largest heap from this many
        multisets on (fewer: with search, cheaper than compiling).
    parallel_min_positions : int
        Tables of order-free games of this many sorted positions (heaps from 0) or more
        are solved by the compiled engine's parallel wavefront when numba has several
        threads (smaller ones serially, in less time than the parallel kernel takes).

    Examples
    --------
    >>> Budgets().kernel_min_cells
    20000
    >>> Budgets(kernel_min_cells=500).kernel_min_cells
    500
    """

    kernel_min_cells: int = 20_000
    kernel_max_cells: int = 64_000_000
    sequence_min_heap: int = 64
    repeat_calls: int = 16
    compiled_min_cells: int = 20_000
    max_table_heaps: int = 6
    table_max_bytes: int = 4 * 2**30
    table_max_positions: int = 2_000_000
    max_positions: int = 5_000_000
    max_moves: int = 5_000_000
    scan_max_moves: int = 200_000
    list_limit: int = 10_000
    max_listed: int = 2_000_000
    engine_min_positions: int = 20_000
    parallel_min_positions: int = 1_000_000

    def default_search(self) -> bool:
        """Whether the search's budgets (``max_positions``, ``max_moves``) are the defaults.

        Examples
        --------
        >>> Budgets().default_search(), Budgets(max_moves=10).default_search()
        (True, False)
        """
        default = Budgets()
        return self.max_positions == default.max_positions and self.max_moves == default.max_moves


#: The budgets every interface uses unless told otherwise.
DEFAULT_BUDGETS = Budgets()


@dataclass(frozen=True)
class Plan:
    """How a question will be answered.

    Attributes
    ----------
    question : Question
        What was asked.
    method : Method
        The method chosen.
    theorem : str or None
        The id of the result behind a closed form (or a construction).
    reason : str
        One human sentence saying why this method answers (for explanations).
    note : str or None
        None on the fast paths; else the expected cost and how to stay fast.
    fallback : Method or None
        The method used if the chosen one cannot run (a compiled model that does not
        compile, a table beyond memory).
    value : object
        What the planner had to compute to decide: the closed form's value (an int for
        Grundy values, a bool "is P" for outcomes), the
        :class:`~nimlab.core.strategy.Construction` of winning moves, or the kernel
        description of a table or a sequence; else None.

    Examples
    --------
    >>> from nimlab import game
    >>> p = plan(game("nim"), "outcome", (1, 2, 3))
    >>> p.value, p.reason
    (True, 'the closed form of S19-T1 applies at this position')
    """

    question: Question
    method: Method
    theorem: str | None = None
    reason: str = ""
    note: str | None = None
    fallback: Method | None = None
    value: Any = None


def has_compiled_model(game: Ruleset[Any]) -> bool:
    """Whether *game* declares a compiled move model (overrides ``compiled_options``).

    Declaring one does not prove it compiles: the compiled engine falls back to search
    (:attr:`Plan.fallback`) when it does not.

    Examples
    --------
    >>> from nimlab import game
    >>> has_compiled_model(game("nim")), has_compiled_model(game("octal", code="0.77"))
    (True, False)
    """
    return (
        isinstance(game, HeapRuleset)
        and type(game).compiled_options is not HeapRuleset.compiled_options
    )


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


def _cells(shape: tuple[int, ...]) -> int:
    return math.prod(shape)


def _int_heaps(pos: Any, most: int) -> bool:
    return (
        isinstance(pos, tuple)
        and 1 <= len(pos) <= most
        and all(isinstance(h, int) and not isinstance(h, bool) for h in pos)
    )


def _kernel(g: Ruleset[Any], dims: tuple[int, ...], kind: str) -> Any:
    """The game's table kernel description for *dims* and *kind* (its hook), or None."""
    if not 1 <= len(dims) <= 6:
        return None
    try:
        spec = g.table_kernel(dims, kind)
    except (KeyError, TypeError, ValueError) as exc:
        raise InvalidParameterError(f"{g.label()}: cannot build a table kernel: {exc}") from exc
    return spec if spec is None or len(dims) <= getattr(spec, "max_heaps", 3) else None


def _one_heap(spec: Any) -> bool:
    """Whether a table kernel description stands for the one-heap recurrence (it says so)."""
    return spec is not None and bool(getattr(spec, "one_heap", False))


def _search_note(g: Ruleset[Any], pos: Any, kind: str, budgets: Budgets) -> str | None:
    """The note of a search off the fast paths: why, its cost, how to stay fast."""
    gap = g.closed_form_gap(pos, kind)
    if not _int_heaps(pos, 64):
        return None if gap is None else f"{gap}; an exhaustive search decides it"
    box = _cells(tuple(h + 1 for h in pos))
    if box < budgets.kernel_min_cells and gap is None:
        return None
    text = f"{gap}; " if gap is not None else ""
    text += (
        f"an exhaustive search in Python visits up to {min(box, budgets.max_positions):,} "
        f"positions (about {_cost(min(box, budgets.max_positions))})"
    )
    if has_compiled_model(g):
        text += "; with the default budgets the compiled engine answers instead"
    else:
        text += (
            "; to stay fast, give the game a compiled move model (its compiled_options "
            "hook) or ask smaller positions"
        )
    return text


def _cost(positions: int) -> str:
    """A rough time for a Python search of *positions* positions (about 20 µs each)."""
    seconds = positions * 2e-5
    if seconds < 1:
        return "under a second"
    if seconds < 120:
        return f"{seconds:,.0f} s"
    return f"{seconds / 60:,.0f} min"


def _value_plan(
    g: Ruleset[Any],
    question: Question,
    pos: Any,
    method: str,
    budgets: Budgets,
    calls: int,
    avoid: frozenset[Method],
) -> Plan:
    """The plan of a Grundy value or an outcome (normal or misère) at *pos*."""
    kind = {Question.GRUNDY: "grundy", Question.OUTCOME: "p", Question.MISERE: "misere"}[question]
    if method != "search" and Method.CLOSED_FORM not in avoid:
        if question is Question.GRUNDY:
            closed: int | bool | None = g.closed_grundy(pos)
        elif question is Question.OUTCOME:
            closed = g.closed_is_p(pos)
        else:
            closed = g.closed_misere_is_p(pos)
        if closed is not None:
            theorem = g.closed_theorem(pos, kind)
            reason = (
                f"the closed form of {theorem} applies at this position"
                if theorem
                else "the game's closed form applies at this position"
            )
            return Plan(question, Method.CLOSED_FORM, theorem, reason, value=closed)
    if question is not Question.GRUNDY and method == "auto" and Method.CONSTRUCTION not in avoid:
        c = g.strategy(pos, question is Question.MISERE)
        if c is not None:
            # a construction's own move is None exactly at a P-position
            return Plan(
                question,
                Method.CONSTRUCTION,
                c.theorem,
                f"{c.procedure} finds a winning move exactly at the N-positions",
                fallback=Method.SEARCH,
                value=c,
            )
    search_reason = (
        "method='search' asks for an exhaustive search"
        if method == "search"
        else "no closed form applies at this position: an exhaustive search decides it"
    )
    if method != "auto":
        return Plan(question, Method.SEARCH, None, search_reason)
    defaults = budgets.default_search()
    if (
        question is not Question.MISERE
        and defaults
        and Method.SUM_OF_COMPONENTS not in avoid
        and g.components(pos)
    ):
        return Plan(
            question,
            Method.SUM_OF_COMPONENTS,
            None,
            "the position is a sum of independent parts: its Grundy value is the XOR of "
            "theirs (Sprague-Grundy), each found by its own fastest method",
        )
    table_kind = {Question.GRUNDY: "grundy", Question.OUTCOME: "outcome"}.get(question, "misere")
    can_compile = has_compiled_model(g) and _int_heaps(pos, 6)
    if _int_heaps(pos, 3):
        heaps = tuple(h + 1 for h in pos)
        cells = _cells(heaps)
        if (  # an outcome too: a take-and-break game's search explodes with the heap
            len(pos) == 1
            and question is not Question.MISERE
            and pos[0] >= budgets.sequence_min_heap
            and Method.COMPILED_SEQUENCE not in avoid
            and _one_heap(_kernel(g, heaps, "grundy"))
        ):
            return Plan(
                question,
                Method.COMPILED_SEQUENCE,
                None,
                f"the game's compiled recurrence gives the values of heaps 0 to {pos[0]:,}",
                fallback=Method.SEARCH,
            )
        if (
            budgets.kernel_min_cells <= cells <= budgets.kernel_max_cells
            and Method.COMPILED_TABLE not in avoid
        ):
            spec = _kernel(g, heaps, table_kind)
            if spec is not None and not spec.one_heap:
                return Plan(
                    question,
                    Method.COMPILED_TABLE,
                    None,
                    f"a compiled kernel of the game tabulates the {cells:,} positions below "
                    "this one",
                    fallback=Method.COMPILED_ENGINE if can_compile else Method.SEARCH,
                    value=spec,
                )
    if can_compile and defaults and Method.COMPILED_ENGINE not in avoid:
        cells = _cells(tuple(h + 1 for h in pos))
        if cells >= budgets.kernel_min_cells or calls >= budgets.repeat_calls:
            why = (
                f"the {cells:,} positions below it"
                if cells >= budgets.kernel_min_cells
                else "many positions of this game asked in a row"
            )
            return Plan(
                question,
                Method.COMPILED_ENGINE,
                None,
                f"no closed form applies at this position, and for {why} the compiled "
                "engine (the game's compiled move model) is faster than a Python search",
                fallback=Method.SEARCH,
            )
    return Plan(
        question, Method.SEARCH, None, search_reason, note=_search_note(g, pos, kind, budgets)
    )


def _moves_plan(
    g: Ruleset[Any], pos: Any, misere: bool, method: str, avoid: frozenset[Method]
) -> Plan:
    """The plan of the winning moves of *pos*: a construction, else a scan."""
    c: Construction | None = None
    if method == "auto" and Method.CONSTRUCTION not in avoid:
        c = g.strategy(pos, misere)
        if c is None and not misere:
            listed = g.strategy_moves(pos)
            if listed is not None:
                theorem = g.p_theorem or g.grundy_theorem
                c = Construction.listed(
                    "the winning moves listed by the game's criterion"
                    + (f" ({theorem})" if theorem else ""),
                    theorem,
                    list(listed),
                )
    if c is not None:
        return Plan(
            Question.MOVES,
            Method.CONSTRUCTION,
            c.theorem,
            f"the winning moves are built by {c.procedure}",
            fallback=Method.SCAN,
            value=c,
        )
    scored = "exhaustive search" if method == "search" else "the fastest method for each option"
    return Plan(
        Question.MOVES,
        Method.SCAN,
        None,
        f"no construction of winning moves is known here: every move is scored by {scored}",
    )


def _table_plan(
    g: Ruleset[Any],
    dims: tuple[int, ...],
    kind: str,
    engine: str,
    budgets: Budgets,
    avoid: frozenset[Method],
) -> Plan:
    """The plan of a table of *kind* over the box *dims*."""
    q = Question.TABLE
    cells = _cells(dims)
    if engine in ("auto", "kernel") and Method.COMPILED_TABLE not in avoid:
        spec = _kernel(g, dims, kind)
        if spec is not None:
            return Plan(
                q,
                Method.COMPILED_TABLE,
                None,
                f"a compiled kernel of the game tabulates the {cells:,} positions",
                fallback=Method.COMPILED_ENGINE if has_compiled_model(g) else Method.SEARCH,
                value=spec,
            )
    if engine == "kernel":
        raise InvalidParameterError(
            f"{g.label()}: no compiled {kind} kernel for {len(dims)} heaps "
            "(the game's table_kernel hook gives none); use engine='auto' or 'generic'"
        )
    if Method.COMPILED_ENGINE not in avoid and (
        engine == "compiled" or (engine == "auto" and cells >= budgets.compiled_min_cells)
    ):
        return Plan(
            q,
            Method.COMPILED_ENGINE,
            None,
            f"the compiled engine solves the {cells:,} positions with the game's compiled "
            "move model",
            fallback=None if engine == "compiled" else Method.SEARCH,
        )
    if engine == "compiled":
        raise InvalidParameterError(
            f"{g.label()}: no compiled move model (the game's compiled_options hook "
            "gives none, or it does not compile); use engine='auto' or 'generic'"
        )
    note = None
    if cells >= budgets.compiled_min_cells:
        note = (
            f"an exhaustive search in Python solves the {cells:,} positions (about "
            f"{_cost(cells)}); to stay fast, give the game a compiled move model (its "
            "compiled_options hook)"
        )
    reason = (
        "engine='generic' asks for the Python search"
        if engine == "generic"
        else f"for {cells:,} positions a Python search is faster than compiling"
        if cells < budgets.compiled_min_cells
        else "the game has no compiled kernel or move model: a Python search solves it"
    )
    return Plan(q, Method.SEARCH, None, reason, note=note)


def _sequence_plan(g: Ruleset[Any]) -> Plan:
    """The plan of a one-heap game's sequence of Grundy values."""
    model = g.sequence_kernel()
    if model is not None:
        return Plan(
            Question.SEQUENCE,
            Method.COMPILED_SEQUENCE,
            None,
            "the game's compiled recurrence gives the values",
            value=model,
        )
    return Plan(
        Question.SEQUENCE,
        Method.SEARCH,
        None,
        "the game has no compiled recurrence: each value is found by exhaustive search",
    )


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
    if compiled and walk in _COMPILED_WALKS and Method.COMPILED_CHECK not in avoid:
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
        ``grundy``, ``outcome`` (``misere=True`` means ``misere``), ``misere``,
        ``moves`` (winning moves), ``table`` (over the box *shape*, values of *kind*),
        ``sequence`` or ``check``.
    position : object
        A valid position (validated by the caller), for values, outcomes and moves.
    shape : tuple of int
        The box of a table.
    misere : bool
        Misère play (outcomes and moves).
    kind : {"grundy", "outcome", "misere"}
        The values of a table.
    method : str
        For values, outcomes and moves: ``auto``, ``search`` (exhaustive search only) or
        ``formula`` (closed forms only: the search that runs refuses to search). For
        tables, the engine asked: ``auto``, ``kernel``, ``compiled`` or ``generic``.
    budgets : Budgets, optional
        The thresholds and the search's budgets (non-default search budgets keep the
        Python search, with those budgets); by default :data:`DEFAULT_BUDGETS`, read at
        each call.
    calls : int
        How many times this game (and number of heaps) was asked in a row (values).
    avoid : frozenset of Method
        Methods that could not run: the plan picks the next one.
    space : object
        For checks: the verification space (None with a *shape*: positions that are not
        move-closed, below that box, compared with solved values) (its ``walk`` class attribute says how it
        can be walked: ``box``, ``sorted box``, ``index``, ``list``, ...); *kind* is then
        the claim's (``grundy``, ``p-set``, ``misere-p-set``).
    vectorised, compiled : bool
        For checks: a vectorised form of the claim exists; the claim may be compiled.
    spec : object, optional
        For checks: the check itself (a verification ``CheckSpec``): its space, kind and
        the paths it allows (``fast``, ``compiled``), each kept only when the test that
        the method's module registered (:func:`register_check`) says it can run.

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
    >>> str(plan(game("octal", code="0.77"), "grundy", (3000, 2999)).method)
    'sum of components'
    >>> str(plan(game("octal", code="0.77"), "grundy", (3000,)).method)
    'compiled sequence'
    >>> str(plan(game("nim"), "moves", (3, 4, 5)).method)
    'construction'
    >>> p = plan(game("wythoff"), "table", shape=(512, 512), kind="outcome")
    >>> str(p.method), str(p.fallback)
    ('compiled table', 'compiled engine')
    """
    if budgets is None:
        budgets = DEFAULT_BUDGETS
    if isinstance(game, str):
        from nimlab.catalog.registry import as_game

        g = as_game(game)
    else:
        g = game
    try:
        q = Question(question)
    except ValueError:
        raise InvalidParameterError(
            f"unknown question {question!r}: choose one of {', '.join(Question)}"
        ) from None
    if q is Question.OUTCOME and misere:
        q = Question.MISERE
    if q in (Question.GRUNDY, Question.OUTCOME, Question.MISERE):
        return _value_plan(g, q, position, method, budgets, calls, avoid)
    if q is Question.MOVES:
        return _moves_plan(g, position, misere, method, avoid)
    if q is Question.TABLE:
        if shape is None:
            raise InvalidParameterError("a table plan needs its shape")
        return _table_plan(g, tuple(shape), kind, method, budgets, avoid)
    if q is Question.SEQUENCE:
        return _sequence_plan(g)
    if spec is not None:
        space, kind = spec.space, spec.kind
        vectorised = bool(getattr(spec, "fast", False)) and _can_run(Method.VECTORISED_CHECK, spec)
        compiled = bool(getattr(spec, "compiled", False)) and _can_run(Method.COMPILED_CHECK, spec)
    return _check_plan(
        g,
        space,
        None if shape is None else tuple(shape),
        budgets,
        kind,
        vectorised,
        compiled,
        avoid,
    )
