"""The ``nimlab`` command line, built on the public Python API only.

Commands live in their own modules and are imported only when invoked, so that a quick
question (``nimlab grundy nim 3 4 5``) never pays for numba, Dask or matplotlib.
"""

from __future__ import annotations

import sys

import click

from nimlab.cli.app import cli

__all__ = ["cli", "main"]


def main(argv: list[str] | None = None) -> int:
    """Run the command line; user mistakes print one line and exit with status 2."""
    from nimlab.core.errors import NimlabError

    try:
        rv = cli.main(args=argv, prog_name="nimlab", standalone_mode=False)
    except NimlabError as exc:
        click.echo(f"error: {exc}", err=True)
        return 2
    except click.ClickException as exc:
        exc.show()
        return exc.exit_code
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        return 130
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        return 130
    except click.exceptions.Exit as exc:
        return exc.exit_code
    return rv if isinstance(rv, int) else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
