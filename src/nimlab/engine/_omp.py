"""How numba's OpenMP threads wait between parallel loops: spin briefly, then sleep.

numba's threading layer is OpenMP (GNU libgomp) where numba finds it. Its idle threads
spin ``GOMP_SPINCOUNT`` times before they sleep (300,000 by default when the threads fit
the cores, many milliseconds: CPU that other work on a shared machine needs; 0 with
``OMP_WAIT_POLICY=PASSIVE``). nimlab's parallel loops can be short and many (the octal
engine's; the canonical wavefront's with a progress bar, one a level, about 230 for 5
heaps below 48; without, one a solve): a thread that sleeps at once is woken at the next
loop, and on a virtual machine an idle virtual core can take long to
wake and comes back with cold caches. Spinning :data:`SPIN_COUNT` times first (about
half a millisecond here) bridges the gap between two levels; a thread still idle then
sleeps (``PASSIVE``: no spin at all when there are more OpenMP threads than cores).

libgomp reads these variables once, when it is loaded (numba's first parallel loop, or
its first ``get_num_threads``), so :func:`configure` runs when a module of nimlab's
parallel kernels is imported (the canonical wavefront, the octal engine, the chunked
solves: in the command line, the API and Dask workers alike), before numba loads OpenMP.

The user's own setting wins: nothing is set when ``OMP_WAIT_POLICY`` or
``GOMP_SPINCOUNT`` is in the environment (``GOMP_SPINCOUNT=0`` sleeps at once, as
before; ``OMP_WAIT_POLICY=ACTIVE`` spins). Other threading layers (TBB, numba's
workqueue) ignore both variables.
"""

from __future__ import annotations

import os

__all__: list[str] = []

#: libgomp's spins before an idle thread sleeps, unless the user chose (about 50 ns each
#: on the 2-core AMD EPYC virtual machine where it was measured).
SPIN_COUNT = 10_000


def configure() -> None:
    """Put nimlab's OpenMP waiting policy in the environment, unless the user set one.

    Examples
    --------
    >>> import os
    >>> from unittest import mock
    >>> with mock.patch.dict(os.environ, {}, clear=True):
    ...     configure()
    ...     os.environ["OMP_WAIT_POLICY"], os.environ["GOMP_SPINCOUNT"]
    ('PASSIVE', '10000')
    >>> with mock.patch.dict(os.environ, {"OMP_WAIT_POLICY": "ACTIVE"}, clear=True):
    ...     configure()
    ...     "GOMP_SPINCOUNT" in os.environ   # the user's policy: left alone
    False
    """
    if "OMP_WAIT_POLICY" in os.environ or "GOMP_SPINCOUNT" in os.environ:
        return
    os.environ["OMP_WAIT_POLICY"] = "PASSIVE"
    os.environ["GOMP_SPINCOUNT"] = str(SPIN_COUNT)


configure()
