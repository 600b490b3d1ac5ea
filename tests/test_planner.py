"""One planner (issue 20, item 1): only ``nimlab.planner`` chooses how a question is answered,
every answer names the method that really ran, and explanations never contradict it."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

import pytest

import nimlab
from nimlab import planner
from nimlab.core.errors import InvalidParameterError
from nimlab.engine.search import Solver
from nimlab.planner import Budgets, Method, Plan, Question, plan

SRC = Path(nimlab.__file__).parent

# -- (a) nobody but the planner chooses a method ------------------------------------------

#: Thresholds of the old hand-made choices: they live in planner.Budgets only.
THRESHOLDS = {
    "KERNEL_MIN_CELLS",
    "KERNEL_MAX_CELLS",
    "SEQUENCE_MIN_HEAP",
    "REPEAT_CALLS",
    "COMPILED_MIN_CELLS",
    "ENGINE_MIN_POSITIONS",
    "PARALLEL_MIN_POSITIONS",
}

#: Calls that decide (or are the inputs of) a choice of method: a game's closed forms,
#: constructions and kernels, and the "can this engine run" questions of the engines.
DECIDERS = {
    "closed_grundy",
    "closed_is_p",
    "closed_misere_is_p",
    "closed_theorem",
    "strategy",
    "strategy_moves",
    "table_kernel",
    "sequence_kernel",
    "has_kernel",
    "compiled_value",
    "compiled_table",
    "has_compiled_model",
    "supports_fast",
    "supports_compiled",
}

#: (module, call) pairs allowed outside the planner, each with its reason. Anything else is
#: a method chosen behind the planner's back. A module may call a predicate it defines
#: itself (its own guard: ``supports_compiled`` inside ``verification/compiled.py``); the
#: others ask the planner (``planner.check_method``: the tests the modules registered;
#: ``planner.compiled_methods``: the compiled kernels a game declares, to compile ahead or
#: to suggest), and an executor checks that the method a plan chose can run inside the
#: branch that runs it (``if p.method is Method.COMPILED_ENGINE:``).
ALLOWED: dict[tuple[str, str], str] = {
    # none left: a theorem's claim asks the planner for the closed form it checks
    # (planner.closed_value), the search its closed-form step the same way
}


def _modules() -> list[tuple[str, ast.AST]]:
    out = []
    for f in sorted(SRC.rglob("*.py")):
        rel = f.relative_to(SRC).as_posix()
        # the planner decides; rulesets and the core define the hooks (a game's own facets)
        if rel.startswith(("planner/", "catalog/", "core/")):
            continue
        out.append((rel, ast.parse(f.read_text(encoding="utf-8"))))
    return out


def _called(node: ast.Call) -> str | None:
    fn = node.func
    if isinstance(fn, ast.Attribute):
        return fn.attr
    if isinstance(fn, ast.Name):
        return fn.id
    return None


def _runs_a_plan(tree: ast.AST) -> set[int]:
    """The nodes inside the branch of an ``if`` that tests the method a plan chose
    (``p.method is Method.X``, ``==``): they run that method, they do not choose one."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.If) or not isinstance(node.test, ast.Compare):
            continue
        t = node.test
        sides = [t.left, *t.comparators]
        if (
            len(t.ops) == 1
            and isinstance(t.ops[0], (ast.Is, ast.Eq))
            and any(isinstance(x, ast.Attribute) and x.attr == "method" for x in sides)
            and any(
                isinstance(x, ast.Attribute)
                and isinstance(x.value, ast.Name)
                and x.value.id in ("Method", "PlanMethod")
                for x in sides
            )
        ):
            for stmt in node.body:
                out |= {id(n) for n in ast.walk(stmt)}
    return out


def test_only_the_planner_chooses_a_method() -> None:
    offenders = []
    seen = set()
    for rel, tree in _modules():
        own = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
        runs = _runs_a_plan(tree)
        for node in ast.walk(tree):
            if id(node) in runs:
                continue
            if isinstance(node, ast.Name) and node.id in THRESHOLDS:
                offenders.append(f"{rel}:{node.lineno}: threshold {node.id} (use planner.Budgets)")
            elif isinstance(node, ast.Call) and _called(node) in DECIDERS - own:
                key = (rel, _called(node))
                if key in ALLOWED:
                    seen.add(key)
                else:
                    offenders.append(f"{rel}:{node.lineno}: {key[1]}() decides a method")
            elif isinstance(node, ast.Compare) and any(
                isinstance(x, ast.Attribute) and x.attr == "compiled_options"
                for x in [node.left, *node.comparators]
            ):
                offenders.append(f"{rel}:{node.lineno}: compares compiled_options hooks")
    assert not offenders, "\n".join(offenders)
    # the allow-list names no call that is gone (it must not hide new ones later)
    assert set(ALLOWED) == seen, sorted(set(ALLOWED) - seen)


def test_the_audit_catches_a_planted_choice(tmp_path: Path) -> None:
    planted = ast.parse(
        "def f(g, pos):\n"
        "    if g.closed_grundy(pos) is None and type(g).compiled_options is not X:\n"
        "        return KERNEL_MIN_CELLS\n"
    )
    names = {n.id for n in ast.walk(planted) if isinstance(n, ast.Name)}
    calls = {_called(n) for n in ast.walk(planted) if isinstance(n, ast.Call)}
    assert "KERNEL_MIN_CELLS" in names & THRESHOLDS
    assert "closed_grundy" in calls & DECIDERS
    assert ("solvers/explain.py", "closed_grundy") not in ALLOWED
    # the method a plan chose, run in its branch: no choice; the same call elsewhere is one
    run = ast.parse(
        "def f(g, p, pos):\n"
        "    if p.method is Method.COMPILED_ENGINE:\n"
        "        return compiled_value(g, pos)\n"
        "    return compiled_value(g, pos)\n"
    )
    inside = _runs_a_plan(run)
    calls_of = sorted((n for n in ast.walk(run) if isinstance(n, ast.Call)), key=lambda n: n.lineno)
    assert [id(n) in inside for n in calls_of] == [True, False]


# -- the planner's choices ----------------------------------------------------------------


def test_value_plans_follow_the_budgets() -> None:
    wythoff = nimlab.game("wythoff")
    p = plan(wythoff, "grundy", (300, 500))
    assert (p.method, p.fallback) == (Method.COMPILED_TABLE, Method.COMPILED_ENGINE)
    assert plan(wythoff, "grundy", (3, 5)).method is Method.SEARCH
    small = Budgets(kernel_min_cells=10)
    assert plan(wythoff, "grundy", (3, 5), budgets=small).method is Method.COMPILED_TABLE
    # other search budgets keep the search (and its budgets)
    assert plan(wythoff, "grundy", (300, 500), budgets=Budgets(max_moves=10)).method is (
        Method.COMPILED_TABLE
    )
    sd = nimlab.game("single-delete")
    assert plan(sd, "outcome", (2, 3, 4, 5, 6)).method is Method.SEARCH  # 5,040 cells
    assert plan(sd, "outcome", (2, 3, 4, 5, 6), calls=16).method is Method.COMPILED_ENGINE
    assert plan(sd, "outcome", (2, 3, 4, 5, 6), calls=16, budgets=Budgets(max_moves=9)).method is (
        Method.SEARCH
    )
    # a tiny position stays with the search however often it is asked (a compile, seconds,
    # for a search of a few positions)
    assert plan(wythoff, "grundy", (1, 2), calls=10**6).method is Method.SEARCH
    assert (
        plan(wythoff, "grundy", (30, 40), calls=16).method is Method.COMPILED_ENGINE
    )  # 1,271 cells
    assert plan(wythoff, "grundy", (20, 40), calls=16).method is Method.SEARCH  # 861 cells
    a = plan(sd, "outcome", (8, 12, 14, 47))
    assert (a.method, a.theorem, a.value) == (Method.CLOSED_FORM, "Sh-T6*", True)
    assert plan(sd, "outcome", (8, 12, 14, 47), method="search").method is Method.SEARCH
    # a method that cannot run is avoided: the plan moves to the next
    b = plan(wythoff, "grundy", (300, 500), avoid=frozenset({Method.COMPILED_TABLE}))
    assert b.method is Method.COMPILED_ENGINE and b.fallback is Method.SEARCH


def test_small_positions_asked_in_a_loop_are_searched_as_answer_says() -> None:
    # grundy() and answer() count the calls the planner sees: a loop over a tiny position
    # never switches to the compiled engine (it compiled it after 16 calls)
    budgets = planner.DEFAULT_BUDGETS
    for _ in range(budgets.repeat_calls + 2):
        assert nimlab.grundy("wythoff", (1, 2)) == 0
    assert nimlab.answer("wythoff", (1, 2), kind="grundy").method == "search"
    assert plan(nimlab.game("wythoff"), "grundy", (1, 2), calls=budgets.repeat_calls).method is (
        Method.SEARCH
    )


def test_plans_of_moves_tables_and_checks() -> None:
    nim = nimlab.game("nim")
    p = plan(nim, "moves", (3, 4, 5))
    assert p.method is Method.CONSTRUCTION and p.value.one() == (1, 4, 5)
    assert plan(nim, "moves", (3, 4, 5), method="search").method is Method.SCAN
    kayles = nimlab.game("octal", code="0.77")
    assert plan(kayles, "moves", (7,)).method is Method.SCAN
    assert plan(kayles, "sequence").method is Method.COMPILED_SEQUENCE
    assert plan(nimlab.game("wythoff"), "table", shape=(8, 8)).method is Method.COMPILED_TABLE
    t = plan(nimlab.game("abo-delete"), "table", shape=(9, 9, 9, 9))
    assert t.method is Method.SEARCH and t.note is None  # 6,561 cells: no compile
    t = plan(nimlab.game("abo-delete"), "table", shape=(16,) * 4)
    assert (t.method, t.fallback) == (Method.COMPILED_ENGINE, Method.SEARCH)
    t = plan(nimlab.game("single-delete"), "table", shape=(9, 9, 9, 9))
    assert (t.method, t.fallback) == (Method.COMPILED_TABLE, Method.COMPILED_ENGINE)
    with pytest.raises(InvalidParameterError, match="no compiled grundy kernel"):
        plan(kayles, "table", shape=(4, 4), method="kernel")
    with pytest.raises(InvalidParameterError, match="unknown question"):
        plan(nim, "colour", (1,))
    from nimlab.verification.spaces import BoxSpace, ListSpace

    box = BoxSpace(2, 8)
    assert plan(nim, "check", space=box, vectorised=True).method is Method.VECTORISED_CHECK
    assert plan(nim, "check", space=box, compiled=True).method is Method.COMPILED_CHECK
    listed = plan(nim, "check", space=ListSpace.of([(1, 2)], 8, nim), compiled=True)
    assert listed.method is Method.PYTHON_CHECK and listed.note is not None
    one = BoxSpace(1, 50)
    assert plan(kayles, "check", space=one, kind="grundy").method is Method.COMPILED_SEQUENCE


def test_one_heap_outcomes_use_the_compiled_sequence() -> None:
    # a take-and-break game's search explodes with the heap (Kayles at 100 went over the
    # search's budget of moves): its outcome comes from the sequence, as its value does
    kayles = nimlab.game("octal", code="0.77")
    assert plan(kayles, "outcome", (100,)).method is Method.COMPILED_SEQUENCE
    for h in (100, 144):  # G = 1 and G = 4 (period 12 from 71; OEIS A002186)
        a = nimlab.answer(kayles, (h,))
        assert a.method == "compiled sequence"
        assert str(a.value) == ("N" if nimlab.grundy(kayles, (h,)) else "P") == "N"
    assert plan(kayles, "outcome", (7,)).method is Method.SEARCH  # small: no numba


def test_a_plan_off_the_fast_path_says_its_cost() -> None:
    class Slow(nimlab.HeapRuleset):  # type: ignore[misc]
        name = "slow-nim"

        def moves(self, position: tuple[int, ...]) -> Any:
            for i, h in enumerate(position):
                for k in range(h):
                    yield position[:i] + (k,) + position[i + 1 :]

    p = plan(Slow(), "grundy", (40, 40, 40))
    assert p.method is Method.SEARCH and p.note is not None
    assert "compiled move model" in p.note and "68,921 positions" in p.note
    assert plan(Slow(), "grundy", (3, 4)).note is None


def test_answers_report_the_fallback_that_ran(monkeypatch: pytest.MonkeyPatch) -> None:
    # neither the compiled table nor the compiled engine can run: the answer is the
    # search's, and says so (the thresholds are lowered so that the box is small)
    from nimlab.engine import compiled, tables

    def broken(*args: object, **kw: object) -> object:
        raise InvalidParameterError("no kernel today")

    ran: list[str] = []

    def no_engine(*args: object, **kw: object) -> None:
        ran.append("engine")
        return None

    monkeypatch.setattr(planner, "DEFAULT_BUDGETS", Budgets(kernel_min_cells=10))
    monkeypatch.setattr(tables, "table", broken)
    monkeypatch.setattr(compiled, "compiled_value", no_engine)
    assert plan("wythoff", "grundy", (5, 9)).method is Method.COMPILED_TABLE
    a = nimlab.answer("wythoff", (5, 9), kind="grundy")
    assert (a.method, ran) == ("search", ["engine"])
    assert a.value == Solver(nimlab.game("wythoff")).grundy((5, 9), "search")


def test_budgets_are_patched_in_one_place(monkeypatch: pytest.MonkeyPatch) -> None:
    from nimlab.engine import tables

    real = tables.table
    asked: list[object] = []

    def by_search(g: object, shape: object, **kw: Any) -> Any:
        asked.append(kw["engine"])  # the kernel, as planned; computed here by search
        return real(g, shape, kind=kw["kind"], engine="generic")  # type: ignore[arg-type]

    monkeypatch.setattr(tables, "table", by_search)
    monkeypatch.setattr(planner, "DEFAULT_BUDGETS", Budgets(kernel_min_cells=10))
    assert plan("wythoff", "grundy", (3, 5)).method is Method.COMPILED_TABLE
    a = nimlab.answer("wythoff", (3, 5), kind="grundy")
    assert (a.method, a.value, asked) == ("compiled table", 0, ["kernel"])


# -- (b) explanations and answers agree over the whole catalog ----------------------------

#: Parameters for the games that need some, and a small start position for each game.
PARAMS: dict[str, dict[str, str]] = {
    "circular": {"k": "2"},
    "moore": {"k": "2"},
    "nimhoff": {"k": "1"},
    "octal": {"code": "0.77"},
    "tbcode": {"code": "4!.0"},
    "restricted-ryuo": {"p": "3", "q": "4"},
    "rgames": {"g0": "nim", "parts": "allbut:8;allbut:4,8"},
    "ryuo": {"p": "3"},
    "subtraction": {"S": "1,3,4"},
    "allbut": {"S": "4,8"},
}
START: dict[str, str] = {
    "abo-delete": "3 4 5",
    "allbut": "11",
    "circular": "3 4 5",
    "delete-nim": "3 4",
    "emperor": "3",
    "lim": "3 4 6",
    "moore": "3 4 5",
    "nim": "3 4 5",
    "nimhoff": "3 4",
    "octal": "7",
    "tbcode": "9",
    "restricted-ryuo": "3 5",
    "rgames": "3 5",
    "ryuo": "3 5",
    "single-delete": "2 6 12",
    "subtraction": "10",
    "turning-turtles": "1,1 1,3",
    "welter": "1 2 4",
    "wythoff": "3 7",
}

#: An internal identifier: a class's attribute (``Wythoff.strategy_moves``), a hook's name,
#: or the repr of a Python object.
INTERNAL = re.compile(
    r"\b[A-Z][A-Za-z0-9]*\.[a-z_][A-Za-z0-9_]*"
    r"|\b(?:strategy_moves|closed_grundy|closed_is_p|closed_misere_is_p|compiled_options"
    r"|table_kernel|sequence_kernel|explain_notes)\b|<[a-z]+ [^>]*>|0x[0-9a-f]{6,}"
)


def _catalog() -> list[Any]:
    """The catalog's games (other tests register games of their own in the process)."""
    return [G for G in nimlab.games() if (G.cls.__module__ or "").startswith("nimlab.catalog.")]


def _samples() -> list[tuple[str, Any, Any]]:
    """(name, game, position) for an N-position and a P-position of every catalog game."""
    out = []
    for G in _catalog():
        g = nimlab.game(G.name, **PARAMS.get(G.name, {}))
        pos = g.parse_position(START[G.name].split())
        if nimlab.outcome(g, pos).value == "P":
            p_pos, n_pos = pos, next(iter(g.moves(pos)))
        else:
            n_pos, p_pos = pos, nimlab.winning_move(g, pos)
        out += [(G.name, g, n_pos), (G.name, g, p_pos)]
    return out


def test_the_samples_cover_the_catalog() -> None:
    assert {G.name for G in _catalog()} == set(START)
    outcomes = {(name, str(nimlab.outcome(g, pos))) for name, g, pos in _samples()}
    assert {o for _, o in outcomes} == {"P", "N"}
    assert len(outcomes) == 2 * len(START)


@pytest.mark.parametrize("misere", [False, True], ids=["normal", "misere"])
def test_explanations_name_the_method_that_answered(misere: bool) -> None:
    from nimlab.solvers.explain import method_phrase

    for name, g, pos in _samples():
        e = nimlab.explain(g, pos, misere=misere)
        a = nimlab.answer(g, pos, misere=misere)
        where = f"{name} {g.format_position(pos)} misere={misere}"
        assert e.method == a.method, where
        assert e.outcome == str(a.value), where
        text = e.render_text() + "\n" + json.dumps(e.to_dict(), ensure_ascii=False)
        assert not INTERNAL.search(text), (where, INTERNAL.search(text))
        if a.method == "closed form":
            assert "no closed form applies" not in text, where
            assert e.theorem is not None, where
        else:
            assert f"the outcome comes from {method_phrase(a.method)}" in text or (
                a.method == "construction" and "(a construction)" in text
            ), (where, text)
            assert "scored by the closed form" not in text, where
        _check_move_procedure(g, pos, misere, e, where)


def _check_move_procedure(g: Any, pos: Any, misere: bool, e: Any, where: str) -> None:
    """The winning move's procedure names how it was found: the construction the planner
    chose, else the scan and the method that scored the move (as the scan reports it)."""
    from nimlab.solvers.strategy import scanned_move

    if e.move is None:
        assert e.procedure is None, where
        return
    moves = plan(g, "moves", pos, misere=misere)
    assert e.procedure, where
    if moves.method is Method.CONSTRUCTION:
        assert e.procedure == moves.value.procedure, where
        return
    assert moves.method is Method.SCAN, where
    _, how = scanned_move(g, pos, misere, e.raw_move)
    assert e.procedure.startswith("a scan of the moves"), (where, e.procedure)
    if how is Method.SEARCH:
        assert "compiled" not in e.procedure, (where, e.procedure)
    else:
        assert str(how) in e.procedure, (where, e.procedure)


@pytest.mark.slow  # kernels loaded and winning moves scanned: a few seconds
@pytest.mark.parametrize(
    ("game", "params", "position", "misere", "method"),
    [
        ("delete-nim", {}, (150, 151), True, "compiled table"),
        ("restricted-ryuo", {"p": "3", "q": "4"}, (150, 151), True, "compiled table"),
        ("single-delete", {}, (20, 30, 41), True, "compiled engine"),
        ("octal", {"code": "0.77"}, (2, 100), False, "sum of components"),
    ],
)
def test_compiled_answers_are_explained_by_their_method(
    game: str, params: dict[str, str], position: tuple[int, ...], misere: bool, method: str
) -> None:
    """Positions off the closed forms, answered by compiled methods or by parts: the
    explanation names the method that answered, and its outcome is the answer's."""
    from nimlab.solvers.explain import method_phrase

    g = nimlab.game(game, **params)
    a = nimlab.answer(g, position, misere=misere)
    e = nimlab.explain(g, position, misere=misere)
    assert (a.method, e.method, e.outcome) == (method, method, str(a.value))
    text = e.render_text()
    assert f"the outcome comes from {method_phrase(method)}" in text, text
    assert not INTERNAL.search(text), INTERNAL.search(text)
    _check_move_procedure(g, position, misere, e, game)


@pytest.mark.parametrize(
    ("game", "params", "position"),
    [
        ("octal", {"code": "0.77"}, (7,)),
        ("subtraction", {"S": "1,3,4"}, (9,)),
        ("circular", {"k": "2"}, (1, 2, 4)),
    ],
)
def test_the_issue_s_contradictions_are_gone(
    game: str, params: dict[str, str], position: tuple[int, ...]
) -> None:
    g = nimlab.game(game, **params)
    for pos in [position, *g.moves(position)]:
        text = nimlab.explain(g, pos).render_text()
        assert not ("by the closed form" in text and "no closed form applies" in text), text


def test_a_plan_is_light() -> None:
    p = Plan(Question.GRUNDY, Method.SEARCH)
    assert str(p.method) == "search" and p.note is None and p.fallback is None
