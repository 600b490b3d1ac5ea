"""Octal games: the rare-value engine (engine/octal_rare.py) against the direct method.

Run: ``python benchmarks/bench_engine_octal.py [--quick] [--long] [--hard]``.

- the rate (values/s of CPU time, one core) of 0.6 (Officers), 0.77 (Kayles), 4.7 and
  0.137 (Dawson's chess) to 2^20 terms (``--quick``: 2^18), with the mask, the rare heaps,
  the witness work per heap and the period proved by the Guy–Smith theorem, if any;
- the rare-value method against the direct method on 2^14 terms of 0.6 (equal values);
- ``--long``: 0.6 to 2^24 terms;
- ``--hard``: .376 and .354 (T. Czajka's solved list) to the number of terms their
  published periods need for the Guy–Smith proof (4.5 and 20.1 million), with a
  checkpoint in the current folder so that an interrupted run resumes.
"""

from __future__ import annotations

import sys
import time

import numpy as np

from nimlab.engine.octal_rare import octal_run


def rate_line(code: str, n: int, **kw: object) -> str:
    t0 = time.process_time()
    run = octal_run(code, n, **kw)  # type: ignore[arg-type]
    cpu = time.process_time() - t0
    per = f"period {run.period[1]} from {run.period[0]} proved" if run.period else "no period"
    return (
        f"{code:>6} to 2^{n.bit_length() - 1}: {cpu:7.2f} s CPU ({run.seconds:.2f} s wall), "
        f"{n / cpu:12,.0f} values/s; mask {run.mask:#x}, {run.rare:,} rare, "
        f"{run.witness_steps / max(run.computed, 1):,.0f} witness splits/heap, "
        f"{run.computed:,} computed, {per}, largest value {int(run.values.max())}"
    )


def main() -> None:
    octal_run("0.6", 5000)  # compile / load the numba cache
    octal_run("0.6", 3000, direct=True)
    m = 1 << 14
    t0 = time.process_time()
    a = octal_run("0.6", m, periodic=False).values
    t_rare = time.process_time() - t0
    t0 = time.process_time()
    b = octal_run("0.6", m, direct=True, periodic=False).values
    t_direct = time.process_time() - t0
    assert np.array_equal(a, b)
    print(f"0.6 to 2^14: rare values {t_rare:.2f}s, direct {t_direct:.2f}s (equal: True)")
    n = 1 << (18 if "--quick" in sys.argv else 20)
    for code in ("0.6", "0.77", "4.7", "0.137"):
        print(rate_line(code, n))
    if "--long" in sys.argv:
        print(rate_line("0.6", 1 << 24, progress=True))
    if "--hard" in sys.argv:
        for code, n0, p, t in (("0.376", 2268248, 4, 3), ("0.354", 10061916, 1180, 3)):
            line = rate_line(code, 2 * n0 + 2 * p + t, progress=True, checkpoint=f"{code}.npz")
            print(line, f"(published: period {p} from {n0})")


if __name__ == "__main__":
    main()
