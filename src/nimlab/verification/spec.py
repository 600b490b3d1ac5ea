"""What a verification run checks and what it reports: :class:`CheckSpec` (one picklable
description of the game, the claim and the space, handed to every worker) and
:class:`VerificationResult` (the one result of a run), with the chunk sizes of the paths.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from nimlab.core.ruleset import Ruleset
from nimlab.verification.local import CheckKind, Claim
from nimlab.verification.spaces import Space, space_key

__all__ = [
    "COMPILED_CHUNK",
    "FAST_CHUNK",
    "FAST_MIN_POOL",
    "LIST_CHUNK",
    "MAX_POSITIONS",
    "PY_CHUNK",
    "CheckSpec",
    "VerificationResult",
]

PY_CHUNK = 8192
# Positions a verification run may check unless the caller raises it (max_positions=N,
# --max-positions N): about 3 minutes on the vectorised kernel, hours in Python; checked
# before the run starts.
MAX_POSITIONS = 10**9
FAST_CHUNK = 1 << 19
COMPILED_CHUNK = 1 << 17
LIST_CHUNK = 2048
FAST_MIN_POOL = 8


@dataclass(frozen=True)
class CheckSpec:
    """Everything a worker needs to check one chunk (picklable).

    Attributes
    ----------
    game : Ruleset
        The rules.
    kind : {"grundy", "p-set", "misere-p-set"}
        What is claimed.
    claim : Claim
        The claimed values.
    space : Space
        The move-closed set of positions, in chunks.
    target : str
        Theorem id or the conjecture's text (for the store and reports).
    bound : int
        The bound the space was built from.
    fast : bool
        Whether the vectorised kernel may be used.
    compiled : bool
        Whether the compiled local check (:mod:`nimlab.verification.compiled`: the game's
        ``compiled_options`` hook and a compiled claim) may be used.
    """

    game: Ruleset[Any]
    kind: CheckKind
    claim: Claim
    space: Space
    target: str
    bound: int
    fast: bool = False
    compiled: bool = False

    def key(self) -> str:
        """Stable identity of the spec (same key = same chunks): used to resume.

        Computed once per spec object (the caches of every chunk ask for it; it is not
        pickled: a worker computes its own)."""
        hit: str | None = self.__dict__.get("_key")
        if hit is None:
            hit = self._key()
            object.__setattr__(self, "_key", hit)
        return hit

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state.pop("_key", None)
        return state

    def _key(self) -> str:
        space_id = space_key(self.space)
        claim_id = self.claim.key()
        if claim_id.startswith("fn:") and claim_id.count(":") >= 2:
            claim_id = claim_id.rsplit(":", 1)[0]  # its code is in the fingerprint below
        parts: list[Any] = [
            claim_id,
            repr(self.game),
            self.kind,
            space_id,
            self.bound,
            self.fast,
        ]
        if self.compiled:
            parts.append("compiled")
        text = json.dumps(parts)
        from nimlab.verification.identity import code_fingerprint

        # what is checked, then the code that decides it (a resumed run must share both)
        return (
            f"{hashlib.sha256(text.encode()).hexdigest()}:{code_fingerprint(self.game, self.claim)}"
        )


@dataclass(frozen=True)
class VerificationResult:
    """The outcome of a verification run, or of a theorem's check: the one result type of
    the verifier (``nimlab.verify``, ``nimlab.check_theorem``, the results store and
    ``nimlab.reproduce`` all use it; ``theory.CheckResult`` is a deprecated alias).

    Attributes
    ----------
    target : str
        Theorem id or the conjecture's text.
    game : str
        Label of the game.
    kind : str
        ``grundy``, ``p-set`` or ``misere-p-set``.
    bound : int
        The bound.
    space : str
        Description of the position space.
    positions_checked : int
        Positions checked (on failure: up to and including the counterexample).
    ok : bool
        Whether the claim holds on the whole space.
    seconds : float
        Wall-clock time of this invocation.
    counterexample : Counterexample or None
        The smallest counterexample in the space's order, with the claimed and the true
        value and the option that breaks the rule.
    run_id : int or None
        Id in the results store.
    chunks : int
        Number of chunks; ``chunks_resumed`` of them came from an earlier run.
    method : str
        ``vectorised`` or ``python``.
    backend : str
        ``serial``, ``threads``, ``processes`` or ``dask``.
    workers : int
        Workers the backend used.
    extra : dict
        What a backend reports beyond these fields.
    what : str
        ``conjecture`` or ``theorem`` (as the results store records it).
    run_ids : tuple of int
        A theorem's check: the store's run ids of its instances.

    Examples
    --------
    >>> r = VerificationResult.of_theorem("S19-T1", 6, 40, True, 0.5, method="search")
    >>> r.theorem, r.result, r.to_dict()["run_ids"]
    ('S19-T1', 'verified', [])
    """

    target: str
    game: str
    kind: str
    bound: int
    space: str
    positions_checked: int
    ok: bool
    seconds: float
    counterexample: Any = None
    run_id: int | None = None
    chunks: int = 0
    chunks_resumed: int = 0
    method: str = "python"
    backend: str = "serial"
    workers: int = 1
    extra: dict[str, Any] = field(default_factory=dict)
    what: str = "conjecture"
    run_ids: tuple[int, ...] = ()

    @classmethod
    def of_theorem(
        cls,
        theorem: str,
        bound: int,
        positions_checked: int,
        ok: bool,
        seconds: float,
        counterexample: Any = None,
        method: str = "search",
        run_ids: tuple[int, ...] = (),
        *,
        game: str = "",
        kind: str = "",
    ) -> VerificationResult:
        """The result of checking *theorem* at *bound* (by search, a sequence, the engine
        or the runs of its instances, whose ids are *run_ids*)."""
        return cls(
            target=theorem,
            game=game,
            kind=kind,
            bound=bound,
            space="",
            positions_checked=positions_checked,
            ok=ok,
            seconds=seconds,
            counterexample=counterexample,
            method=method,
            what="theorem",
            run_ids=run_ids,
        )

    @property
    def theorem(self) -> str:
        """The theorem id (a conjecture's text for a conjecture): the target."""
        return self.target

    @property
    def result(self) -> str:
        """``"verified"`` or ``"FAILED"``."""
        return "verified" if self.ok else "FAILED"

    @property
    def rate(self) -> float:
        """Positions checked per second."""
        return self.positions_checked / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "target": self.target,
            "game": self.game,
            "kind": self.kind,
            "bound": self.bound,
            "space": self.space,
            "positions_checked": self.positions_checked,
            "result": self.result,
            "seconds": self.seconds,
            "counterexample": None
            if self.counterexample is None
            else self.counterexample.to_dict(),
            "run_id": self.run_id,
            "chunks": self.chunks,
            "chunks_resumed": self.chunks_resumed,
            "method": self.method,
            "backend": self.backend,
            "workers": self.workers,
            "what": self.what,
            "run_ids": list(self.run_ids),
            **({"theorem": self.target} if self.what == "theorem" else {}),
        }
