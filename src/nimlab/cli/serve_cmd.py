"""``nimlab serve``: the web playground on uvicorn (the web stack is imported only here)."""

from __future__ import annotations

import click

from nimlab.cli.app import Count

__all__ = ["serve_cmd"]


@click.command("serve")
@click.argument("game_files", nargs=-1, metavar="[GAME_FILE.py]...")
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to bind; the loopback unless told otherwise (0.0.0.0 serves the network).",
)
@click.option("--port", type=Count(0, 65535), default=8000, show_default=True)
@click.option(
    "--time-limit",
    type=click.FloatRange(0.1, 600),
    default=10.0,
    show_default=True,
    help="Seconds one request may compute.",
)
@click.option(
    "--workers",
    type=Count(1, 64),
    default=4,
    show_default=True,
    help="Expensive computations running at once (worker processes).",
)
def serve_cmd(
    game_files: tuple[str, ...], host: str, port: int, time_limit: float, workers: int
) -> None:
    """Start the web playground: play every game, see why each move wins.

    GAME_FILE.py: your own games (files that define games with @nimlab.heap_game or
    ruleset classes), loaded once now and listed in the playground's game menu. A request
    names a game by its name only: the playground never loads a file a request names.

    Open http://127.0.0.1:8000 in a browser; stop with Ctrl-C.
    """
    try:
        import uvicorn

        from nimlab.web.app import create_app
        from nimlab.web.limits import Limits
        from nimlab.web.service import GameMenu
    except ImportError as e:
        raise click.UsageError(
            f"the web playground needs the [web] extra ({e.name} is missing): "
            'pip install "nimlab[web]"'
        ) from None
    _check_game_files(game_files)
    _check_address(host, port)
    menu = GameMenu.at_startup(game_files)
    # the slow lane's searches run in worker processes: the server's own process (its
    # event loop and the fast lane of cheap requests) then stays responsive under load
    limits = Limits(time_limit=time_limit, workers=workers, processes=True)
    app = create_app(limits, menu=menu)
    click.echo(f"nimlab playground on http://{host}:{port} (Ctrl-C stops it)")
    # keep idle connections longer than clients usually do, so that a client never reuses a
    # connection the server is closing at that moment
    uvicorn.run(app, host=host, port=port, log_level="warning", timeout_keep_alive=30)


def _check_game_files(paths: tuple[str, ...]) -> None:
    """Refuse a game file that is not a regular ``.py`` file, with one line, before loading."""
    from pathlib import Path

    from nimlab.core.errors import UnknownGameError

    for text in paths:
        p = Path(text)
        if ":" in p.name and p.name.rpartition(":")[0].endswith(".py"):
            raise UnknownGameError(
                f"give the game file itself ({text.rpartition(':')[0]!r}), not FILE.py:NAME: "
                "`nimlab serve` lists every game of the file"
            )
        if not p.name.endswith(".py"):
            raise UnknownGameError(f"{text!r} is not a Python file (FILE.py) of games")
        if not p.is_file():
            raise UnknownGameError(f"no game file {text!r}")


def _check_address(host: str, port: int) -> None:
    """Refuse an address the server cannot listen on (a bad host name, a port in use)
    with one clear line, before the server starts."""
    import socket

    from nimlab.core.errors import InvalidParameterError

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (OSError, UnicodeError) as exc:
        raise InvalidParameterError(
            f"cannot serve on host {host[:80]!r}: {exc}; give an address such as 127.0.0.1 "
            "(the default) or 0.0.0.0"
        ) from None
    family, kind, proto, _, addr = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(addr)
        except OSError as exc:
            raise InvalidParameterError(
                f"cannot serve on {host}:{port}: {exc.strerror or exc}; choose another --port "
                "(or stop the program using it)"
            ) from None
