"""nimlab.conjecture: closed forms proposed from exhaustive tables, then checked deeper."""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterator
from typing import Any

import pytest

import nimlab
from nimlab.core.errors import InvalidParameterError
from nimlab.core.ruleset import Ruleset

conj_module = importlib.import_module("nimlab.discovery.propose")


@pytest.fixture
def no_closed_forms(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every closed form of every ruleset raises: discovery must work from tables alone."""

    def refuse(*_: Any, **__: Any) -> Any:
        raise AssertionError("discovery consulted a registered closed form")

    for hook in ("closed_grundy", "closed_is_p", "closed_misere_is_p"):
        for cls in {Ruleset, *Ruleset.__subclasses__()} | _all_subclasses(Ruleset):
            if hook in vars(cls):
                monkeypatch.setattr(cls, hook, refuse)


def _all_subclasses(cls: type) -> set[type]:
    out: set[type] = set()
    for sub in cls.__subclasses__():
        out |= {sub} | _all_subclasses(sub)
    return out


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


@pytest.mark.slow
@pytest.mark.timeout(600)
@pytest.mark.parametrize(
    ("game", "kwargs", "registered", "claim"),
    [
        ("delete-nim", {"below": 32}, "S19-T11", "formula"),
        ("single-delete", {"heaps": 2, "below": 24, "kind": "outcome"}, "Sh-T1", "p-set"),
        ("abo-delete", {"heaps": 3, "below": 20, "kind": "outcome"}, "Sh-T2", "p-set"),
        (("ryuo", {"p": 3}), {"below": 30}, "S18-T8", "formula"),
    ],
)
def test_papers_results_rediscovered_from_tables(
    no_closed_forms: None, game: Any, kwargs: dict[str, Any], registered: str, claim: str
) -> None:
    """Each proposal equals the registered result: it is verified by the local check on a
    box larger than the one searched (the registered closed forms are disabled)."""
    g = nimlab.game(game[0], **game[1]) if isinstance(game, tuple) else game
    found = nimlab.conjecture(g, time_budget=120, **kwargs)
    exact = [p for p in found.proposals if p.exceptions == 0 and p.kind == claim]
    assert exact, (registered, found.tried)
    assert exact[0].verified is not None and exact[0].verified["ok"], registered


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


def test_moores_nim_k_is_found_as_digit_sums_modulo_k_plus_1(no_closed_forms: None) -> None:
    """S19-T5: Nim_2 on four heaps, P iff the binary digits add up to 0 mod 3 in every
    column (msum(3, ...) == 0)."""
    found = nimlab.conjecture(
        nimlab.game("moore", k=2), heaps=4, kind="outcome", below=8, verify_bound=10
    )
    assert found.best is not None
    assert found.best.statement == "msum(3, a, b, c, d) == 0"
    assert found.best.verified is not None and found.best.verified["ok"]
