"""The hand model: melds, concealed tiles, the winning tile and the conditions of the win.

A `Hand` is only ever built by the parsers (`parse.py`), which check it first; everything
downstream may assume its tiles are legal codes and its melds real melds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

MeldKind = Literal["chow", "pung", "kong"]
Side = Literal["left", "opposite", "right"]
SIDES: tuple[Side, ...] = ("left", "opposite", "right")


class HandError(ValueError):
    """A hand that cannot be scored, with the RFC 6901 pointer to the field at fault."""

    def __init__(self, message: str, pointer: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.pointer = pointer

    def __str__(self) -> str:
        return f"{self.message} (at {self.pointer})" if self.pointer else self.message


@dataclass(frozen=True, slots=True)
class Meld:
    """One declared set: an exposed chow, pung or kong, or a concealed kong (暗杠)."""

    kind: MeldKind
    tiles: tuple[str, ...]
    concealed: bool = False
    claimed_from: Side | None = None  # pung or kong: the seat that discarded the tile
    claimed_tile: str | None = None  # chow: which of its tiles was claimed

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.kind, "tiles": list(self.tiles)}
        if self.concealed:
            out["concealed"] = True
        if self.claimed_from is not None:
            out["claimed_from"] = self.claimed_from
        if self.claimed_tile is not None:
            out["claimed_tile"] = self.claimed_tile
        return out


@dataclass(frozen=True, slots=True)
class Hand:
    """A declared win. `concealed` excludes the winning tile; a kong counts as three tiles."""

    melds: tuple[Meld, ...]
    concealed: tuple[str, ...]
    winning_tile: str
    self_drawn: bool = False
    seat_wind: str = "E"
    prevalent_wind: str = "E"
    flowers: tuple[str, ...] = ()
    flower_count: int = 0  # equals len(flowers) when the flowers are named
    last_tile: bool = False  # 和绝张
    last_of_wall: bool = False  # 妙手回春 (self-drawn) / 海底捞月 (on a discard)
    kong_replacement: bool = False  # 杠上开花
    robbing_kong: bool = False  # 抢杠和

    def to_json(self) -> dict[str, Any]:
        """The Hand JSON of DESIGN.md."""
        return {
            "melds": [m.to_json() for m in self.melds],
            "concealed": list(self.concealed),
            "winning_tile": self.winning_tile,
            "self_drawn": self.self_drawn,
            "seat_wind": self.seat_wind,
            "prevalent_wind": self.prevalent_wind,
            "flowers": list(self.flowers) if self.flowers else self.flower_count,
            "last_tile": self.last_tile,
            "last_of_wall": self.last_of_wall,
            "kong_replacement": self.kong_replacement,
            "robbing_kong": self.robbing_kong,
        }


@dataclass(frozen=True, slots=True)
class Waiting:
    """A hand one tile short of a win: 13 tiles (a kong counting three), no winning tile yet.

    It keeps only the context that holds whichever tile wins: the winds, the flowers and
    whether the wall is at its last tile (妙手回春 self-drawn, 海底捞月 on a discard)."""

    melds: tuple[Meld, ...]
    concealed: tuple[str, ...]
    seat_wind: str = "E"
    prevalent_wind: str = "E"
    flowers: tuple[str, ...] = ()
    flower_count: int = 0
    last_of_wall: bool = False

    def won_on(self, tile: str, self_drawn: bool) -> Hand:
        """The win on `tile`, by a self-draw or on a discard. The caller checks that a fifth
        copy is not asked for; the other conditions of a win cannot clash here."""
        return Hand(
            self.melds, self.concealed, tile, self_drawn, self.seat_wind, self.prevalent_wind,
            self.flowers, self.flower_count, last_of_wall=self.last_of_wall,
        )  # fmt: skip

    def to_json(self) -> dict[str, Any]:
        """Hand JSON without `winning_tile`: how DESIGN.md writes a hand waiting to win."""
        return {
            "melds": [m.to_json() for m in self.melds],
            "concealed": list(self.concealed),
            "seat_wind": self.seat_wind,
            "prevalent_wind": self.prevalent_wind,
            "flowers": list(self.flowers) if self.flowers else self.flower_count,
            "last_of_wall": self.last_of_wall,
        }
