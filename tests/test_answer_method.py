"""Every answer says which method produced it (issue 11: "beyond it says which method it
used"): a closed form with its result id and status, a compiled table, sequence or engine,
or exhaustive search; the command line's --json carries the same."""

from __future__ import annotations

import json

import pytest

import nimlab
from nimlab.cli import main


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    assert main(list(argv)) == 0
    data = json.loads(capsys.readouterr().out)
    assert isinstance(data, dict)
    return data


def test_a_conjectured_criterion_is_named_with_its_status(
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = _json(capsys, "outcome", "single-delete", "8", "12", "14", "47", "--json")
    assert data["outcome"] == "P" and data["method"] == "closed form"
    assert data["theorem"] == "Sh-T6*"
    status = data["status"]
    assert isinstance(status, dict)
    assert status["state"] == "conjectured" and status["verified_below"] == 256
    a = nimlab.answer("single-delete", (8, 12, 14, 47))
    assert (a.method, a.theorem) == ("closed form", "Sh-T6*")
    assert a.status is not None and a.status.startswith("conjectured")


def test_each_method_is_reported(capsys: pytest.CaptureFixture[str]) -> None:
    data = _json(capsys, "grundy", "wythoff", "300", "500", "--json")
    assert (data["grundy"], data["method"]) == (43, "compiled table")
    assert "theorem" not in data  # no result is used for Wythoff's Grundy values
    data = _json(capsys, "grundy", "wythoff", "3", "5", "--method", "search", "--json")
    assert (data["grundy"], data["method"]) == (0, "search")
    data = _json(capsys, "outcome", "nim", "1", "2", "3", "--json")
    assert (data["method"], data["theorem"]) == ("closed form", "S19-T1")
    kayles = nimlab.game("octal", code="0.77")
    a = nimlab.answer(kayles, (3000, 2999), kind="grundy")
    assert a.method == "sum of components" and a.value == nimlab.grundy(kayles, (3000, 2999))
    assert [p.method for p in a.parts] == ["compiled sequence"] * 2
    assert a.how()["parts"][0]["position"] == (3000,)
    # five heaps of Single-delete: no criterion (not all odd); compiled or searched
    a = nimlab.answer("single-delete", (2, 3, 4, 5, 6))
    assert a.method in ("compiled engine", "search") and a.theorem is None


# 4 heaps of Single-delete compile the engine's kernel on an empty cache: 12 s of CPU,
# over the default 60 s of wall on a loaded 2-core machine
@pytest.mark.timeout(300)
@pytest.mark.parametrize(
    ("game", "position"),
    [
        ("nim", (3, 4, 5)),
        ("wythoff", (4, 7)),
        ("single-delete", (2, 6, 12)),
        ("single-delete", (12, 14, 15, 40)),
        ("welter", (1, 2, 4)),
        ("lim", (3, 4, 6)),
    ],
)
def test_answers_agree_with_outcome_and_grundy(game: str, position: tuple[int, ...]) -> None:
    for misere in (False, True):
        a = nimlab.answer(game, position, misere=misere)
        assert a.value == nimlab.outcome(game, position, misere=misere)
        assert a.kind == "outcome" and a.misere is misere
    a = nimlab.answer(game, position, kind="grundy")
    assert a.value == nimlab.grundy(game, position)
    assert a.value == nimlab.grundy(game, position, method="search")


def test_bad_kind_and_misere_grundy_are_refused() -> None:
    with pytest.raises(nimlab.InvalidArgumentError, match="kind must be"):
        nimlab.answer("nim", (1, 2), kind="value")
    with pytest.raises(nimlab.InvalidArgumentError, match="no Grundy values"):
        nimlab.answer("nim", (1, 2), kind="grundy", misere=True)
