"""The space protocol is open: a game brings a verification space of a kind the verifier
does not know (``tests/even_total_game.py``: heaps of even total, ordered by total, with
its own count, store identity and vectorised check), and ``nimlab.verify`` and the CLI
check claims on it: serially, on two pool workers, resumed from the store, on the
space's own walk and in Python. Counts are compared with brute-force enumeration, values
and first counterexamples with exhaustive search.
"""

from __future__ import annotations

import functools
import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from even_total_game import RUNS, EvenTotalNim, EvenTotalSpace

import nimlab
from nimlab.cli import main
from nimlab.engine.search import Solver
from nimlab.verification import Store
from nimlab.verification.spaces import own_walk, space_key, space_size

#: The Grundy value of Even-total Nim (found and checked here by exhaustive search).
TRUE = "(a//2)^(b//2)^(c//2)^((a%2+b%2+c%2)//2)"
#: The same reduced mod 4: false from the first position whose value is 4 or more.
WRONG = f"({TRUE}) % 4"
BOUND = 14


def _brute(bound: int, n: int) -> list[tuple[int, ...]]:
    """Every tuple of the box with an even total, by total then lexicographically."""
    box = [p for p in itertools.product(range(bound), repeat=n) if sum(p) % 2 == 0]
    return sorted(box, key=lambda p: (sum(p), p))


def _value(p: tuple[int, ...]) -> int:
    a, b, c = p
    return (a // 2) ^ (b // 2) ^ (c // 2) ^ ((a % 2 + b % 2 + c % 2) // 2)


@functools.cache
def _searched() -> dict[tuple[int, ...], int]:
    """Exhaustive search's value of every position of the space at BOUND."""
    solver = Solver(EvenTotalNim())
    return {p: solver.grundy(p) for p in _brute(BOUND, 3)}


def _first_wrong(bound: int) -> tuple[tuple[int, ...], int]:
    """The first position (in the space's order) where WRONG differs from search, and
    how many positions come up to it."""
    searched = _searched()
    for k, p in enumerate(_brute(bound, 3), 1):
        if _value(p) % 4 != searched[p]:  # WRONG's value there
            return p, k
    raise AssertionError("WRONG holds everywhere")


@pytest.mark.parametrize(("n", "bound"), [(1, 7), (2, 9), (3, 8), (4, 5)])
def test_the_space_enumerates_and_counts_as_brute_force(n: int, bound: int) -> None:
    sp = EvenTotalSpace(n, bound)
    got = [p for i in range(sp.n_chunks) for p in sp.chunk(i)]
    assert got == _brute(bound, n)
    assert space_size(sp) == sp.size == len(got)
    assert space_key(sp) == f"even-total/{n}/{bound}"  # its identity, not its repr
    assert own_walk(sp) is not None
    g = EvenTotalNim()
    for p in got:  # move-closed, options before positions
        assert sp.contains(p)
        assert all(sp.contains(q) and sum(q) < sum(p) for q in g.moves(p))


def test_a_true_claim_passes_on_the_game_s_space() -> None:
    g = EvenTotalNim()
    positions = _brute(BOUND, 3)
    assert all(_searched()[p] == _value(p) for p in positions)  # true, by search
    before = RUNS["own"]
    r = nimlab.verify(g, TRUE, bound=BOUND, heaps=3, workers=1)
    assert r.ok and r.positions_checked == len(positions) == 1372
    assert r.method == "compiled" and RUNS["own"] > before  # the space's own walk ran
    assert r.space == "3 heaps < 14 of even total, by total"


@pytest.mark.parametrize("compiled", [True, False])
def test_a_wrong_claim_fails_where_search_says(compiled: bool) -> None:
    pos, k = _first_wrong(BOUND)
    assert sum(pos) > 0 and k > 50  # not the first position: a real walk up to it
    r = nimlab.verify(EvenTotalNim(), WRONG, bound=BOUND, heaps=3, workers=1, compiled=compiled)
    assert not r.ok and r.method == ("compiled" if compiled else "python")
    cx = r.counterexample
    assert cx.position == pos and cx.actual == _searched()[pos] != cx.claimed
    assert r.positions_checked == k


def test_resume_from_the_store_on_two_pool_workers(tmp_path: Path) -> None:
    g = EvenTotalNim()
    db = tmp_path / "r.sqlite"
    r1 = nimlab.verify(g, TRUE, bound=BOUND, heaps=3, workers=1, store=db)
    assert r1.ok and r1.positions_checked == 1372 and r1.chunks == 20
    # interrupted midway: the chunks from 10 on are undone
    st = Store(db)
    st.conn.execute("DELETE FROM chunks WHERE run_id = ? AND idx >= 10", (r1.run_id,))
    st.conn.execute("UPDATE runs SET status = 'interrupted' WHERE id = ?", (r1.run_id,))
    st.close()
    warm = RUNS["warm"]
    r2 = nimlab.verify(g, TRUE, bound=BOUND, heaps=3, workers=2, store=db, resume=True)
    assert RUNS["warm"] == warm + 1  # the claim tabulated once, before the workers fork
    assert (r2.run_id, r2.chunks_resumed, r2.ok) == (r1.run_id, 10, True)
    assert r2.positions_checked == 1372 and (r2.backend, r2.workers) == ("processes", 2)


def test_two_pool_workers_find_the_first_counterexample(tmp_path: Path) -> None:
    pos, k = _first_wrong(BOUND)
    db = tmp_path / "r.sqlite"
    bad = nimlab.verify(EvenTotalNim(), WRONG, bound=BOUND, heaps=3, workers=2, store=db)
    assert not bad.ok and bad.counterexample.position == pos and bad.positions_checked == k


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, Any]:
    code = main(list(args))
    out, _err = capsys.readouterr()
    return code, json.loads(out)


def test_the_cli_verifies_on_the_game_s_space(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NIMLAB_STORE", str(tmp_path / "s.sqlite"))
    monkeypatch.delenv("NIMLAB_VERIFY_CHUNK_SLEEP", raising=False)
    game = f"{Path(__file__).with_name('even_total_game.py')}:even-total-nim"
    common = ["--game", game, "--bound", str(BOUND), "--heaps", "3", "--json"]
    code, out = _cli(capsys, "verify", *common, "--formula", TRUE, "--workers", "2")
    assert code == 0 and out["result"] == "verified" and out["positions_checked"] == 1372
    assert (out["method"], out["backend"], out["workers"]) == ("compiled", "processes", 2)
    pos, k = _first_wrong(BOUND)
    code, out = _cli(capsys, "verify", *common, "--formula", WRONG, "--workers", "1")
    assert code == 1 and out["result"] != "verified" and out["positions_checked"] == k
    assert tuple(out["counterexample"]["position"]) == pos


def _wrong(game: Any, p: tuple[int, ...]) -> int:
    return _value(p) % 4


def _true(game: Any, p: tuple[int, ...]) -> int:
    return _value(p)


def test_a_theorem_instance_names_a_space_of_the_new_kind() -> None:
    from nimlab.theory.registry import Instance, Theorem, check_theorem

    def theorem(claim: Any) -> Theorem:
        return Theorem(
            id="EXS-T1",
            paper="EXS",
            statement="even-total Nim: G = XOR of the halves, 1 more when two heaps are odd",
            game="even-total-nim",
            kind="grundy",
            instances=lambda b: [Instance(EvenTotalNim(), space=EvenTotalSpace(3, b))],
            default_bound=BOUND,
            claim=claim,
        )

    before = RUNS["own"]
    r = check_theorem(theorem(_true), BOUND)
    assert r.ok and r.positions_checked == 1372 and "compiled" in r.method
    assert RUNS["own"] > before
    bad = check_theorem(theorem(_wrong), BOUND)
    searched = check_theorem(theorem(_wrong), BOUND, method="search")
    pos, k = _first_wrong(BOUND)
    assert not bad.ok and bad.counterexample.position == searched.counterexample.position == pos
    assert bad.positions_checked == k


def test_a_hook_that_gives_no_space_is_a_game_definition_error() -> None:
    class Broken(EvenTotalNim):
        def verification_space(self, bound: int, heaps: Any, chunk_size: Any) -> Any:
            return [(0, 0, 0)]  # positions, not a space

    with pytest.raises(nimlab.GameDefinitionError, match="not a space"):
        nimlab.verify(Broken(), TRUE, bound=BOUND, heaps=3, workers=1)
