"""MkDocs hooks: the pages that are generated from nimlab itself at build time.

Loaded by ``mkdocs.yml`` (``hooks:``). Everything here asks the installed nimlab, so the
site cannot drift from the code:

- ``theorems.md``: the theorem registry, from ``nimlab theorems --json`` (a status column
  appears as soon as the JSON carries a ``status``).
- ``reference/api.md``: one mkdocstrings entry per public name of ``nimlab.__all__``,
  grouped by the layer that defines it, plus ``nimlab.render``.
- In every page, the directives

  - ``<!-- nimlab:facts -->``: names, aliases, parameters and rules of the games listed in
    the page's front matter (``games: [...]``), from ``nimlab list --json``;
  - ``<!-- nimlab:results -->``: the results of those games, with ids, statements and
    status, from ``nimlab theorems --json``;
  - a fenced block ``nimlab-picture`` (YAML: ``game``, ``params``, ``picture`` = heatmap,
    tree or binary, ``size``, ``kind``, ``position``, ``caption``): a picture drawn by
    nimlab's render API during the build.

The hook also checks that every game of ``nimlab list`` is claimed by exactly one page
and every result id of ``nimlab theorems`` by the page of its game; a miss is a warning,
which ``mkdocs build --strict`` turns into a failed build.
"""

from __future__ import annotations

import json
import logging
import re
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

import yaml
from mkdocs.structure.files import File, Files

log = logging.getLogger("mkdocs.hooks.nimlab")

FACTS = "<!-- nimlab:facts -->"
RESULTS = "<!-- nimlab:results -->"
PICTURE = re.compile(r"^```nimlab-picture\n(.*?)^```\n", re.M | re.S)
FRONT = re.compile(r"\A---\n(.*?)\n---\n", re.S)

# the papers of the result ids (the same references as CITATION.cff); all are in Japanese
PAPERS = {
    "S19": "Koki Suetsugu, *Various uses of binary expansions in determining the winning "
    "positions of impartial games*, IPSJ SIG Technical Report, Game Informatics (SIG-GI) 41, "
    "2019: Nim, Moore's Nim_k, Turning Turtles, Welter, Lim, Circular Nim, Nimhoff, "
    "Delete Nim, Emperor Nim",
    "S18": "Koki Suetsugu, *A generalization of Ryuo Nim with its vertical and horizontal "
    "moves replaced by All-But Nim*, IPSJ SIG Technical Report, Game Informatics (SIG-GI) 40, "
    "2018: Wythoff, Ryuo and restricted Ryuo Nim, all-but games, RGAMES",
    "Sh": "Masato Shinoda, *Generalizations of Delete Nim Game and determining the winner*, "
    "IPSJ SIG Technical Report, Game Informatics (SIG-GI): two-heap, ABO- and single-delete Nim",
    "N99": "Hisashi Naito, *Strategies of games: do you know Nim?*, Nagoya University public "
    "lecture in mathematics, 1999: Nim and Nim_K, misère play, many players",
    "SM": "Koki Suetsugu, *The normal play and the misère play of multiplayer NIM with "
    "preference*, IPSJ SIG Technical Report, Game Informatics (SIG-GI): preference orders",
}

_cache: dict[str, Any] = {}


def _cli_json(*args: str) -> Any:
    key = " ".join(args)
    if key not in _cache:
        out = subprocess.run(
            [sys.executable, "-m", "nimlab", *args, "--json"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        _cache[key] = json.loads(out)
    return _cache[key]


def games() -> list[dict[str, Any]]:
    """``nimlab list --json``."""
    return list(_cli_json("list"))


def catalog_names() -> set[str]:
    """The games of nimlab's own catalog (not games of installed plugin packages)."""
    import nimlab

    listed = {g["name"] for g in games()}
    return {
        g.name for g in nimlab.games() if g.cls.__module__.startswith("nimlab.catalog")
    } & listed


def theorems() -> list[dict[str, Any]]:
    """``nimlab theorems --json``."""
    return list(_cli_json("theorems"))


def _front(text: str) -> dict[str, Any]:
    m = FRONT.match(text)
    return dict(yaml.safe_load(m.group(1)) or {}) if m else {}


# ---------------------------------------------------------------- which page owns a game
_owner: dict[str, str] = {}  # game name -> page src_uri


def _page_url(src_uri: str, from_uri: str) -> str:
    """Relative link from page *from_uri* to page *src_uri* (both docs-relative)."""
    import posixpath

    return posixpath.relpath(src_uri, posixpath.dirname(from_uri) or ".")


def theorem_anchor(tid: str) -> str:
    """The HTML id of a result's section: ``S18-T8`` -> ``s18-t8``, ``Sh-T6*`` -> ``sh-t6-star``."""
    return re.sub(r"[^a-z0-9]+", "-", tid.lower().replace("*", "-star")).strip("-")


# ---------------------------------------------------------------- generated pages
def theorems_page() -> str:
    rows = theorems()
    has_status = any("status" in t for t in rows)
    out = [
        "# Theorem registry",
        "",
        "Every result that nimlab implements has a stable id, made of the paper's key and the",
        "result's number in it (`S18-T8` is Theorem 8 of [S18]). The CLI, the Python API, the",
        "verification engine and the tests use these ids. This page is generated from",
        "`nimlab theorems --json` when the site is built.",
        "",
        "```bash",
        "nimlab theorems",
        "```",
        "",
        "lists them in a terminal, `nimlab verify ID` checks one",
        "and `nimlab reproduce`",
        "checks them all.",
        "",
    ]
    head = "| id | game | statement |" + (" status |" if has_status else "")
    out += [head, "|---|---|---|" + ("---|" if has_status else "")]
    for t in rows:
        game = t["game"]
        page = _owner.get(game)
        g = f"[`{game}`]({_page_url(page, 'theorems.md')})" if page else f"`{game}`"
        cells = [f"[{_md(t['id'])}](#{theorem_anchor(t['id'])})", g, _md(t["statement"])]
        if has_status:
            cells.append(_state(t))
        out.append("| " + " | ".join(cells) + " |")
    out += ["", "## The papers", ""]
    for key, title in PAPERS.items():
        out.append(f"- **[{key}]** {title}.")
    out += [
        "",
        "The papers are in Japanese; the game pages restate every rule and result in English.",
        "",
    ]
    for key in PAPERS:
        group = [t for t in rows if t["paper"] == key]
        if not group:
            continue
        out += [f"## [{key}]", ""]
        for t in group:
            out += _theorem_block(t, "theorems.md", level=3)
    return "\n".join(out) + "\n"


def _state(t: dict[str, Any]) -> str:
    """The status of a result (proved, refuted, conjectured), or "" when the JSON has none."""
    status = t.get("status")
    if isinstance(status, dict):
        return str(status.get("state", ""))
    return str(status or "")


def _status_lines(t: dict[str, Any], from_uri: str) -> list[str]:
    """The details of a status given as an object: source, bound, counterexample, successor."""
    status = t.get("status")
    if not isinstance(status, dict):
        return []
    out: list[str] = []
    if status.get("source"):
        out.append(f"- status: **{_state(t)}** ({_md(str(status['source']))}).")
    if status.get("counterexample"):
        ce = " ".join(str(h) for h in status["counterexample"])
        out.append(f"- smallest counterexample: `{ce}`.")
    if status.get("verified_below"):
        n = status.get("verified_positions")
        what = f" ({n:,} positions)" if isinstance(n, int) else ""
        out.append(
            f"- checked by exhaustive search for heaps below {status['verified_below']}{what}."
        )
    if status.get("replaced_by"):
        r = str(status["replaced_by"])
        out.append(f"- replaced by [{_md(r)}](#{theorem_anchor(r)}).")
    if status.get("note"):
        out.append(f"- {_md(str(status['note']))}.")
    if from_uri != "theorems.md":
        out = [line.replace("](#", "](" + _page_url("theorems.md", from_uri) + "#") for line in out]
    return out


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("*", "\\*").replace("_", "\\_")


def _theorem_block(t: dict[str, Any], from_uri: str, level: int) -> list[str]:
    tid = t["id"]
    page = _owner.get(t["game"])
    game = f"[`{t['game']}`]({_page_url(page, from_uri)})" if page else f"`{t['game']}`"
    lines = [f"{'#' * level} {_md(tid)} {{#{theorem_anchor(tid)}}}", "", _md(t["statement"]), ""]
    facts = [f"game {game}", f"kind `{t['kind']}`"]
    if _state(t) and not isinstance(t.get("status"), dict):
        facts.insert(0, f"status **{_state(t)}**")
    if t.get("aliases"):
        facts.append("also known as " + ", ".join(f"`{a}`" for a in t["aliases"]))
    lines.append("- " + "; ".join(facts) + ".")
    where = f"{_md(t['params'])}; " if t.get("params") else ""
    lines.append(f"- checked on: {where}{_md(t['bound'])} (default bound {t['default_bound']}).")
    lines += _status_lines(t, from_uri)
    lines.append(f"- `nimlab verify {tid}`")
    lines.append("")
    return lines


#: The names the API reference opens with, in this order (what people use first).
FIRST_NAMES = (
    "game",
    "grundy",
    "outcome",
    "winning_moves",
    "winning_move",
    "moves",
    "explain",
    "heap_game",
    "table",
    "sequence",
    "periodicity_of",
    "game_tree",
    "binary_view",
    "check_theorem",
    "verify",
)


def api_page() -> str:
    import nimlab

    groups: dict[str, list[str]] = defaultdict(list)
    for name in sorted(nimlab.__all__, key=str.lower):
        if name == "render":
            continue
        obj = getattr(nimlab, name)
        mod = getattr(obj, "__module__", None) or nimlab._LAZY.get(name, "nimlab")
        qual = getattr(obj, "__qualname__", name)
        layer = nimlab._LAZY.get(name, "nimlab").split(".")[1]
        groups[layer].append(f"{mod}.{qual}")
    titles = {
        "core": "Core: rulesets, results and errors",
        "catalog": "The catalog of games",
        "solvers": "Solvers: values, outcomes, moves, explanations, many players",
        "theory": "The theorem registry",
        "verification": "Verification",
        "engine": "Compiled tables, sequences, periodicity and nim arithmetic",
        "render": "Pictures",
    }
    out = [
        "# Python API",
        "",
        "Every public name of `nimlab` (its `__all__`), generated from the docstrings when the",
        "site is built. `import nimlab` is cheap: each name is imported on first use. The",
        "functions most programs use come first; rulesets, results and errors come last.",
        "",
    ]
    first = [n for n in FIRST_NAMES if n in nimlab.__all__]
    out += ["## Start here: the functions used most", ""]
    for name in first:
        obj = getattr(nimlab, name)
        mod = getattr(obj, "__module__", None) or nimlab._LAZY.get(name, "nimlab")
        path = f"{mod}.{getattr(obj, '__qualname__', name)}"
        out += [f"::: {path}", "    options:", "      heading_level: 3", ""]
        for layer in groups:
            if path in groups[layer]:
                groups[layer].remove(path)
    order = [layer for layer in titles if layer != "core"] + ["core"]
    for layer in [*order, *sorted(set(groups) - set(titles))]:
        if not groups.get(layer):
            continue
        out += [f"## {titles.get(layer, layer)}", ""]
        for path in groups[layer]:
            out += [f"::: {path}", "    options:", "      heading_level: 3", ""]
    out += [
        "## The `nimlab.render` module",
        "",
        "::: nimlab.render",
        "    options:",
        "      heading_level: 3",
        "      members: true",
        "",
    ]
    return "\n".join(out)


# ---------------------------------------------------------------- pictures
def _picture_name(spec: dict[str, Any]) -> str:
    raw = json.dumps(spec, sort_keys=True)
    import hashlib

    return "gen/" + spec["game"] + "-" + hashlib.sha1(raw.encode()).hexdigest()[:10] + ".svg"


def draw(spec: dict[str, Any]) -> bytes:
    """Draw one picture with nimlab's render API and return the SVG bytes."""
    import numpy as np

    import nimlab
    from nimlab import render

    g = nimlab.game(spec["game"], **(spec.get("params") or {}))
    kind = spec.get("picture", "heatmap")
    w, h = spec.get("image", [560, 500])
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "p.svg"
        if kind == "tree":
            position = _tuples(spec["position"])
            tree = render.game_tree(g, position, dag=bool(spec.get("dag", False)))
            return tree.to_svg(engine="python").encode()
        if kind == "heatmap":
            shape = spec.get("shape") or int(spec.get("size", 32))
            shape = tuple(shape) if isinstance(shape, list) else shape
            table = render.compute_table(g, shape, kind=spec.get("kind", "grundy"))
        elif kind == "nimmul":
            n = int(spec.get("size", 32))
            a = np.arange(n, dtype=np.uint64)
            table = nimlab.nimmul(a[:, None], a[None, :])
        else:
            raise ValueError(f"unknown picture kind {kind!r}")
        render.heatmap(
            table,
            path,
            title=spec.get("title"),
            kind=spec.get("kind", "grundy"),
            size=(int(w), int(h)),
            slices=spec.get("slices"),
        )
        return path.read_bytes()


def _tuples(x: Any) -> Any:
    return tuple(_tuples(v) for v in x) if isinstance(x, list) else x


# ---------------------------------------------------------------- the hooks
def on_files(files: Files, config: Any) -> Files:
    _owner.clear()
    claimed: dict[str, list[str]] = defaultdict(list)
    pictures: dict[str, bytes] = {}
    for f in files.documentation_pages():
        text = Path(f.abs_src_path).read_text(encoding="utf-8")
        for name in _front(text).get("games", []) or []:
            claimed[name].append(f.src_uri)
        for m in PICTURE.finditer(text):
            spec = yaml.safe_load(m.group(1))
            name = _picture_name(spec)
            if name not in pictures:
                pictures[name] = draw(spec)
    known = catalog_names()
    for name in sorted(known):
        pages = claimed.get(name, [])
        if len(pages) != 1:
            log.warning(
                "game %r of `nimlab list` is described by %d pages (%s); "
                "list it in the front matter (games: [...]) of exactly one page",
                name,
                len(pages),
                ", ".join(pages) or "none",
            )
        if pages:
            _owner[name] = pages[0]
    for name in sorted(set(claimed) - known):
        log.warning(
            "page %s describes game %r, which `nimlab list` does not know", claimed[name][0], name
        )
    files.append(File.generated(config, "theorems.md", content=theorems_page()))
    files.append(File.generated(config, "reference/api.md", content=api_page()))
    for name, data in pictures.items():
        files.append(File.generated(config, name, content=data))
    return files


#: Circled symbols many fonts lack: ⓚ (U+24DA) and ① .. ⑳ (U+2460..U+2473).
CIRCLED = {"\u24da": "k", **{chr(0x2460 + i): str(i + 1) for i in range(20)}}
_CIRCLED = re.compile("[" + "".join(CIRCLED) + "]")


def circled_html(html: str) -> str:
    """Each circled symbol as a CSS-drawn circle around its letter or number (the text
    stays searchable and copyable as the plain letter; the title names the symbol).

    >>> circled_html("a ⓚ b")
    'a <span class="nimlab-circled" title="circled k">k</span> b'
    """
    return _CIRCLED.sub(
        lambda m: (
            f'<span class="nimlab-circled" title="circled {CIRCLED[m.group(0)]}">'
            f"{CIRCLED[m.group(0)]}</span>"
        ),
        html,
    )


def on_page_content(html: str, page: Any, config: Any, files: Files) -> str:
    return circled_html(html)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    src = page.file.src_uri
    names = list(page.meta.get("games", []) or [])
    if FACTS in markdown:
        markdown = markdown.replace(FACTS, _facts(names))
    if RESULTS in markdown:
        markdown = markdown.replace(RESULTS, _results(names, src))
    elif names:
        ids = [t["id"] for t in theorems() if t["game"] in names]
        if ids:
            log.warning(
                "page %s describes %s but does not list their results (%s)",
                src,
                ", ".join(names),
                RESULTS,
            )

    def picture(m: re.Match[str]) -> str:
        spec = yaml.safe_load(m.group(1))
        import posixpath

        link = posixpath.relpath(_picture_name(spec), posixpath.dirname(src) or ".")
        caption = spec.get("caption", spec["game"])
        return f"![{caption}]({link})\n\n*{caption}*\n"

    return PICTURE.sub(picture, markdown)


def _facts(names: list[str]) -> str:
    info = {g["name"]: g for g in games()}
    out = ["| name on the CLI and in Python | aliases | parameters | a move |", "|---|---|---|---|"]
    for name in names:
        g = info[name]
        params = (
            "<br>".join(
                f"`{p['name']}`{'' if p['required'] else ' (optional)'}: {_md(p['doc'])}"
                for p in g["params"]
            )
            or "—"
        )
        aliases = ", ".join(f"`{a}`" for a in g["aliases"]) or "—"
        out.append(f"| `{name}` | {aliases} | {params} | {_md(g['summary'])} |")
    return "\n".join(out) + "\n"


def _results(names: list[str], src: str) -> str:
    rows = [t for t in theorems() if t["game"] in names]
    if not rows:
        return (
            "No result of the papers is registered for this family: its values come from "
            "exhaustive search.\n"
        )
    out: list[str] = []
    for t in rows:
        link = _page_url("theorems.md", src) + "#" + theorem_anchor(t["id"])
        status = f" *({_state(t)})*" if _state(t) else ""
        out.append(f"- [**{_md(t['id'])}**]({link}){status} [{t['paper']}]: {_md(t['statement'])}")
        if _state(t) not in ("", "proved"):
            out += ["    " + x for x in _status_lines(t, src)[1:]]
    keys = [k for k in PAPERS if any(t["paper"] == k for t in rows)]
    out += [
        "",
        "From " + ("these papers" if len(keys) > 1 else "the paper") + " (in Japanese):",
        "",
    ]
    out += [f"- **[{k}]** {PAPERS[k]}." for k in keys]
    return "\n".join(out) + "\n"
