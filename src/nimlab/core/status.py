"""The status of every registered result, as data: proved, refuted or conjectured.

A result of the papers is ``proved`` (it has a published proof; nimlab checks it by local
check to its stated bound at every ``nimlab reproduce``), ``refuted`` (a counterexample
is known: the smallest one and how many positions it gets wrong below which bounds) or
``conjectured`` (no proof; nimlab verified it to a stated bound and answers from it only
inside that bound). nimlab never answers from a refuted statement, and from a conjectured
one only where it has been verified.

Results not listed in :data:`STATUSES` are proved (published proofs). The numbers below
were measured by nimlab's own engine: Sh-T6* by the compiled local check
(``nimlab verify 'Sh-T6*' --bound 256``, resumable with the store), Sh-T6's wrong positions
as the positions where it and the verified Sh-T6* differ
(:func:`nimlab.verification.differences.count_differences`). ``nimlab reproduce``
re-measures them at its bounds: a result that no longer matches its recorded status fails
the run.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

__all__ = ["PROVED", "STATUSES", "ResultStatus", "State", "status_of", "verified_below"]

State = Literal["proved", "refuted", "conjectured"]


@dataclass(frozen=True)
class ResultStatus:
    """What is known about a result.

    Attributes
    ----------
    state : {"proved", "refuted", "conjectured"}
        The status.
    source : str
        Where the statement comes from and who settled its status.
    verified_below : int or None
        Conjectured: every position of its space with heaps below this bound was verified
        (nimlab answers from it only there). Refuted: the bound of the disagreement count.
    verified_positions : int or None
        How many positions that verification checked.
    counterexample : tuple or None
        Refuted: the smallest counterexample (positions ordered by largest heap, then
        lexicographically from the top).
    disagreements : tuple of (int, int)
        Refuted: ``(bound, count)`` pairs, the number of positions with every heap below
        ``bound`` where the statement and the truth differ.
    replaced_by : str or None
        Refuted: the id of the corrected statement registered beside it.
    note : str
        One sentence on the structure of the failures or the correction.

    Examples
    --------
    >>> status_of("Sh-T6").state, status_of("Sh-T6").counterexample
    ('refuted', (12, 14, 15, 40))
    >>> status_of("Sh-T6*").state, status_of("Sh-T6*").verified_below
    ('conjectured', 256)
    >>> status_of("S19-T1").state
    'proved'
    """

    state: State
    source: str = "published proof"
    verified_below: int | None = None
    verified_positions: int | None = None
    counterexample: tuple[int, ...] | None = None
    disagreements: tuple[tuple[int, int], ...] = ()
    replaced_by: str | None = None
    note: str = ""

    def summary(self) -> str:
        """One line: the state with its evidence.

        Examples
        --------
        >>> status_of("Sh-T6*").summary()
        'conjectured: verified by nimlab for every heap < 256 (180,352,320 positions)'
        """
        if self.state == "proved":
            return "proved: " + self.source
        if self.state == "conjectured":
            n = (
                ""
                if self.verified_positions is None
                else f" ({self.verified_positions:,} positions)"
            )
            return f"conjectured: verified by nimlab for every heap < {self.verified_below}{n}"
        cex = "" if self.counterexample is None else f"counterexample ⟨{_fmt(self.counterexample)}⟩"
        counts = "; ".join(f"{n:,} wrong below {b}" for b, n in self.disagreements)
        return "refuted: " + ", ".join(x for x in (cex, counts) if x)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "state": self.state,
            "source": self.source,
            "verified_below": self.verified_below,
            "verified_positions": self.verified_positions,
            "counterexample": None if self.counterexample is None else list(self.counterexample),
            "disagreements": [{"bound": b, "count": n} for b, n in self.disagreements],
            "replaced_by": self.replaced_by,
            "note": self.note,
        }


def _fmt(t: tuple[int, ...]) -> str:
    return ",".join(map(str, t))


#: The status of a result with a published proof.
PROVED = ResultStatus("proved")

#: Results whose status is not ``proved``, by id.
STATUSES: dict[str, ResultStatus] = {
    "Sh-T6": ResultStatus(
        "refuted",
        source="[Sh] Theorem 6 as printed; refuted by exhaustive local check",
        verified_below=256,
        counterexample=(12, 14, 15, 40),
        disagreements=((80, 74), (96, 220), (128, 370), (256, 8580)),
        replaced_by="Sh-T6*",
        note=(
            "every wrong position is a P-position the five cases call N; its four heaps have "
            "four different 2-adic valuations and it fails only condition (5A)"
        ),
    ),
    "Sh-T6*": ResultStatus(
        "conjectured",
        source="[Sh] Theorem 6 with (5A) replaced by a bottom-up column scan from i = d+2",
        verified_below=256,
        verified_positions=180_352_320,
        note="no proof is known: nimlab answers from it only where it was verified",
    ),
}


def status_of(result_id: str) -> ResultStatus:
    """The status of the result *result_id* (proved unless recorded otherwise).

    Examples
    --------
    >>> status_of("Sh-T3").summary()
    'proved: published proof'
    """
    return STATUSES.get(result_id, PROVED)


def verified_below(result_id: str) -> int:
    """The bound below which the conjecture *result_id* was verified (its recorded
    status is the one place this number lives; the catalog answers from it only there).

    Examples
    --------
    >>> verified_below("Sh-T6*")
    256
    """
    bound = status_of(result_id).verified_below
    if bound is None:
        raise ValueError(f"{result_id} records no verified bound")
    return bound
