"""The command group, lazy subcommand loading and helpers shared by all commands."""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Sequence
from typing import Any

import click

from nimlab import __version__

__all__ = [
    "HEAP_CONTEXT",
    "cli",
    "emit_json",
    "game_from_cli",
    "json_default",
    "param_option",
    "position_from_cli",
]

# command name -> "module:attribute"; each module is imported only when its command runs.
COMMANDS: dict[str, str] = {
    "list": "nimlab.cli.basic:list_cmd",
    "grundy": "nimlab.cli.basic:grundy_cmd",
    "outcome": "nimlab.cli.basic:outcome_cmd",
    "moves": "nimlab.cli.basic:moves_cmd",
    "tour": "nimlab.cli.basic:tour_cmd",
    "play": "nimlab.cli.play:play_cmd",
    "multiplayer": "nimlab.cli.multiplayer_cmd:multiplayer_cmd",
    "last-mover": "nimlab.cli.multiplayer_cmd:last_mover_cmd",
    "table": "nimlab.cli.render_cmd:table_cmd",
    "tree": "nimlab.cli.render_cmd:tree_cmd",
    "binary": "nimlab.cli.render_cmd:binary_cmd",
    "theorems": "nimlab.cli.verify_cmd:theorems_cmd",
    "verify": "nimlab.cli.verify_cmd:verify_cmd",
    "reproduce": "nimlab.cli.verify_cmd:reproduce_cmd",
    "runs": "nimlab.cli.verify_cmd:runs_cmd",
    "conjecture": "nimlab.cli.discovery_cmd:conjecture_cmd",
    "sequence": "nimlab.cli.engine_cmd:sequence_cmd",
    "periodicity": "nimlab.cli.engine_cmd:periodicity_cmd",
    "nimmul": "nimlab.cli.engine_cmd:nimmul_cmd",
    "warm": "nimlab.cli.engine_cmd:warm_cmd",
    "genus": "nimlab.cli.misere_cmd:genus_cmd",
    "serve": "nimlab.cli.serve_cmd:serve_cmd",
    "misere-quotient": "nimlab.cli.misere_cmd:misere_quotient_cmd",
}


class LazyGroup(click.Group):
    """A click group whose subcommands are imported on demand."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(COMMANDS))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = COMMANDS.get(cmd_name)
        if target is None:
            return super().get_command(ctx, cmd_name)
        mod, _, attr = target.partition(":")
        cmd = getattr(importlib.import_module(mod), attr)
        assert isinstance(cmd, click.Command)
        return cmd


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(version=__version__, prog_name="nimlab")
def cli() -> None:
    """nimlab: impartial games of the Nim family.

    Positions are heaps separated by spaces (3 4 5); grouped positions use commas
    (Emperor ranges 1,2 3,3 4; turtle heads 1,1 2,3). Game parameters are given as
    -p NAME=VALUE (for example -p S=1,3,4). Run `nimlab list` for all games.
    """


def param_option(f: Callable[..., Any]) -> Callable[..., Any]:
    """The ``-p NAME=VALUE`` option, repeatable."""
    return click.option(
        "-p",
        "--param",
        "params",
        multiple=True,
        metavar="NAME=VALUE",
        help="Game parameter, repeatable (for example -p S=1,3,4 or -p k=2).",
    )(f)


def json_option(f: Callable[..., Any]) -> Callable[..., Any]:
    """The ``--json`` flag (parameter ``as_json``): machine-readable output."""
    return click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")(f)


#: Largest integer an option takes (counts, budgets, bounds): larger ones are refused in
#: one line before any work (a 1000-digit --limit is not a number of rows).
MAX_OPTION_INT = 10**18


class Count(click.IntRange):
    """An integer option with bounds: at most :data:`MAX_OPTION_INT` unless a smaller
    maximum is given, and at most 40 characters of text (read before converting)."""

    def __init__(self, min: int | None = None, max: int | None = None) -> None:
        super().__init__(min=min, max=MAX_OPTION_INT if max is None else max)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and len(value.strip()) > 40:
            self.fail(f"{value[:20]!r}... is not a number of at most 40 characters", param, ctx)
        if isinstance(value, str) and "_" in value:
            self.fail(f"{value!r} is not a plain integer (write 1000, not 1_000)", param, ctx)
        return super().convert(value, param, ctx)


class Seconds(click.FloatRange):
    """A number option (seconds) with bounds: at most 10^12 (so never inf)."""

    def __init__(self, min: float | None = None, max: float | None = None) -> None:
        super().__init__(min=min, max=1e12 if max is None else max)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and len(value.strip()) > 40:
            self.fail(f"{value[:20]!r}... is not a number of at most 40 characters", param, ctx)
        return super().convert(value, param, ctx)  # nan goes on to the option's own check


# Commands taking heaps ignore unknown options so that "-3" reaches the position check.
HEAP_CONTEXT = {"ignore_unknown_options": True}


def _split_params(params: Sequence[str]) -> dict[str, str]:
    from nimlab.core.errors import InvalidParameterError

    out: dict[str, str] = {}
    for item in params:
        name, eq, value = item.partition("=")
        if not eq or not name.strip():
            raise InvalidParameterError(
                f"cannot read parameter {item!r}: write it as NAME=VALUE (for example -p S=1,3,4)"
            )
        same = [k for k in out if k.casefold() == name.strip().casefold()]
        if same:
            raise InvalidParameterError(
                f"parameter {name.strip()} is given twice (-p {same[0]}={out[same[0]]} "
                f"and -p {item}); give it once (names do not depend on case)"
            )
        out[name.strip()] = value
    return out


def game_from_cli(name: str, params: Sequence[str]) -> Any:
    """Build a ruleset from a command-line name and ``-p`` values."""
    from nimlab.catalog import game

    return game(name, **_split_params(params))


def position_from_cli(g: Any, tokens: Sequence[str]) -> Any:
    """Read and validate a position from command-line tokens."""
    return g.parse_position(list(tokens))


def json_default(obj: object) -> Any:
    """JSON encoder fallback for tuples in frozensets, enums, numpy scalars."""
    if isinstance(obj, (set, frozenset)):
        return sorted(obj, key=repr)
    if hasattr(obj, "value") and hasattr(obj, "name"):
        return obj.value
    if hasattr(obj, "item"):
        return obj.item()
    if hasattr(obj, "tolist"):
        return obj.tolist()
    return str(obj)


def emit_json(data: Any) -> None:
    """Print *data* as JSON on stdout."""
    click.echo(json.dumps(data, default=json_default, indent=2))
