"""Octal games: the rare-value engine (engine/octal_rare.py) against the direct method.

Run: ``python benchmarks/bench_engine_octal.py [--quick] [--long] [--hard]``.

- the rate (values/s of CPU time, one core) of 0.6 (Officers), 0.77 (Kayles), 4.7 and
  0.137 (Dawson's chess) to 2^20 terms (``--quick``: 2^18), with the mask, the rare heaps,
  the witness work per heap and the period proved by the Guy–Smith theorem, if any; first
  with every heap computed (``periodic=False``; 0.137, which has no sparse space, to 2^17
  only), then as ``nimlab.sequence`` runs it (a period proved by the Guy–Smith theorem is
  extended);
- Kayles written as a user's move function (``nimlab.take_and_break``) against the
  catalog's ``0.77``, 10^5 terms, and its period proved;
- the rare-value method against the direct method on 2^14 terms of 0.6 (equal values);
- ``--long``: 0.6 to 2^24 terms, and the largest value of the first 2^21 against
  T. Czajka's UnsolvedGames.md (319, at the heap 1274955);
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
    print("every heap computed:")
    for code in ("0.6", "0.77", "4.7", "0.137"):
        print(rate_line(code, n if code != "0.137" else min(n, 1 << 17), periodic=False))
    print("as nimlab.sequence runs (a proved period extended):")
    for code in ("0.6", "0.77", "4.7", "0.137"):
        print(rate_line(code, n))
    user_kayles()
    if "--long" in sys.argv:
        t0 = time.process_time()
        run = octal_run("0.6", 1 << 24, periodic=False, progress=True)
        cpu = time.process_time() - t0
        head = run.values[: 1 << 21]
        print(
            f"   0.6 to 2^24: {cpu:.1f} s CPU ({run.seconds:.1f} s wall), "
            f"{(1 << 24) / cpu:,.0f} values/s; largest value of the first 2^21: "
            f"{int(head.max())} at {int(head.argmax())} (T. Czajka: 319 at 1274955); largest "
            f"to 2^24: {int(run.values.max())} at {int(run.values.argmax())}"
        )
    if "--hard" in sys.argv:
        for code, n0, p, t in (("0.376", 2268248, 4, 3), ("0.354", 10061916, 1180, 3)):
            line = rate_line(code, 2 * n0 + 2 * p + t, progress=True, checkpoint=f"{code}.npz")
            print(line, f"(published: period {p} from {n0})")


def user_kayles() -> None:
    import nimlab

    @nimlab.take_and_break("bench-kayles")
    def kayles(h):  # type: ignore[no-untyped-def]
        for t in (1, 2):
            for i in range(h - t + 1):
                yield (i, h - t - i)

    n = 100_000
    t0 = time.perf_counter()
    a = nimlab.sequence(kayles, n, max_terms=n)
    t_user = time.perf_counter() - t0
    t0 = time.perf_counter()
    b = nimlab.sequence(nimlab.game("octal", code="0.77"), n, max_terms=n)
    t_cat = time.perf_counter() - t0
    assert np.array_equal(a, b)
    per = nimlab.periodicity_of(kayles, 400)
    print(
        f"Kayles as a move function, 10^5 terms: {t_user:.3f} s (catalog 0.77: {t_cat:.3f} s, "
        f"{t_user / t_cat:.1f}x); {per.summary()}"
    )


if __name__ == "__main__":
    main()
