"""Theorems on multiplayer Nim with preferences ([SM] §3–§5) and m-player Nim_K ([N99] §3).

Each result is checked against the exhaustive last-mover search of
:class:`~nimlab.solvers.multiplayer.MultiplayerSolver` for m = 2..5 players (and K = 1..3
for Nim_K), on every position with heaps below the bound.

``SM-T4.1`` (``GAMEs(0, 1, ..., m-1)`` is Li's ranking) is a definition-level remark and has
no id in GAMES.md §6: :func:`nimlab.li_ranking` implements it, and ``SM-T3.1`` is checked
under it.

References
----------
[SM] Suetsugu, *The normal play and the misère play of multiplayer NIM with preference*:
Definition 3.1 (``⊕m``), Theorem 3.1, Theorems 4.2 and 4.3, §5 example.
[N99] Naito, 1999 public lecture, Definition 3.2 and Theorem 3.3.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from nimlab.catalog import game
from nimlab.core.ruleset import Ruleset
from nimlab.solvers.multiplayer import (
    MultiplayerSolver,
    PreferenceProfile,
    games_profile,
    li_ranking,
)
from nimlab.theory.registry import Counterexample, Theorem, register_theorem
from nimlab.theory.spaces import sorted_box
from nimlab.verification.spec import VerificationResult

__all__ = [
    "PLAYERS",
    "digit_sums_mod",
    "nim_k_game",
    "nim_sum_mod",
    "thm42_profile",
    "thm43_profile",
]

#: The numbers of players every check covers.
PLAYERS: tuple[int, ...] = (2, 3, 4, 5)
#: The K of Nim_K covered by the N99-T3.3 check.
NIM_K_VALUES: tuple[int, ...] = (1, 2, 3)


def digit_sums_mod(heaps: Iterable[int], modulus: int) -> tuple[int, ...]:
    """Sums of the binary digits of the heaps, column by column, mod *modulus* (lowest first).

    Examples
    --------
    >>> digit_sums_mod([3, 4, 5], 3)   # columns 1, 2, 4 hold 2, 1, 2 ones
    (2, 1, 2)
    >>> digit_sums_mod([], 3)
    ()
    """
    hs = list(heaps)
    top = max(hs, default=0).bit_length()
    return tuple(sum((h >> b) & 1 for h in hs) % modulus for b in range(top))


def nim_sum_mod(heaps: Iterable[int], modulus: int) -> int:
    """[SM] Definition 3.1 ``⊕m``: binary digit-wise sums mod m, read in base m.

    With ``modulus = 2`` this is the nim-sum ([SM] Cor. 3.1); with ``modulus = K + 1`` it is
    [N99]'s ``NIM_K``, with ``modulus = mK - K + 1`` its ``NIM_K^m``. Python ints of any
    size work.

    Examples
    --------
    >>> nim_sum_mod([3, 4, 5], 3)    # (2, 1, 2) in base 3, [N99] Example 2.3
    23
    >>> nim_sum_mod([3, 4, 5], 2) == 3 ^ 4 ^ 5
    True
    >>> nim_sum_mod([2, 2, 1, 1, 3], 3)
    0
    >>> nim_sum_mod([2**100, 2**100, 2**100], 3)
    0
    """
    out = 0
    for d in reversed(digit_sums_mod(heaps, modulus)):
        out = out * modulus + d
    return out


def thm42_profile(m: int, i: int) -> PreferenceProfile:
    """``GAMEs(i, i+1, ..., m-1, 0, 1, ..., i-1)`` of [SM] Theorem 4.2.

    Examples
    --------
    >>> print(thm42_profile(3, 1))
    GAMEs(1,2,0)
    """
    return games_profile(*[(i + j) % m for j in range(m)])


def thm43_profile(m: int, i: int) -> PreferenceProfile:
    """``GAMEs(i, i-1, ..., 0, m-1, m-2, ..., i+1)`` of [SM] Theorem 4.3.

    Examples
    --------
    >>> print(thm43_profile(4, 1))
    GAMEs(1,0,3,2)
    """
    return games_profile(*[(i - j) % m for j in range(m)])


def nim_k_game(k: int) -> Ruleset[Any]:
    """The catalog's Moore's Nim_k (``moore``, parameter k): [N99]'s Nim_K.

    Examples
    --------
    >>> from nimlab.engine.search import Solver
    >>> g = nim_k_game(2)
    >>> Solver(g).is_p((3, 3, 3), method="search")   # digit sums (3, 3) ≡ 0 mod 3
    True
    >>> Solver(g).is_p((3, 4, 5), method="search")   # [N99] Example 2.3: (2, 1, 2)
    False
    """
    return game("moore", k=k)


# -- checks ----------------------------------------------------------------------------
def _heap_positions(max_heaps: int, bound: int, min_heaps: int = 1) -> Iterator[tuple[int, ...]]:
    for n in range(min_heaps, max_heaps + 1):
        yield from sorted_box(n, bound)


def _fail(
    tid: str,
    bound: int,
    count: int,
    start: float,
    label: str,
    position: Any,
    claimed: Any,
    actual: Any,
    detail: str,
) -> VerificationResult:
    return VerificationResult.of_theorem(
        tid,
        bound,
        count,
        False,
        time.perf_counter() - start,
        Counterexample(label, position, claimed, actual, detail),
    )


def _check_li(
    tid: str,
    bound: int,
    games: Sequence[tuple[Ruleset[Any], int, int]],
    max_heaps: int,
) -> VerificationResult:
    """(m-1)-position under Li's ranking iff digit sums mod *modulus* are all 0."""
    start = time.perf_counter()
    count = 0
    for g, m, modulus in games:
        prof = li_ranking(m)
        solver: MultiplayerSolver[Any] = MultiplayerSolver(g, prof)
        for pos in _heap_positions(max_heaps, bound):
            count += 1
            i = solver.i_value(pos)
            claimed = nim_sum_mod(pos, modulus) == 0
            if claimed != (i == m - 1):
                return _fail(
                    tid,
                    bound,
                    count,
                    start,
                    f"{g.label()}, {m} players, {prof.label()}",
                    pos,
                    claimed,
                    i == m - 1,
                    f"claimed: the player before the mover moves last iff digit sums mod "
                    f"{modulus} are 0 (here {digit_sums_mod(pos, modulus)}); search: "
                    f"{i}-position",
                )
    return VerificationResult.of_theorem(tid, bound, count, True, time.perf_counter() - start)


def check_sm_t31(bound: int) -> VerificationResult:
    """SM-T3.1 for m = 2..5 players, 1..4 Nim heaps below *bound*.

    Examples
    --------
    >>> r = check_sm_t31(4)
    >>> r.ok, r.positions_checked
    (True, 276)
    """
    nim = game("nim")
    return _check_li("SM-T3.1", bound, [(nim, m, m) for m in PLAYERS], 4)


def check_n99_t33(bound: int) -> VerificationResult:
    """N99-T3.3 for m = 2..5 players, K = 1..3, 1..4 heaps below *bound*.

    Examples
    --------
    >>> check_n99_t33(3).ok
    True
    """
    cases = [(nim_k_game(k), m, m * k - k + 1) for k in NIM_K_VALUES for m in PLAYERS]
    return _check_li("N99-T3.3", bound, cases, 4)


def _profiled_nim_solvers(
    profile: Callable[[int, int], PreferenceProfile],
) -> Iterator[tuple[int, int, PreferenceProfile, MultiplayerSolver[Any], int]]:
    """For m = 2..5 players and every i: ``(m, i, profile(m, i), a last-mover solver of
    Nim under it, i - 1 mod m)`` (the i-values of [SM] Theorems 4.2 and 4.3)."""
    nim = game("nim")
    for m in PLAYERS:
        for i in range(m):
            prof = profile(m, i)
            # the last heap runs to 4*bound+8: a larger move budget than one question's
            yield m, i, prof, MultiplayerSolver(nim, prof, max_moves=10**8), (i - 1) % m


def check_sm_t42(bound: int) -> VerificationResult:
    """SM-T4.2 for m = 2..5 players, every i, 1..4 Nim heaps below *bound*.

    Examples
    --------
    >>> check_sm_t42(4).ok
    True
    """
    start = time.perf_counter()
    count = 0
    for m, i, prof, solver, target in _profiled_nim_solvers(thm42_profile):
        for pos in _heap_positions(4, bound):
            count += 1
            s = nim_sum_mod(pos, m)
            claimed = s == 0 if any(h > 1 for h in pos) else s == i
            actual = solver.i_value(pos)
            if claimed != (actual == target):
                return _fail(
                    "SM-T4.2",
                    bound,
                    count,
                    start,
                    f"nim, {m} players, {prof.label()}",
                    pos,
                    claimed,
                    actual == target,
                    f"claimed {target}-position iff ⊕{m} = "
                    f"{'0 (some heap > 1)' if any(h > 1 for h in pos) else f'{i} (all heaps <= 1)'}"
                    f"; ⊕{m} = {s}; search: {actual}-position",
                )
    return VerificationResult.of_theorem("SM-T4.2", bound, count, True, time.perf_counter() - start)


def check_sm_t43(bound: int) -> VerificationResult:
    """SM-T4.3 for m = 2..5 players, every i, prefixes of 0..2 heaps below *bound*.

    For each prefix ``(n1, ..., n_{k-1})`` the last heap ``n_k`` runs over
    ``0 .. 4*bound + 7``; exactly one value must give an ``(i-1)``-position.

    Examples
    --------
    >>> check_sm_t43(3).ok
    True
    """
    start = time.perf_counter()
    count = 0
    last = 4 * bound + 8
    for m, _, prof, solver, target in _profiled_nim_solvers(thm43_profile):
        for prefix in _heap_positions(2, bound, min_heaps=0):
            found = []
            for nk in range(last):
                count += 1
                if solver.i_value((*prefix, nk)) == target:
                    found.append(nk)
            if len(found) != 1:
                return _fail(
                    "SM-T4.3",
                    bound,
                    count,
                    start,
                    f"nim, {m} players, {prof.label()}",
                    prefix,
                    1,
                    len(found),
                    f"claimed exactly one last heap n_k making an {target}-position after "
                    f"the prefix {prefix}; search over n_k < {last} finds {found}",
                )
    return VerificationResult.of_theorem("SM-T4.3", bound, count, True, time.perf_counter() - start)


#: [SM] §5: positions and their i under GAMEs(0,1,2), and the move that shows it.
SM_E5_CLAIMS: tuple[tuple[tuple[int, ...], int], ...] = (
    ((2, 2, 2), 2),
    ((1, 3), 1),
    ((2, 2, 1, 1, 3), 2),
    ((2, 2, 2, 1, 3), 0),
)


def check_sm_e5(bound: int) -> VerificationResult:
    """SM-E5: (2,2,2) is a 2-position, (1,3) a 1-position, (2,2,2,1,3) a 0-position.

    Under ``GAMEs(0, 1, 2)``: the first player moves (2,2,2,1,3) to the 2-position
    (2,2,1,1,3) (``⊕3 = 0``), so the sum of a 2-position (the analogue of a P-position) and
    a 1-position is not a 1-position: the sum property of two-player games fails. The
    bound is not used.

    Examples
    --------
    >>> check_sm_e5(0).ok
    True
    """
    start = time.perf_counter()
    nim = game("nim")
    prof = games_profile(0, 1, 2)
    solver: MultiplayerSolver[Any] = MultiplayerSolver(nim, prof)
    label = f"nim, 3 players, {prof.label()}"
    count = 0
    for pos, claimed in SM_E5_CLAIMS:
        count += 1
        actual = solver.i_value(pos)
        if actual != claimed:
            return _fail("SM-E5", bound, count, start, label, pos, claimed, actual, "i-position")
    # the paper's move: (2,2,2,1,3) -> (2,2,1,1,3) is one the first player chooses
    move_to = solver.game.canonical((2, 2, 1, 1, 3))
    best = {solver.game.canonical(o) for o, w in solver.options((2, 2, 2, 1, 3), 0) if w == 0}
    count += 1
    if move_to not in best or nim_sum_mod((2, 2, 1, 1, 3), 3) != 0:
        return _fail(
            "SM-E5",
            bound,
            count,
            start,
            label,
            (2, 2, 2, 1, 3),
            "move to (2, 2, 1, 1, 3)",
            sorted(best),
            "the paper's winning move",
        )
    return VerificationResult.of_theorem("SM-E5", bound, count, True, time.perf_counter() - start)


register_theorem(
    Theorem(
        id="SM-T3.1",
        paper="SM",
        statement="Li's m-player Nim (GAMEs(0,1,...,m-1)): the m-th player (the one before the "
        "mover) moves last iff the binary digit-wise sums mod m are all 0 (⊕m = 0)",
        game="nim",
        kind="custom",
        instances=None,
        default_bound=17,
        deep_bound=32,
        custom_check=check_sm_t31,
        params="m = 2..5 players, 1..4 heaps",
    )
)
register_theorem(
    Theorem(
        id="SM-T4.2",
        paper="SM",
        statement="under GAMEs(i,i+1,...,m-1,0,...,i-1), m-player Nim is an (i-1)-position "
        "((m-1) when i=0) iff ⊕m = 0 when some heap > 1, ⊕m = i when all heaps <= 1 "
        "(m=2, i=1: misère Nim)",
        game="nim",
        kind="custom",
        instances=None,
        default_bound=17,
        deep_bound=32,
        custom_check=check_sm_t42,
        params="m = 2..5 players, i = 0..m-1, 1..4 heaps",
    )
)
register_theorem(
    Theorem(
        id="SM-T4.3",
        paper="SM",
        statement="under GAMEs(i,i-1,...,0,m-1,...,i+1), for any n1..n_{k-1} exactly one n_k "
        "makes (n1,...,n_k) an (i-1)-position of m-player Nim",
        game="nim",
        kind="custom",
        instances=None,
        default_bound=20,
        deep_bound=32,
        custom_check=check_sm_t43,
        params="m = 2..5 players, i = 0..m-1, k-1 = 0..2 heaps",
        bound_doc="n1..n_{k-1} < bound, n_k < 4*bound+8",
    )
)
register_theorem(
    Theorem(
        id="SM-E5",
        paper="SM",
        statement="under GAMEs(0,1,2), (2,2,2) is a 2-position and (1,3) a 1-position, but "
        "(2,2,2,1,3) is a 0-position: the sum property of two-player games fails",
        game="nim",
        kind="custom",
        instances=None,
        default_bound=0,
        custom_check=check_sm_e5,
        bound_doc="the bound is not used",
    )
)
register_theorem(
    Theorem(
        id="N99-T3.3",
        paper="N99",
        statement="m-player Nim_K under Li's ranking: the player before the mover moves last "
        "iff the binary digit-wise sums mod mK-K+1 are all 0",
        game="moore",
        kind="custom",
        instances=None,
        default_bound=13,
        deep_bound=20,
        custom_check=check_n99_t33,
        params="m = 2..5 players, K = 1..3, 1..4 heaps",
    )
)
