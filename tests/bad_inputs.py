"""The bad-input probe: inputs a new user may try, and the one clear error each must give.

Issue 11 (part 3) tried 561 commands and 188 API calls as a new user would; this table
keeps them (and more) so that every feature is held to the same rule: bad input gives one
line on stderr and exit status 2 on the command line, a precise
:class:`~nimlab.core.errors.NimlabError` subclass in Python; never a traceback, a hang or
an out-of-memory; budgets are checked before work and memory are spent.

The table is data, shared by every interface: ``tests/test_bad_inputs.py`` runs the CLI
and API cases, and a later interface (the web server) reuses :data:`BAD_GAME_INPUTS`
(a game, its parameters as text and a position as tokens, as a form would send them).

Placeholders in arguments: ``{tmp}`` is a folder prepared by :func:`prepare_files` (a text
file, a truncated database, a database of another schema, a regular file ``afile``, ...),
``{big}`` is 10**1000.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "API_CASES",
    "BAD_GAME_INPUTS",
    "CLI_CASES",
    "Api",
    "Cli",
    "Liar",
    "closed_game",
    "prepare_files",
]

BIG = str(10**1000)


@dataclass(frozen=True)
class Cli:
    """One command line and what it must give: *code* and *fragment* on stderr's line.

    A case with ``code=0`` is an input that looks dangerous (a huge parameter) but needs
    no huge work: it must succeed, quickly.

    ``isolate`` runs it in a subprocess under a memory cap (cases that once filled memory
    or hung); others run in-process, which is faster.
    """

    id: str
    argv: tuple[str, ...]
    fragment: str
    code: int = 2
    timeout: float = 30.0
    isolate: bool = False
    env: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Api:
    """One Python call and the NimlabError subclass it must raise.

    *call* is an expression with ``nimlab``, ``tmp`` (the prepared folder) and ``probe``
    (this module) in scope.
    """

    id: str
    call: str
    error: str
    fragment: str
    timeout: float = 30.0
    isolate: bool = False


@dataclass(frozen=True)
class BadGameInput:
    """A game, its parameters and a position as text (what a form or a command line sends)."""

    id: str
    game: str
    params: tuple[tuple[str, str], ...]
    position: tuple[str, ...]
    error: str
    fragment: str


def c(id: str, cmd: str | list[str], fragment: str, **kw: object) -> Cli:
    argv = tuple(cmd.split()) if isinstance(cmd, str) else tuple(cmd)
    return Cli(id, argv, fragment, **kw)  # type: ignore[arg-type]


def prepare_files(tmp: str) -> None:
    """Create the broken stores and files the cases refer to as ``{tmp}/...``."""
    import os
    import sqlite3

    with open(os.path.join(tmp, "text.sqlite"), "w") as f:
        f.write("this is not a database\n")
    good = os.path.join(tmp, "full.sqlite")
    con = sqlite3.connect(good)
    con.execute("CREATE TABLE t (a INTEGER)")
    con.executemany("INSERT INTO t VALUES (?)", [(i,) for i in range(5000)])
    con.commit()
    con.close()
    with open(good, "rb") as f:
        head = f.read(3000)
    with open(os.path.join(tmp, "trunc.sqlite"), "wb") as f:
        f.write(head)
    con = sqlite3.connect(os.path.join(tmp, "other.sqlite"))
    con.execute("CREATE TABLE runs (id INTEGER, name TEXT)")
    con.commit()
    con.close()
    with open(os.path.join(tmp, "afile"), "w") as f:
        f.write("a regular file\n")
    os.makedirs(os.path.join(tmp, "adir"), exist_ok=True)
    for name, text in USER_GAME_FILES.items():
        with open(os.path.join(tmp, name), "w") as f:
            f.write(text)
    with open(os.path.join(tmp, "binary.py"), "wb") as f:
        f.write(b"\xff\xfe\x00garbage")
    _damaged_stores(tmp)


#: Damaged nimlab stores (issue 23): each is refused by every command that opens it.
DAMAGED_STORES = (
    ("dropped-chunks", "DROP TABLE chunks", "table 'chunks' is missing"),
    ("dropped-runs", "DROP TABLE runs", "table 'runs' is missing"),
    (
        "garbage-rows",
        "INSERT INTO chunks VALUES (99, 'x', 'done', 'lots', 0.1, NULL, 0, 1.0)",
        "damaged",
    ),
    ("wrong-types", "UPDATE runs SET positions = 'many', n_chunks = 'x'", "damaged"),
    ("negative", "UPDATE chunks SET positions = -5", "damaged"),
    ("verified-missing-chunks", "DELETE FROM chunks WHERE idx > 0", "damaged"),
    ("orphan-chunk", "UPDATE chunks SET run_id = 777 WHERE idx = 0", "damaged"),
)


def _damaged_stores(tmp: str) -> None:
    import os
    import shutil
    import sqlite3

    import nimlab

    good = os.path.join(tmp, "good-store.sqlite")
    nimlab.verify("nim", "a ^ b", bound=4, heaps=2, workers=1, store=good, chunk_size=4)
    con = sqlite3.connect(good)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.execute("PRAGMA journal_mode = DELETE")
    con.close()
    for name, sql, _ in DAMAGED_STORES:
        path = os.path.join(tmp, f"damaged-{name}.sqlite")
        shutil.copy(good, path)
        con = sqlite3.connect(path)
        con.execute(sql)
        con.commit()
        con.close()
    with open(good, "rb") as f:
        data = f.read()
    with open(os.path.join(tmp, "damaged-truncated.sqlite"), "wb") as f:
        f.write(data[: len(data) // 2])


def _user_game(name: str, body: str, heaps: int = 2) -> str:
    return (
        "import nimlab\n\n"
        f"@nimlab.heap_game({('probe-' + name)!r}, heaps={heaps})\n"
        "def bad(h):\n" + "".join(f"    {line}\n" for line in body.splitlines())
    )


#: Users' own game files, broken in the ways a new user breaks them.
USER_GAME_FILES = {
    "ok_game.py": _user_game("ok", "x, y = h\nfor t in range(1, x + 1):\n    yield (x - t, y)"),
    "syntax.py": "import nimlab\ndef f(h)\n    yield h\n",
    "raises.py": _user_game(
        "raises", "if sum(h) > 3:\n    raise ValueError('boom')\nyield from ()"
    ),
    "wronglen.py": _user_game("wronglen", "if h[0]:\n    yield (h[0] - 1,)"),
    "negative.py": _user_game("negative", "yield (h[0] - 1, h[1])"),
    "huge.py": _user_game("huge", "yield (h[0] + 10**30,)", heaps=1),
    "loop.py": _user_game("loop", "yield (h[0],)", heaps=1),
    "strs.py": _user_game("strs", "if h[0]:\n    yield ('a',)", heaps=1),
    "none.py": _user_game("none", "return None", heaps=1),
    "endless.py": _user_game("endless", "while True:\n    yield (0,)", heaps=1),
    "exits.py": "import sys\nsys.exit(3)\n",
    # issue 23: options of the wrong type, cycles, growth, ways out of nimlab
    "half.py": _user_game("half", "if h[0]:\n    yield (h[0] / 2, h[1])"),
    "npfloat.py": _user_game(
        "npfloat", "import numpy as np\nif h[0]:\n    yield (np.float64(h[0] - 1),)", heaps=1
    ),
    "boolheap.py": _user_game("boolheap", "if h[0]:\n    yield (False,)", heaps=1),
    "notuple.py": _user_game("notuple", "if h[0]:\n    yield h[0] - 1", heaps=1),
    "twocycle.py": _user_game("twocycle", "yield ((h[0] + 1) % 2,)", heaps=1),
    "longcycle.py": _user_game("longcycle", "yield ((h[0] + 1) % 50,)", heaps=1),
    "grows.py": _user_game("grows", "yield (h[0] + 1,)", heaps=1),
    "spins.py": _user_game("spins", "while True:\n    pass\nyield h", heaps=1),
    "sysexit5.py": _user_game("sysexit5", "import sys\nsys.exit(5)\nyield h", heaps=1),
    "osexit7.py": _user_game("osexit7", "import os\nos._exit(7)\nyield h", heaps=1),
    "kbint.py": _user_game("kbint", "raise KeyboardInterrupt\nyield h", heaps=1),
    "loadloop.py": "while True:\n    pass\n",
    "loadkbint.py": "raise KeyboardInterrupt\n",
    "loadosexit.py": "import os\nos._exit(4)\n",
    "importerr.py": "import does_not_exist_module_nimlab\n",
    "nogame.py": "x = 5\n",
}


# -- games, parameters and positions (shared with every interface) -----------------------

BAD_GAME_INPUTS: tuple[BadGameInput, ...] = (
    BadGameInput("emperor-comma", "emperor", (), (",",), "InvalidPositionError", "empty"),
    BadGameInput("emperor-commas", "emperor", (), (",,,,",), "InvalidPositionError", "empty"),
    BadGameInput("emperor-gap", "emperor", (), ("1,,2",), "InvalidPositionError", "empty"),
    BadGameInput("emperor-lead", "emperor", (), (",1",), "InvalidPositionError", "empty"),
    BadGameInput("turtles-gap", "turning-turtles", (), ("1,,2",), "InvalidPositionError", "empty"),
    BadGameInput("turtles-lead", "turning-turtles", (), (",1,2",), "InvalidPositionError", "empty"),
    BadGameInput("nim-negative", "nim", (), ("-3", "4"), "InvalidPositionError", "heap 1 is -3"),
    BadGameInput("nim-word", "nim", (), ("x",), "InvalidPositionError", "cannot read 'x'"),
    BadGameInput("nim-huge-digits", "nim", (), ("9" * 5000,), "InvalidPositionError", "digits"),
    BadGameInput("unknown-game", "nimm", (), ("3",), "UnknownGameError", "unknown game"),
    BadGameInput(
        "octal-dot", "octal", (("code", "."),), ("3",), "InvalidParameterError", "octal code"
    ),
    BadGameInput(
        "octal-zero-dot", "octal", (("code", "0."),), ("3",), "InvalidParameterError", "octal code"
    ),
    BadGameInput(
        "octal-bang", "octal", (("code", "4!."),), ("3",), "InvalidParameterError", "octal code"
    ),
    BadGameInput(
        "sub-huge-range",
        "subtraction",
        (("S", "1..100000000"),),
        ("5",),
        "InvalidParameterError",
        "too many",
    ),
    BadGameInput(
        "param-huge-digits",
        "moore",
        (("k", "9" * 5000),),
        ("1",),
        "InvalidParameterError",
        "digits",
    ),
)


def _game_cli(b: BadGameInput, command: str) -> Cli:
    argv = [command, b.game]
    for k, v in b.params:
        argv += ["-p", f"{k}={v}"]
    return Cli(f"{command}-{b.id}", (*argv, *b.position), b.fragment)


def _game_api(b: BadGameInput) -> Api:
    params = ", ".join(f"{k}={v!r}" for k, v in b.params)
    g = f"nimlab.game({b.game!r}{', ' if params else ''}{params})"
    pos = f"{g}.parse_position({list(b.position)!r})"
    return Api(f"api-{b.id}", f"nimlab.grundy({g}, {pos})", b.error, b.fragment)


# -- the command line --------------------------------------------------------------------

_STORE_CMDS = (
    ("verify", ["verify", "S19-T1", "--bound", "4", "--workers", "1"]),
    ("runs", ["runs"]),
)

_BROKEN_STORES = (
    ("dir", "{tmp}/adir", "is a directory"),
    ("text", "{tmp}/text.sqlite", "not a nimlab results store"),
    ("trunc", "{tmp}/trunc.sqlite", "not a nimlab results store"),
    ("schema", "{tmp}/other.sqlite", "another schema"),
    ("foreign", "{tmp}/full.sqlite", "another program"),
    ("under-file", "{tmp}/afile/x.sqlite", "is not a folder"),
    ("no-parent", "{tmp}/nodir/x.sqlite", "does not exist"),
    ("devnull", "/dev/null", "not a regular file"),
    ("empty", "", "empty"),
)

CLI_CASES: tuple[Cli, ...] = (
    # -- the store --
    *(
        c(f"store-{what}-{name}", [*argv, "--store", path], frag)
        for what, argv in _STORE_CMDS
        for name, path, frag in _BROKEN_STORES
    ),
    *(
        c(f"store-reproduce-{name}", ["reproduce", "--store", path], frag)
        for name, path, frag in _BROKEN_STORES
        if name != "empty"
    ),
    # -- damaged nimlab stores (issue 23): refused by every command, never "verified" --
    *(
        c(f"damaged-{name}-{what}", [*argv, "--store", f"{{tmp}}/damaged-{name}.sqlite"], frag)
        for name, _, frag in (*DAMAGED_STORES, ("truncated", "", "results store"))
        for what, argv in (
            (
                "verify",
                ["verify", "--game", "nim", "--formula", "a ^ b", "--heaps", "2"]
                + ["--bound", "4", "--chunk-size", "4", "--workers", "1"],
            ),
            (
                "resume",
                ["verify", "--game", "nim", "--formula", "a ^ b", "--heaps", "2"]
                + ["--bound", "4", "--chunk-size", "4", "--workers", "1", "--resume"],
            ),
            ("runs", ["runs"]),
            ("reproduce", ["reproduce", "--only", "S19-T1"]),
        )
    ),
    # -- output paths: a directory, a missing folder (never created) --
    *(
        c(
            f"out-{opt}-dir",
            ["table", "nim", "--size", "4", f"--{opt}", "{tmp}/adir"],
            "is a directory",
        )
        for opt in ("csv", "json-file", "latex", "markdown", "png", "svg")
    ),
    *(
        c(
            f"out-tree-{opt}-dir",
            ["tree", "nim", "1", "2", f"--{opt}", "{tmp}/adir"],
            "is a directory",
        )
        for opt in ("dot", "svg", "tikz")
    ),
    c(
        "out-png-no-parent",
        "table nim --size 4 --png {tmp}/nonexistent/dir/x.png",
        "does not exist",
    ),
    c("out-csv-no-parent", "table nim --size 4 --csv {tmp}/nonexistent/x.csv", "does not exist"),
    c("out-csv-under-file", "table nim --size 4 --csv {tmp}/afile/x.csv", "not a folder"),
    c("out-dot-empty", ["tree", "nim", "1", "2", "--dot", ""], "empty"),
    # -- expressions: nesting and shifts are bounded --
    *(
        c(
            f"expr-{name}",
            ["verify", "--game", "nim", "--formula", text, "--heaps", "2", "--bound", "4"]
            + ["--no-store", "--workers", "1"],
            frag,
            isolate=True,
        )
        for name, text, frag in (
            ("minus-900", "-" * 900 + "a", "nested more than 100 levels"),
            ("not-400", "not " * 400 + "a", "nested more than 100 levels"),
            ("sum-301", "+".join(["a"] * 301), "nested more than 100 levels"),
            ("xor-660", "^".join(["a"] * 660), "nested more than 100 levels"),
            ("shift-2-40", "1 << (1 << 40)", "shifts"),
            ("shift-2-33-plus", "(1 << (1 << 33)) + a", "shifts"),
            ("shift-1e9", "(a+1) << 1000000000", "shifts"),
            ("parens-300", "(" * 300 + "a" + ")" * 300, "nested"),
        )
    ),
    # -- verification options --
    *(
        c(f"verify-bound-0-{t}", ["verify", t, "--bound", "0", "--no-store"], "bound must be >= 1")
        for t in ("S19-T1", "S18-T8", "S19-T7", "Sh-T6", "Sh-T6*", "S19-T9")
    ),
    c("verify-bound-float", "verify S19-T1 --bound 1.5 --no-store", "not a valid integer"),
    c("verify-no-store-resume", "verify S19-T1 --no-store --resume", "contradict"),
    c("verify-store-and-no-store", "verify S19-T1 --no-store --store {tmp}/s.sqlite", "not both"),
    c("verify-theorem-run", "verify S19-T1 --resume --run 99999", "--run ID"),
    c(
        "verify-run-missing",
        "verify --game nim --formula a^b --bound 4 --resume --run 99999 --workers 1",
        "no run 99999",
    ),
    c("verify-theorem-chunk-0", "verify S19-T1 --chunk-size 0 --no-store", "--chunk-size"),
    c("verify-workers-0", "verify S19-T1 --workers 0 --no-store", "--workers must be >= 1"),
    c(
        "verify-chunk-0",
        "verify --game nim --formula a^b --bound 4 --chunk-size 0 --no-store",
        "--chunk-size",
    ),
    c(
        "verify-misere-formula",
        "verify --game nim --formula a^b --misere --bound 4 --no-store",
        "misere applies to a claimed P-set",
    ),
    c("verify-scheduler-words", ["verify", "S19-T1", "--scheduler", "not a url"], "scheduler"),
    # -- issue 23: addresses, paths and special files --
    c("scheduler-no-port", "verify S19-T1 --bound 4 --scheduler 127.0.0.1", "has no port"),
    c("scheduler-ucx", "verify S19-T1 --bound 4 --scheduler ucx://x:1", "does not support"),
    c("scheduler-inproc", "verify S19-T1 --bound 4 --scheduler inproc://", "scheduler"),
    c("store-no-such-user", "runs --store ~nosuchuser-nimlab/x.sqlite", "no such user"),
    c("csv-no-such-user", "table nim --size 4 --csv ~nosuchuser-nimlab/x.csv", "no such user"),
    c("csv-file-slash", "table nim --size 4 --csv {tmp}/afile/", "ends with /"),
    c("csv-device", "table nim --size 4 --csv /dev/zero", "not a regular file"),
    *(
        c(f"checkpoint-{i}", ["misere-quotient", "0.77", "--max-heap", "10", "--checkpoint", p], f)
        for i, (p, f) in enumerate(
            (
                ("/dev/zero", "not a regular file"),
                ("/dev/urandom", "not a regular file"),
                ("/dev/full", "not a regular file"),
                ("{tmp}/adir", "is a directory"),
                ("{tmp}/afile/", "ends with /"),
            )
        )
    ),
    c("last-mover-100-digits", ["last-mover", "nim", "1" + "0" * 99, "1" + "0" * 99], "moves"),
    c("bound-underscore", "verify S19-T1 --no-store --bound 1_000", "not a plain integer"),
    c("limit-huge", ["runs", "--limit", "1" + "0" * 100], "at most 40 characters"),
    c("param-case-twice", "grundy moore -p k=2 -p K=3 1 2", "given twice"),
    c("heap-fullwidth", ["grundy", "nim", "3", "\uff11"], "digits 0-9"),
    c("table-size-astronomic", ["table", "nim", "--size", "1" + "0" * 90], "beyond any table"),
    c("verify-scheduler-scheme", "verify S19-T1 --scheduler zzz://127.0.0.1:1", "scheduler"),
    c(
        "env-progress-interval",
        "verify S19-T1 --bound 4 --no-store",
        "NIMLAB_PROGRESS_INTERVAL must be a number of seconds",
        env=(("NIMLAB_PROGRESS_INTERVAL", "abc"),),
    ),
    c("cli-missing-arg", "grundy", "Missing argument"),
    c("cli-unknown-command", "frobnicate", "No such command"),
    # -- move sets estimated before they are listed --
    *(
        c(f"moves-budget-{i}", cmd, frag, isolate=True, timeout=20)
        for i, (cmd, frag) in enumerate(
            (
                ("grundy wythoff 1000000000 1000000001", "moves"),
                ("moves nim {big} {big}", "too many to list"),
                ("grundy single-delete 100000 100000 100000 100000 100000", "budget"),
                ("grundy moore -p k=3 1000 1000 1000", "budget"),
                ("grundy moore -p k=2 " + " ".join(["1"] * 1000), "budget"),
                ("grundy emperor -p k=2 100,100 100,100 100,100", "budget"),
                ("moves moore -p k=3 1000 1000 1000", "too many to list"),
                ("moves wythoff {big} {big} --winning --misere", "moves"),
            )
        )
    ),
    # -- searches: their work (moves generated, repeats included) is bounded, not only
    # the positions they store; four-heap Single-delete says why no criterion answers --
    # (a budget of 500,000 moves: the same check as the default's, a tenth of the work)
    c(
        "search-moore-k4-moves",
        "grundy moore -p k=4 12 12 12 12 12 --method search --max-moves 500000",
        "moves generated",
        isolate=True,
        timeout=60,
    ),
    c(
        "search-circular-moves",
        "grundy circular -p k=3 20 20 20 20 20 --method search --max-moves 500000",
        "moves generated",
        isolate=True,
        timeout=60,
    ),
    c(
        "search-budget-option",
        "grundy wythoff 300 400 --method search --max-moves 1000",
        "budget of 1,000 moves generated",
    ),
    c("search-max-positions-0", "outcome nim 3 4 --max-positions 0", "--max-positions"),
    c(
        "sd4-beyond-sh-t6-star",
        "outcome single-delete 8 12 14 300 --max-moves 20000",
        "verified by nimlab for every heap < 256",
    ),
    c(  # the scan's searches keep at least the search's own moves budget (5 M moves, 2.4 s):
        # its positions budget ends them (the same message)
        "sd4-winning-beyond-sh-t6-star",
        "moves single-delete 12 14 15 296 --winning --max-moves 20000 --max-positions 1000",
        "verified by nimlab for every heap < 256",
    ),
    # -- endless work: refused before it starts, with the option that raises the budget --
    c("seq-octal-million", "sequence octal -p code=0.77 -n 1000000", "--max-terms", isolate=True),
    c("grundy-octal-million", "grundy octal -p code=0.77 1000000", "budget", isolate=True),
    c("seq-negative", "sequence octal -p code=0.77 -n -5", "n must be an integer >= 0"),
    c(
        "verify-bound-million",
        "verify S19-T1 --bound 1000000 --no-store",
        "--max-positions",
        isolate=True,
    ),
    c("verify-welter-100000", "verify S19-T7 --bound 100000 --no-store", "positions", isolate=True),
    c(
        "verify-budget-option",
        "verify --game nim --formula a^b --bound 100 --heaps 2 --max-positions 50 --no-store",
        "more than the budget of 50",
    ),
    # -- multiplayer --
    c(
        "mp-players-million",
        "multiplayer nim --players 1000000 --size 2",
        "at most 1,000 players",
        isolate=True,
    ),
    c("mp-last-mover-big", "last-mover nim 200 200 200 --players 3", "moves", isolate=True),
    c("mp-last-mover-moves", "last-mover nim 2000 2000 --players 3 --moves", "moves", isolate=True),
    # -- huge parameters that need no huge work --
    *(
        c(f"huge-param-{i}", cmd, frag, code=0, isolate=True, timeout=60)
        for i, (cmd, frag) in enumerate(
            (
                ("table nimhoff -p k=1000000000 --size 4", ""),
                ("table ryuo -p p=1000000000000 --size 4", ""),
                ("table restricted-ryuo -p p=3 -p q=1000000000000 --size 4", ""),
                ("tree ryuo -p p=1000000000000 2 1", ""),
                ("moves ryuo -p p=1000000000000 3 4", ""),
                ("grundy nimhoff -p k=1000000000 5 7", ""),
                ("moves moore -p k=1000000000 3 4", ""),
                ("nimmul " + "9" * 4000 + " " + "7" * 4000, ""),
                ("grundy moore -p k=1000000000 3 4 5", ""),
            )
        )
    ),
    # -- users' own games (FILE.py:NAME): broken files and move functions --
    *(
        c(f"user-{name}", cmd, frag, **kw)
        for name, cmd, frag, kw in (
            ("ok", "grundy {tmp}/ok_game.py:probe-ok 3 4", "", {"code": 0}),
            ("syntax", "grundy {tmp}/syntax.py:f 3", "SyntaxError", {}),
            ("raises", "grundy {tmp}/raises.py:probe-raises 3 4", "raised ValueError: boom", {}),
            ("raises-table", "table {tmp}/raises.py:probe-raises --size 5", "boom", {}),
            ("raises-tree", "tree {tmp}/raises.py:probe-raises 2 2", "boom", {}),
            (
                "raises-verify",
                "verify --game {tmp}/raises.py:probe-raises --formula a^b --bound 8 --no-store "
                "--workers 1",
                "boom",
                {},
            ),
            ("wronglen", "grundy {tmp}/wronglen.py:probe-wronglen 3 4", "same number", {}),
            ("wronglen-table", "table {tmp}/wronglen.py:probe-wronglen --size 5", "same", {}),
            ("negative", "grundy {tmp}/negative.py:probe-negative 3 4", "negative heap", {}),
            ("huge", "grundy {tmp}/huge.py:probe-huge 3", "budget", {}),
            ("huge-seq", "sequence {tmp}/huge.py:probe-huge -n 5", "budget", {}),
            ("loopy", "grundy {tmp}/loop.py:probe-loop 3", "loopy", {}),
            ("strings", "grundy {tmp}/strs.py:probe-strs 3", "is not an integer", {}),
            ("none", "grundy {tmp}/none.py:probe-none 3", "NoneType", {}),
            (
                "endless",
                "grundy {tmp}/endless.py:probe-endless 3",
                "does it ever stop",
                {"isolate": True, "timeout": 120},
            ),
            ("exits", "grundy {tmp}/exits.py:g 3", "sys.exit", {}),
            ("import", "grundy {tmp}/importerr.py:g 3", "ModuleNotFoundError", {}),
            ("binary", "grundy {tmp}/binary.py:g 3", "failed to run", {}),
            ("no-file", "grundy {tmp}/nofile.py:g 3", "no game file", {}),
            ("no-name", "grundy {tmp}/nogame.py:x 3", "unknown game", {}),
            ("empty-name", "grundy {tmp}/ok_game.py: 3 4", "unknown game", {}),
            ("negative-heap", "grundy {tmp}/ok_game.py:probe-ok -1 4", "heap 1 is -1", {}),
            ("heap-count", "grundy {tmp}/ok_game.py:probe-ok 1 2 3", "exactly 2 heaps", {}),
            (
                "huge-moves",
                "moves {tmp}/ok_game.py:probe-ok 1000000000 1000000000",
                "too many to list",
                {},
            ),
        )
    ),
    # -- users' own games, issue 23: every command refuses a broken move function --
    *(
        c(f"user23-{name}-{cmd}", f"{cmd} {{tmp}}/{name}.py:probe-{name} {args}", frag, **kw)
        for name, pos, frag, kw in (
            ("half", "3 2", "is not an integer", {}),
            ("npfloat", "3", "is not an integer", {}),
            ("boolheap", "3", "is not an integer", {}),
            ("notuple", "3", "not a tuple of heap sizes", {}),
            ("twocycle", "3", "0 -> 1 -> 0", {}),
            ("longcycle", "3", "a cycle of 50 moves", {}),
            ("sysexit5", "3", "called sys.exit(5)", {}),
            ("osexit7", "3", "called os._exit(7)", {}),
            ("kbint", "3", "raised KeyboardInterrupt", {}),
            (
                "spins",
                "3",
                "ran longer than its budget",
                {"env": (("NIMLAB_USER_CODE_TIMEOUT", "0.3"),)},
            ),
        )
        for cmd, args in (
            ("grundy", pos),
            ("outcome", pos + " --misere"),
            ("moves", pos),
            ("tree", pos),
            ("last-mover", pos),
            *(
                (("sequence", "-n 6"), ("periodicity", "-n 12"), ("genus", pos))
                if " " not in pos
                else ()
            ),
        )
        if not (cmd == "moves" and name in ("twocycle", "longcycle"))
    ),
    *(
        c(f"user23-grows-{cmd}", f"{cmd} {{tmp}}/grows.py:probe-grows {args}", frag, timeout=60)
        for cmd, args, frag in (
            ("grundy", "3", "grow without bound"),
            ("outcome", "3 --misere", "grow without bound"),
            ("sequence", "-n 5", "grow without bound"),
            ("genus", "3", "grow without bound"),
            ("last-mover", "3", "grow without bound"),
        )
    ),
    c(
        "user23-half-verify",
        "verify --game {tmp}/half.py:probe-half --formula a^b --bound 8 --no-store --workers 1",
        "not an integer",
    ),
    c("user23-half-table", "table {tmp}/half.py:probe-half --size 6", "not an integer"),
    c(
        "user23-load-loop",
        "grundy {tmp}/loadloop.py:g 3",
        "ran longer than its budget",
        env=(("NIMLAB_USER_CODE_TIMEOUT", "0.5"),),
    ),
    c("user23-load-kbint", "grundy {tmp}/loadkbint.py:g 3", "raised KeyboardInterrupt"),
    c("user23-load-osexit", "grundy {tmp}/loadosexit.py:g 3", "called os._exit(4)", isolate=True),
    c(
        "env-chunk-sleep",
        "verify --game nim --formula a^b --bound 4 --heaps 2 --no-store --workers 1",
        "NIMLAB_VERIFY_CHUNK_SLEEP must be a number of seconds",
        env=(("NIMLAB_VERIFY_CHUNK_SLEEP", "abc"),),
    ),
    *(
        c(
            f"env-{var.lower()}-{i}",
            "grundy {tmp}/ok_game.py:probe-ok 3 4" if "USER" in var else "sequence nim -n 3",
            f"{var} must be",
            env=((var, value),),
        )
        for var in ("NIMLAB_USER_CODE_TIMEOUT", "NIMLAB_PROGRESS_DELAY")
        for i, value in enumerate(("abc", "-1", "nan", "inf", "1e999", "9" * 50))
    ),
    # -- tables: a budget of cells before any work, 4 to 6 heaps --
    c(
        "table-wythoff-20000",
        "table wythoff --size 20000 --csv {tmp}/F.csv",
        "--max-cells N",
        isolate=True,
    ),
    c("table-max-cells-0", "table wythoff --size 4 --max-cells 0", "--max-cells"),
    c("table-3-heaps-1000", "table nim --heaps 3 --size 1000", "--max-cells N", isolate=True),
    c("table-moore-400", "table moore -p k=2 --size 400x400x400", "--max-cells N", isolate=True),
    # 4 to 6 heaps are summarised; a box beyond the cells budget is refused before any work
    c("table-4-heaps", "table nim --size 100x100x100x100", "--max-cells N"),
    c("table-5-heaps", "table nim --size 40x40x40x40x40", "--max-cells N"),
    c("table-6-heaps", "table nim --size 20x20x20x20x20x20", "--max-cells N"),
    c("table-7-heaps", "table nim --size 3x3x3x3x3x3x3", "one to 6 positive sizes"),
    c("table-size-0", "table wythoff --size 0", "sizes must be >= 1"),
    c("table-size-x", "table wythoff --size 5x", "cannot read size"),
    c("table-size-huge", "table wythoff --size " + "9" * 30, "--max-cells N", isolate=True),
    # canonical tables in chunks: the directory and the cluster checked before any work
    c(
        "chunks-dir-is-file",
        "table single-delete --heaps 4 --size 8 --canonical --chunk-dir {tmp}/afile",
        "it is a file",
    ),
    c(
        "chunks-dir-no-parent",
        "table single-delete --heaps 4 --size 8 --canonical --chunk-dir {tmp}/nonexistent/c",
        "does not exist",
    ),
    c(
        "chunks-dir-not-chunks",
        "table single-delete --heaps 4 --size 8 --canonical --chunk-dir {tmp}",
        "holds no manifest.json",
    ),
    c("chunks-need-canonical", "table nim --size 4 --dask-local", "need --canonical"),
    c(
        "chunks-scheduler-no-port",
        "table nim --heaps 3 --size 4 --canonical --chunk-dir {tmp}/c --scheduler tcp://10.0.0.1",
        "no port",
    ),
    c(
        "chunks-budget",
        "table single-delete --heaps 6 --size 300 --canonical --kind outcome --chunk-dir {tmp}/c",
        "in each worker",
    ),
    # -- sequences and periodicity: the same budget of terms --
    c("period-million", "periodicity octal -p code=0.77 -n 1000000", "--max-terms", isolate=True),
    c("period-budget", "periodicity octal -p code=0.77 -n 200 --max-terms 100", "budget of 100"),
    c("period-negative", "periodicity nim -n -5", "n must be an integer >= 0"),
    # -- misère theory: heap budgets checked before any work --
    c("genus-seq-million", "genus octal -p code=0.77 -n 1000000", "--max-heap", isolate=True),
    c("genus-huge-heap", "genus octal -p code=0.77 99999999999", "--max-heap", isolate=True),
    c("genus-heap-budget", "genus octal -p code=0.77 -n 60", "budget of heaps <= 40"),
    c("mq-huge-bound", "misere-quotient 0.77 --max-heap 1000000000", "--heap-budget", isolate=True),
    c("mq-budget", "misere-quotient 0.77 --max-heap 300", "budget of heaps <= 256"),
    # a long code: every heap has hundreds of options; the work budget stops it
    c(
        "mq-long-code-work",
        "misere-quotient 0." + "7" * 40 + " --max-heap 200 --max-work 5000000",
        "--max-work N",
        timeout=60,
    ),
    c("mq-max-work-0", "misere-quotient 0.77 --max-heap 20 --max-work 0", "--max-work"),
    c(
        "grundy-octal-heap-million",
        "grundy octal -p code=0.77 1000000",
        "nimlab sequence ... -n 1000001",
        isolate=True,
    ),
    # -- the store's lock --
    c("lock-timeout-negative", "runs --lock-timeout -1", "--lock-timeout must be"),
    c("lock-timeout-nan", "runs --lock-timeout nan", "--lock-timeout must be"),
    c(
        "lock-timeout-env",
        "runs",
        "NIMLAB_LOCK_TIMEOUT must be",
        env=(("NIMLAB_LOCK_TIMEOUT", "soon"),),
    ),
    c("runs-limit-0", "runs --limit 0", "limit must be"),
    # -- accepted nonsense and odd environments --
    c("param-twice", "grundy moore -p k=2 -p k=3 1 2", "given twice"),
    c("param-set-empty-item", "grundy subtraction -p S=1,,2 5", "empty item"),
    c("reproduce-only-commas", "reproduce --only ,,, --no-store", "names no result"),
    c(
        "verify-heaps-0",
        "verify --game nim --formula a --heaps 0 --bound 4 --no-store",
        "at least 1",
    ),
    c("serve-bad-host", "serve --host not..a..host --port 8765", "cannot serve on host"),
    c("serve-foreign-address", "serve --host 192.0.2.1 --port 8765", "cannot serve on"),
    c(
        "seq-allbut-huge-exclusion",
        "sequence allbut -p S=1000000000 -n 10",
        "",
        code=0,
        isolate=True,
        timeout=60,
    ),
    c(
        "seq-default-budget",
        "sequence subtraction -p S=1 -n 268435456",
        "budget of 33,554,432 terms",
        isolate=True,
    ),
    # -- positions and parameters, from the shared table --
    *(_game_cli(b, "grundy") for b in BAD_GAME_INPUTS),
)

# -- the Python API ----------------------------------------------------------------------

API_CASES: tuple[Api, ...] = (
    *(_game_api(b) for b in BAD_GAME_INPUTS),
    # -- types --
    Api(
        "api-misere-text",
        "nimlab.outcome('nim', (1, 1), misere='no')",
        "InvalidArgumentError",
        "misere",
    ),
    Api(
        "api-verify-heaps-text",
        "nimlab.verify('nim', 'a^b', bound=4, heaps='2', workers=1)",
        "InvalidArgumentError",
        "heaps must be an integer",
    ),
    Api(
        "api-theorem-bound-float",
        "nimlab.check_theorem('S19-T1', bound=1.5)",
        "InvalidArgumentError",
        "bound must be an integer",
    ),
    Api(
        "api-verify-workers-0",
        "nimlab.verify('nim', 'a^b', bound=4, heaps=2, workers=0)",
        "InvalidArgumentError",
        "workers",
    ),
    Api("api-grundy-none", "nimlab.grundy(None, (1, 2))", "InvalidArgumentError", "got None"),
    Api("api-outcome-int", "nimlab.outcome(5, (1, 2))", "InvalidArgumentError", "got 5"),
    Api("api-game-int", "nimlab.game(5)", "InvalidArgumentError", "got 5"),
    Api("api-game-none", "nimlab.game(None)", "InvalidArgumentError", "got None"),
    Api("api-sub-dict", "nimlab.game('subtraction', S={1: 2})", "InvalidParameterError", "{1: 2}"),
    Api(
        "api-sub-huge-range",
        "nimlab.game('subtraction', S=range(1, 10**9))",
        "InvalidParameterError",
        "too many",
        isolate=True,
    ),
    Api(
        "api-sub-astronomic-range",
        "nimlab.game('subtraction', S=range(1, 10**100))",
        "InvalidParameterError",
        "too many",
    ),
    Api("api-store-dir", "nimlab.runs(tmp + '/adir')", "StoreError", "is a directory"),
    Api(
        "api-runs-lock-timeout",
        "nimlab.runs(tmp + '/r.sqlite', lock_timeout=-1)",
        "InvalidArgumentError",
        "lock timeout",
    ),
    Api(
        "api-user-raises",
        "nimlab.grundy(nimlab.game(tmp + '/raises.py:probe-raises'), (3, 4))",
        "GameDefinitionError",
        "boom",
    ),
    Api(
        "api-user-file",
        "nimlab.game(tmp + '/exits.py:g')",
        "GameDefinitionError",
        "sys.exit",
    ),
    Api(
        "api-table-budget",
        "nimlab.table_view('wythoff', 20000)",
        "WorkTooLargeError",
        "max_cells=N",
    ),
    Api(
        "api-table-max-cells",
        "nimlab.table_view('wythoff', 4, max_cells=0)",
        "InvalidArgumentError",
        "max_cells",
    ),
    Api(
        "api-periodicity-budget",
        "nimlab.periodicity_of(nimlab.game('octal', code='0.77'), 10**6)",
        "WorkTooLargeError",
        "budget",
    ),
    Api(
        "api-sequence-max-terms",
        "nimlab.sequence(nimlab.game('octal', code='0.77'), 10, max_terms=0)",
        "InvalidParameterError",
        "max_terms",
    ),
    Api(
        "api-search-moves-generated",
        "nimlab.grundy(nimlab.game('moore', k=4), (12,) * 5, method='search', max_moves=500_000)",
        "MoveSetTooLargeError",
        "moves generated",
        timeout=60,
    ),
    Api(
        "api-mq-work",
        "nimlab.misere_quotient('0.' + '7' * 40, 200, max_work=5_000_000)",
        "QuotientTooLargeError",
        "max_work",
        timeout=60,
    ),
    Api(
        "api-answer-kind",
        "nimlab.answer('nim', (1, 2), kind='value')",
        "InvalidArgumentError",
        "kind must be",
    ),
    Api(
        "api-sd4-beyond-sh-t6-star",
        "nimlab.outcome('single-delete', (8, 12, 14, 300), max_moves=20_000)",
        "MoveSetTooLargeError",
        "Sh-T6* is conjectured: verified by nimlab for every heap < 256",
    ),
    Api(
        "api-search-user-game-no-estimate",
        "nimlab.grundy(probe.wide_game(), (30,), max_moves=10_000)",
        "MoveSetTooLargeError",
        "budget of 10,000 moves generated",
    ),
    Api("api-store-text", "nimlab.runs(tmp + '/text.sqlite')", "StoreError", "not a nimlab"),
    # -- issue 23: misuse of the API --
    Api("api-heap-game-none", "nimlab.heap_game(None)", "InvalidArgumentError", "name"),
    Api("api-heap-game-int", "nimlab.heap_game('probe-x')(5)", "InvalidArgumentError", "got 5"),
    Api("api-game-plus-int", "nimlab.game('nim') + 5", "InvalidArgumentError", "got 5"),
    Api("api-int-plus-game", "5 + nimlab.game('nim')", "InvalidArgumentError", "got 5"),
    Api("api-solver-none", "nimlab.Solver(None)", "InvalidArgumentError", "got None"),
    Api(
        "api-solver-budget", "nimlab.Solver(nimlab.game('nim'), 0)", "InvalidArgumentError", ">= 1"
    ),
    Api("api-replace-none", "nimlab.replace(None, 0, 3)", "InvalidArgumentError", "got None"),
    Api("api-replace-index", "nimlab.replace((1, 2), 5, 3)", "InvalidArgumentError", "got 5"),
    Api(
        "api-lying-len", "nimlab.grundy('nim', probe.Liar((1, 2)))", "InvalidPositionError", "len()"
    ),
    Api("api-status-nope", "nimlab.status_of('nope')", "UnknownTheoremError", "'nope'"),
    Api("api-status-int", "nimlab.status_of(5)", "InvalidArgumentError", "got 5"),
    Api(
        "api-explain-illegal",
        "nimlab.explain('nim', (3, 4), move=(5, 4))",
        "InvalidPositionError",
        "is not a move from 3 4",
    ),
    Api(
        "api-explain-misere-move",
        "nimlab.explain('nim', (3, 4), (3, 3))",
        "InvalidArgumentError",
        "misere must be True or False",
    ),
    Api(
        "api-loopy-misere",
        "nimlab.outcome(nimlab.game(tmp + '/twocycle.py:probe-twocycle'), (3,), misere=True)",
        "GameDefinitionError",
        "loopy",
    ),
    Api(
        "api-loopy-genus",
        "nimlab.genus(nimlab.game(tmp + '/twocycle.py:probe-twocycle'), 3)",
        "GameDefinitionError",
        "loopy",
    ),
    Api(
        "api-closed-negative",
        "nimlab.grundy(probe.closed_game(-3), (1, 2))",
        "GameDefinitionError",
        "gave -3",
    ),
    Api(
        "api-closed-text",
        "nimlab.grundy(probe.closed_game('zero'), (1, 2))",
        "GameDefinitionError",
        "gave 'zero'",
    ),
    Api(
        "api-closed-p-int",
        "nimlab.outcome(probe.closed_game(None, 1), (1, 2))",
        "GameDefinitionError",
        "True or False",
    ),
    Api(
        "api-store-locked",
        "probe.locked_store(tmp)",
        "StoreError",
        "locked by another process",
    ),
)


def locked_store(tmp: str) -> None:
    """Verify into a store while another connection holds its write lock (short wait)."""
    import os
    import sqlite3

    import nimlab

    path = os.path.join(tmp, "locked.sqlite")
    nimlab.runs(path)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    old = os.environ.get("NIMLAB_LOCK_TIMEOUT")
    os.environ["NIMLAB_LOCK_TIMEOUT"] = "0.2"
    try:
        nimlab.check_theorem("S19-T1", 4, workers=1, store=path)
    finally:
        if old is None:
            del os.environ["NIMLAB_LOCK_TIMEOUT"]
        else:
            os.environ["NIMLAB_LOCK_TIMEOUT"] = old
        holder.execute("ROLLBACK")
        holder.close()


def wide_game() -> object:
    """A game with a huge move set and no estimate of its size (a user's own ruleset):
    the moves budget must stop its search while the moves are generated."""
    import nimlab

    class Wide(nimlab.Ruleset):  # type: ignore[type-arg]
        name = "probe-wide"

        def validate(self, position: object) -> object:
            return position

        def moves(self, position: tuple[int]) -> object:
            for _ in range(10 ** position[0]):
                yield (position[0] - 1,)

        def estimate_moves(self, position: object) -> None:
            return None

    return Wide()


class Liar(tuple):  # type: ignore[type-arg]
    """A position whose len() lies."""

    def __len__(self) -> int:
        return 7


def closed_game(grundy: object, is_p: object = None) -> object:
    """A user's ruleset whose closed-form hooks give *grundy* and *is_p*."""
    import nimlab

    class Closed(nimlab.HeapRuleset):
        name = "probe-closed"

        def moves(self, p: tuple[int, ...]) -> object:
            for i in range(len(p)):
                for v in range(p[i]):
                    yield nimlab.replace(p, i, v)

        def closed_grundy(self, p: object) -> object:
            return grundy

        def closed_is_p(self, p: object) -> object:
            return is_p

    return Closed()
