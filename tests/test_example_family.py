"""A game family from outside the catalog, with every facet, found by the registry.

``tests/example_family`` (Take-three Nim) is one package holding its rules, closed form,
constructive strategy, compiled move model, explanation and theorem, and nothing else
names it: it is installed as a plugin (an entry point of ``nimlab.games`` naming the
package), and each facet is checked against exhaustive search here.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from importlib.metadata import EntryPoint

import pytest

import nimlab
from nimlab.catalog import registry
from nimlab.engine.search import Solver
from nimlab.theory import registry as theory

POSITIONS = [p for n in (1, 2, 3) for p in itertools.product(range(9), repeat=n)]


@pytest.fixture
def family(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The example family installed as a plugin for one test, then removed again."""
    import importlib.metadata

    registry.games()  # the catalog first (saved below, kept after the test)
    theory.theorems()
    classes, names = dict(registry._CLASSES), dict(registry._NAMES)
    families = dict(registry._FAMILIES)
    theorems, aliases = dict(theory._THEOREMS), dict(theory._ALIASES)
    done = set(theory._FAMILIES_DONE)
    entry = EntryPoint("example", "example_family", registry.PLUGIN_GROUP)
    with monkeypatch.context() as patch:
        patch.setattr(importlib.metadata, "entry_points", lambda group=None: [entry])
        assert registry.load_plugins() == ["example"]
    yield "take-three"
    for saved, live in (
        (classes, registry._CLASSES),
        (names, registry._NAMES),
        (families, registry._FAMILIES),
        (theorems, theory._THEOREMS),
        (aliases, theory._ALIASES),
    ):
        live.clear()
        live.update(saved)  # type: ignore[attr-defined]
    theory._FAMILIES_DONE.clear()
    theory._FAMILIES_DONE.update(done)


def test_the_registry_finds_the_family_and_its_theorem(family: str) -> None:
    assert "example_family" in [f.__name__ for f in registry.families()]
    g = nimlab.game(family)
    assert nimlab.game("take-three-nim") == g
    assert family in [info.name for info in nimlab.games()]
    t = nimlab.theorem("EX-T1")
    assert (t.game, t.kind) == (family, "grundy")
    assert "EX-T1" in [t.id for t in nimlab.theorems()]


def test_closed_form_agrees_with_search(family: str) -> None:
    g = nimlab.game(family)
    solver = Solver(g)
    for p in POSITIONS:
        assert g.closed_grundy(p) == solver.grundy(p), p
    assert nimlab.answer(g, (5, 6, 7)).method == "closed form"


def test_strategy_gives_exactly_the_winning_moves(family: str) -> None:
    g = nimlab.game(family)
    solver = Solver(g)
    for p in POSITIONS:
        construction = g.strategy(p, False)
        assert construction is not None
        winning = sorted(m for m in g.moves(p) if solver.grundy(m) == 0)
        assert sorted(construction.every()) == winning, p
        assert sorted(nimlab.winning_moves(g, p)) == winning


def test_explanation_cites_the_closed_form(family: str) -> None:
    e = nimlab.explain(family, (5, 6))
    text = e.render_text()
    assert "5 6 → 2 6" in text
    assert "G = (5 mod 4) ⊕ (6 mod 4) = 1 ⊕ 2 = 3 [EX-T1]" in text
    assert "after the move: 2 ⊕ 2 = 0" in text


def test_theorem_verifies_against_search(family: str) -> None:
    result = nimlab.check_theorem("EX-T1", 12, method="search")
    assert result.ok and result.counterexample is None
    # 1, 2 and 3 heaps below 12, one position per multiset
    assert result.positions_checked == 12 + 78 + 364


@pytest.mark.slow
def test_compiled_move_model_tabulates_as_search(family: str) -> None:
    g = nimlab.game(family)
    gen = g.compiled_options()
    assert sorted(gen((2, 4))) == sorted(g.moves((2, 4)))
    compiled = nimlab.table(g, (10, 10), engine="compiled")
    generic = nimlab.table(g, (10, 10), engine="generic")
    assert (compiled == generic).all()
    assert compiled[5, 6] == 3 and compiled[4, 8] == 0
