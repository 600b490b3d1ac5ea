"""nimlab.conjecture: closed forms proposed from exhaustive tables, then checked deeper."""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterator
from typing import Any

import pytest
from discovery_cases import disable_closed_forms

import nimlab
from nimlab.core.errors import InvalidParameterError

conj_module = importlib.import_module("nimlab.discovery.propose")


@pytest.fixture
def no_closed_forms(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every closed form of every ruleset raises: discovery must work from tables alone."""
    disable_closed_forms(monkeypatch)


def test_nim_is_the_xor_and_is_checked_deeper(no_closed_forms: None) -> None:
    found = nimlab.conjecture("nim", heaps=2, below=12, verify_bound=20)
    best = found.best
    assert best is not None and best.statement == "a ^ b" and best.kind == "formula"
    assert best.exceptions == 0 and best.tested == 144
    assert best.verified is not None and best.verified["ok"] and best.verified["positions"] == 400


def test_single_delete_three_heaps_is_sh_t3(no_closed_forms: None) -> None:
    found = nimlab.conjecture("single-delete", heaps=3, below=10, kind="outcome")
    assert found.best is not None
    assert found.best.statement == "v2(a) == v2(b) == v2(c)"
    assert found.best.kind == "p-set" and found.best.verified is not None
    # the proposal is the registered [Sh] Theorem 3, checked by the verifier to a larger bound
    res = nimlab.verify("single-delete", p_set=found.best.statement, heaps=3, bound=24, workers=1)
    assert res.ok


def test_wythoff_pairs_are_recognised_as_a_beatty_sequence(no_closed_forms: None) -> None:
    found = nimlab.conjecture("wythoff", below=40, kind="outcome", verify_bound=60)
    beatty = [p for p in found.proposals if "Beatty" in p.found_by]
    assert beatty, found.tried
    assert "isqrt(5 *" in beatty[0].statement and "sqrt(5))/2" in beatty[0].found_by
    assert beatty[0].verified is not None and beatty[0].verified["ok"]


@pytest.mark.slow
def test_a_textbook_game_nim_on_halved_heaps() -> None:
    """A game in no paper: take an even number of stones from one heap. G = XOR of the
    halves, found as a formula and never from a closed form (the game has none)."""

    @nimlab.heap_game(name="even-takes-discovery", heaps=2)
    def even_takes(h: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        for i, x in enumerate(h):
            for t in range(2, x + 1, 2):
                yield h[:i] + (x - t,) + h[i + 1 :]

    found = nimlab.conjecture(even_takes, below=16, verify_bound=24)
    assert found.best is not None
    values = {
        (a, b): nimlab.grundy(even_takes, (a, b), method="search")
        for a in range(9)
        for b in range(9)
    }
    from nimlab.verification.expr import parse_expression

    f = parse_expression(found.best.statement, 2).function()
    assert all(f(p) == v for p, v in values.items())
    assert found.best.verified is not None and found.best.verified["ok"]


def test_a_statement_refuted_further_out_is_never_proposed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A P-set that fits the table but fails beyond it is reported with its counterexample,
    among the refuted statements, not among the proposals."""
    real = conj_module._p_sets

    def planted(data: Any, deadline: float, max_size: int) -> Iterator[conj_module.Proposal]:
        yield conj_module.Proposal(
            "a == b and a < 8", "p-set", "planted", 1, data.region, data.p.size
        )
        yield from real(data, deadline, max_size)

    monkeypatch.setattr(conj_module, "_p_sets", planted)
    found = nimlab.conjecture(
        "nim", heaps=2, below=8, kind="outcome", verify_bound=12, verify_best=3
    )
    assert all(p.statement != "a == b and a < 8" for p in found.proposals)
    (bad,) = [p for p in found.refuted if p.statement == "a == b and a < 8"]
    assert bad.verified is not None and not bad.verified["ok"]
    assert "8" in str(bad.verified["counterexample"])


def test_nothing_found_says_what_was_tried() -> None:
    found = nimlab.conjecture(
        "wythoff", below=12, kind="grundy", time_budget=5, max_size=3, verify_bound=0
    )
    assert not any(p.kind == "formula" and p.exceptions == 0 for p in found.proposals)
    assert any("formulas up to size 3" in t for t in found.tried)


@pytest.mark.parametrize(
    ("kwargs", "text"),
    [
        ({"kind": "sideways"}, "kind must be one of"),
        ({"heaps": 0}, "heaps must be 1 to 4"),
        ({"below": 1}, "below must be an integer >= 2"),
        ({"below": 5000, "heaps": 2}, "more than the 4,000,000"),
        ({"time_budget": -1}, "time_budget must be a positive number"),
    ],
)
def test_bad_arguments_are_precise_errors(kwargs: dict[str, Any], text: str) -> None:
    with pytest.raises(InvalidParameterError, match=text):
        nimlab.conjecture("nim", **{"heaps": 2, **kwargs})


def test_the_number_of_heaps_is_required_when_the_game_does_not_fix_it() -> None:
    with pytest.raises(InvalidParameterError, match="give heaps=N"):
        nimlab.conjecture("nim")


def test_cli_json_and_bad_input() -> None:
    from click.testing import CliRunner

    from nimlab.cli import main
    from nimlab.cli.app import cli

    res = CliRunner().invoke(
        cli, ["conjecture", "nim", "--heaps", "2", "--below", "8", "--verify-bound", "12", "--json"]
    )
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["proposals"][0]["statement"] == "a ^ b"
    assert data["proposals"][0]["kind"] == "formula"
    assert data["proposals"][0]["verified"]["ok"] is True
    assert main(["conjecture", "nim", "--heaps", "9"]) == 2
    assert main(["conjecture", "nim"]) == 2


def test_checked_proposals_are_recorded_in_the_store(tmp_path: Any) -> None:
    """The deeper check of each proposal is a run of the results store, as a conjecture,
    with its statement, bound and number of positions."""
    path = tmp_path / "results.sqlite"
    found = nimlab.conjecture("nim", heaps=2, below=8, verify_bound=12, store=str(path))
    assert found.best is not None and found.best.verified is not None
    recorded = nimlab.runs(str(path))
    assert recorded, "no run recorded"
    texts = [str(r) for r in recorded]
    assert any("a ^ b" in t for t in texts), texts
    assert found.best.verified["run_id"] is not None


@pytest.mark.slow
def test_moores_nim_k_is_found_as_digit_sums_modulo_k_plus_1(no_closed_forms: None) -> None:
    """S19-T5: Nim_2 on four heaps, P iff the binary digits add up to 0 mod 3 in every
    column (msum(3, ...) == 0)."""
    found = nimlab.conjecture(
        nimlab.game("moore", k=2), heaps=4, kind="outcome", below=8, verify_bound=10
    )
    assert found.best is not None
    assert found.best.statement == "msum(3, a, b, c, d) == 0"
    assert found.best.verified is not None and found.best.verified["ok"]


@pytest.mark.slow
def test_a_sum_of_two_subtraction_games_is_found_as_the_xor_of_their_periods() -> None:
    """A game in no paper: subtraction {1, 2, 3} on the first heap, subtraction {1, 2} on
    the second. Textbook: G = (a mod 4) XOR (b mod 3), each part a period."""

    @nimlab.heap_game(name="two-subtractions-discovery", heaps=2, order_free=False)
    def two_subtractions(h: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        for s in (1, 2, 3):
            if s <= h[0]:
                yield (h[0] - s, h[1])
        for s in (1, 2):
            if s <= h[1]:
                yield (h[0], h[1] - s)

    found = nimlab.conjecture(two_subtractions, below=24, verify_bound=40)
    best = found.best
    assert best is not None and best.kind == "formula" and best.exceptions == 0
    from nimlab.verification.expr import parse_expression

    f = parse_expression(best.statement, 2).function()
    assert all(f((a, b)) == (a % 4) ^ (b % 3) for a in range(60) for b in range(60))
    assert best.verified is not None and best.verified["ok"]
    assert best.verified["method"] == "compiled"


@pytest.mark.slow
def test_misere_nim_is_a_case_split_of_the_xor() -> None:
    """[N99] Theorem 1.11 from misère tables: XOR == 0 except where every heap is at most
    1, where the XOR is 1; checked deeper on the compiled path."""
    found = nimlab.conjecture("nim", heaps=2, kind="misere", below=12, verify_bound=24)
    best = found.best
    assert best is not None and best.kind == "p-set" and "case split" in best.found_by
    assert best.statement == (
        "(max(a, b) <= 1 and (a ^ b) == 1) or (not (max(a, b) <= 1) and (a ^ b) == 0)"
    )
    assert best.verified is not None and best.verified["ok"]
    assert best.verified["method"] == "compiled"
    res = nimlab.verify("nim", p_set=best.statement, heaps=3, bound=10, misere=True, workers=1)
    assert not res.ok  # the two-heap statement is not misère Nim of three heaps


@pytest.mark.slow
def test_a_sum_with_an_irregular_period_is_written_as_a_packed_lookup() -> None:
    """Subtraction {1, 3, 4} (period 7: 0 1 0 1 2 3 2, no short formula) on the first heap
    plus subtraction {1, 2} on the second: G is the XOR of the first heap's period, packed
    in one integer, and b % 3; checked deeper on the compiled path."""

    @nimlab.heap_game(name="sub134-and-12-discovery", heaps=2, order_free=False)
    def two_subtractions(h: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        for s in (1, 3, 4):
            if s <= h[0]:
                yield (h[0] - s, h[1])
        for s in (1, 2):
            if s <= h[1]:
                yield (h[0], h[1] - s)

    found = nimlab.conjecture(two_subtractions, below=32, verify_bound=48)
    best = found.best
    assert best is not None and best.exceptions == 0 and "sum of one-heap" in best.found_by
    from nimlab.verification.expr import parse_expression

    period = [0, 1, 0, 1, 2, 3, 2]
    f = parse_expression(best.statement, 2).function()
    assert all(f((a, b)) == period[a % 7] ^ (b % 3) for a in range(100) for b in range(20))
    assert best.verified is not None and best.verified["ok"]
    assert best.verified["method"] == "compiled"


def test_cli_kind_misere_proposes_misere_nim() -> None:
    """``--kind misere``: misère Nim of two heaps from its misère table (the case split)."""
    from click.testing import CliRunner

    from nimlab.cli.app import cli

    args = ["conjecture", "nim", "--heaps", "2", "--kind", "misere", "--below", "8"]
    res = CliRunner().invoke(cli, [*args, "--verify-bound", "0", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["kind"] == "misere"
    best = data["proposals"][0]
    assert best["kind"] == "p-set" and best["exceptions"] == 0
    assert best["statement"].startswith("(max(a, b) <= 1 and (a ^ b) == 1)")
    # the statement is misère Nim: the verifier agrees further out
    assert nimlab.verify("nim", p_set=best["statement"], heaps=2, bound=40, misere=True).ok
