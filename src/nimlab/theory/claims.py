"""Claims of theorems for the verification runner: a registered theorem's claim (by id,
looked up again in each worker) or a modified theorem object's (pickled with the spec).

The theory layer builds on :mod:`nimlab.verification` (the verification layer knows
nothing of theorems).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from nimlab.core.ruleset import Ruleset
from nimlab.theory.registry import theorem
from nimlab.verification.local import Claim

__all__ = ["ObjectTheoremClaim", "TheoremClaim"]


@dataclass(frozen=True)
class TheoremClaim(Claim):
    """The claim of a registered theorem (looked up by id in each worker)."""

    tid: str
    _t: dict[str, Any] = field(default_factory=dict, compare=False, repr=False, hash=False)

    def __getstate__(self) -> dict[str, Any]:
        return {"tid": self.tid}

    def __setstate__(self, state: dict[str, Any]) -> None:
        object.__setattr__(self, "tid", state["tid"])
        object.__setattr__(self, "_t", {})

    def value(self, game: Ruleset[Any], position: Any) -> Any:
        fn = self._t.get("claimed")
        if fn is None:
            fn = self._t["claimed"] = theorem(self.tid).claimed
        return fn(game, position)

    def key(self) -> str:
        return f"theorem:{self.tid}"

    def vectorised(self, game: Ruleset[Any], bound: int) -> Callable[..., Any] | None:
        vc = theorem(self.tid).vector_claim
        if vc is None:
            return None
        return lambda *heaps: vc(game, heaps)


@dataclass(frozen=True)
class ObjectTheoremClaim(Claim):
    """The claim of a :class:`~nimlab.theory.registry.Theorem` object that is not the
    registered one (a modified copy): pickled with the spec."""

    theorem: Any

    def value(self, game: Ruleset[Any], position: Any) -> Any:
        return self.theorem.claimed(game, position)

    def key(self) -> str:
        fn = self.theorem.claim
        code = getattr(fn, "__code__", None)
        extra = "" if code is None else repr(code.co_code)
        return f"theorem-object:{self.theorem.id}:{hash(extra)}"

    def vectorised(self, game: Ruleset[Any], bound: int) -> Callable[..., Any] | None:
        vc = self.theorem.vector_claim
        if vc is None:
            return None
        return lambda *heaps: vc(game, heaps)
