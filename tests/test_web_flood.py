"""The real server (``nimlab serve`` on uvicorn, loopback, a free port) under a hostile flood.

300 hostile requests are sent at once: malformed and deeply nested JSON, oversized bodies
(declared and chunked), heaps of hundreds of digits at every endpoint, unknown games and
file paths, wrong types, malformed HTTP, and expensive searches that run into the time
limit. Every one must be answered (no hang) with a 2xx or 4xx status, never a 5xx. During
the flood a cheap request (the analysis of Nim 3 4 5, checked against Bouton's move) is
sent again and again: its median latency must stay under 200 ms, because cheap work has
a fast lane of its own (:class:`nimlab.web.limits.WorkerPool`). Bounded: 300 requests,
one client, loopback only, at most 60 s.
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serve_process import nimlab_serve

pytestmark = [
    pytest.mark.slow,
    pytest.mark.timeout(120),
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
]

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
# the server's time limit per request (seconds): the expensive searches and the requests
# queued behind them end by it, so the flood lasts about this long (6 s made it 7.5 s)
TIME_LIMIT = 2.0
FLOOD_SECONDS = 60.0


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    log_path = tmp_path_factory.mktemp("flood") / "server.log"
    args = [str(EXAMPLES / "my_games.py"), "--time-limit", str(TIME_LIMIT)]
    with nimlab_serve(args, log_path, start_timeout=60) as url:
        yield url, log_path


Request = tuple[str, bytes]  # (kind, the bytes sent)

HUGE = "9" * 400
EXPENSIVE = [  # searches with no closed form: they run into the time limit or the budget
    {"game": "circular", "params": {"k": "3"}, "position": "6 6 6 6 6"},
    {"game": "turning-turtles", "position": "1,1 2,3 4,4 5,5", "misere": True},
    {"game": "octal", "params": {"code": "0.137"}, "position": "50 60 70", "misere": True},
    {"game": "emperor", "position": "3,4 5,6 7", "misere": True},
    {"game": "circular", "params": {"k": "2"}, "position": "9 9 9 9 9 9"},
]
GAMES = ["nim", "moore", "wythoff", "welter", "emperor", "circular", "pow2-both", "rgames"]
PARAMS = {"moore": {"k": "2"}, "circular": {"k": "2"}, "rgames": {"g0": "nim", "parts": "nim"}}


def _http(
    method: str,
    path: str,
    body: bytes | str | dict[str, Any] = b"",
    ctype: str = "application/json",
    chunked: bool = False,
) -> bytes:
    """One HTTP/1.1 request as bytes (the connection closes after the answer)."""
    if isinstance(body, dict):
        body = json.dumps(body)
    data = body.encode() if isinstance(body, str) else body
    head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
    if data or method in ("POST", "PUT"):
        head += f"Content-Type: {ctype}\r\n"
        if chunked:
            head += "Transfer-Encoding: chunked\r\n"
            parts = [data[j : j + 4096] for j in range(0, len(data), 4096)]
            data = b"".join(b"%x\r\n%s\r\n" % (len(c), c) for c in parts) + b"0\r\n\r\n"
        else:
            head += f"Content-Length: {len(data)}\r\n"
    return head.encode() + b"\r\n" + data


def _hostile(rng: random.Random, n: int) -> list[Request]:
    """*n* hostile requests of every kind, shuffled (the same ones each run)."""
    out: list[Request] = []
    for i in range(n):
        k = i % 12
        path = rng.choice(
            ["/api/analysis", "/api/computer", "/api/multiplayer", "/api/move", "/api/tree"]
        )
        game = rng.choice(GAMES)
        if k == 0:  # malformed JSON
            body = rng.choice([b"{", b'{"game": "nim",', b"\xff\xfe\x00", b"null", b"[1,2", b""])
            out.append(("malformed", _http("POST", path, body)))
        elif k == 1:  # deep nesting, in the body and in a parameter
            depth = rng.choice([1_000, 5_000])
            inner = "[" * depth + "]" * depth
            text = rng.choice([inner, '{"game":"nim","position":"3","params":{"k":' + inner + "}}"])
            out.append(("nested", _http("POST", path, text)))
        elif k == 2:  # oversized bodies, declared or chunked
            big = b'{"game":"nim","position":"' + b"1 " * 20_000 + b'"}'
            chunked = rng.random() < 0.5
            out.append(("oversized", _http("POST", path, big, chunked=chunked)))
        elif k in (3, 4):  # heaps of hundreds of digits
            pos = rng.choice(
                [f"{HUGE} {HUGE[:-1]}", f"{HUGE} 7 {HUGE[:300]}", " ".join([HUGE[:20]] * 40)]
            )
            req: dict[str, Any] = {"game": game, "params": PARAMS.get(game, {}), "position": pos}
            if path == "/api/move":
                req["move"] = "1:5"
            out.append(("huge", _http("POST", path, req)))
        elif k == 5:  # unknown games and file paths
            name = rng.choice(
                ["nimm", "/etc/passwd:x", "../../e.py:x", "C:\\x.py:y", "x" * 64, "os.system"]
            )
            out.append(("unknown", _http("POST", path, {"game": name, "position": "3"})))
        elif k == 6:  # wrong types and extra fields
            req = rng.choice(
                [
                    {"game": 5, "position": "3"},
                    {"game": "nim", "position": ["3"]},
                    {"game": "nim", "position": "3", "misere": "yes"},
                    {"game": "nim", "position": "3", "params": {"name": "x"}},
                    {"game": "nim", "position": "3", "extra": {"a": 1}},
                    {"game": "moore", "params": {"k": "9" * 199}, "position": "3 4"},
                ]
            )
            out.append(("types", _http("POST", path, req)))
        elif k in (7, 8):  # expensive searches
            req = dict(rng.choice(EXPENSIVE))
            p2 = rng.choice(["/api/analysis", "/api/analysis", "/api/computer", "/api/tree"])
            if p2 == "/api/tree":
                req.pop("misere", None)
            out.append(("expensive", _http("POST", p2, req)))
        elif k == 9:  # pages with hostile query strings and paths
            url = rng.choice(
                [
                    f"/play?game=nim&position={HUGE}",
                    "/play?game=/etc/passwd:x",
                    "/game/%2Fetc%2Fpasswd:x",
                    "/play?" + "&".join(f"p.k{j}=1" for j in range(200)),
                    "/static/../../pyproject.toml",
                    "/game/" + "x" * 2000,
                ]
            )
            out.append(("page", _http("GET", url)))
        elif k == 10:  # wrong methods and content types
            out.append(
                rng.choice(
                    [
                        ("method", _http("GET", "/api/analysis")),
                        ("method", _http("PUT", "/api/analysis", {})),
                        (
                            "ctype",
                            _http(
                                "POST",
                                path,
                                "game=nim&position=3",
                                "application/x-www-form-urlencoded",
                            ),
                        ),
                        ("ctype", _http("POST", path, "game=nim", "text/plain")),
                    ]
                )
            )
        else:  # multiplayer and tables of searches
            req = {"game": "circular", "params": {"k": "3"}, "position": "9 9", "players": 8}
            if rng.random() < 0.5:
                out.append(("expensive", _http("POST", "/api/multiplayer", req)))
            else:
                req = {"game": "circular", "params": {"k": "3"}, "position": "9 9", "size": 24}
                out.append(("expensive", _http("POST", "/api/table", req)))
    out += [  # malformed HTTP
        ("raw", b"GARBAGE\r\n\r\n"),
        ("raw", b"POST /api/analysis HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n"),
        ("raw", b"POST /api/analysis HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n"),
        ("raw", b"GET /" + b"a" * 10_000 + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
        (
            "raw",
            b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Big: "
            + b"y" * 20_000
            + b"\r\n\r\n",
        ),
    ]
    rng.shuffle(out)
    return out


async def _send(host: str, port: int, kind: str, data: bytes) -> tuple[str, int]:
    """Send one request and read the status of its answer (bounded in time)."""
    reader, writer = await asyncio.open_connection(host, port)
    try:
        try:
            writer.write(data)
            await writer.drain()
        except ConnectionError:
            pass  # the server answered (413) and closed before the whole body was sent
        line = await asyncio.wait_for(reader.readline(), timeout=TIME_LIMIT + 20)
        await asyncio.wait_for(reader.read(), timeout=TIME_LIMIT + 20)  # the whole answer
    finally:
        writer.close()
    if not line.startswith(b"HTTP/"):
        assert kind == "raw", (kind, data[:200], line)
        return kind, 400  # malformed HTTP: the server closed the connection (no 5xx)
    return kind, int(line.split()[1])


# The cheap request, sent again and again by a process of its own (a client in this process
# would measure its own event loop, busy with the flood, not the server's answer).
PROBE = """
import json, os, sys, time, urllib.request
url, stop = sys.argv[1], sys.argv[2]
out = []
end = time.monotonic() + 60
while not os.path.exists(stop) and time.monotonic() < end and len(out) < 100:
    body = b'{"game": "nim", "position": "3 4 5"}'
    req = urllib.request.Request(
        url + "/api/analysis", data=body, headers={"content-type": "application/json"}
    )
    t = time.perf_counter()
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            ok = r.status == 200 and json.load(r)["winning_moves"] == ["1 4 5"]
            why = "wrong answer"
    except Exception as e:
        ok, why = False, repr(e)[:200]
    out.append(time.perf_counter() - t if ok else why)
    time.sleep(0.05)
print(json.dumps(out))
"""


async def _flood(url: str, stop: Path) -> tuple[list[tuple[str, int]], list[float | str]]:
    host, port = url.removeprefix("http://").split(":")
    reqs = _hostile(random.Random(23), 300 - 5)
    tasks = [asyncio.create_task(_send(host, int(port), k, d)) for k, d in reqs]
    probe = await asyncio.create_subprocess_exec(
        sys.executable, "-c", PROBE, url, str(stop), stdout=asyncio.subprocess.PIPE
    )
    try:
        answers = await asyncio.wait_for(asyncio.gather(*tasks), timeout=FLOOD_SECONDS)
    finally:
        stop.write_text("done")
        out, _ = await asyncio.wait_for(probe.communicate(), timeout=FLOOD_SECONDS)
    return answers, json.loads(out)


def test_hostile_flood(server: tuple[str, Path], tmp_path: Path) -> None:
    url, log_path = server
    t0 = time.monotonic()
    answers, probes = asyncio.run(_flood(url, tmp_path / "stop"))
    took = time.monotonic() - t0
    assert len(answers) == 300
    bad = [(k, s) for k, s in answers if not (200 <= s < 500)]
    assert not bad, bad
    kinds = {k for k, _ in answers}
    assert {"malformed", "nested", "huge", "unknown", "expensive", "raw", "page"} <= kinds
    assert any(s == 422 for k, s in answers if k == "expensive")  # the time limit did stop them
    refused = [x for x in probes if isinstance(x, str)]
    latencies = [float("inf") if isinstance(x, str) else x for x in probes]  # refusals: slow
    assert len(latencies) >= 5, (latencies, refused, took)
    median = statistics.median(latencies)
    print(
        f"flood of 300: {took:.1f} s; cheap request: median {median * 1000:.0f} ms, "
        f"max {max(latencies) * 1000:.0f} ms, {len(latencies)} probes"
    )
    assert median < 0.2, (sorted(latencies), refused)
    log = log_path.read_text(errors="replace")
    assert "Traceback" not in log and "unexpected error" not in log, log[-3000:]
    # and the server still answers at once
    with urllib.request.urlopen(url + "/api/games", timeout=5) as r:
        assert r.status == 200 and json.load(r)


CRASH = """
import os
import signal

import nimlab


@nimlab.heap_game("flood-crash", heaps=1, summary="one heap; a move function whose process is killed at 13")
def crash(h):
    if h[0] == 13:
        os.kill(os.getpid(), signal.SIGKILL)
    if h[0]:
        yield (h[0] - 1,)
"""


def test_worker_processes(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from nimlab.web.app import create_app
    from nimlab.web.limits import Limits
    from nimlab.web.service import GameMenu

    f = tmp_path / "crash_games.py"
    f.write_text(CRASH)
    lim = Limits(workers=1, time_limit=20, max_positions=1_000, processes=True)
    with TestClient(create_app(lim, menu=GameMenu.at_startup([f]))) as c:
        # a search over its budget, in a worker process: its error type crosses over
        r = c.post(
            "/api/analysis",
            json={
                "game": "subtraction",
                "params": {"S": "1,2,3"},
                "position": "5000",
                "misere": True,
            },
        )
        assert r.status_code == 422 and r.json()["type"] == "SearchTooLargeError", r.text
        # the operator's game is played by the worker processes too
        r = c.post("/api/analysis", json={"game": "flood-crash", "position": "5"})
        assert r.status_code == 200 and r.json()["value"] == 1, r.text
        # a worker that dies is reported in one line, and new workers serve what follows
        r = c.post("/api/analysis", json={"game": "flood-crash", "position": "20"})
        assert r.status_code == 422 and r.json()["type"] == "WorkerLost", r.text
        r = c.post("/api/analysis", json={"game": "flood-crash", "position": "12"})
        assert r.status_code == 200 and r.json()["value"] == 0, r.text
