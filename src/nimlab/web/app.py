"""The FastAPI application of the playground: pages, JSON API, limits and error handling.

:func:`create_app` builds the app; ``nimlab serve`` runs it on uvicorn. Pages are Jinja2
templates; their scripts and styles are files of this package (no CDN: the page works
offline). Every computation runs through :class:`~nimlab.web.limits.WorkerPool` (a time
limit per request); errors are JSON ``{"error": ..., "type": ...}`` with a 4xx status for
the API and a message in the page for the pages, never a traceback.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from markupsafe import Markup, escape
from starlette.exceptions import HTTPException as StarletteHTTPException

import nimlab
from nimlab.catalog.registry import no_game_files
from nimlab.web import service
from nimlab.web import teacher as teacher_view
from nimlab.web.limits import Busy, Limits, RemoteError, TooSlow, WorkerPool
from nimlab.web.models import (
    AnalysisRequest,
    ComputerRequest,
    GameRequest,
    MoveRequest,
    MultiplayerRequest,
    PositionRequest,
    RandomRequest,
    TableRequest,
)

__all__ = ["create_app"]

HERE = Path(__file__).parent
log = logging.getLogger("nimlab.web")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


# -- errors -------------------------------------------------------------------------------


def _status_of(exc: BaseException) -> int:
    if isinstance(exc, Busy):
        return 429
    if isinstance(exc, (TooSlow, nimlab.SearchTooLargeError)):
        return 422
    return 400


def _error_body(message: str, kind: str) -> dict[str, str]:
    return {"error": message, "type": kind}


#: Command-line advice inside an error message, which a page reader cannot follow.
_CLI_ADVICE = re.compile(
    r" ?\((?:run `nimlab [^`]*`[^)]*|on the command line[^)]*)\)|,? or on the command line [^),]*"
)


def _first_line(message: str) -> str:
    """The message's first line, without advice for the command line (the pages and the
    JSON API speak the form's language, not the CLI's).

    Examples
    --------
    >>> _first_line("unknown game 'nimm'; did you mean nim? (run `nimlab list` to see all games)")
    "unknown game 'nimm'; did you mean nim?"
    >>> _first_line("too large; raise max_moves (on the command line: --max-moves N)")
    'too large; raise max_moves'
    """
    line = message.strip().splitlines()[0] if message.strip() else "invalid request"
    return _CLI_ADVICE.sub("", line)


def _validation_message(exc: RequestValidationError) -> str:
    parts = []
    for err in exc.errors()[:3]:
        loc = ".".join(str(x) for x in err.get("loc", ()) if x != "body")
        msg = str(err.get("msg", "invalid value"))
        if err.get("type") == "json_invalid":
            return "the request body is not valid JSON"
        if err.get("type") == "missing":
            msg = "this field is required"
        parts.append(f"{loc}: {msg}" if loc else msg)
    return "; ".join(parts) or "invalid request"


class BodyLimit:
    """ASGI middleware: refuse request bodies larger than *max_bytes* with status 413.

    The declared ``Content-Length`` is checked first; a body sent in chunks is counted
    as it arrives.
    """

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        message = (
            f"the request body is larger than {self.max_bytes:,} bytes, the limit of this server"
        )
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    await self._reject(
                        scope, send, 400, "the Content-Length header is not a number"
                    )
                    return
                if declared > self.max_bytes:
                    await self._reject(scope, send, 413, message)
                    return
        received = 0
        too_large = False
        replaced = False

        class _TooLarge(Exception):
            pass

        async def limited_receive() -> Message:
            nonlocal received, too_large
            msg = await receive()
            if msg["type"] == "http.request":
                received += len(msg.get("body", b""))
                if received > self.max_bytes:
                    too_large = True
                    raise _TooLarge
            return msg

        async def guarded_send(msg: Message) -> None:
            # once the body is known to be too large, whatever the app answers becomes a 413
            nonlocal replaced
            if too_large:
                if not replaced:
                    replaced = True
                    await self._reject(scope, send, 413, message)
                return
            await send(msg)

        try:
            await self.app(scope, limited_receive, guarded_send)
        except _TooLarge:
            if not replaced:
                replaced = True
                await self._reject(scope, send, 413, message)

    async def _reject(self, scope: Scope, send: Send, status: int, message: str) -> None:
        if str(scope.get("path", "")).startswith("/api"):
            body = json.dumps(_error_body(message, "RequestTooLarge")).encode()
            ctype = b"application/json"
        else:
            body = f"<!doctype html><title>nimlab</title><p role=alert>{message}</p>".encode()
            ctype = b"text/html; charset=utf-8"
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [(b"content-type", ctype), (b"content-length", str(len(body)).encode())],
            }
        )
        await send({"type": "http.response.body", "body": body})


# -- the app ------------------------------------------------------------------------------


def create_app(limits: Limits | None = None, *, menu: service.GameMenu | None = None) -> FastAPI:
    """Build the playground app.

    The games it plays are fixed here: *menu*, by default every game registered now (the
    catalog and the installed plugins; ``nimlab serve FILE.py`` loads the operator's files
    first). A request may name only these games, by name or alias; any other name, a path or
    a ``FILE.py:NAME`` spec is refused with status 400 before anything is read, and every
    computation runs inside :func:`~nimlab.catalog.registry.no_game_files`.

    Parameters
    ----------
    limits : Limits, optional
        Bounds of every request (defaults: :class:`~nimlab.web.limits.Limits`).
    menu : GameMenu, optional
        The games served (default: :meth:`~nimlab.web.service.GameMenu.at_startup`).

    Returns
    -------
    fastapi.FastAPI
        An ASGI app; serve it with uvicorn (``nimlab serve`` does).

    Examples
    --------
    >>> from fastapi.testclient import TestClient
    >>> with TestClient(create_app()) as client:
    ...     r = client.post("/api/analysis", json={"game": "nim", "position": "3 4 5"})
    >>> r.status_code, r.json()["outcome"], r.json()["winning_moves"]
    (200, 'N', ['1 4 5'])
    """
    lim = limits or Limits()
    games_menu = menu or service.GameMenu.at_startup()
    pool = WorkerPool(lim, service.start_worker, (games_menu.files,))
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    templates.env.globals["version"] = nimlab.__version__
    templates.env.filters["markup"] = _markup

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> Any:
        await pool.start()
        for name in templates.env.list_templates():  # compiled now, not in the first burst
            templates.env.get_template(name)
        yield
        pool.shutdown()

    app = FastAPI(
        title="nimlab playground",
        version=nimlab.__version__,
        description=(
            "Play the games of nimlab against the perfect computer and see why each move "
            "wins. Every request is stateless: send the game, its parameters and the "
            "current position. Errors are JSON objects `{error, type}` with a 4xx status."
        ),
        docs_url=None,
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.limits = lim
    app.state.pool = pool
    app.state.menu = games_menu
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    site = _Site(lim, games_menu, pool, templates)
    _add_error_handlers(app, site)
    _add_api(app, site)
    _add_pages(app, site)
    app.add_middleware(BodyLimit, max_bytes=lim.max_body_bytes)
    return app


def _wants_json(request: Request) -> bool:
    return request.url.path.startswith("/api") or request.url.path == "/openapi.json"


def _sealed(fn: Callable[..., Any], *args: Any) -> Any:
    with no_game_files():  # no request ever loads a game file, whatever it names
        return fn(*args)


def _truthy(value: str | None) -> bool:
    return value in ("1", "on", "true")


class _Site:
    """What the routes of one app share: its limits, menu, worker pool and templates."""

    def __init__(
        self,
        lim: Limits,
        games_menu: service.GameMenu,
        pool: WorkerPool,
        templates: Jinja2Templates,
    ) -> None:
        self.lim = lim
        self.menu = games_menu
        self.pool = pool
        self.templates = templates

    def page_error(self, request: Request, status: int, message: str) -> Response:
        return self.templates.TemplateResponse(
            request, "error.html", {"message": message, "status": status}, status_code=status
        )

    def error(
        self,
        request: Request,
        status: int,
        message: str,
        kind: str,
        headers: dict[str, str] | None = None,
    ) -> Response:
        """An error as JSON for the API, as a page for the pages."""
        if _wants_json(request):
            return JSONResponse(_error_body(message, kind), status_code=status, headers=headers)
        return self.page_error(request, status, message)

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await self.pool.run(_sealed, fn, *args)

    async def catalog(self) -> list[dict[str, Any]]:
        """The games of this server, fixed when it started."""
        return self.menu.entries

    async def compute(self, req: GameRequest, kind: str, **options: Any) -> dict[str, Any]:
        """The request's computation, in a worker of the pool (with its time limit). The
        game's name is checked against the menu here, before anything else: nothing is
        read or imported for a refused name."""
        task = service.Task(
            kind,
            self.menu.resolve(req.game),
            tuple(req.param_texts().items()),
            getattr(req, "position", ""),
            self.lim,
            tuple(options.items()),
        )
        result: dict[str, Any] = await self.pool.run(service.run_task, task)
        return result

    def setup_context(self, request: Request, name: str) -> dict[str, Any]:
        info = self.menu.info(self.menu.resolve(name))  # checked first: nothing is read
        q = request.query_params
        return {
            "info": info,
            "values": {
                p["name"]: q.get("p." + p["name"], p["default"] or "") for p in info["params"]
            },
            "position": q.get("position", ""),
            "misere": _truthy(q.get("misere")),
            "first": q.get("first", "human"),
            "strength": q.get("strength", "perfect"),
        }

    async def play_page(self, request: Request) -> Response:
        q = request.query_params
        name = q.get("game", "")
        if not name:
            raise nimlab.UnknownGameError("choose a game: /play?game=nim&position=3+4+5")
        ctx = self.setup_context(request, name)
        canonical = ctx["info"]["name"]
        params = {k[2:]: v for k, v in q.multi_items() if k.startswith("p.")}
        lim = self.lim

        def work() -> dict[str, Any]:
            g = service.build_game(canonical, params)
            pos = service.read_position(g, ctx["position"], lim)
            return {**service.state(g, pos, lim), "params": {k: v for k, v in params.items() if v}}

        try:
            init = await self.run(work)
        except nimlab.NimlabError as e:
            ctx["error"] = _first_line(str(e))
            return self.templates.TemplateResponse(request, "setup.html", ctx, status_code=400)
        if ctx["first"] not in ("human", "computer") or ctx["strength"] not in service.STRENGTHS:
            ctx["error"] = "first must be human or computer; strength perfect, random or mixed"
            return self.templates.TemplateResponse(request, "setup.html", ctx, status_code=400)
        init.update(
            name=ctx["info"]["name"],
            misere=ctx["misere"],
            first=ctx["first"],
            strength=ctx["strength"],
        )
        return self.templates.TemplateResponse(
            request, "play.html", {**ctx, "init": init, "two_heaps": _two_heaps(init)}
        )

    async def teacher_page(self, request: Request) -> Response:
        """A printable sheet: positions chosen P or N at a difficulty, answers at the end."""
        q = request.query_params
        form = {
            "game": q.get("game", ""),
            "outcome": q.get("outcome", "N"),
            "difficulty": q.get("difficulty", "easy"),
            "count": q.get("count", "8"),
            "misere": _truthy(q.get("misere")),
            "answers": _truthy(q.get("answers", "1")),
        }
        ctx: dict[str, Any] = {
            "games": await self.catalog(),
            "form": form,
            "sheet": None,
            "info": None,
        }
        if form["game"]:
            ctx["info"] = self.setup_context(request, str(form["game"]))["info"]
            canonical = ctx["info"]["name"]
            params = {k[2:]: v for k, v in q.multi_items() if k.startswith("p.") and v}
            ctx["params"] = params
            lim = self.lim

            def work() -> dict[str, Any]:
                try:
                    count = int(str(form["count"]))
                except ValueError:
                    raise service.WebInputError("the number of positions is a number") from None
                g = service.build_game(canonical, params)
                return teacher_view.sheet(
                    g,
                    str(form["outcome"]),
                    str(form["difficulty"]),
                    count,
                    bool(form["misere"]),
                    lim,
                )

            try:
                ctx["sheet"] = await self.run(work)
            except nimlab.NimlabError as e:
                ctx["error"] = _first_line(str(e))
                return self.templates.TemplateResponse(
                    request, "teacher.html", ctx, status_code=400
                )
        return self.templates.TemplateResponse(request, "teacher.html", ctx)


def _add_error_handlers(app: FastAPI, site: _Site) -> None:
    """Errors as ``{error, type}`` JSON with a 4xx status for the API, a page for pages."""

    @app.exception_handler(RequestValidationError)
    async def on_validation(request: Request, exc: RequestValidationError) -> Response:
        return site.error(request, 422, _validation_message(exc), "InvalidRequest")

    @app.exception_handler(nimlab.NimlabError)
    async def on_nimlab(request: Request, exc: nimlab.NimlabError) -> Response:
        return site.error(request, _status_of(exc), _first_line(str(exc)), type(exc).__name__)

    @app.exception_handler(RemoteError)
    async def on_remote(request: Request, exc: RemoteError) -> Response:
        return site.error(request, exc.status, _first_line(str(exc)), exc.kind)

    @app.exception_handler(Busy)
    @app.exception_handler(TooSlow)
    async def on_limit(request: Request, exc: Exception) -> Response:
        status = _status_of(exc)
        headers = {"Retry-After": "5"} if status == 429 else None
        return site.error(request, status, str(exc), type(exc).__name__, headers)

    @app.exception_handler(StarletteHTTPException)
    async def on_http(request: Request, exc: StarletteHTTPException) -> Response:
        msg = str(exc.detail) if exc.status_code != 404 else f"no page at {request.url.path}"
        return site.error(request, exc.status_code, msg, "HTTPError")

    @app.exception_handler(Exception)
    async def on_unexpected(request: Request, exc: Exception) -> Response:
        log.exception("unexpected error on %s", request.url.path)
        msg = "internal error: the request could not be answered (see the server log)"
        return site.error(request, 500, msg, "InternalError")


def _add_api(app: FastAPI, site: _Site) -> None:
    """The JSON API under ``/api``: each route one computation of :mod:`.service`."""
    compute = site.compute

    @app.get("/api/games", tags=["games"], summary="Every game of the registry")
    async def api_games() -> list[dict[str, Any]]:
        """Name, aliases, one-line rules, theorem ids and parameters of every game."""
        return await site.catalog()

    @app.post("/api/position", tags=["play"], summary="Validate a position")
    async def api_position(req: PositionRequest) -> dict[str, Any]:
        """The position normalised by the game's rules, its drawing and whether it is over."""
        return await compute(req, "position")

    @app.post("/api/random", tags=["play"], summary="A random position")
    async def api_random(req: RandomRequest) -> dict[str, Any]:
        """A random valid position with heaps (or coordinates) up to ``size``."""
        return await compute(req, "random", size=req.size, seed=req.seed)

    @app.post("/api/move", tags=["play"], summary="Play a move")
    async def api_move(req: MoveRequest) -> dict[str, Any]:
        """Check the player's move against the rules; the new position, or 400 if illegal."""
        return await compute(req, "move", move=req.move)

    @app.post("/api/computer", tags=["play"], summary="The computer's move")
    async def api_computer(req: ComputerRequest) -> dict[str, Any]:
        """The computer's move at the given strength, and the new position."""
        return await compute(
            req, "computer", misere=req.misere, strength=req.strength, seed=req.seed
        )

    @app.post("/api/analysis", tags=["understand"], summary="Outcome, value and options")
    async def api_analysis(req: AnalysisRequest) -> dict[str, Any]:
        """Outcome (P/N), Grundy value, every option coloured winning or losing for the
        mover, the winning moves, and with ``explain`` the explanation of the winning move
        (binary table, nim-sum, theorem id, construction)."""
        return await compute(req, "analysis", misere=req.misere, explain=req.explain)

    @app.post("/api/tree", tags=["understand"], summary="Game tree (SVG)")
    async def api_tree(req: PositionRequest) -> dict[str, Any]:
        """The game tree of a small position as SVG, shallower (or merged) when large."""
        return await compute(req, "tree")

    @app.post("/api/table", tags=["understand"], summary="Grundy table of a two-heap game")
    async def api_table(req: TableRequest) -> dict[str, Any]:
        """Grundy values (misère: P/N) of the positions (x, y), x, y < size, position marked."""
        return await compute(req, "table", misere=req.misere, size=req.size)

    @app.post("/api/multiplayer", tags=["multiplayer"], summary="Who moves last ([SM])")
    async def api_multiplayer(req: MultiplayerRequest) -> dict[str, Any]:
        """With m players and their preferences: the last mover under perfect play, every
        option's last mover and the options the player to move picks."""
        return await compute(
            req,
            "multiplayer",
            players=req.players,
            preference=req.preference,
            to_move=req.to_move,
        )


def _add_pages(app: FastAPI, site: _Site) -> None:
    """The pages: home, a game's setup, play, the teacher's sheet, results, multiplayer."""
    templates = site.templates

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def index(request: Request) -> Response:
        games = await site.catalog()
        return templates.TemplateResponse(request, "index.html", {"games": games})

    @app.get("/game/{name}", response_class=HTMLResponse, include_in_schema=False)
    async def setup(request: Request, name: str) -> Response:
        ctx = site.setup_context(request, name)
        if not ctx["position"]:
            ctx["position"] = await site.run(_example_position, ctx, site.lim)
        return templates.TemplateResponse(request, "setup.html", ctx)

    @app.get("/play", response_class=HTMLResponse, include_in_schema=False)
    async def play(request: Request) -> Response:
        return await site.play_page(request)

    @app.get("/teacher", response_class=HTMLResponse, include_in_schema=False)
    async def teacher(request: Request) -> Response:
        """A printable sheet: positions chosen P or N at a difficulty, answers at the end."""
        return await site.teacher_page(request)

    @app.get("/theorem/{tid}", response_class=HTMLResponse, include_in_schema=False)
    async def theorem_page(request: Request, tid: str) -> Response:
        """A result of the papers: its statement, paper and status."""
        try:
            info = await site.run(teacher_view.theorem_info, tid)
        except (nimlab.UnknownTheoremError, RemoteError) as exc:
            kind = getattr(exc, "kind", type(exc).__name__)
            if kind != "UnknownTheoremError":
                raise
            return site.error(request, 404, _first_line(str(exc)), kind)  # no such page
        return templates.TemplateResponse(request, "theorem.html", {"t": info})

    @app.get("/multiplayer", response_class=HTMLResponse, include_in_schema=False)
    async def multiplayer_page(request: Request) -> Response:
        games = await site.catalog()
        return templates.TemplateResponse(request, "multiplayer.html", {"games": games})

    @app.get("/api", response_class=HTMLResponse, include_in_schema=False)
    async def api_doc(request: Request) -> Response:
        base_url = str(request.base_url).rstrip("/")  # the address this page was asked at
        return templates.TemplateResponse(
            request, "api.html", {"spec": app.openapi(), "base_url": base_url}
        )

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> Response:
        return FileResponse(HERE / "static" / "favicon.svg", media_type="image/svg+xml")


def _markup(text: object) -> Markup:
    """Docstring text for a page: ````x```` and ```x``` become ``<code>x</code>``, the rest escaped.

    Examples
    --------
    >>> str(_markup("heaps up to ``size``, or `1 < 2`"))
    'heaps up to <code>size</code>, or <code>1 &lt; 2</code>'
    """
    parts = re.split(r"``(.+?)``|`([^`]+)`", str(text or ""))
    out = []
    for i, part in enumerate(parts):
        if part is None:
            continue
        code = i % 3 != 0
        out.append(f"<code>{escape(part)}</code>" if code else str(escape(part)))
    return Markup("".join(out))


def _two_heaps(init: dict[str, Any]) -> bool:
    v = init.get("view", {})
    return v.get("kind") == "heaps" and len(v.get("heaps", [])) == 2


def _example_position(ctx: dict[str, Any], lim: Limits) -> str:
    """A first position for the setup form (seeded by the game's name: the same each time)."""
    info = ctx["info"]
    try:
        g = service.build_game(info["name"], ctx["values"])
    except nimlab.NimlabError:
        return ""
    seed = sum(map(ord, info["name"]))
    try:
        text: str = service.random_position(g, 6, lim, seed)["position"]
    except nimlab.NimlabError:
        return ""
    return text
