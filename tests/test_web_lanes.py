"""The worker pool's two lanes: cheap work stays in the fast lane, heavy work leaves it, and
a computation stops soon after its request's time limit (it does not run on to its budget).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time

import pytest
from fastapi.testclient import TestClient

from nimlab._progress import OutOfTime, Progress, deadline
from nimlab.web.app import create_app
from nimlab.web.limits import Limits, TooSlow, WorkerPool, heavy, in_fast_lane

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _lane() -> str:
    return "fast" if in_fast_lane() else threading.current_thread().name.rsplit("_", 1)[0]


def _heavy_lane() -> str:
    heavy()
    return _lane()


def _search_forever(stopped: threading.Event) -> None:
    """A search that never ends by itself: it reports progress, as nimlab's searches do."""
    try:
        while True:
            Progress("test", 10, "moves", enabled=False).update(1)
            time.sleep(0.001)
    finally:
        stopped.set()


def test_cheap_work_stays_in_the_fast_lane_heavy_work_leaves_it() -> None:
    pool = WorkerPool(Limits(workers=1, fast_workers=1, time_limit=5))

    async def scenario() -> tuple[str, str]:
        return await pool.run(_lane), await pool.run(_heavy_lane)

    try:
        assert asyncio.run(scenario()) == ("fast", "nimlab-web")
    finally:
        pool.shutdown()


def test_a_long_search_leaves_the_fast_lane_and_stops_at_the_time_limit() -> None:
    pool = WorkerPool(Limits(workers=1, fast_workers=1, time_limit=0.6, fast_slice=0.05))
    stopped = threading.Event()

    async def scenario() -> tuple[float, bool]:
        t0 = time.perf_counter()
        with contextlib.suppress(TooSlow):
            await pool.run(_search_forever, stopped)
        # the fast lane is free at once; the search itself stops at its deadline
        fast = await pool.run(_lane)
        assert fast == "fast"
        return time.perf_counter() - t0, stopped.wait(5)

    try:
        took, ended = asyncio.run(scenario())
        assert ended and took < 3
    finally:
        pool.shutdown()


def test_deadline_nests_and_stops_progress() -> None:
    with deadline(60), deadline(0.0), pytest.raises(OutOfTime):
        Progress("test", 1, "moves", enabled=False)
    Progress("test", 1, "moves", enabled=False).close()  # no deadline outside


@pytest.mark.slow
def test_expensive_requests_do_not_delay_cheap_ones() -> None:
    # four searches that run to the time limit (in a worker process, as `nimlab serve` runs
    # them), then a cheap analysis: answered at once. Circular(k=3) at 6 6 6 6 6 is a search
    # of 1.6-3.3 s on this machine, within the playground's moves budget (larger positions
    # stop on the budget in under 1 s): with a 2 s limit a quick moment of the machine
    # finished one of them (a CI run of 2026-11-27), so the limit is 0.6 s.
    lim = Limits(workers=1, time_limit=0.6, processes=True)
    body = {"game": "circular", "params": {"k": "3"}, "position": "6 6 6 6 6"}
    with TestClient(create_app(lim)) as c:
        results: list[tuple[int, str]] = []

        def expensive() -> None:
            r = c.post("/api/analysis", json=body)
            results.append((r.status_code, r.json().get("type", "")))

        threads = [threading.Thread(target=expensive) for _ in range(4)]
        for t in threads:
            t.start()
        time.sleep(0.3)
        t0 = time.perf_counter()
        r = c.post("/api/analysis", json={"game": "nim", "position": "3 4 5"})
        cheap = time.perf_counter() - t0
        for t in threads:
            t.join(30)
        assert r.status_code == 200 and r.json()["winning_moves"] == ["1 4 5"]
        assert results == [(422, "TooSlow")] * 4  # the time limit stopped them
        assert cheap < 1.0, cheap  # not queued behind them (at least 2.1 s of work)
