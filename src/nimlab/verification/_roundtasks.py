"""The chunk tasks of a run on a Dask cluster, as submitted (:mod:`.cluster`'s rounds).

Task *k* of a round is pinned to worker *k* (another if it is lost); the first round's
tasks record and exchange the option index's parts (:mod:`._exchange`) when asked; the
tasks of the last round share their chunks (:mod:`._share`: a worker that has checked
its own takes over part of another's that has not started), unless the planner's
``Budgets.cluster_share_chunks`` is off.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from nimlab._dask import check_connected
from nimlab.core.errors import NimlabError

__all__ = ["RoundTasks"]


class RoundTasks:
    """The chunk tasks of a run on a cluster (``cluster._Rounds``), as submitted: their
    futures and chunks (:attr:`futs`), the set-up parts each task takes and the stream
    of their results (:mod:`._stream`), if any."""

    def __init__(
        self,
        client: Any,
        blob_f: Any,
        where: list[str],
        rounds: Any,
        lost: Callable[[BaseException], NimlabError],
        task: Callable[..., Any],
    ) -> None:
        self.client, self.blob_f, self.where, self.rounds, self.lost = (
            client, blob_f, where, rounds, lost,
        )  # fmt: skip
        self.task = task  # the function of each task (``cluster.check_task``)
        self.parts: list[Any] = []
        self.futs: dict[Any, list[int]] = {}
        self.stream: Any = None
        self.pinned: set[str] = set()  # the workers that were given a task
        self.plan: list[list[int]] = []  # set-up parts the first round's tasks exchange
        self.plan_costs: list[list[int]] = []  # their chunks' positions
        self.n_rounds = 0  # rounds out (the first records the parts)
        self.sent: dict[Any, list[int]] = {}  # every task submitted, with its chunks
        self._sent: set[int] = set()
        self.names: dict[Any, str] = {}  # tasks of rounds that share their chunks
        self.given: dict[str, set[int]] = {}  # the chunks such a task said others took
        self.failed: set[str] = set()  # such tasks that said they found a failure
        self.ended: set[str] = set()  # such tasks that said they ended
        self.direct = False  # the parts went from worker to worker (no variables)

    def sent_chunks(self) -> set[int]:
        """The chunks of every task submitted."""
        return self._sent

    def submit(self, tag: str) -> list[Any]:
        """The next round: one task per worker, of chunks of equal cost from the next
        run of consecutive chunks (a failure still cancels later rounds)."""
        from nimlab.planner import DEFAULT_BUDGETS
        from nimlab.verification._share import pack

        out = []
        where = self.where
        n_plan = 0 if self.n_rounds else len(self.plan)
        self.n_rounds += 1
        round_ = self.rounds.next_round()
        slots = [where[k % len(where)] for k in range(len(round_))] if where else []
        # the last round's tasks share their chunks (a worker slowed by other work would
        # hold up the run's end); the streamed results say which chunks others took
        share: list[Any] | None = None
        notes: list[Any] | None = None
        sharing = bool(slots) and self.stream is not None and DEFAULT_BUDGETS.cluster_share_chunks
        if sharing and len(round_) > 1 and not self.rounds.todo:
            costs = [[self.rounds.cost[i] for i in t] for t in round_]
            share = [f"{self.stream.run}-{self.n_rounds}", 0, pack(slots, round_, costs)]
        plan: Any = pack(*self.plan) if n_plan else None
        if sharing and n_plan == len(round_) > 1 and len(self.plan_costs) == n_plan:
            # the option index's parts, one a task, noted as the checks' chunks are shared
            notes = [f"{self.stream.run}-parts", 0, pack(slots, self.plan, self.plan_costs)]
            self.direct = True
        for k, mine in enumerate(round_):
            # task k of each round on worker k (else the scheduler may queue a round's
            # tasks on one worker while the other idles); another when it is lost
            pin = {"workers": [slots[k]], "allow_other_workers": True} if slots else {}
            if self.stream is not None:
                pin["stream"] = self.stream.run
                # the client's budget: a worker's own DEFAULT_BUDGETS are not the user's
                pin["every"] = DEFAULT_BUDGETS.cluster_stream_seconds
            if n_plan:  # the first round records the parts: task k its share
                ours = [j for j in range(n_plan) if j % len(round_) == k]
                patience = DEFAULT_BUDGETS.cluster_patience_seconds
                ask = [notes[0], k, *notes[2:]] if notes is not None else None
                pin["exchange"] = [plan, ours, self.stream.run, patience, ask]
            if share is not None:
                pin["share"] = [share[0], k, *share[2:]]
            if slots:
                self.pinned.add(slots[k])
            f = self.client.submit(
                self.task,
                self.blob_f,
                mine,
                *self.parts,
                pure=False,
                key=f"nimlab-{tag}-{mine[0]}-{time.time_ns()}",
                **pin,
            )
            self.futs[f] = self.sent[f] = mine
            self._sent.update(mine)
            if share is not None:
                from nimlab.verification._share import task_name

                self.names[f] = task_name(str(share[0]), k)
            out.append(f)
        try:  # submitted after the scheduler was lost: never run, never cancelled
            check_connected(self.client)
        except Exception as exc:
            raise self.lost(exc) from None
        return out
