"""Games of other packages, declared as ``nimlab.games`` entry points, join the registry
and so every interface (CLI, web playground)."""

from __future__ import annotations

import sys
import types
from dataclasses import dataclass
from importlib.metadata import EntryPoint
from typing import Any

import pytest

import nimlab
from nimlab.catalog import registry


def _plugin_module() -> types.ModuleType:
    mod = types.ModuleType("nimlab_test_plugin")

    @dataclass(frozen=True)
    class TakeOneOrTwo(nimlab.HeapRuleset):
        """One heap; take 1 or 2 stones."""

        name = "take-one-or-two-plugin"
        summary = "one heap; take 1 or 2 stones"
        n_heaps = 1

        def moves(self, position: tuple[int, ...]) -> Any:
            (h,) = position
            return [(h - t,) for t in (1, 2) if t <= h]

    mod.TakeOneOrTwo = TakeOneOrTwo  # type: ignore[attr-defined]
    return mod


def test_entry_point_games_are_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "nimlab_test_plugin", _plugin_module())
    eps = [
        EntryPoint("take12", "nimlab_test_plugin:TakeOneOrTwo", registry.PLUGIN_GROUP),
        EntryPoint("broken", "nimlab_test_plugin:Missing", registry.PLUGIN_GROUP),
        EntryPoint("notagame", "nimlab_test_plugin:__name__", registry.PLUGIN_GROUP),
    ]
    import importlib.metadata

    nimlab.games()  # the catalog (and the installed plugins) are loaded first
    real = importlib.metadata.entry_points

    def entry_points(**kw: Any) -> Any:
        return eps if kw.get("group") == registry.PLUGIN_GROUP else real(**kw)

    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)
    monkeypatch.setattr(registry, "_CLASSES", dict(registry._CLASSES))
    monkeypatch.setattr(registry, "_NAMES", dict(registry._NAMES))
    with pytest.warns(UserWarning) as caught:
        assert registry.load_plugins() == ["take12"]
    messages = " ".join(str(w.message) for w in caught)
    assert "'broken'" in messages and "'notagame'" in messages
    assert "take-one-or-two-plugin" in [i.name for i in nimlab.games()]
    g = nimlab.game("take-one-or-two-plugin")
    assert [nimlab.grundy(g, (n,)) for n in range(7)] == [0, 1, 2, 0, 1, 2, 0]

    # the playground lists it and plays it like any catalog game
    from fastapi.testclient import TestClient

    from nimlab.web.app import create_app

    with TestClient(create_app()) as client:
        names = [x["name"] for x in client.get("/api/games").json()]
        assert "take-one-or-two-plugin" in names
        r = client.post("/api/analysis", json={"game": "take-one-or-two-plugin", "position": "4"})
        assert r.status_code == 200 and r.json()["winning_moves"] == ["3"]
