"""The catalog of games: one module per family, and the registry that names them."""

from nimlab.catalog.registry import GameInfo, game, game_class, games, parse_game_spec, register

__all__ = ["GameInfo", "game", "game_class", "games", "parse_game_spec", "register"]
