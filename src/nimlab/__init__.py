"""nimlab: impartial combinatorial games of the Nim family.

Rulesets with validated positions and exact move generation, exact solvers (Grundy
values, normal and misère outcomes, winning moves), the closed forms of the papers,
and tools to verify, explore and play.

The public API is imported lazily: ``import nimlab`` is cheap, and heavy dependencies
(numba, Dask, matplotlib) load only when a function that needs them is called.

Examples
--------
>>> import nimlab
>>> nimlab.grundy("nim", (3, 4, 5))
2
>>> nimlab.outcome("wythoff", (3, 5))
<Outcome.P: 'P'>
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from nimlab._lazy import lazy_attributes

__version__ = "0.1.0"

# public name -> module that defines it (imported on first access)
_LAZY: dict[str, str] = {
    # core
    "Ruleset": "nimlab.core",
    "HeapRuleset": "nimlab.core",
    "SumRuleset": "nimlab.core",
    "Param": "nimlab.core",
    "Outcome": "nimlab.core",
    "NimlabError": "nimlab.core",
    "InvalidPositionError": "nimlab.core",
    "InvalidParameterError": "nimlab.core",
    "UnknownGameError": "nimlab.core",
    "UnknownTheoremError": "nimlab.core",
    "NoClosedFormError": "nimlab.core",
    "SearchTooLargeError": "nimlab.core",
    "MoveSetTooLargeError": "nimlab.core.errors",
    "ChunkStoreError": "nimlab.core.errors",
    "ClusterError": "nimlab.core.errors",
    "GameDefinitionError": "nimlab.core.errors",
    "InvalidArgumentError": "nimlab.core.errors",
    "OutputPathError": "nimlab.core.errors",
    "StoreError": "nimlab.core.errors",
    "WorkTooLargeError": "nimlab.core.errors",
    "IllegalMoveError": "nimlab.core.errors",
    # registry and users' own games
    "heap_game": "nimlab.catalog.user",
    "take_and_break": "nimlab.catalog.takebreak",
    "split_game": "nimlab.catalog.takebreak",
    "replace": "nimlab.core.ruleset",
    "game": "nimlab.catalog",
    "games": "nimlab.catalog",
    "GameInfo": "nimlab.catalog",
    # solvers
    "answer": "nimlab.solvers",
    "Answer": "nimlab.solvers",
    "grundy": "nimlab.solvers",
    "outcome": "nimlab.solvers",
    "winning_moves": "nimlab.solvers",
    "moves": "nimlab.solvers",
    "Solver": "nimlab.solvers",
    "SearchCache": "nimlab.solvers",
    "search_cache": "nimlab.solvers",
    "Session": "nimlab.engine.compiled",
    "winning_move": "nimlab.solvers.strategy",
    "explain": "nimlab.solvers.explain",
    "parse_move": "nimlab.solvers.play",
    "legal_move": "nimlab.solvers.play",
    "smallest_step": "nimlab.solvers.play",
    "Explanation": "nimlab.solvers.explain",
    # theorem registry
    "theorems": "nimlab.theory",
    "theorem": "nimlab.theory",
    "Theorem": "nimlab.theory",
    "check_theorem": "nimlab.theory",
    "status_of": "nimlab.theory",
    "reproduce": "nimlab.theory.reproduce",
    "counterexamples": "nimlab.theory.reproduce",
    "Counterexamples": "nimlab.theory.reproduce",
    "ResultStatus": "nimlab.core.status",
    # verification
    "verify": "nimlab.verification",
    "conjecture": "nimlab.discovery",
    "Conjectures": "nimlab.discovery",
    "Proposal": "nimlab.discovery",
    "VerificationResult": "nimlab.verification",
    "local_check": "nimlab.verification",
    "runs": "nimlab.verification",
    # fast engine (numpy/numba, loaded on first use)
    "table": "nimlab.engine.tables",
    "canonical_table": "nimlab.engine.canonical",
    "CanonicalTable": "nimlab.engine.canonical",
    "nimmul": "nimlab.engine.nimarith",
    "nim_square": "nimlab.engine.nimarith",
    "nim_inverse": "nimlab.engine.nimarith",
    "nim_div": "nimlab.engine.nimarith",
    "sequence": "nimlab.engine.sequences",
    "periodicity": "nimlab.engine.periodicity",
    "periodicity_of": "nimlab.engine.periodicity",
    "warm": "nimlab.theory.warmup",
    "WarmReport": "nimlab.engine.warm",
    "Periodicity": "nimlab.engine.periodicity",
    # multiplayer play with preferences
    "last_mover": "nimlab.solvers.multiplayer",
    "i_position": "nimlab.solvers.multiplayer",
    "multiplayer_moves": "nimlab.solvers.multiplayer",
    "multiplayer_choice": "nimlab.solvers.multiplayer",
    "MultiplayerSolver": "nimlab.solvers.multiplayer",
    "MultiplayerChoice": "nimlab.solvers.multiplayer",
    "PreferenceProfile": "nimlab.solvers.multiplayer",
    "games_profile": "nimlab.solvers.multiplayer",
    "li_ranking": "nimlab.solvers.multiplayer",
    "misere_profile": "nimlab.solvers.multiplayer",
    "symmetric_profiles": "nimlab.solvers.multiplayer",
    # misère play: genus, canonical forms, quotients
    "genus": "nimlab.misere",
    "genus_sequence": "nimlab.misere",
    "genus_outcome": "nimlab.misere",
    "Genus": "nimlab.misere",
    "misere_canonical_form": "nimlab.misere",
    "misere_quotient": "nimlab.misere",
    "MisereQuotient": "nimlab.misere",
    "QuotientNotFoundError": "nimlab.misere",
    "QuotientTooLargeError": "nimlab.misere",
    # seeing the games (tables, heatmaps, trees, binary views)
    "render": "nimlab.render",
    "game_tree": "nimlab.render",
    "GameTree": "nimlab.render",
    "binary_view": "nimlab.render",
    "BinaryView": "nimlab.render",
    "table_view": "nimlab.render",
    "TableView": "nimlab.render",
}

__all__ = [
    "Answer",
    "BinaryView",
    "CanonicalTable",
    "ChunkStoreError",
    "ClusterError",
    "Conjectures",
    "Counterexamples",
    "Explanation",
    "GameDefinitionError",
    "GameInfo",
    "GameTree",
    "Genus",
    "HeapRuleset",
    "IllegalMoveError",
    "InvalidArgumentError",
    "InvalidParameterError",
    "InvalidPositionError",
    "MisereQuotient",
    "MoveSetTooLargeError",
    "MultiplayerChoice",
    "MultiplayerSolver",
    "NimlabError",
    "NoClosedFormError",
    "Outcome",
    "OutputPathError",
    "Param",
    "Periodicity",
    "PreferenceProfile",
    "Proposal",
    "QuotientNotFoundError",
    "QuotientTooLargeError",
    "ResultStatus",
    "Ruleset",
    "SearchCache",
    "SearchTooLargeError",
    "Session",
    "Solver",
    "StoreError",
    "SumRuleset",
    "TableView",
    "Theorem",
    "UnknownGameError",
    "UnknownTheoremError",
    "VerificationResult",
    "WarmReport",
    "WorkTooLargeError",
    "answer",
    "binary_view",
    "canonical_table",
    "check_theorem",
    "conjecture",
    "counterexamples",
    "explain",
    "game",
    "game_tree",
    "games",
    "games_profile",
    "genus",
    "genus_outcome",
    "genus_sequence",
    "grundy",
    "heap_game",
    "i_position",
    "last_mover",
    "legal_move",
    "li_ranking",
    "local_check",
    "misere_canonical_form",
    "misere_profile",
    "misere_quotient",
    "moves",
    "multiplayer_choice",
    "multiplayer_moves",
    "nim_div",
    "nim_inverse",
    "nim_square",
    "nimmul",
    "outcome",
    "parse_move",
    "periodicity",
    "periodicity_of",
    "render",
    "replace",
    "reproduce",
    "runs",
    "search_cache",
    "sequence",
    "smallest_step",
    "split_game",
    "status_of",
    "symmetric_profiles",
    "table",
    "table_view",
    "take_and_break",
    "theorem",
    "theorems",
    "verify",
    "warm",
    "winning_move",
    "winning_moves",
]


__getattr__, __dir__ = lazy_attributes(__name__, _LAZY, globals())


if TYPE_CHECKING:
    from nimlab import render
    from nimlab.catalog import GameInfo, game, games
    from nimlab.catalog.takebreak import split_game, take_and_break
    from nimlab.catalog.user import heap_game
    from nimlab.core import (
        HeapRuleset,
        InvalidParameterError,
        InvalidPositionError,
        NimlabError,
        NoClosedFormError,
        Outcome,
        Param,
        Ruleset,
        SearchTooLargeError,
        SumRuleset,
        UnknownGameError,
        UnknownTheoremError,
    )
    from nimlab.core.errors import (
        ChunkStoreError,
        ClusterError,
        GameDefinitionError,
        IllegalMoveError,
        InvalidArgumentError,
        MoveSetTooLargeError,
        OutputPathError,
        StoreError,
        WorkTooLargeError,
    )
    from nimlab.core.ruleset import replace
    from nimlab.core.status import ResultStatus
    from nimlab.discovery import Conjectures, Proposal, conjecture
    from nimlab.engine.canonical import CanonicalTable, canonical_table
    from nimlab.engine.compiled import Session
    from nimlab.engine.nimarith import nim_div, nim_inverse, nim_square, nimmul
    from nimlab.engine.periodicity import Periodicity, periodicity, periodicity_of
    from nimlab.engine.sequences import sequence
    from nimlab.engine.tables import table
    from nimlab.engine.warm import WarmReport
    from nimlab.misere import (
        Genus,
        MisereQuotient,
        QuotientNotFoundError,
        QuotientTooLargeError,
        misere_canonical_form,
        misere_quotient,
    )

    # from the module itself: mypy may take nimlab.misere.genus for the submodule
    from nimlab.misere.genus import genus, genus_outcome, genus_sequence
    from nimlab.render import BinaryView, GameTree, TableView, binary_view, game_tree, table_view
    from nimlab.solvers import (
        Answer,
        SearchCache,
        Solver,
        answer,
        grundy,
        moves,
        outcome,
        search_cache,
        winning_moves,
    )
    from nimlab.solvers.explain import Explanation, explain
    from nimlab.solvers.multiplayer import (
        MultiplayerChoice,
        MultiplayerSolver,
        PreferenceProfile,
        games_profile,
        i_position,
        last_mover,
        li_ranking,
        misere_profile,
        multiplayer_choice,
        multiplayer_moves,
        symmetric_profiles,
    )
    from nimlab.solvers.play import legal_move, parse_move, smallest_step
    from nimlab.solvers.strategy import winning_move
    from nimlab.theory import Theorem, check_theorem, status_of, theorem, theorems
    from nimlab.theory.reproduce import Counterexamples, counterexamples, reproduce
    from nimlab.theory.warmup import warm
    from nimlab.verification import VerificationResult, local_check, runs, verify
