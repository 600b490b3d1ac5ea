"""The playground's JSON API and pages through the framework's test client.

Values are checked against nimlab's own API (itself tested against exhaustive search) and
against facts of the papers (Bouton's winning move, Naito's Nim_2 move).
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

import nimlab
from nimlab.web.app import create_app
from nimlab.web.limits import Limits, TooSlow, WorkerPool

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app()) as c:
        yield c


def post(client: TestClient, path: str, **body: Any) -> Any:
    return client.post(path, json=body)


def ok(client: TestClient, path: str, **body: Any) -> Any:
    r = post(client, path, **body)
    assert r.status_code == 200, r.text
    return r.json()


def refused(client: TestClient, path: str, status: int, **body: Any) -> str:
    r = post(client, path, **body)
    assert r.status_code == status, r.text
    data = r.json()
    assert set(data) == {"error", "type"}
    assert data["error"] and "\n" not in data["error"] and "Traceback" not in data["error"]
    return str(data["error"])


# -- answers ------------------------------------------------------------------------------


def test_games_lists_the_registry(client: TestClient) -> None:
    games = client.get("/api/games").json()
    assert [g["name"] for g in games] == [i.name for i in nimlab.games()]
    moore = next(g for g in games if g["name"] == "moore")
    assert moore["params"] == [
        {"name": "k", "doc": moore["params"][0]["doc"], "required": True, "default": None}
    ]
    assert "S19-T5" in moore["theorems"]


def test_analysis_of_nim_345(client: TestClient) -> None:
    a = ok(client, "/api/analysis", game="nim", position="3 4 5", explain=True)
    assert a["outcome"] == "N" and a["value"] == 2
    assert a["winning_moves"] == ["1 4 5"]
    opts = {o["position"]: o for o in a["options"]}
    assert len(opts) == 12
    assert [p for p, o in opts.items() if o["winning"]] == ["1 4 5"]
    for p, o in opts.items():
        heaps = tuple(map(int, p.split()))
        assert o["value"] == nimlab.grundy("nim", heaps)
    e = a["explanation"]
    assert e["move"] == "1 4 5" and e["theorem"] == "S19-T1"
    assert e["table"]["digit_sums_before"] == [0, 1, 0]
    assert "nim-sum: 2 → 0" in e["text"]


def test_analysis_of_moore_k2_follows_naito(client: TestClient) -> None:
    a = ok(client, "/api/analysis", game="moore", params={"k": 2}, position="3 4 5 9", explain=True)
    assert a["game"] == "moore(k=2)"
    assert a["explanation"]["move"] == "1 4 5 5"
    assert a["explanation"]["table"]["digit_sums_before"] == [1, 2, 1, 0]
    assert "1 4 5 5" in a["winning_moves"]


def test_misere_analysis(client: TestClient) -> None:
    a = ok(client, "/api/analysis", game="nim", position="1 1", misere=True)
    assert a["outcome"] == "N" and a["value"] is None
    assert [o["position"] for o in a["options"] if o["winning"]] == ["0 1", "1 0"]
    p = ok(client, "/api/analysis", game="nim", position="1 1 1", misere=True)
    assert p["outcome"] == "P" and p["winning_moves"] == []


def test_views_follow_the_position_shape(client: TestClient) -> None:
    e = ok(client, "/api/position", game="emperor", position="1,2 3,3 4")
    assert e["view"] == {"kind": "groups", "groups": [[1, 2], [3, 3], [4]], "text": "1,2 3,3 4"}
    t = ok(client, "/api/position", game="turtles", position="2,3 1,1")
    assert t["view"]["kind"] == "board" and t["view"]["heads"] == [[1, 1], [2, 3]]
    assert t["position"] == "1,1 2,3"
    s = ok(client, "/api/position", game="subtraction", params={"S": "1,3,4"}, position="0")
    assert s["terminal"] is True


def test_moves_and_computer(client: TestClient) -> None:
    m = ok(client, "/api/move", game="nim", position="3 4 5", move="3:1")
    assert m["position"] == "3 4 1" and m["terminal"] is False
    m = ok(client, "/api/move", game="nim", position="3 4 5", move="1 4 5")
    assert m["position"] == "1 4 5"
    m = ok(client, "/api/move", game="moore", params={"k": "2"}, position="3 4 5", move="1 2 5")
    assert m["position"] == "1 2 5"
    c = ok(client, "/api/computer", game="nim", position="3 4 5", strength="perfect")
    assert c["position"] == "1 4 5" and c["how"] == "winning move"
    c = ok(client, "/api/computer", game="nim", position="1 2 3", strength="perfect")
    assert nimlab.outcome("nim", tuple(map(int, c["position"].split()))) == nimlab.Outcome.N
    for strength in ("random", "mixed"):
        c = ok(client, "/api/computer", game="nim", position="3 4 5", strength=strength, seed=3)
        assert tuple(map(int, c["position"].split())) in nimlab.moves("nim", (3, 4, 5))
    last = ok(client, "/api/computer", game="nim", position="0 0 2")
    assert last["position"] == "0 0 0" and last["terminal"] is True


def test_random_position_is_valid(client: TestClient) -> None:
    for name, params in [
        ("nim", {}),
        ("wythoff", {}),
        ("welter", {}),
        ("emperor", {}),
        ("turtles", {}),
        ("moore", {"k": "2"}),
        ("lim", {}),
    ]:
        r = ok(client, "/api/random", game=name, params=params, size=7, seed=5)
        g = nimlab.game(name, **params)
        pos = g.parse_position(r["position"].split())
        assert g.format_position(pos) == r["position"]
        assert r["terminal"] is False


def test_tree_table_multiplayer(client: TestClient) -> None:
    t = ok(client, "/api/tree", game="nim", position="1 2")
    assert t["nodes"] == 12 and t["svg"].startswith("<svg")
    big = ok(client, "/api/tree", game="nim", position="3 4 5")
    assert big["nodes"] <= 60 and (big["dag"] or big["depth"] is not None)
    tab = ok(client, "/api/table", game="wythoff", position="3 5", size=8)
    assert tab["rows"][3][5] == 0 and tab["mark"] == [3, 5]
    assert tab["rows"][4][7] == nimlab.grundy("wythoff", (4, 7))
    mis = ok(client, "/api/table", game="nim", position="1 1", size=3, misere=True)
    assert mis["rows"][1][1] == "N" and mis["rows"][0][1] == "P"
    welter = ok(client, "/api/table", game="welter", position="1 2", size=3)
    assert welter["rows"][1][1] is None  # equal heaps are not positions of Welter's game
    mp = ok(client, "/api/multiplayer", game="nim", position="2 2 2", players=3, preference="0,1,2")
    assert mp["last_mover"] == nimlab.last_mover("nim", (2, 2, 2), 3, nimlab.games_profile(0, 1, 2))
    assert mp["profile"] == "GAMEs(0,1,2)"


def test_sessions_do_not_share_games(client: TestClient) -> None:
    # the server keeps no game: two interleaved games each see only their own position
    a = ok(client, "/api/move", game="nim", position="3 4 5", move="3:1")
    b = ok(client, "/api/move", game="nim", position="7 7", move="1:2")
    a2 = ok(client, "/api/computer", game="nim", position=a["position"])
    b2 = ok(client, "/api/computer", game="nim", position=b["position"])
    assert a2["position"] == "1 4 1" or tuple(map(int, a2["position"].split())) in nimlab.moves(
        "nim", (3, 4, 1)
    )
    assert b2["position"] == "2 2"


# -- bad input: a clear one-line message and a 4xx status, never a traceback -------------


@pytest.mark.parametrize(
    ("body", "status", "needle"),
    [
        ({"game": "nimm", "position": "1"}, 400, "unknown game 'nimm'; did you mean nim"),
        ({"game": "moore", "position": "1 2"}, 400, "moore needs parameter k"),
        ({"game": "moore", "params": {"k": "two"}, "position": "1"}, 400, "must be an integer"),
        ({"game": "moore", "params": {"k": "0"}, "position": "1"}, 400, "k"),
        ({"game": "nim", "params": {"q": "1"}, "position": "1"}, 400, "nim has no parameter 'q'"),
        ({"game": "nim", "position": "3 -4"}, 400, "heap 2 is -4"),
        ({"game": "nim", "position": "3 x"}, 400, "cannot read 'x' as a heap"),
        ({"game": "wythoff", "position": "1 2 3"}, 400, "exactly 2 heaps"),
        ({"game": "welter", "position": "2 2"}, 400, "welter"),
        ({"game": "turtles", "position": "0,1"}, 400, "coordinates start at 1"),
        ({"game": "nim", "position": "1 " * 60}, 400, "at most 40 heaps"),
        ({"game": "nim", "position": "9" * 1001}, 422, "position"),
        ({"game": "nim"}, 422, "position: this field is required"),
        ({"position": "1"}, 422, "game: this field is required"),
        ({"game": "nim", "position": "1", "extra": 1}, 422, "extra"),
        ({"game": "nim", "position": 5}, 422, "position"),
        ({"game": "nim", "position": "1", "params": ["k"]}, 422, "params"),
        ({"game": "nim", "position": "1", "params": {"k": [1]}}, 422, "params"),
        ({"game": "", "position": "1"}, 422, "game"),
        ({"game": "x" * 65, "position": "1"}, 422, "game"),
        ({"game": "nim", "position": "1", "explain": "maybe"}, 422, "explain"),
    ],
)
def test_bad_analysis_requests(
    client: TestClient, body: dict[str, Any], status: int, needle: str
) -> None:
    assert needle in refused(client, "/api/analysis", status, **body)


@pytest.mark.parametrize(
    ("move", "needle"),
    [
        ("3 5 5", "illegal move: 3 5 5 cannot be reached from 3 4 5"),
        ("3 4 5", "is the current position"),
        ("4:1", "there is no heap 4"),
        ("1:x", "cannot read '1:x'"),
        ("3 4", "illegal move"),
        ("", "type a move"),
        ("1:-1", "heap 1 is -1"),
    ],
)
def test_illegal_moves(client: TestClient, move: str, needle: str) -> None:
    assert needle in refused(client, "/api/move", 400, game="nim", position="3 4 5", move=move)


def test_other_refusals(client: TestClient) -> None:
    assert "game is over" in refused(client, "/api/computer", 400, game="nim", position="0 0")
    assert "strength" in refused(
        client, "/api/computer", 422, game="nim", position="1", strength="godlike"
    )
    assert "two heaps" in refused(client, "/api/table", 400, game="nim", position="1 2 3")
    assert "size" in refused(client, "/api/table", 422, game="nim", position="1 2", size=500)
    assert "players" in refused(
        client, "/api/multiplayer", 422, game="nim", position="1", players=99
    )
    assert "preference" in refused(
        client, "/api/multiplayer", 400, game="nim", position="1 2", players=3, preference="0,x"
    )
    assert "size" in refused(client, "/api/random", 422, game="nim", size=0)
    # a position far too large to play: refused before any move is listed
    huge = "1" + "0" * 100
    assert "moves" in refused(client, "/api/move", 400, game="nim", position=huge, move="1:0")
    # ... but closed forms still analyse it: Bouton's winning move on 100-digit heaps
    a = ok(client, "/api/analysis", game="nim", position=f"{huge} 5")
    assert a["winning_moves"] == ["5 5"] and a["options"] == [] and "options_note" in a
    assert "tree" in refused(client, "/api/tree", 400, game="nim", position=huge)


def test_search_over_budget_is_refused() -> None:
    with TestClient(create_app(Limits(max_positions=1_000))) as c:
        msg = refused(
            c,
            "/api/analysis",
            422,
            game="subtraction",
            params={"S": "1,2,3"},
            position="5000",
            misere=True,
        )
        assert "1,000 positions" in msg


def test_time_limit_and_busy_server(monkeypatch: pytest.MonkeyPatch) -> None:
    from nimlab.web import service

    def slow(*args: Any, **kwargs: Any) -> dict[str, Any]:
        time.sleep(0.5)
        return {}

    monkeypatch.setattr(service, "analyse", slow)
    with TestClient(create_app(Limits(time_limit=0.05))) as c:
        t0 = time.perf_counter()
        msg = refused(c, "/api/analysis", 422, game="nim", position="1 2")
        assert "time limit of 0.05 s" in msg and time.perf_counter() - t0 < 0.4
    with TestClient(create_app(Limits(max_waiting=0))) as c:
        r = c.post("/api/analysis", json={"game": "nim", "position": "1"})
        assert r.status_code == 429 and r.headers["retry-after"] == "5"
        assert "busy" in r.json()["error"]


def test_worker_pool_holds_a_slot_until_the_work_ends() -> None:
    pool = WorkerPool(Limits(workers=1, fast_workers=0, time_limit=0.1))
    ended = threading.Event()

    def slow() -> int:
        time.sleep(0.3)
        ended.set()
        return 1

    async def scenario() -> tuple[str, str, int]:
        first = await _outcome(pool.run(slow))
        # the slow work still runs: the next request waits for its slot, past its limit
        second = await _outcome(pool.run(int, "2"))
        await asyncio.sleep(0.35)
        third = await pool.run(int, "3")
        return first, second, third

    assert asyncio.run(scenario()) == ("TooSlow", "TooSlow", 3)
    assert ended.is_set()
    pool.shutdown()


async def _outcome(aw: Any) -> str:
    try:
        await aw
    except TooSlow:
        return "TooSlow"
    return "done"


def test_too_large_requests(client: TestClient) -> None:
    big = json.dumps({"game": "nim", "position": "1", "move": " " * 20_000})
    r = client.post("/api/move", content=big, headers={"content-type": "application/json"})
    assert r.status_code == 413 and "larger than 16,384 bytes" in r.json()["error"]

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it arrives
        for _ in range(40):
            yield b" " * 1000

    r = client.post("/api/move", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413
    r = client.post("/api/move", content=b"{", headers={"content-type": "application/json"})
    assert r.status_code == 422 and r.json()["error"] == "the request body is not valid JSON"
    r = client.post("/api/move", content=b"[]", headers={"content-type": "application/json"})
    assert r.status_code == 422


# -- pages --------------------------------------------------------------------------------


def test_pages(client: TestClient) -> None:
    home = client.get("/")
    assert home.status_code == 200
    for info in nimlab.games():
        assert f'href="/game/{info.name}"' in home.text
    setup = client.get("/game/moore")
    assert 'name="p.k"' in setup.text and "S19-T5" in setup.text
    play = client.get("/play", params={"game": "moore", "p.k": "2", "position": "3 4 5"})
    assert play.status_code == 200 and "moore(k=2)" in play.text
    assert "/static/play.js" in play.text
    api = client.get("/api")
    assert "/api/analysis" in api.text and client.get("/openapi.json").status_code == 200
    for asset in ("play.js", "common.js", "setup.js", "multiplayer.js", "app.css"):
        assert client.get(f"/static/{asset}").status_code == 200
    assert "cdn" not in (home.text + play.text).lower()


def test_page_errors_are_messages(client: TestClient) -> None:
    r = client.get("/play", params={"game": "nim", "position": "3 -4"})
    assert r.status_code == 400
    assert 'role="alert"' in r.text and "heap 2 is -4, but heaps must be integers &gt;= 0" in r.text
    r = client.get("/game/nimm")
    assert r.status_code == 400 and "unknown game" in r.text
    r = client.get("/nowhere")
    assert r.status_code == 404 and "no page at /nowhere" in r.text
    r = client.get("/theorem/S19-T99")  # no such result: a page that does not exist
    assert r.status_code == 404 and "S19-T99" in r.text and 'role="alert"' in r.text
    assert client.get("/theorem/S19-T1").status_code == 200
    r = client.get("/play")
    assert r.status_code == 400 and "choose a game" in r.text


def test_serve_is_lazy_and_light() -> None:
    code = (
        "import sys; from nimlab.cli import main; rc = main(['grundy','nim','3','4','5']);"
        "web = [m for m in ('fastapi','uvicorn','starlette','jinja2') if m in sys.modules];"
        "print(web)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert out.stdout.strip().endswith("[]"), out.stdout + out.stderr
    help_text = subprocess.run(
        [sys.executable, "-m", "nimlab", "serve", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
    assert "--host" in help_text and "127.0.0.1" in help_text
