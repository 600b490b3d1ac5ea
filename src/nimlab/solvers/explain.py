"""Explanations of winning moves: why a move wins, in the papers' own terms.

For a game that plays as Nim_K at the position (its
:meth:`~nimlab.core.ruleset.Ruleset.nimk_equivalent` hook: Nim, Moore, some Circular Nim)
an :class:`Explanation` carries the binary table of [N99] (one row per heap, the digit
sums mod ``K+1``, the highest nonzero digit, the heaps changed), misère forms included.
For every other game it gives the value of the closed form before and after the move,
the id of the theorem that justifies it, and the game's own notes (its
:meth:`~nimlab.core.ruleset.Ruleset.explain_notes` hook).
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from typing import Any

from nimlab.core.ruleset import Ruleset

__all__ = ["BinaryRow", "BinaryTable", "Explanation", "explain", "method_phrase"]


@dataclass(frozen=True)
class BinaryRow:
    """One heap of the binary table: its size before and after the move."""

    heap: int
    before: int
    after: int | None
    changed: bool


@dataclass(frozen=True)
class BinaryTable:
    """[N99]'s table: heaps in binary, with digit sums mod ``modulus``.

    Digit sums are listed from the most significant digit (``width`` digits).
    ``highest_digit`` is the exponent of the highest digit with a nonzero sum
    before the move (None at a P-position of normal play).
    """

    modulus: int
    width: int
    rows: tuple[BinaryRow, ...]
    sums_before: tuple[int, ...]
    sums_after: tuple[int, ...] | None
    highest_digit: int | None
    changed: tuple[int, ...]

    def bits(self, value: int) -> str:
        """*value* in binary over the table's width, digits separated by spaces."""
        return " ".join(format(value, f"0{self.width}b")) if self.width else "0"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (heap numbers are 1-based)."""
        return {
            "modulus": self.modulus,
            "width": self.width,
            "rows": [
                {
                    "heap": r.heap,
                    "before": r.before,
                    "after": r.after,
                    "changed": r.changed,
                    "binary_before": format(r.before, f"0{self.width}b"),
                    "binary_after": None if r.after is None else format(r.after, f"0{self.width}b"),
                }
                for r in self.rows
            ],
            "digit_sums_before": list(self.sums_before),
            "digit_sums_after": None if self.sums_after is None else list(self.sums_after),
            "highest_nonzero_digit": self.highest_digit,
            "heaps_changed": list(self.changed),
        }


@dataclass(frozen=True)
class Explanation:
    """Why a position is P or N, and why a move wins.

    Attributes
    ----------
    game : str
        The game's label.
    position, move : str or None
        The position and the explained winning move, written as on the command line
        (``move`` is None at a P-position).
    misere : bool
        Misère play.
    outcome : {"P", "N"}
        The outcome of ``position``.
    procedure : str or None
        The construction that built the move.
    theorem : str or None
        Id of the result (GAMES.md §6) that justifies the move or the outcome.
    value_name : str or None
        What ``value_before`` / ``value_after`` are (``"nim-sum"``, ...).
    value_before, value_after : str or None
        The closed form's value before and after the move.
    table : BinaryTable or None
        The binary table, for Nim and Nim_K.
    notes : tuple of str
        Sentences of explanation.
    status : str or None
        The status of ``theorem`` (proved, conjectured with its verified bound, ...).
    method : str
        How the outcome was decided, exactly as :func:`nimlab.answer` reports it
        (:attr:`nimlab.Answer.method`): ``"closed form"`` (of ``theorem``),
        ``"construction"``, ``"search"``, ``"compiled engine"``, ...
    """

    game: str
    position: str
    misere: bool
    outcome: str
    move: str | None
    procedure: str | None
    theorem: str | None
    value_name: str | None
    value_before: str | None
    value_after: str | None
    table: BinaryTable | None = None
    notes: tuple[str, ...] = field(default_factory=tuple)
    raw_move: Any = None
    status: str | None = None
    method: str = "closed form"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "game": self.game,
            "position": self.position,
            "misere": self.misere,
            "outcome": self.outcome,
            "move": self.move,
            "procedure": self.procedure,
            "theorem": self.theorem,
            "value_name": self.value_name,
            "value_before": self.value_before,
            "value_after": self.value_after,
            "table": None if self.table is None else self.table.to_dict(),
            "notes": list(self.notes),
            "status": self.status,
            "method": self.method,
        }

    def _table_lines(self) -> list[str]:
        t = self.table
        if t is None:
            return []
        wb = max([4] + [len(str(r.before)) for r in t.rows])
        wa = max([5] + [len(str(r.after)) for r in t.rows if r.after is not None])
        bits_w = max(2 * t.width - 1, 1)
        has_after = t.sums_after is not None
        head = f"{'heap':>4}  {'size':>{wb}}  {'binary':<{bits_w}}"
        if has_after:
            head += f"    {'after':>{wa}}  binary"
        lines = [head]
        for r in t.rows:
            line = f"{r.heap:>4}  {r.before:>{wb}}  {t.bits(r.before):<{bits_w}}"
            if has_after and r.after is not None:
                mark = " *" if r.changed else ""
                line += f"  → {r.after:>{wa}}  {t.bits(r.after)}{mark}"
            lines.append(line)
        label = f"sum mod {t.modulus}"
        sums = " ".join(str(d) for d in t.sums_before)
        line = f"{label:>{6 + wb}}  {sums:<{bits_w}}"
        if t.sums_after is not None:
            line += f"    {'':>{wa}}  " + " ".join(str(d) for d in t.sums_after)
        lines.append(line)
        if t.highest_digit is not None:
            lines.append(
                f"highest nonzero digit sum: at 2^{t.highest_digit} "
                f"(sum {t.sums_before[t.width - 1 - t.highest_digit]})"
            )
        if t.changed:
            lines.append("heaps changed: " + ", ".join(str(i) for i in t.changed))
        return lines

    def render_text(self) -> str:
        """A plain-text rendering for the terminal.

        Examples
        --------
        >>> print(explain("nim", (3, 4, 5)).render_text())
        nim 3 4 5: N-position (normal play)
        heap  size  binary    after  binary
           1     3  0 1 1  →     1  0 0 1 *
           2     4  1 0 0  →     4  1 0 0
           3     5  1 0 1  →     5  1 0 1
         sum mod 2  0 1 0           0 0 0
        highest nonzero digit sum: at 2^1 (sum 1)
        heaps changed: 1
        nim-sum: 2 → 0
        winning move: 3 4 5 → 1 4 5, by Bouton's rule (N99 Theorem 1.4) [S19-T1]
        """
        play = "misère play" if self.misere else "normal play"
        out = [f"{self.game} {self.position}: {self.outcome}-position ({play})"]
        out += self._table_lines()
        if self.value_name is not None and self.value_before is not None:
            v = f"{self.value_name}: {self.value_before}"
            if self.value_after is not None:
                v += f" → {self.value_after}"
            out.append(v)
        if self.move is not None:
            line = f"winning move: {self.position} → {self.move}"
            if self.procedure:
                line += f", by {self.procedure}"
            if self.theorem:
                line += f" [{self.theorem}]"
            out.append(line)
        elif self.theorem:
            out.append(f"no winning move: every move leads to an N-position [{self.theorem}]")
        if self.status is not None and " is proved" not in self.status:
            out.append(f"status: {self.status}")
        out += list(self.notes)
        return "\n".join(out)

    def __str__(self) -> str:
        return self.render_text()

    def _repr_html_(self) -> str:
        e = html.escape
        parts = [
            f"<div><b>{e(self.game)} {e(self.position)}</b>: {e(self.outcome)}-position"
            f" ({'misère' if self.misere else 'normal'} play)</div>"
        ]
        t = self.table
        if t is not None:
            rows = []
            for r in t.rows:
                after = (
                    ""
                    if r.after is None
                    else f"<td>{r.after}</td><td><code>{e(t.bits(r.after))}</code></td>"
                )
                style = ' style="font-weight:bold"' if r.changed else ""
                rows.append(
                    f"<tr{style}><td>{r.heap}</td><td>{r.before}</td>"
                    f"<td><code>{e(t.bits(r.before))}</code></td>{after}</tr>"
                )
            sums_after = (
                ""
                if t.sums_after is None
                else "<td></td><td><code>" + " ".join(map(str, t.sums_after)) + "</code></td>"
            )
            rows.append(
                f"<tr><td colspan=2>sum mod {t.modulus}</td><td><code>"
                + " ".join(map(str, t.sums_before))
                + f"</code></td>{sums_after}</tr>"
            )
            parts.append("<table>" + "".join(rows) + "</table>")
        text = self.render_text().split("\n")[1:]
        if t is not None:
            text = text[len(self._table_lines()) :]
        parts += [f"<div>{e(x)}</div>" for x in text]
        return "".join(parts)


def _digit_sums(heaps: tuple[int, ...], modulus: int, width: int) -> tuple[int, ...]:
    return tuple(sum((h >> j) & 1 for h in heaps) % modulus for j in range(width - 1, -1, -1))


def _binary_table(before: tuple[int, ...], after: tuple[int, ...] | None, K: int) -> BinaryTable:
    width = max(max(before, default=0).bit_length(), 1)
    m = K + 1
    sb = _digit_sums(before, m, width)
    sa = None if after is None else _digit_sums(after, m, width)
    highest = next((width - 1 - i for i, d in enumerate(sb) if d), None)
    rows = tuple(
        BinaryRow(
            i + 1,
            h,
            None if after is None else after[i],
            after is not None and after[i] != h,
        )
        for i, h in enumerate(before)
    )
    changed = tuple(r.heap for r in rows if r.changed)
    return BinaryTable(m, width, rows, sb, sa, highest, changed)


def _value(g: Ruleset[Any], pos: Any, misere: bool) -> tuple[str | None, str | None]:
    """(name, value) of the closed form at *pos*, as the planner finds it."""
    from nimlab.planner import Method, Question, plan

    if not misere:
        gv = plan(g, Question.GRUNDY, pos, method="formula")
        if gv.method is Method.CLOSED_FORM:
            return "Grundy value", str(gv.value)
    p = plan(g, Question.OUTCOME, pos, misere=misere, method="formula")
    if p.method is not Method.CLOSED_FORM:
        return None, None
    return "outcome by the closed form", "P" if p.value else "N"


#: How an explanation names each method that decides an outcome.
_BY = {
    "closed form": "the closed form",
    "sum of components": "the sum of its components (the XOR of their Grundy values)",
    "compiled table": "a compiled table of the positions below it",
    "compiled sequence": "the game's compiled sequence of Grundy values",
    "compiled engine": "the compiled engine (the game's compiled move model)",
    "search": "exhaustive search",
    "construction": "the construction",
}


def method_phrase(method: str) -> str:
    """How an explanation names *method* (an :attr:`nimlab.Answer.method`).

    Examples
    --------
    >>> method_phrase("search")
    'exhaustive search'
    """
    return _BY.get(method, method)


def explain(
    game: Ruleset[Any] | str, position: object, misere: bool = False, move: Any = None
) -> Explanation:
    """Explain the outcome of *position* and its winning move.

    Parameters
    ----------
    game : Ruleset or str
        The game, or its registry name.
    position : object
        The position (validated).
    misere : bool
        Misère play.
    move : object, optional
        The winning move to explain; by default the construction's own move
        (:func:`nimlab.winning_move`).

    Returns
    -------
    Explanation
        With ``to_dict()``, ``render_text()`` and ``_repr_html_()``.

    Examples
    --------
    >>> from nimlab import explain, game
    >>> e = explain(game("moore", k=2), (3, 4, 5, 9))
    >>> e.move, e.table.sums_before, e.table.sums_after
    ('1 4 5 5', (1, 2, 1, 0), (0, 0, 0, 0))
    >>> e.table.highest_digit, e.table.changed
    (3, (1, 4))
    >>> explain("welter", (1, 2, 4)).theorem
    'S19-T7'
    """
    from nimlab.catalog.registry import as_game
    from nimlab.planner import Method, Question, plan
    from nimlab.solvers.api import answer

    g = as_game(game)
    if not isinstance(misere, bool):
        from nimlab.core.errors import InvalidArgumentError

        raise InvalidArgumentError(
            f"explain: misere must be True or False, got {misere!r:.60} (the move to explain "
            "is the keyword argument move=)"
        )
    pos = g.validate(position)
    moves_plan = plan(g, Question.MOVES, pos, misere=misere)
    c = moves_plan.value if moves_plan.method is Method.CONSTRUCTION else None
    mv, scored = _the_move(g, pos, misere, move, c)
    # the outcome exactly as nimlab.answer finds it: the explanation names that method
    decided = answer(g, pos, misere=misere)
    method = decided.method
    is_p = str(decided.value) == "P"
    procedure = c.procedure if c is not None else None
    if scored is not None and mv is not None:
        procedure = _scan_procedure(g, mv, misere, scored)
    theorem = (c.theorem if c is not None else None) or decided.theorem
    table, value_name, before, after, notes = _values(g, pos, mv, misere, method)
    if method != "closed form":
        by = method_phrase(method)
        if method == "construction" and c is not None:
            by = f"{c.procedure} (a construction)"
        notes.insert(0, f"no closed form applies here: the outcome comes from {by}")
    return Explanation(
        game=g.label(),
        position=g.format_position(pos),
        misere=misere,
        outcome="P" if is_p else "N",
        move=None if mv is None else g.format_position(mv),
        procedure=procedure if mv is not None else None,
        theorem=theorem,
        value_name=value_name,
        value_before=before,
        value_after=after,
        table=table,
        notes=tuple(notes),
        raw_move=mv,
        status=None if theorem is None else _status(theorem),
        method=method,
    )


def _the_move(g: Ruleset[Any], pos: Any, misere: bool, move: Any, c: Any) -> tuple[Any, Any]:
    """The move to explain: *move* (checked to be a move), else the construction's own,
    else the first the planner's scan of the moves finds; and, for a scanned move (or a
    given one without a construction), the method that scored it (else None)."""
    from nimlab.solvers.strategy import scanned_move

    if move is None:
        return (c.one(), None) if c is not None else scanned_move(g, pos, misere)
    mv = g.validate(move)
    own = c.one() if c is not None else None
    # the construction's own move is a move (its proof says so): no scan of the moves,
    # which a position of 9-digit heaps could not afford
    if own is None or g.canonical(own) != g.canonical(mv):
        _check_is_move(g, pos, mv)
    if c is not None:
        return mv, None
    return scanned_move(g, pos, misere, mv)


def _scan_procedure(g: Ruleset[Any], mv: Any, misere: bool, scored: Any) -> str:
    """How a scan of the moves showed that *mv* wins (*scored*: the method that scored it)."""
    from nimlab.planner import Method, Question, plan

    if scored is not Method.SEARCH:
        return f"a scan of the moves, each option's outcome read from {_SCAN_BY[scored]}"
    target = plan(g, Question.OUTCOME, mv, misere=misere, method="formula")
    if target.method is Method.CLOSED_FORM:
        return (
            "a scan of the moves, the closed form"
            + (f" of {target.theorem}" if target.theorem else "")
            + " showing this one leads to a P-position"
        )
    return "a scan of the moves, each option's outcome found by exhaustive search"


#: How a scanned move's procedure names the compiled method that scored the options.
_SCAN_BY = {
    "compiled table": "one compiled table of the positions below this one",
    "compiled sequence": "the game's compiled sequence of Grundy values (the XOR of the "
    "values of its heaps)",
    "compiled engine": "the compiled engine (the game's compiled move model)",
}


def _values(
    g: Ruleset[Any], pos: Any, mv: Any, misere: bool, method: str
) -> tuple[BinaryTable | None, str | None, str | None, str | None, list[str]]:
    """The binary table (for a Nim_K equivalent), the value's name, its value before and
    after the move, and the game's notes."""
    notes: list[str] = []
    K = g.nimk_equivalent(pos)
    if K is not None and isinstance(pos, tuple):
        table = _binary_table(pos, mv, K)
        value_name = "nim-sum" if K == 1 else f"NIM_{K} (digit sums mod {K + 1})"
        before = "".join(map(str, table.sums_before)) if K > 1 else str(_xor(pos))
        after = None
        if mv is not None:
            after = str(_xor(mv)) if K == 1 else "".join(map(str, table.sums_after or ()))
        if misere and method == "closed form":
            notes.append(
                "misère play: a position with a heap > 1 is P iff every digit sum is 0; "
                f"with all heaps <= 1 iff the number of 1-heaps is ≡ 1 (mod {K + 1})"
            )
        return table, value_name, before, after, notes
    name, value_before = _value(g, pos, misere)
    value_after = _value(g, mv, misere)[1] if mv is not None else None
    own = g.explain_notes(pos, mv)
    notes += own if own or misere else _known_notes(g, pos, mv)
    return None, name, value_before, value_after, notes


#: Most options whose Grundy values an explanation lists (the rest are counted).
_MAX_LISTED = 8


def _known_notes(g: Ruleset[Any], pos: Any, mv: Any) -> list[str]:
    """What is known when no closed form applies and the game says nothing more: the
    Grundy values of the options (the value is their mex) and, for one heap, the period
    the values show.

    Examples
    --------
    >>> from nimlab import game
    >>> for line in _known_notes(game("circular", k=2), (1, 2, 3, 4), (1, 2, 1, 2)):
    ...     print(line)  # doctest: +ELLIPSIS
    the Grundy values of the options (by exhaustive search): ..., and G = mex of them = ...
    the move 1 2 3 4 → 1 2 1 2 leads to an option of Grundy value 0: a P-position
    """
    from nimlab.core.errors import NimlabError
    from nimlab.engine.search import Solver

    est = g.estimate_moves(pos)
    if est is not None and est > 10_000:
        return []
    solver: Solver[Any] = Solver(g, 200_000, 2_000_000)  # a small budget: notes, not answers
    try:
        opts = list(dict.fromkeys(g.moves(pos)))
        values = [solver.grundy(o) for o in opts[:_MAX_LISTED]]
        allv = values + [solver.grundy(o) for o in opts[_MAX_LISTED:]]
    except NimlabError:
        return []
    shown = ", ".join(
        f"G({g.format_position(o)}) = {v}" for o, v in zip(opts, values, strict=False)
    )
    more = f" and {len(opts) - _MAX_LISTED} more" if len(opts) > _MAX_LISTED else ""
    mex = 0
    seen = set(allv)
    while mex in seen:
        mex += 1
    out = [
        f"the Grundy values of the options (by exhaustive search): {shown or 'none'}{more}, "
        f"and G = mex of them = {mex}"
    ]
    if mv is not None:
        try:
            gm = solver.grundy(mv)
        except NimlabError:
            return out
        out.append(
            f"the move {g.format_position(pos)} → {g.format_position(mv)} leads to an option "
            f"of Grundy value {gm}" + (": a P-position" if gm == 0 else "")
        )
    heaps = pos if isinstance(pos, tuple) and len(pos) == 1 else None
    if heaps is not None and isinstance(heaps[0], int) and heaps[0] <= 2000:
        period = _observed_period(solver, max(3 * heaps[0], 60))
        if period is not None:
            pre, p, values_ = period
            out.append(
                f"G(0..{len(values_) - 1}) repeats with period {p} from n = {pre} "
                f"(observed, not proved): {' '.join(map(str, values_[pre : pre + p][:24]))}"
            )
    return out


def _observed_period(solver: Any, n: int) -> tuple[int, int, list[int]] | None:
    """The smallest period (and preperiod) the values ``G(0..n)`` show twice at least."""
    from nimlab.core.errors import NimlabError

    try:
        values = [solver.grundy((h,)) for h in range(n + 1)]
    except NimlabError:
        return None
    for p in range(1, (n + 1) // 2):
        pre = n - p
        while pre > 0 and values[pre - 1] == values[pre - 1 + p]:
            pre -= 1
        if n + 1 - pre >= 2 * p + 1:
            return pre, p, values
    return None


def _status(theorem: str) -> str:
    from nimlab.core.status import status_of

    return f"{theorem} is {status_of(theorem).summary()}"


def _xor(heaps: tuple[int, ...]) -> int:
    s = 0
    for h in heaps:
        s ^= h
    return s


def _check_is_move(g: Ruleset[Any], pos: Any, mv: Any) -> None:
    """Refuse *mv* unless it is an option of *pos* (a scan of the moves, bounded)."""
    from nimlab.core.errors import InvalidPositionError, MoveSetTooLargeError
    from nimlab.engine.search import DEFAULT_MAX_MOVES

    target = g.canonical(mv)
    for n, c in enumerate(g.moves(pos)):
        if c == mv or g.canonical(c) == target:
            return
        if n >= DEFAULT_MAX_MOVES:
            raise MoveSetTooLargeError(
                f"{g.label()}: {g.format_position(pos)[:60]} has more than "
                f"{DEFAULT_MAX_MOVES:,} moves; cannot check that the move is one of them"
            )
    raise InvalidPositionError(
        f"{g.label()}: {g.format_position(mv)[:60]} is not a move from "
        f"{g.format_position(pos)[:60]} (list them with nimlab.moves)"
    )
