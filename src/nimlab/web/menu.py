"""The games a playground serves: its menu, fixed when the server starts.

:class:`GameMenu` resolves every game name of a request on its text alone;
:func:`game_info` and :func:`catalog` describe the games as JSON-ready dicts.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import nimlab
from nimlab.catalog.registry import load_game_file

__all__ = ["MAX_NAME_CHARS", "GameMenu", "catalog", "game_info"]


def _param_text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, (set, frozenset)):
        return ",".join(str(v) for v in sorted(value))
    if isinstance(value, tuple):
        return ",".join(_param_text(v) for v in value)
    return str(value)


def _doc_line(cls: type) -> str:
    """The first line of a class's own docstring ('' for none, or a dataclass's signature)."""
    doc = cls.__dict__.get("__doc__") or ""
    line = (doc.strip().splitlines() or [""])[0]
    return "" if line.startswith(cls.__name__ + "(") else line


def game_info(info: nimlab.GameInfo) -> dict[str, Any]:
    """One game of the registry, JSON-ready: name, rules, theorem ids, parameters.

    Examples
    --------
    >>> import nimlab
    >>> d = game_info(nimlab.games()[[i.name for i in nimlab.games()].index("moore")])
    >>> d["params"][0]["name"], d["params"][0]["required"]
    ('k', True)
    """
    return {
        "name": info.name,
        "aliases": list(info.aliases),
        "summary": info.summary or _doc_line(info.cls) or f"{info.name} (no summary given)",
        "theorems": list(info.theorems),
        "params": [
            {
                "name": p.name,
                "doc": p.doc,
                "required": p.required,
                "default": None if p.required else _param_text(p.default),
            }
            for p in info.params
        ],
    }


def catalog() -> list[dict[str, Any]]:
    """Every game of the registry (:func:`nimlab.games`), as :func:`game_info` dicts."""
    return [game_info(i) for i in nimlab.games()]


#: a game name of a request: letters, digits, ``-``, ``_``, ``+``, ``.`` and spaces only
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-_+. ")
MAX_NAME_CHARS = 64


def _name_key(name: str) -> str:
    return name.strip().lower().replace("_", "-").replace(" ", "-")


class GameMenu:
    """The games a server plays: fixed when it starts, the only names a request may use.

    The menu is the registry as it is when the server starts: the catalog, the installed
    plugins (entry points ``nimlab.games``) and the games of the files the operator named
    (``nimlab serve my_games.py``, loaded by :meth:`at_startup` before serving). A request
    names a game by its name or an alias; :meth:`resolve` refuses anything else (a path, a
    ``FILE.py:NAME`` spec, a game registered later) *before* the registry is asked, so no
    request can make the server read or import a file.

    Parameters
    ----------
    infos : iterable of nimlab.GameInfo
        The games served.
    files : tuple of str
        The game files they come from (a worker process loads them too).

    Examples
    --------
    >>> menu = GameMenu(nimlab.games())
    >>> menu.resolve("MooreNim"), menu.resolve("Nim_K")
    ('moore', 'moore')
    >>> menu.resolve("/tmp/evil.py:x")
    Traceback (most recent call last):
    ...
    nimlab.core.errors.UnknownGameError: unknown game '/tmp/evil.py:x': the playground plays only the games it was started with, named as in its game menu (a file cannot be named in a request)
    """

    def __init__(self, infos: Iterable[nimlab.GameInfo], files: tuple[str, ...] = ()) -> None:
        self.infos = tuple(infos)
        self.files = files
        self.entries = [game_info(i) for i in self.infos]
        self._keys: dict[str, str] = {}
        for i in self.infos:
            for n in (i.name, *i.aliases):
                self._keys.setdefault(_name_key(n), i.name)

    @classmethod
    def at_startup(cls, game_files: Iterable[str | Path] = ()) -> GameMenu:
        """Load the operator's game files (each once), then fix the menu: every registered game.

        Raises the registry's errors for a missing or broken file (``UnknownGameError``,
        ``GameDefinitionError``).

        Examples
        --------
        >>> "nim" in [e["name"] for e in GameMenu.at_startup().entries]
        True
        """
        files = tuple(str(p) for p in game_files)
        for path in files:
            load_game_file(path)
        return cls(nimlab.games(), files)

    def resolve(self, name: str) -> str:
        """The canonical name of the game *name* names, or ``UnknownGameError``.

        Checked on the text alone: nothing is read, imported or looked up in the registry.
        """
        shown = name[:MAX_NAME_CHARS]
        if (
            len(name) > MAX_NAME_CHARS
            or not set(name.lower()) <= _NAME_CHARS
            or ".py" in name.lower()
        ):
            raise nimlab.UnknownGameError(
                f"unknown game {shown!r}: the playground plays only the games it was started "
                "with, named as in its game menu (a file cannot be named in a request)"
            )
        canonical = self._keys.get(_name_key(name))
        if canonical is None:
            close = difflib.get_close_matches(_name_key(name), list(self._keys), n=3)
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            raise nimlab.UnknownGameError(
                f"unknown game {shown!r}{hint} (the games of this playground are listed on "
                "its home page and at /api/games)"
            )
        return canonical

    def info(self, canonical: str) -> dict[str, Any]:
        """The :func:`game_info` dict of a resolved game."""
        return next(e for e in self.entries if e["name"] == canonical)
