"""Imported by the fork server of :mod:`isolated_case` only: what nimlab's command line
imports on its first run (the catalog, the planner, the solvers, numba), loaded once in
that server rather than in every isolated case (about 0.6 s of CPU each)."""

from __future__ import annotations

import contextlib
import io

import numba  # noqa: F401  (the compiled engines' cases import it)

from nimlab.cli import main

with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    main(["grundy", "nim", "3", "4", "5"])
