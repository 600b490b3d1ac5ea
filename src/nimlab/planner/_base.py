"""The planner's vocabulary: questions, methods, budgets, plans, and the shared helpers."""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from nimlab.core.errors import InvalidParameterError
from nimlab.core.ruleset import HeapRuleset, Ruleset, has_split_model


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
    compiled_min_options : int
        A smaller box still goes to the compiled table or engine when its search would
        generate about this many options (its cells times half the position's moves, by
        the game's ``estimate_moves``): games with many moves per position (Wythoff).
    sequence_min_heap : int
        One heap of a game with a compiled sequence from this size on is read from the
        sequence rather than searched.
    repeat_calls : int
        After this many value questions on one game (and number of heaps), even small
        positions go to the shared compiled engine: a loop over positions then costs
        about one table.
    repeat_min_cells : int
        ... but only positions whose box of smaller positions has at least this many
        cells: below, a search costs well under a millisecond (its memo is shared by the
        calls) and the engine's compile (seconds) never pays.
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
    misere_compiled_after_steps : int
        Once a misère quotient's computation has spent this many steps of work, its
        candidates (automata on sums of heaps) are built and proved by compiled loops
        (before, Python's loops: a computation that ends sooner takes less time than
        loading numba in a new process).
    cluster_task_positions : int
        A Dask task of a compiled check takes about this many positions until the rate
        of checking is measured (a few tenths of a second of kernel: the scheduler's
        round trips, milliseconds a task, stay a few per cent); a run of at most this
        many positions per worker goes out at once as one task per worker, one of at
        most twice as many in two tasks per worker of equal positions (no round trip to
        this process between them); the option-index parts of a P-set check of a space
        of at most this many positions per worker are exchanged by its first tasks
        through the scheduler (each the size of the packed index: a few hundred KB),
        larger ones passed from worker to worker by set-up tasks.
    cluster_stream_seconds : float
        A Dask task of chunks sends its chunks' results to the client as it goes (worker
        events through the scheduler, stored by the runner as they arrive), at most one
        message per this many seconds of checking, the last as it ends: a kill mid-task
        loses no chunk already checked, and the run's last results come with the task's
        end (no request for them: 4 messages fewer, 3-5 ms of a 0.2 s run).
    cluster_patience_seconds : float
        A Dask task that exchanges the option index's parts with the other workers' first
        tasks waits at least this long (or four times its own parts' time) for another
        worker's part before it records that part itself (a worker lost, or busy with
        other work): the results never depend on another worker, a slow one costs at
        most this wait.
    cluster_share_chunks : bool
        The tasks of a Dask run's last round share their chunks: a worker that has
        checked its own takes over the back half of what another has not started (one
        message from worker to worker, answered while that worker checks), so a worker
        slowed by other work on its cores does not hold up the run's end; off, each task
        checks exactly the chunks it was given.
    cluster_instances_per_slot : int
        A theorem of several vectorised instances (S18-T8: five boxes) runs on a Dask
        cluster with each instance whole on one worker thread, side by side, when it has
        at least this many instances per worker thread (the threads then end within
        about one instance's last task of each other); with fewer, one instance after
        the other, each cut into blocks over the workers (a block's worker waits for the
        summary of the rows above it, a few MB sent over the network).
    cluster_summary_share : float
        The summary of a block of rows (its claim's values evaluated at once and kept,
        and ORed into its columns' and diagonals' lines, for the block below on another
        worker) costs about this share of the block's check more than checking the rows
        alone (S18-T8 at 6000: the OR 10-13 %, the claim kept in memory about as much
        again: 330 ms against a check of 1,370 ms, which evaluates its claim at about
        7 %; for the cheapest instance, p = 1, 278 ms against 646 ms): the last instance
        checked side by side on a cluster is cut in two blocks only when that gains more
        than it costs.
    compiled_claim_min_positions : int
        The vectorised check of a box of this many positions or more evaluates its
        claim's rows compiled when the claim has a compiled form (a theorem's
        ``scalar_claim``, an expression): one call per chunk that does not hold Python's
        lock, at about half numpy's CPU (S18-T8 at 6000: 0.30 s against 0.76 s of a
        3.1 s run). Smaller boxes use numpy: the first compile of a claim for a game
        (0.3-0.5 s of CPU, then kept in the disk cache; S18-T8 has five games) would
        not pay.

    Examples
    --------
    >>> Budgets().kernel_min_cells
    20000
    >>> Budgets(kernel_min_cells=500).kernel_min_cells
    500
    """

    kernel_min_cells: int = 20_000
    kernel_max_cells: int = 64_000_000
    compiled_min_options: int = 1_000_000
    sequence_min_heap: int = 64
    repeat_calls: int = 16
    repeat_min_cells: int = 1_000
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
    misere_compiled_after_steps: int = 3_000_000
    cluster_task_positions: int = 1 << 24
    cluster_instances_per_slot: int = 2
    cluster_summary_share: float = 0.4
    cluster_stream_seconds: float = 0.05
    cluster_patience_seconds: float = 2.0
    cluster_share_chunks: bool = True
    compiled_claim_min_positions: int = 4_000_000

    def default_search(self) -> bool:
        """Whether the search's budgets (``max_positions``, ``max_moves``) are the defaults.

        Examples
        --------
        >>> Budgets().default_search(), Budgets(max_moves=10).default_search()
        (True, False)
        """
        default = Budgets()
        return self.max_positions == default.max_positions and self.max_moves == default.max_moves


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
        :class:`~nimlab.core.strategy.Construction` of winning moves, the kernel
        description of a table or a sequence, or, for a scan of the moves, the plan by
        which each option is scored (its method: a compiled table, sequence or engine
        computed once for the position, a closed form or a search); else None.

    Examples
    --------
    >>> from nimlab import game
    >>> from nimlab.planner import plan
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
    """Whether *game* declares a compiled move model (overrides ``compiled_options``), or
    a one-heap move model of a take-and-break game (``split_move_table``).

    Declaring one does not prove it compiles: the compiled engine falls back to search
    (:attr:`Plan.fallback`) when it does not.

    Examples
    --------
    >>> from nimlab import game
    >>> has_compiled_model(game("nim")), has_compiled_model(game("octal", code="0.77"))
    (True, True)
    """
    return (
        isinstance(game, HeapRuleset)
        and type(game).compiled_options is not HeapRuleset.compiled_options
    ) or has_split_model(game)


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
