"""The ``nimlab`` command line, built on the public Python API only.

Commands live in their own modules and are imported only when invoked, so that a quick
question (``nimlab grundy nim 3 4 5``) never pays for numba, Dask or matplotlib.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import click

from nimlab.cli.app import cli

__all__ = ["cli", "main"]


# Integers printed by the command line may be longer than Python's default limit of 4300
# digits (a nim product of two 4000-digit numbers); inputs are bounded by
# nimlab.core.params.MAX_INT_DIGITS, so the conversions stay fast.
_MAX_STR_DIGITS = 100_000


def main(argv: list[str] | None = None) -> int:
    """Run the command line; user mistakes print one line and exit with status 2.

    Failures that are not a :class:`~nimlab.core.errors.NimlabError` still print one line:
    an operating-system error or exhausted memory (status 2), and an internal error (status
    1, with the traceback only when ``NIMLAB_DEBUG`` is set).
    """
    import os

    from nimlab.core.errors import NimlabError

    if sys.get_int_max_str_digits() and sys.get_int_max_str_digits() < _MAX_STR_DIGITS:
        sys.set_int_max_str_digits(_MAX_STR_DIGITS)
    restore = _watch_sigint()
    try:
        from nimlab.core.settings import check_environment

        check_environment()
        rv = cli.main(args=argv, prog_name="nimlab", standalone_mode=False)
    except NimlabError as exc:
        click.echo(f"error: {_one_line(exc)}", err=True)
        return 2
    except MemoryError:
        click.echo(
            "error: out of memory: the computation is too large for this machine; "
            "use a smaller input",
            err=True,
        )
        return 2
    except RecursionError:
        click.echo("error: the input is nested too deeply to be read", err=True)
        return 2
    except OSError as exc:
        where = f": {exc.filename}" if exc.filename else ""
        click.echo(f"error: {exc.strerror or exc}{where}", err=True)
        return 2
    except click.UsageError as exc:
        hint = (
            f" (see nimlab {exc.ctx.command_path.partition(' ')[2]} --help)".replace(
                "nimlab  --help", "nimlab --help"
            )
            if exc.ctx is not None
            else ""
        )
        click.echo(f"error: {_one_line(exc.format_message())}{hint}", err=True)
        return 2
    except click.ClickException as exc:
        click.echo(f"error: {_one_line(exc.format_message())}", err=True)
        return exc.exit_code
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        return 130
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        return 130
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except Exception as exc:
        if os.environ.get("NIMLAB_DEBUG"):
            raise
        click.echo(
            f"internal error: {type(exc).__name__}: {_one_line(exc)} (this is a bug in "
            "nimlab; run with NIMLAB_DEBUG=1 for the traceback and report it)",
            err=True,
        )
        return 1
    finally:
        restore()
    return rv if isinstance(rv, int) else 0


def _watch_sigint() -> Callable[[], None]:
    """Note each real Ctrl-C (SIGINT) before it interrupts, so that a KeyboardInterrupt
    raised by a user's move function is told apart from the user's own Ctrl-C (see
    :mod:`nimlab.core.guard`). Returns the function that puts the old handler back."""
    import signal
    import threading

    from nimlab.core.guard import note_sigint

    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    old = signal.getsignal(signal.SIGINT)
    if old is not signal.default_int_handler:
        return lambda: None

    def on_sigint(signum: int, frame: Any) -> None:
        note_sigint()
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, on_sigint)

    def restore() -> None:
        signal.signal(signal.SIGINT, old)

    return restore


def _one_line(exc: BaseException | str) -> str:
    """The message of *exc* on one line, cut to a readable length."""
    text = " ".join(str(exc).split())
    return text if len(text) <= 1000 else text[:997] + "..."


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
