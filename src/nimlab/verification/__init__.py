"""Verification at scale: local checks of claimed Grundy functions and P-sets.

:func:`verify` checks a user's closed form on a bounded, move-closed set of positions
by the local rule (see :mod:`nimlab.verification.local`), in deterministic chunks run on
all local cores, on a Dask cluster, or serially; runs are recorded in a SQLite store and
resumable. Registered theorems are checked by the same engine
(:func:`nimlab.theory.registry.check_theorem`).
"""

from nimlab.verification.expr import Expression, parse_expression
from nimlab.verification.local import Failure, check_position, local_check
from nimlab.verification.runner import VerificationResult, heap_space, run_spec, verify
from nimlab.verification.spaces import BoxSpace, ListSpace, TotalSpace
from nimlab.verification.store import RunRecord, Store, default_store_path, runs

__all__ = [
    "BoxSpace",
    "Expression",
    "Failure",
    "ListSpace",
    "RunRecord",
    "Store",
    "TotalSpace",
    "VerificationResult",
    "check_position",
    "default_store_path",
    "heap_space",
    "local_check",
    "parse_expression",
    "run_spec",
    "runs",
    "verify",
]
