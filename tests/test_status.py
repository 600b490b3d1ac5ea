"""Result statuses (proved / refuted / conjectured) and the answers they allow.

[Sh] Theorem 6 is false as printed: no public function may answer from it, and the
corrected criterion Sh-T6* is used only inside the bound to which it was verified.
"""

from __future__ import annotations

import itertools
import json
import random

import pytest

import nimlab
from nimlab import (
    binary_view,
    explain,
    game,
    outcome,
    theorem,
    theorems,
    winning_move,
    winning_moves,
)
from nimlab.catalog.delete.strategy import sd4_is_p, single_delete4_move
from nimlab.cli import main
from nimlab.core.errors import NoClosedFormError, SearchTooLargeError
from nimlab.core.status import STATUSES
from nimlab.formulas.delete import SH_T6_STAR_VERIFIED_BELOW, single_delete4_is_p
from nimlab.solvers.search import Solver
from nimlab.theory.sh import _sh_t6_printed

SD = game("single-delete")
BOUND = 22  # every sorted 4-heap position with heaps < BOUND is compared with search


@pytest.fixture(scope="module")
def truth() -> dict[tuple[int, ...], bool]:
    s = Solver(SD)
    out = {}
    for pos in itertools.combinations_with_replacement(range(1, BOUND), 4):
        out[pos] = s.is_p(pos, method="search")
    for pos in ((12, 14, 15, 40), (8, 12, 14, 47)):
        out[pos] = s.is_p(pos, method="search")
    return out


def test_every_status_names_a_registered_result() -> None:
    ids = {t.id for t in theorems()}
    assert set(STATUSES) <= ids
    for tid, st in STATUSES.items():
        assert st.state in ("refuted", "conjectured"), tid
        if st.replaced_by is not None:
            assert st.replaced_by in ids
    assert {t.status.state for t in theorems()} == {"proved", "refuted", "conjectured"}
    assert theorem("S19-T1").status.state == "proved"


def test_sh_t6_is_refuted_with_its_smallest_counterexample() -> None:
    st = theorem("Sh-T6").status
    assert st.state == "refuted" and st.counterexample == (12, 14, 15, 40)
    assert st.replaced_by == "Sh-T6*"
    assert [b for b, _ in st.disagreements] == sorted(b for b, _ in st.disagreements)
    star = theorem("Sh-T6*").status
    assert star.state == "conjectured" and star.verified_below == SH_T6_STAR_VERIFIED_BELOW
    assert star.verified_below >= 256 and (star.verified_positions or 0) > 10**8


def test_the_counterexamples_are_p_and_nothing_calls_them_n(
    truth: dict[tuple[int, ...], bool],
) -> None:
    for pos in ((12, 14, 15, 40), (8, 12, 14, 47)):
        assert truth[pos] is True  # exhaustive search
        assert _sh_t6_printed(*pos) is False  # the printed theorem is wrong here
        assert single_delete4_is_p(*pos) and sd4_is_p(pos)
        assert outcome(SD, pos).value == "P"
        assert outcome(SD, pos, method="formula").value == "P"
        assert SD.closed_is_p(pos) is True
        assert winning_moves(SD, pos) == [] and winning_move(SD, pos) is None
        assert explain(SD, pos).outcome == "P"
        assert binary_view(SD, pos).is_p is True
    assert main(["outcome", "single-delete", "8", "12", "14", "47"]) == 0


def test_no_public_function_calls_a_p_position_n(truth: dict[tuple[int, ...], bool]) -> None:
    ps = [p for p, v in truth.items() if v and max(p) < BOUND]
    assert len(ps) > 100
    for pos in ps:
        assert outcome(SD, pos).value == "P", pos
        assert SD.closed_is_p(pos) is True, pos
        assert sd4_is_p(pos) and single_delete4_is_p(*pos), pos
        assert winning_move(SD, pos) is None, pos
    rng = random.Random(6)
    for pos in rng.sample(ps, 40):
        assert winning_moves(SD, pos) == [], pos
        assert explain(SD, pos).outcome == "P", pos
        assert binary_view(SD, pos).is_p is True, pos
        assert nimlab.outcome(SD, tuple(reversed(pos))).value == "P", pos


def test_n_positions_get_a_real_winning_move(truth: dict[tuple[int, ...], bool]) -> None:
    ns = [p for p, v in truth.items() if not v and max(p) < BOUND]
    rng = random.Random(7)
    for pos in rng.sample(ns, 150):
        assert outcome(SD, pos).value == "N"
        mv = single_delete4_move(pos)
        assert mv is not None and SD.canonical(mv) in truth and truth[SD.canonical(mv)], pos
        assert all(truth[SD.canonical(m)] for m in winning_moves(SD, pos)), pos


def test_the_two_implementations_of_the_criterion_agree(
    truth: dict[tuple[int, ...], bool],
) -> None:
    for pos, v in truth.items():
        assert single_delete4_is_p(*pos) == sd4_is_p(pos) == v, pos
    rng = random.Random(11)
    for _ in range(20_000):  # far beyond the search range: the two codings still agree
        top = rng.choice([8, 12, 16, 24, 40])
        pos = tuple(rng.randrange(1, 1 << top) for _ in range(4))
        assert single_delete4_is_p(*pos) == sd4_is_p(pos), pos
    # and on positions built to reach case (5) (four valuations a < b < c < d)
    for _ in range(20_000):
        vals = sorted(rng.sample(range(0, 12), 4))
        pos = tuple(((rng.randrange(0, 1 << 8) << 1) | 1) << v for v in vals)
        assert single_delete4_is_p(*pos) == sd4_is_p(pos), pos


def test_beyond_the_verified_bound_no_criterion_is_used() -> None:
    big = (12, 14, 15, 40 + 256)
    assert SD.closed_is_p(big) is None and SD.closed_theorem(big) is None
    with pytest.raises(NoClosedFormError):
        outcome(SD, big, method="formula")
    with pytest.raises(SearchTooLargeError):
        outcome(SD, big, max_moves=20_000)
    with pytest.raises(ValueError):
        single_delete4_move(big)
    assert binary_view(SD, big).is_p is None
    assert "refuted" in binary_view(SD, big).conclusion
    # all heaps odd is Sh-P7, proved for every size
    assert (
        SD.closed_theorem((1, 3, 5, 1001)) == "Sh-P7" and outcome(SD, (1, 3, 5, 1001)).value == "P"
    )


def test_explanations_cite_the_status_they_use(capsys: pytest.CaptureFixture[str]) -> None:
    e = explain(SD, (8, 12, 14, 46))
    assert e.theorem == "Sh-T6*" and e.method == "closed form"
    assert (
        e.status is not None
        and "conjectured" in e.status
        and str(SH_T6_STAR_VERIFIED_BELOW) in e.status
    )
    assert "status: Sh-T6* is conjectured" in e.render_text()
    assert explain("nim", (3, 4, 5)).status == "S19-T1 is proved: published proof"
    five = explain(SD, (2, 4, 6, 8, 10))
    # no criterion for five heaps not all odd: the explanation names the method that
    # decided the outcome, as nimlab.answer reports it
    assert five.method == nimlab.answer(SD, (2, 4, 6, 8, 10)).method
    assert five.method in ("search", "compiled engine") and five.theorem is None
    assert five.theorem is None
    assert (
        main(["moves", "single-delete", "8", "12", "14", "46", "--winning", "--explain", "--json"])
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert "conjectured" in json.dumps(data)


def test_theorems_command_shows_statuses(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["theorems", "--json"]) == 0
    data = {t["id"]: t for t in json.loads(capsys.readouterr().out)}
    assert data["Sh-T6"]["status"]["state"] == "refuted"
    assert data["Sh-T6"]["status"]["counterexample"] == [12, 14, 15, 40]
    assert data["Sh-T6*"]["status"]["state"] == "conjectured"
    assert data["S19-T1"]["status"]["state"] == "proved"
    assert main(["theorems"]) == 0
    out = capsys.readouterr().out
    assert "refuted" in out and "conjectured" in out
