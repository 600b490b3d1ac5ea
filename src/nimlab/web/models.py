"""Request bodies of the JSON API (pydantic models: they are the OpenAPI schema)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr

__all__ = [
    "AnalysisRequest",
    "ComputerRequest",
    "GameRequest",
    "MoveRequest",
    "MultiplayerRequest",
    "PositionRequest",
    "RandomRequest",
    "TableRequest",
]


class GameRequest(BaseModel):
    """A game of the registry with its parameters, and the play convention."""

    model_config = ConfigDict(extra="forbid")

    game: str = Field(
        min_length=1, max_length=64, description="Registry name or alias.", examples=["nim"]
    )
    params: dict[StrictStr, StrictStr | StrictInt] = Field(
        default_factory=dict,
        max_length=8,
        description="The game's parameters by name, as texts (or integers), for example "
        '{"k": "2"} or {"S": "1,3,4"}; read by the game\'s own checks.',
        examples=[{}],
    )
    misere: StrictBool = Field(False, description="Misère play: the last mover loses.")

    def param_texts(self) -> dict[str, str]:
        """Parameters as texts (integers written out)."""
        return {k: str(v) for k, v in self.params.items()}


class PositionRequest(GameRequest):
    """A game and a position of it."""

    position: str = Field(
        max_length=1000,
        description="The position as the command line reads it: heaps 3 4 5, grouped heaps "
        "1,2 3,3 4, coins 1,1 2,3 (- for none).",
        examples=["3 4 5"],
    )


class AnalysisRequest(PositionRequest):
    """Ask for outcome, value, coloured options and (optionally) the explanation."""

    explain: StrictBool = Field(False, description="Add the explanation of the winning move.")


class MoveRequest(PositionRequest):
    """A move of the player: the position after it, or HEAP:SIZE pairs."""

    move: str = Field(
        max_length=1000,
        description="The position after the move (3 4 1) or HEAP:SIZE pairs (3:1).",
        examples=["3:1"],
    )


class ComputerRequest(PositionRequest):
    """Ask the computer for its move."""

    strength: Literal["perfect", "random", "mixed"] = Field(
        "perfect",
        description="perfect: a winning move when one exists; random; mixed: perfect half "
        "of the time.",
    )
    seed: int | None = Field(None, ge=0, le=2**32, description="Seed of the random choices.")


class RandomRequest(GameRequest):
    """Ask for a random position."""

    size: int = Field(6, ge=1, le=100, description="Largest heap (or coordinate).")
    seed: int | None = Field(None, ge=0, le=2**32, description="Seed of the random choices.")


class TableRequest(PositionRequest):
    """The table of a two-heap game around the origin, with the position marked."""

    size: int = Field(12, ge=1, le=24, description="Heaps 0..size-1 on each side.")


class MultiplayerRequest(PositionRequest):
    """m-player play with preferences ([SM])."""

    players: int = Field(3, ge=2, le=8, description="Number of players m.")
    preference: str = Field(
        "",
        max_length=200,
        description="Symmetric GAMEs(k1..km) as 1,2,0, or one order per player "
        "0,1,2;1,2,0;2,0,1; empty for Li's ranking.",
    )
    to_move: int = Field(0, ge=0, le=7, description="The player to move (0 moves first).")
