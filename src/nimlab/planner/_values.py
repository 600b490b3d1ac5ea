"""The planner's choices for values, outcomes, winning moves, tables and sequences."""

from __future__ import annotations

from typing import Any

from nimlab.core.errors import InvalidParameterError
from nimlab.core.ruleset import Ruleset, has_split_model, multisets_up_to
from nimlab.core.strategy import Construction
from nimlab.planner._base import (
    Budgets,
    Method,
    Plan,
    Question,
    _cells,
    _cost,
    _int_heaps,
    _kernel,
    _one_heap,
    _search_note,
    has_compiled_model,
)

_KIND = {Question.GRUNDY: "grundy", Question.OUTCOME: "p", Question.MISERE: "misere"}
_TABLE_KIND = {Question.GRUNDY: "grundy", Question.OUTCOME: "outcome", Question.MISERE: "misere"}


def _value_plan(
    g: Ruleset[Any],
    question: Question,
    pos: Any,
    method: str,
    budgets: Budgets,
    calls: int,
    avoid: frozenset[Method],
) -> Plan:
    """The plan of a Grundy value or an outcome (normal or misère) at *pos*: a closed
    form, a construction, then (``method="auto"``) the fastest engine that applies."""
    found = None
    if method != "search" and Method.CLOSED_FORM not in avoid:
        found = _closed_plan(g, question, pos)
    if found is None and method == "auto" and Method.CONSTRUCTION not in avoid:
        found = _construction_plan(g, question, pos)
    if found is None and method == "auto":
        found = _engine_plan(g, question, pos, budgets, calls, avoid)
    if found is not None:
        return found
    if method != "auto":
        return Plan(question, Method.SEARCH, None, _search_reason(method))
    note = _search_note(g, pos, _KIND[question], budgets)
    return Plan(question, Method.SEARCH, None, _search_reason(method), note=note)


def _search_reason(method: str) -> str:
    if method == "search":
        return "method='search' asks for an exhaustive search"
    return "no closed form applies at this position: an exhaustive search decides it"


def closed_value(g: Ruleset[Any], question: Question, pos: Any) -> int | bool | None:
    """The closed form's answer to *question* at *pos* (a Grundy value, or whether *pos*
    is a P-position in normal or misère play), or None where none applies: the first
    step of every plan of a value (cheap: the exhaustive search asks it at the position
    it is given, as ``method="auto"`` and ``"formula"`` say).

    Examples
    --------
    >>> from nimlab import game
    >>> closed_value(game("nim"), Question.GRUNDY, (3, 4, 5))
    2
    >>> closed_value(game("nim"), Question.MISERE, (1, 1))
    False
    >>> closed_value(game("octal", code="0.77"), Question.OUTCOME, (100,)) is None
    True
    """
    if question is Question.GRUNDY:
        return g.closed_grundy(pos)
    if question is Question.OUTCOME:
        return g.closed_is_p(pos)
    return g.closed_misere_is_p(pos)


def _closed_plan(g: Ruleset[Any], question: Question, pos: Any) -> Plan | None:
    """The closed form's plan at *pos*, or None where none applies."""
    closed = closed_value(g, question, pos)
    if closed is None:
        return None
    theorem = g.closed_theorem(pos, _KIND[question])
    reason = (
        f"the closed form of {theorem} applies at this position"
        if theorem
        else "the game's closed form applies at this position"
    )
    return Plan(question, Method.CLOSED_FORM, theorem, reason, value=closed)


def _construction_plan(g: Ruleset[Any], question: Question, pos: Any) -> Plan | None:
    """An outcome decided by a construction (its own move is None exactly at a
    P-position), or None."""
    if question is Question.GRUNDY:
        return None
    c = g.strategy(pos, question is Question.MISERE)
    if c is None:
        return None
    return Plan(
        question,
        Method.CONSTRUCTION,
        c.theorem,
        f"{c.procedure} finds a winning move exactly at the N-positions",
        fallback=Method.SEARCH,
        value=c,
    )


def _engine_plan(
    g: Ruleset[Any],
    question: Question,
    pos: Any,
    budgets: Budgets,
    calls: int,
    avoid: frozenset[Method],
) -> Plan | None:
    """A sum of components, a compiled sequence, table or engine (in this order), or None
    (a search)."""
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
    found = None
    if _int_heaps(pos, 3):
        found = _sequence_value_plan(g, question, pos, budgets, avoid)
        if found is None:
            found = _table_value_plan(g, question, pos, budgets, avoid)
    if found is None and defaults:
        found = _compiled_engine_plan(g, question, pos, budgets, calls, avoid)
    return found


def _sequence_value_plan(
    g: Ruleset[Any], question: Question, pos: Any, budgets: Budgets, avoid: frozenset[Method]
) -> Plan | None:
    """One large heap of a game with a compiled recurrence (an outcome too: a
    take-and-break game's search explodes with the heap)."""
    if (
        len(pos) == 1
        and question is not Question.MISERE
        and pos[0] >= budgets.sequence_min_heap
        and Method.COMPILED_SEQUENCE not in avoid
        and _one_heap(_kernel(g, (pos[0] + 1,), "grundy"))
    ):
        return Plan(
            question,
            Method.COMPILED_SEQUENCE,
            None,
            f"the game's compiled recurrence gives the values of heaps 0 to {pos[0]:,}",
            fallback=Method.SEARCH,
        )
    return None


def _heavy(g: Ruleset[Any], pos: Any, cells: int, budgets: Budgets) -> bool:
    """Whether a search below *pos* (*cells* positions) costs more than a compiled method:
    a box of ``kernel_min_cells`` cells, or fewer positions with many moves each (about
    ``cells`` times half the position's moves, the game's estimate, options generated:
    ``compiled_min_options``)."""
    if cells >= budgets.kernel_min_cells:
        return True
    est = g.estimate_moves(pos)
    return est is not None and cells * est // 2 >= budgets.compiled_min_options


def _table_value_plan(
    g: Ruleset[Any], question: Question, pos: Any, budgets: Budgets, avoid: frozenset[Method]
) -> Plan | None:
    """A compiled table kernel over the box below *pos*, when the box is within the
    budgets (below them a search is cheaper than compiling)."""
    heaps = tuple(h + 1 for h in pos)
    cells = _cells(heaps)
    if (
        not _heavy(g, pos, cells, budgets)
        or cells > budgets.kernel_max_cells
        or Method.COMPILED_TABLE in avoid
    ):
        return None
    spec = _kernel(g, heaps, _TABLE_KIND[question])
    if spec is None or spec.one_heap:
        return None
    can_compile = has_compiled_model(g) and _int_heaps(pos, 6)
    return Plan(
        question,
        Method.COMPILED_TABLE,
        None,
        f"a compiled kernel of the game tabulates the {cells:,} positions below this one",
        fallback=Method.COMPILED_ENGINE if can_compile else Method.SEARCH,
        value=spec,
    )


def _compiled_engine_plan(
    g: Ruleset[Any],
    question: Question,
    pos: Any,
    budgets: Budgets,
    calls: int,
    avoid: frozenset[Method],
) -> Plan | None:
    """The compiled engine for a large box, or for many questions in a row (a split
    model: for the multisets of heaps of total up to the position's)."""
    split = has_split_model(g)
    if not (has_compiled_model(g) and _int_heaps(pos, 64 if split else 6)):
        return None
    if Method.COMPILED_ENGINE in avoid:
        return None
    cells = _cells(tuple(h + 1 for h in pos))
    if split:
        cells = multisets_up_to(min(sum(pos), 200))
        if cells > budgets.kernel_max_cells:
            return None
    heavy = _heavy(g, pos, cells, budgets)
    if not heavy and (calls < budgets.repeat_calls or cells < budgets.repeat_min_cells):
        return None
    why = (
        f"the {cells:,} positions below it"
        if heavy
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


def _moves_plan(
    g: Ruleset[Any],
    pos: Any,
    misere: bool,
    method: str,
    budgets: Budgets,
    avoid: frozenset[Method],
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
    score = _score_plan(g, pos, misere, method, budgets, avoid)
    return Plan(
        Question.MOVES,
        Method.SCAN,
        None,
        f"no construction of winning moves is known here: every move is scored, {score.reason}",
        note=score.note,
        value=score,
    )


#: How a scan scores the options, by the method that scores them.
_SCORED = {
    Method.COMPILED_TABLE: "each option read from one compiled table of the positions below "
    "this one",
    Method.COMPILED_SEQUENCE: "each option's Grundy value the XOR of its heaps' values, read "
    "from the game's compiled sequence",
    Method.COMPILED_ENGINE: "each option solved by the compiled engine (one solve of the "
    "positions below this one)",
    Method.CLOSED_FORM: "each option by its closed form (method='formula': no search)",
    Method.SEARCH: "each option by its closed form where one applies, else by exhaustive search",
}


def _score_plan(
    g: Ruleset[Any],
    pos: Any,
    misere: bool,
    method: str,
    budgets: Budgets,
    avoid: frozenset[Method],
) -> Plan:
    """How a scan scores the options of *pos* (the ``value`` of a scan's plan): once for
    the whole position (a compiled table of the box below it, the one-heap sequence up to
    its largest heap, the compiled engine's solve below it), as the position's own value
    would be found; else option by option, by closed form or exhaustive search."""
    q = Question.MISERE if misere else Question.OUTCOME
    by = Method.CLOSED_FORM if method == "formula" else Method.SEARCH
    note = None
    if method == "auto":
        at = _value_plan(g, q, pos, method, budgets, 1, avoid | {Method.CONSTRUCTION})
        note = at.note
        top = (max(pos),) if _int_heaps(pos, 64) and pos else None
        if (
            at.method in (Method.COMPILED_SEQUENCE, Method.SUM_OF_COMPONENTS)
            and top is not None
            and _sequence_value_plan(g, Question.GRUNDY, top, budgets, avoid) is not None
        ):
            by = Method.COMPILED_SEQUENCE
        elif at.method in (Method.COMPILED_TABLE, Method.COMPILED_ENGINE):
            by = at.method
    if method == "search":
        reason = "each option by exhaustive search (method='search')"
    else:
        reason = _SCORED[by]
    fallback = None if by in (Method.SEARCH, Method.CLOSED_FORM) else Method.SEARCH
    return Plan(q, by, None, reason, note=note if by is Method.SEARCH else None, fallback=fallback)


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
    # a split model solves every multiset of heaps up to the box's total: worth it in
    # misère play, else when they are not many more than the box's cells (a search values
    # a sum by XOR)
    split = multisets_up_to(min(sum(dims) - len(dims), 200)) if has_split_model(g) else 0
    misere_split = kind == "misere" and 0 < split <= budgets.kernel_max_cells
    if Method.COMPILED_ENGINE not in avoid and (
        (engine == "compiled" and has_compiled_model(g))
        or (engine == "auto" and misere_split)
        or (
            engine == "auto"
            and cells >= budgets.compiled_min_cells
            and split <= min(budgets.kernel_max_cells, 20 * cells)
        )
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
