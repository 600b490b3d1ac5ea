"""Naito's procedure for Nim_K ([N99] §2.1) and the binary tables of the explanations."""

from __future__ import annotations

import pytest

import nimlab
from nimlab import explain, game, winning_move, winning_moves
from nimlab.solvers.search import Solver
from nimlab.solvers.strategy import naito_move


@pytest.mark.parametrize(
    ("heaps", "K", "after"),
    [
        ((7, 6, 5), 1, (3, 6, 5)),  # [N99] Example 1.5 (1), K = 1: M = 4, N_1 becomes 3
        ((3, 4, 5), 2, (3, 3, 3)),  # [N99] Example 2.5 (1): 100, 101 -> 011
        ((3, 4, 5, 9), 2, (1, 4, 5, 5)),  # [N99] Example 2.5 (2): 9 -> 0111, then 01
    ],
)
def test_naito_worked_examples(heaps: tuple[int, ...], K: int, after: tuple[int, ...]) -> None:
    assert naito_move(heaps, K) == after
    g = game("moore", k=K)
    assert winning_move(g, heaps) == after
    every = winning_moves(g, heaps)
    assert every[0] == after  # the procedure's own move comes first
    assert set(every) == set(Solver(g).winning_moves(heaps, False, "search"))


def test_naito_intermediate_step_of_example_2() -> None:
    # [N99] Example 2.5 (2): after the first stage the digit sums are (0, 0, 2, 0)
    e = explain(game("moore", k=2), (3, 4, 5, 9))
    assert e.table is not None
    assert e.table.sums_before == (1, 2, 1, 0)  # NIM_2({3,4,5,9}) = 1 2 1 0
    assert e.table.sums_after == (0, 0, 0, 0)
    assert e.table.highest_digit == 3
    assert e.table.changed == (1, 4)
    assert e.move == "1 4 5 5"
    assert e.theorem == "S19-T5"


def test_nim_k_value_example_2_3() -> None:
    # [N99] Example 2.3: NIM_2({3,4,5}) = (2,1,2)_3
    e = explain(game("moore", k=2), (3, 4, 5))
    assert e.table is not None and e.table.sums_before == (2, 1, 2)
    assert e.move == "3 3 3"


def test_nim_binary_table_example_1_5() -> None:
    # [N99] Example 1.5 (2): NIM({3,4,5}) = 010, N_1 = 3 becomes 1
    e = explain("nim", (3, 4, 5))
    assert e.outcome == "N"
    assert e.table is not None
    assert e.table.sums_before == (0, 1, 0)
    assert e.table.highest_digit == 1
    assert e.table.changed == (1,)
    assert (e.value_before, e.value_after) == ("2", "0")
    text = e.render_text()
    assert "sum mod 2" in text and "S19-T1" in text
    d = e.to_dict()
    assert d["table"]["rows"][0]["binary_after"] == "001"
    assert "<table>" in e._repr_html_()


def test_explain_p_position_and_other_games() -> None:
    e = explain("nim", (1, 2, 3))
    assert e.outcome == "P" and e.move is None
    w = explain("welter", (1, 2, 4))
    assert w.theorem == "S19-T7" and w.value_after == "0"
    assert w.value_before == str(nimlab.grundy("welter", (1, 2, 4)))
    s = explain("single-delete", (8, 12, 14, 46))
    assert s.theorem == "Sh-T6*" and s.method == "closed form"
    assert s.status is not None and "conjectured" in s.status
    assert s.value_before == "N" and s.value_after == "P"
    m = explain(game("moore", k=2), (2, 3, 1), misere=True)
    assert m.theorem == "N99-T2.10" and m.misere
    assert nimlab.outcome(game("moore", k=2), (0, 0, 1), misere=True).value == "P"


def test_explanation_exported() -> None:
    assert "explain" in nimlab.__all__ and "Explanation" in nimlab.__all__
    assert isinstance(explain("nim", (1, 2)), nimlab.Explanation)


def test_cli_moves_winning_explain() -> None:
    import json

    from click.testing import CliRunner

    from nimlab.cli.app import cli

    res = CliRunner().invoke(
        cli, ["moves", "moore", "3", "4", "5", "9", "-p", "k=2", "--winning", "--explain"]
    )
    assert res.exit_code == 0, res.output
    assert res.output.splitlines()[0] == "1 4 5 5"
    assert "sum mod 3  1 2 1 0" in res.output
    assert "Naito's procedure" in res.output
    res = CliRunner().invoke(
        cli, ["moves", "nim", "1", "1", "--winning", "--explain", "--misere", "--json"]
    )
    data = json.loads(res.output)
    assert data["moves"] == [[0, 1], [1, 0]]
    assert data["explanation"]["misere"] is True
    assert data["explanation"]["theorem"] == "N99-T1.11"


def test_cli_too_many_winning_moves_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    from nimlab.cli import main

    assert main(["moves", "delete-nim", "1" + "0" * 80 + "1", "4", "--winning"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "limit" in err


def test_cli_limit() -> None:
    from click.testing import CliRunner

    from nimlab.cli.app import cli

    big = "1" + "0" * 80 + "1"
    res = CliRunner().invoke(cli, ["moves", "delete-nim", big, "4", "--winning", "--limit", "2"])
    assert res.exit_code == 0, res.output
    assert res.output.splitlines() == [f"0 {int(big) - 1}", f"2 {int(big) - 3}"]
