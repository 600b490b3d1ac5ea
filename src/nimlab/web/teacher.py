"""The teacher's view of the playground: printable sheets of positions, and the results
of the papers as a page shows them."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import nimlab
from nimlab.web.limits import Limits
from nimlab.web.service import Shapes, WebInputError, _has_moves, _too_many_moves, candidates

__all__ = ["DIFFICULTIES", "MAX_SHEET", "sheet", "theorem_info"]


#: Difficulty of a sheet: (largest heap, fewest heaps, most heaps) of its positions.
DIFFICULTIES: dict[str, tuple[int, int, int]] = {
    "easy": (5, 2, 2),
    "medium": (12, 2, 3),
    "hard": (30, 3, 4),
}
MAX_SHEET = 20


def theorem_info(tid: str) -> dict[str, Any]:
    """A result of the papers as a page shows it: id, statement, paper, status, game.

    Examples
    --------
    >>> t = theorem_info("S19-T1")
    >>> t["id"], t["statement"], t["game"]
    ('S19-T1', 'Nim (Bouton): G(n1,...,nr) = n1 XOR ... XOR nr', 'nim')
    """
    if len(tid) > 40:
        raise WebInputError("a result id is short, like S19-T1")
    t = nimlab.theorem(tid)
    return {
        "id": t.id,
        "statement": t.statement,
        "paper": t.paper,
        "status": t.status.state,
        "game": t.game,
        "aliases": list(t.aliases),
    }


def _sized_candidates(
    g: nimlab.Ruleset[Any], difficulty: str, rng: random.Random
) -> Iterator[object]:
    """Random positions of the difficulty's size, of every shape the playground draws."""
    top, least, most = DIFFICULTIES[difficulty]
    return candidates(
        g, rng, Shapes(top, top // 3, (least, most), (least, most), top // 2, (least, most)), 400
    )


def sheet(
    g: nimlab.Ruleset[Any],
    outcome: str,
    difficulty: str,
    count: int,
    misere: bool,
    limits: Limits,
    seed: int | None = None,
) -> dict[str, Any]:
    """Positions chosen to be P (or N) at a difficulty, each with its answer.

    An answer is the outcome, the winning move(s) of an N-position and the result that
    decides it (its id), as the playground finds them.

    Examples
    --------
    >>> from nimlab.web.service import build_game
    >>> s = sheet(build_game("nim", {}), "P", "easy", 3, False, Limits(), seed=1)
    >>> [nimlab.outcome("nim", nimlab.game("nim").parse_position(p["position"].split())).value
    ...  for p in s["positions"]]
    ['P', 'P', 'P']
    """
    if outcome not in ("P", "N"):
        raise WebInputError(f"outcome must be P or N, got {outcome!r}")
    if difficulty not in DIFFICULTIES:
        raise WebInputError(f"difficulty must be easy, medium or hard, got {difficulty!r}")
    if not 1 <= count <= MAX_SHEET:
        raise WebInputError(f"a sheet has 1 to {MAX_SHEET} positions, got {count}")
    rng = random.Random(seed)
    seen: set[Any] = set()
    out: list[dict[str, Any]] = []
    for cand in _sized_candidates(g, difficulty, rng):
        if len(out) >= count:
            break
        try:
            pos = g.validate(cand)
        except nimlab.NimlabError:
            continue
        if _too_many_moves(g, pos, limits) or not _has_moves(g, pos):
            continue
        try:
            a = nimlab.answer(g, pos, misere=misere)
            if outcome == "P" and str(a.value) == "N":
                # P-positions are rare at random: the winning move of an N-position is one
                pos = nimlab.winning_move(g, pos, misere=misere)
                a = nimlab.answer(g, pos, misere=misere)
        except nimlab.NimlabError:
            continue
        key = g.canonical(pos)
        if str(a.value) != outcome or key in seen or not _has_moves(g, pos):
            continue
        seen.add(key)
        moves: list[str] = []
        if outcome == "N":
            try:
                moves = [
                    g.format_position(m)
                    for m in nimlab.winning_moves(g, pos, misere=misere, limit=3)
                ]
            except nimlab.NimlabError:
                continue
        out.append(
            {
                "position": g.format_position(pos),
                "outcome": outcome,
                "winning_moves": moves,
                "theorem": a.theorem,
                "method": a.method,
            }
        )
    if not out:
        raise WebInputError(
            f"no {outcome}-position of {g.label()} found at this difficulty; try another"
        )
    return {"game": g.label(), "misere": misere, "difficulty": difficulty, "positions": out}
