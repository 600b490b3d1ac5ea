"""A web request never runs code: the playground plays only the games it was started with.

A game file that writes a marker file when it is imported is named, in every way a
request can name a game (JSON bodies, query strings, form data, URL paths, parameters
that hold games), at every endpoint and page of the app. The file must never be imported
(the marker never appears) and every such request is refused with a 4xx status: 400 for a
name the menu refuses, 404 for a page that does not exist, 422 for a body that is not the
endpoint's JSON (form data). The games of files the operator names when the server
starts (``nimlab serve my_games.py``) are served, by their registered names only.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient

import nimlab
from nimlab.catalog.registry import no_game_files
from nimlab.web.app import create_app
from nimlab.web.service import GameMenu

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

EVIL = """
import pathlib
pathlib.Path({marker!r}).write_text("imported")
import nimlab


@nimlab.heap_game("webevil-{tag}", heaps=1)
def webevil(h):
    if h[0]:
        yield (h[0] - 1,)
"""

API = [
    "/api/position",
    "/api/random",
    "/api/move",
    "/api/computer",
    "/api/analysis",
    "/api/tree",
    "/api/table",
    "/api/multiplayer",
]


@pytest.fixture(scope="module")
def evil(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path]]:
    d = tmp_path_factory.mktemp("evil")
    marker = d / "MARKER"
    (d / "e.py").write_text(EVIL.format(marker=str(marker), tag="a"))
    (d / "E.PY").write_text(EVIL.format(marker=str(marker), tag="b"))
    old = Path.cwd()
    os.chdir(d)  # relative specs (e.py:x) name the evil file too
    try:
        yield d, marker
    finally:
        os.chdir(old)


@pytest.fixture(scope="module")
def client(evil: tuple[Path, Path]) -> Iterator[TestClient]:
    with TestClient(create_app(), raise_server_exceptions=False) as c:
        yield c


def _names(d: Path) -> list[str]:
    """Every way of naming the evil file's game (absolute, relative, odd spellings)."""
    a = str(d / "e.py")
    return [
        f"{a}:webevil-a",
        "e.py:webevil-a",
        "./e.py:webevil-a",
        "E.PY:webevil-b",
        f"{d}/../{d.name}/e.py:webevil-a",
        f"{a}",
        f"{a}:",
        "..\\e.py:webevil-a",
        f"file://{a}:webevil-a",
        f" {a}:webevil-a ",
        "webevil-a",  # the name the file would register: not a game of this server
        "e.py",
        "e",
    ]


def _body(path: str, game: str, **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"game": game, "position": "3"}
    if path == "/api/random":
        body.pop("position")
    if path == "/api/move":
        body["move"] = "2"
    return {**body, **extra}


def _refused(r: Any, *statuses: int) -> None:
    assert r.status_code in statuses, (r.request.url, r.status_code, r.text[:300])


@pytest.mark.parametrize("path", API)
def test_no_api_request_imports_a_game_file(
    client: TestClient, evil: tuple[Path, Path], path: str
) -> None:
    d, marker = evil
    a = str(d / "e.py")
    for name in _names(d):
        # the JSON body, as the pages send it
        r = client.post(path, json=_body(path, name))
        _refused(r, 400, 422)  # 422 only for the names longer than the field allows
        if r.status_code == 400:
            assert r.json()["type"] == "UnknownGameError", r.text
        # the same as form data, and in the query string too
        _refused(client.post(path, data=_body(path, name)), 422)
        _refused(client.post(path, params={"game": name}, json=_body(path, name)), 400, 422)
    # games hidden in parameters: rgames' one-heap games are read from game specs
    for spec in (f"{a}:webevil-a", "e.py:webevil-a", "webevil-a"):
        for params in ({"g0": spec, "parts": "nim"}, {"g0": "nim", "parts": f"nim;{spec}"}):
            body = _body(path, "rgames", params=params)
            if "position" in body:
                body["position"] = "3 4"
            _refused(client.post(path, json=body), 400)
    assert not marker.exists(), "a web request imported a game file"


def test_no_page_imports_a_game_file(client: TestClient, evil: tuple[Path, Path]) -> None:
    d, marker = evil
    a = str(d / "e.py")
    for name in _names(d):
        # pages: the path, the query string, form data
        _refused(client.get("/game/" + quote(name, safe="")), 400, 404)
        _refused(client.get("/play", params={"game": name, "position": "3"}), 400)
        _refused(client.get("/teacher", params={"game": name}), 400)
        _refused(client.get("/theorem/" + quote(name, safe="")), 400, 404)
        _refused(client.post("/play", data={"game": name, "position": "3"}), 404, 405)
        _refused(client.post("/game/" + quote(name, safe=""), data={"game": name}), 404, 405)
    for spec in (f"{a}:webevil-a", "e.py:webevil-a", "webevil-a"):
        for params in ({"g0": spec, "parts": "nim"}, {"g0": "nim", "parts": f"nim;{spec}"}):
            q = {"game": "rgames", "position": "3 4", **{f"p.{k}": v for k, v in params.items()}}
            _refused(client.get("/play", params=q), 400)
            _refused(client.get("/teacher", params=q), 400)
            _refused(client.get("/game/rgames", params=q), 200)  # the form, not computed
    # pages without a game, with the names in their query strings
    for page in ("/", "/multiplayer", "/api", "/api/games", "/openapi.json"):
        r = client.get(page, params={"game": f"{a}:webevil-a", "p.g0": f"{a}:webevil-a"})
        assert r.status_code == 200
    # the static files are the package's own: no path leaves their folder
    for p in ("/static/../../e.py", "/static/%2e%2e/%2e%2e/e.py", "/static/" + quote(a)):
        _refused(client.get(p), 404)
    assert not marker.exists(), "a web request imported a game file"
    assert "webevil-a" not in [i.name for i in nimlab.games()]


# every route of the app, and how the tests above name the evil file through it
COVERED = {
    **{path: "JSON body, form data, query string, rgames' parameters" for path in API},
    "/game/{name}": "URL path",
    "/play": "query string (game and p.* parameters), form data",
    "/teacher": "query string (game and p.* parameters)",
    "/theorem/{tid}": "URL path",
    "/": "query string (ignored)",
    "/multiplayer": "query string (ignored)",
    "/api": "query string (ignored)",
    "/api/games": "query string (ignored)",
    "/openapi.json": "query string (ignored)",
    "/static": "path traversal",
    "/favicon.ico": "a file of the package, no input",
}


def test_every_route_is_covered() -> None:
    # a new endpoint or page fails here until the tests above send it the evil file
    routes = {getattr(r, "path", "") for r in create_app().routes}
    assert routes == set(COVERED), routes ^ set(COVERED)


def test_refusal_is_one_line_with_the_way_out(client: TestClient, evil: tuple[Path, Path]) -> None:
    d, _ = evil
    r = client.post("/api/analysis", json={"game": f"{d}/e.py:webevil-a", "position": "3"})
    assert r.status_code == 400
    msg = r.json()["error"]
    assert "\n" not in msg and "started with" in msg and "a file cannot be named" in msg
    r = client.get("/play", params={"game": "e.py:webevil-a"})
    assert r.status_code == 400 and "started with" in r.text
    # a parameter called "name" is the game's business, not the registry's (was a 500)
    r = client.post("/api/analysis", json={"game": "nim", "params": {"name": "x"}, "position": "3"})
    assert r.status_code == 400 and r.json()["type"] == "InvalidParameterError", r.text
    # a name from the menu still works, by name or alias, in any case
    for name in ("moore", "Nim-K", "NIM_K", "MooreNim"):
        r = client.post(
            "/api/analysis", json={"game": name, "params": {"k": "2"}, "position": "1 2"}
        )
        assert r.status_code == 200, r.text


def test_the_menu_is_fixed_when_the_server_starts() -> None:
    app = create_app()
    with TestClient(app) as c:

        @nimlab.heap_game("registered-after-start-web", heaps=1)
        def late(h: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
            if h[0]:
                yield (h[0] - 1,)

        assert nimlab.grundy("registered-after-start-web", (3,)) == 1  # Python sees it
        r = c.post("/api/analysis", json={"game": "registered-after-start-web", "position": "3"})
        assert r.status_code == 400 and r.json()["type"] == "UnknownGameError"
        assert "registered-after-start-web" not in [g["name"] for g in c.get("/api/games").json()]


def test_no_game_files_guard(evil: tuple[Path, Path]) -> None:
    d, marker = evil
    with no_game_files():
        with pytest.raises(nimlab.UnknownGameError, match="loads no game file"):
            nimlab.game(f"{d}/e.py:webevil-a")
        with pytest.raises(nimlab.InvalidParameterError, match="loads no game file"):
            nimlab.game("rgames", g0=f"{d}/e.py:webevil-a", parts="nim")
    assert not marker.exists()


def test_operator_files_are_served_by_name(evil: tuple[Path, Path], tmp_path: Path) -> None:
    _, marker = evil
    # a copy of the example file: a file already loaded in this process (or another file
    # defining a game of the same name, as other tests do) is not read again
    mine = tmp_path / "my_games.py"
    mine.write_text((EXAMPLES / "my_games.py").read_text(encoding="utf-8"), encoding="utf-8")
    menu = GameMenu.at_startup([mine])
    with TestClient(create_app(menu=menu)) as c:
        games = {g["name"]: g for g in c.get("/api/games").json()}
        # a move function (heap_game) and a ruleset class, with their own summaries
        assert games["pow2-both"]["summary"].startswith("two heaps; take any number")
        assert games["take-1-or-halve"]["summary"].startswith("one heap; take 1 stone")
        home = c.get("/").text
        assert 'href="/game/pow2-both"' in home and "take half of an even heap" in home
        r = c.post("/api/analysis", json={"game": "pow2-both", "position": "3 5"})
        assert r.status_code == 200
        assert r.json()["value"] == nimlab.grundy("pow2-both", (3, 5)) == 2

        # the class game against a search of its own rules written here
        def g(n: int, memo: dict[int, int] = {}) -> int:  # noqa: B006
            if n not in memo:
                opts = {g(n - 1)} if n else set()
                if n >= 2 and n % 2 == 0:
                    opts.add(g(n // 2))
                memo[n] = min(set(range(len(opts) + 1)) - opts)
            return memo[n]

        for n in range(12):
            r = c.post("/api/analysis", json={"game": "take-1-or-halve", "position": str(n)})
            assert r.status_code == 200 and r.json()["value"] == g(n), (n, r.text)
        # by its registered name only: the file spec that loaded it is refused
        spec = f"{EXAMPLES / 'my_games.py'}:pow2-both"
        r = c.post("/api/analysis", json={"game": spec, "position": "3 5"})
        assert r.status_code == 400
        assert c.get("/game/pow2-both").status_code == 200
        assert (
            c.get("/play", params={"game": "take-1-or-halve", "position": "6"}).status_code == 200
        )
    assert not marker.exists()


def test_serve_loads_several_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn
    from click.testing import CliRunner

    from nimlab.cli import serve_cmd

    other = tmp_path / "more_games.py"
    other.write_text(
        "import nimlab\n"
        "@nimlab.heap_game('serve-take-two', heaps=1, summary='one heap; take 1 or 2')\n"
        "def f(h):\n"
        "    for t in (1, 2):\n"
        "        if t <= h[0]:\n"
        "            yield (h[0] - t,)\n"
    )
    from nimlab.web.limits import WorkerPool

    served: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: served.append(app))
    monkeypatch.setattr(WorkerPool, "start", _no_start)  # no worker processes needed here
    run = CliRunner().invoke(
        serve_cmd.serve_cmd, [str(EXAMPLES / "my_games.py"), str(other), "--port", "0"]
    )
    assert run.exit_code == 0, run.output
    with TestClient(served[0]) as c:
        games = {g["name"]: g["summary"] for g in c.get("/api/games").json()}
        assert games["serve-take-two"] == "one heap; take 1 or 2" and "pow2-both" in games
        r = c.post("/api/analysis", json={"game": "serve-take-two", "position": "7"})
        assert r.json()["value"] == 7 % 3
    for bad, needle in (
        (f"{EXAMPLES / 'my_games.py'}:pow2-both", "not FILE.py:NAME"),
        (str(tmp_path / "none.py"), "no game file"),
        (str(tmp_path), "not a Python file"),
    ):
        run = CliRunner().invoke(serve_cmd.serve_cmd, [bad, "--port", "0"])
        assert run.exit_code != 0 and needle in str(run.exception or run.output), run.output


async def _no_start(self: object) -> None:
    return None


def test_a_file_class_cannot_take_a_catalog_name(tmp_path: Path) -> None:
    f = tmp_path / "clash.py"
    f.write_text(
        "from dataclasses import dataclass\n"
        "import nimlab\n"
        "@dataclass(frozen=True)\n"
        "class MyNim(nimlab.HeapRuleset):\n"
        "    name = 'nim'\n"
        "    def moves(self, position):\n"
        "        return iter(())\n"
    )
    with pytest.raises(nimlab.GameDefinitionError, match="the name of the game 'nim'"):
        GameMenu.at_startup([f])
    assert nimlab.grundy("nim", (3, 4, 5)) == 2  # the catalog's Nim is still Nim


def test_refusals_speak_the_playground() -> None:
    # a search over the playground's budget: no command-line options or Python in the advice
    from nimlab.web.limits import Limits

    with TestClient(create_app(Limits(max_positions=1_000, max_moves=5_000))) as c:
        for path, body in (
            (
                "/api/analysis",
                {
                    "game": "subtraction",
                    "params": {"S": "1,2,3"},
                    "position": "5000",
                    "misere": True,
                },
            ),
            ("/api/multiplayer", {"game": "wythoff", "position": "40 60", "players": 3}),
        ):
            r = c.post(path, json=body)
            assert r.status_code == 422 and r.json()["type"].endswith("TooLargeError"), r.text
            msg = r.json()["error"]
            assert "try a smaller position" in msg, msg
            assert "--" not in msg and "command line" not in msg and "method=" not in msg, msg
