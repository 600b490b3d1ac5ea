"""Recompute the cells of [S18] Table 1 and Table 2 from the rules alone (no nimlab code).

The tables of the paper are images: the text of ``papers/suetsugu-2018-ryuo-nim-all-but-
generalization.txt`` keeps only their captions. This script rebuilds their cells with a
plain mex over the moves as [S18] Definitions 13 and 15 state them, independently of the
library, and writes ``s18_table1_ryuo3.txt`` and ``s18_table2_rgame_example2.txt``.

Run: ``python tests/data/s18_make_tables.py``
"""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).parent


def mex(values: set[int]) -> int:
    m = 0
    while m in values:
        m += 1
    return m


def ryuo_table(p: int, size: int) -> list[list[int]]:
    """Ryuo Nim(p): take any number from one heap, or fewer than p in total from both."""
    g: list[list[int]] = [[0] * size for _ in range(size)]
    for x in range(size):
        for y in range(size):
            opts = {g[v][y] for v in range(x)} | {g[x][v] for v in range(y)}
            for a in range(x + 1):
                for b in range(y + 1):
                    if 1 <= a + b < p:
                        opts.add(g[x - a][y - b])
            g[x][y] = mex(opts)
    return g


def rgame_example2(size: int) -> list[list[int]]:
    """RGAME(SUBTRACTION({1,2,3}); ALLBUT({8}), ALLBUT({4,8})), heap 1 = x (rows)."""
    g: list[list[int]] = [[0] * size for _ in range(size)]
    for x in range(size):
        for y in range(size):
            opts = {g[x - t][y] for t in range(1, x + 1) if t != 8}
            opts |= {g[x][y - t] for t in range(1, y + 1) if t not in (4, 8)}
            for a in range(x + 1):
                for b in range(y + 1):
                    if a + b in (1, 2, 3):
                        opts.add(g[x - a][y - b])
            g[x][y] = mex(opts)
    return g


def write(path: Path, header: str, table: list[list[int]]) -> None:
    width = max(len(str(v)) for row in table for v in row)
    lines = [f"# {h}" if h else "#" for h in header.splitlines()]
    lines.append(
        "# "
        + "x\\y".rjust(width)
        + " | "
        + " ".join(str(y).rjust(width) for y in range(len(table)))
    )
    for x, row in enumerate(table):
        lines.append(str(x).rjust(width + 2) + " | " + " ".join(str(v).rjust(width) for v in row))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    write(
        HERE / "s18_table1_ryuo3.txt",
        "[S18] Table 1: Grundy values of Ryuo Nim(3), 0 <= x, y <= 8 (row x, column y).\n"
        "Cells recomputed from Definition 13 by s18_make_tables.py (the paper's table is an\n"
        "image missing from the text copy of the paper); format: 'x | G(x,0) ... G(x,8)'.",
        ryuo_table(3, 9),
    )
    write(
        HERE / "s18_table2_rgame_example2.txt",
        "[S18] Table 2: Grundy values of RGAME(SUBTRACTION({1,2,3}); ALLBUT({8}), ALLBUT({4,8})),\n"
        "0 <= x, y <= 31, row x = heap 1 (ALLBUT({8})), column y = heap 2 (ALLBUT({4,8})).\n"
        "Cells recomputed from Definition 15 by s18_make_tables.py (the paper's table is an\n"
        "image missing from the text copy of the paper); format: 'x | G(x,0) ... G(x,31)'.",
        rgame_example2(32),
    )
