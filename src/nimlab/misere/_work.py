"""The working parts of a misère-quotient computation: its errors, its work budget, and
the quotient of the heaps done so far (internal to :mod:`nimlab.misere.quotient`)."""

from __future__ import annotations

import contextvars
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from nimlab.core.errors import NimlabError, SearchTooLargeError
from nimlab.core.ruleset import Ruleset


class QuotientTooLargeError(SearchTooLargeError):
    """The misère quotient (or the proof of a candidate) outgrows its budget."""


class QuotientNotFoundError(NimlabError, RuntimeError):
    """No candidate of the forms nimlab tries passes the proof at some heap."""


Word = tuple[int, ...]


class _Work:
    """The steps of work of one quotient computation, against its budget ``max_work``.

    Every costly part (the proofs of candidates, building, minimising and comparing
    candidates) spends its steps here before or while it does them, so a game whose heaps
    have very many options stops within its budget instead of running for hours inside
    the other budgets (each of which bounds one proof, not the whole run).
    """

    def __init__(self, budget: int, tick: Callable[[], None] | None = None) -> None:
        self.budget = budget
        self.spent = 0
        self.heap = 0
        self.tick = tick
        self.next_tick = 1 << 20

    def spend(self, steps: int) -> None:
        self.spent += steps
        if self.spent > self.budget:
            raise QuotientTooLargeError(
                f"misère quotient: at heap {self.heap:,} the computation needs more than "
                f"its budget of {self.budget:,} steps (the heaps of this game have very "
                "many options); raise max_work (CLI: --max-work N) or lower the heap bound"
            )
        if self.tick is not None and self.spent >= self.next_tick:
            self.next_tick = self.spent + (1 << 20)
            self.tick()


_WORK: contextvars.ContextVar[_Work | None] = contextvars.ContextVar("nimlab_quotient_work")


def _spend(steps: int) -> None:
    """Spend *steps* of the running computation's work budget (none outside one)."""
    work = _WORK.get(None)
    if work is not None:
        work.spend(steps)


def _work_left() -> int:
    """Steps left of the running computation's work budget (``2**62`` outside one)."""
    work = _WORK.get(None)
    return 1 << 62 if work is None else max(0, work.budget - work.spent)


def _compiled() -> bool:
    """Whether the candidates are now built and proved by the compiled loops
    (:mod:`nimlab.misere._compiled`): once the running computation has spent the planner's
    ``Budgets.misere_compiled_after_steps`` steps of work (a short computation, such as
    Kayles to heap 120, ends in Python before numba would have loaded in a new process;
    a long one pays the load once and runs its candidates about 10 times faster)."""
    from nimlab import planner

    work = _WORK.get(None)
    spent = 0 if work is None else work.spent
    return spent >= planner.DEFAULT_BUDGETS.misere_compiled_after_steps


@dataclass
class _Quotient:
    """A verified, reduced quotient of the heaps 0..n (internal working form)."""

    mul: list[list[int]]
    is_p: list[bool]
    phi: list[int]  # heap -> element
    heap_opts: list[list[Word]]  # heap -> option words (heaps with options only)
    rep: list[Word] = field(default_factory=list)  # element -> least representative sum
    gens: list[int] = field(default_factory=list)  # heaps introducing a generator

    @property
    def size(self) -> int:
        return len(self.mul)

    def elem(self, word: Iterable[int]) -> int:
        x = 0
        for h in word:
            x = self.mul[x][self.phi[h]]
        return x


def _heap_option_words(game: Ruleset[Any], h: int) -> list[Word]:
    words: dict[Word, None] = {}
    for pos in game.moves(game.validate((h,))):
        words[tuple(sorted(x for x in pos if x > 0))] = None
    return list(words)
