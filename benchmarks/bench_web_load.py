"""Load test of the web playground: concurrent mixed requests against ``nimlab serve``.

Run: ``python benchmarks/bench_web_load.py [--requests N] [--concurrency C]``. Starts
``nimlab serve`` on a free loopback port (nothing leaves the machine), sends N requests
(default 600) with C in flight at once (default 200) from one httpx async client: a mix of
pages, the game list, analyses with and without explanations, moves (legal and illegal),
computer moves, random positions, game trees, Grundy tables and multiplayer questions.
Every answer is checked (status and content); the run is bounded in count and in time (it
stops after 120 s). Prints the median and 95th-percentile latency per kind and overall,
and the throughput. Exit status 1 on any unexpected answer.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import socket
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

import httpx

DEADLINE = 120.0

# (kind, method, path, body, expected status, check of the JSON answer)
Check = Callable[[Any], bool]
REQUESTS: list[tuple[str, str, str, dict[str, Any] | None, int, Check]] = [
    ("page", "GET", "/", None, 200, lambda r: True),
    ("page", "GET", "/play?game=nim&position=3+4+5", None, 200, lambda r: True),
    ("games", "GET", "/api/games", None, 200, lambda r: len(r) >= 18),
    (
        "analysis",
        "POST",
        "/api/analysis",
        {"game": "nim", "position": "3 4 5"},
        200,
        lambda r: r["winning_moves"] == ["1 4 5"],
    ),
    (
        "analysis",
        "POST",
        "/api/analysis",
        {"game": "moore", "params": {"k": "2"}, "position": "3 4 5 9", "explain": True},
        200,
        lambda r: r["explanation"]["move"] == "1 4 5 5",
    ),
    (
        "analysis",
        "POST",
        "/api/analysis",
        {"game": "wythoff", "position": "9 14", "misere": True},
        200,
        lambda r: r["outcome"] in ("P", "N"),
    ),
    (
        "move",
        "POST",
        "/api/move",
        {"game": "nim", "position": "3 4 5", "move": "3:1"},
        200,
        lambda r: r["position"] == "3 4 1",
    ),
    (
        "move",
        "POST",
        "/api/move",
        {"game": "nim", "position": "3 4 5", "move": "3 5 5"},
        400,
        lambda r: r["error"].startswith("illegal move"),
    ),
    (
        "computer",
        "POST",
        "/api/computer",
        {"game": "emperor", "position": "1,2 3,3 4"},
        200,
        lambda r: r["how"] == "winning move",
    ),
    (
        "random",
        "POST",
        "/api/random",
        {"game": "welter", "size": 9},
        200,
        lambda r: r["terminal"] is False,
    ),
    (
        "tree",
        "POST",
        "/api/tree",
        {"game": "nim", "position": "1 2 2"},
        200,
        lambda r: r["svg"].startswith("<svg"),
    ),
    (
        "table",
        "POST",
        "/api/table",
        {"game": "wythoff", "position": "3 5", "size": 16},
        200,
        lambda r: r["rows"][3][5] == 0,
    ),
    (
        "multiplayer",
        "POST",
        "/api/multiplayer",
        {"game": "nim", "position": "2 2 2 1 3", "players": 3, "preference": "0,1,2"},
        200,
        lambda r: r["last_mover"] == 0,
    ),
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server() -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "nimlab", "serve", "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(url + "/api/games", timeout=2).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.terminate()
    raise SystemExit(f"nimlab serve did not start on {url}")


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, round(q * (len(s) - 1)))]


async def run(url: str, n: int, concurrency: int) -> int:
    rng = random.Random(13)
    plan = [rng.choice(REQUESTS) for _ in range(n)]
    sem = asyncio.Semaphore(concurrency)
    lat: dict[str, list[float]] = defaultdict(list)
    errors: list[str] = []
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as client:
        # warm-up: one of each kind (imports, caches)
        for _, method, path, body, _, _ in REQUESTS:
            await client.request(method, path, json=body)

        async def one(req: tuple[str, str, str, dict[str, Any] | None, int, Check]) -> None:
            kind, method, path, body, status, check = req
            async with sem:
                t0 = time.perf_counter()
                try:
                    r = await client.request(method, path, json=body)
                except httpx.HTTPError as e:
                    errors.append(f"{kind} {path}: {type(e).__name__}")
                    return
                dt = time.perf_counter() - t0
            ok = r.status_code == status
            if ok and r.headers.get("content-type", "").startswith("application/json"):
                ok = check(r.json())
            if not ok:
                errors.append(f"{kind} {path}: status {r.status_code} {r.text[:120]}")
            lat[kind].append(dt)
            lat["all"].append(dt)

        t0 = time.perf_counter()
        await asyncio.wait_for(asyncio.gather(*(one(r) for r in plan)), DEADLINE)
        wall = time.perf_counter() - t0
    print(f"{n} requests, {concurrency} in flight at once, {wall:.1f} s, {n / wall:.0f} req/s")
    print(f"{'kind':<12} {'count':>5} {'median ms':>10} {'p95 ms':>8}")
    for kind in sorted(lat, key=lambda k: (k == "all", k)):
        v = lat[kind]
        print(
            f"{kind:<12} {len(v):>5} {statistics.median(v) * 1e3:>10.0f} {pct(v, 0.95) * 1e3:>8.0f}"
        )
    print(f"errors: {len(errors)}")
    for e in errors[:10]:
        print("  " + e)
    return 1 if errors else 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=600)
    ap.add_argument("--concurrency", type=int, default=200)
    args = ap.parse_args()
    if not 1 <= args.requests <= 5000 or not 1 <= args.concurrency <= 500:
        raise SystemExit("--requests must be 1..5000 and --concurrency 1..500")
    proc, url = start_server()
    try:
        rc = asyncio.run(run(url, args.requests, args.concurrency))
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    raise SystemExit(rc)


if __name__ == "__main__":
    main()
