"""The hand model: melds, concealed tiles, the winning tile and the conditions of the win.

A `Hand` is only ever built by the parsers (`parse.py`), which check it first; everything
downstream may assume its tiles are legal codes and its melds real melds.
"""

from __future__ import annotations

from typing import Any, Literal

from .record import Record

MeldKind = Literal["chow", "pung", "kong"]
Side = Literal["left", "opposite", "right"]
SIDES: tuple[Side, ...] = ("left", "opposite", "right")
SEATS: tuple[str, ...] = ("E", "S", "W", "N")  # a seat is named by its wind, in playing order


class HandError(ValueError):
    """A hand that cannot be scored, with the RFC 6901 pointer to the field at fault."""

    def __init__(self, message: str, pointer: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.pointer = pointer

    def __str__(self) -> str:
        return f"{self.message} (at {self.pointer})" if self.pointer else self.message


class Meld(Record):
    """One declared set: an exposed chow, pung or kong, or a concealed kong (暗杠)."""

    FIELDS = ("kind", "tiles", "concealed", "claimed_from", "claimed_tile")
    __slots__ = FIELDS
    kind: MeldKind
    tiles: tuple[str, ...]
    concealed: bool
    claimed_from: Side | None  # pung or kong: the seat that discarded the tile
    claimed_tile: str | None  # chow: which of its tiles was claimed

    def __init__(
        self,
        kind: MeldKind,
        tiles: tuple[str, ...],
        concealed: bool = False,
        claimed_from: Side | None = None,
        claimed_tile: str | None = None,
    ) -> None:
        _set = object.__setattr__
        _set(self, "kind", kind)
        _set(self, "tiles", tiles)
        _set(self, "concealed", concealed)
        _set(self, "claimed_from", claimed_from)
        _set(self, "claimed_tile", claimed_tile)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.kind, "tiles": list(self.tiles)}
        if self.concealed:
            out["concealed"] = True
        if self.claimed_from is not None:
            out["claimed_from"] = self.claimed_from
        if self.claimed_tile is not None:
            out["claimed_tile"] = self.claimed_tile
        return out


class Table(Record):
    """What the table knows beyond the tiles, for the rule sets that score it: who deals and
    who discarded the winning tile (seats named by their wind), Beijing's wild tiles (会),
    烧庄 rounds and 互包 partners, Shanghai's 开宝 and 荒番, heavenly and earthly wins, and
    Sichuan's 杠上炮. The defaults say none of it happened; MCR scores none of it."""

    FIELDS = (
        "dealer", "discarder", "wild", "heavenly_win", "earthly_win", "kong_discard",
        "burned_rounds", "mutual_pay", "kaibao", "huangfan",
    )  # fmt: skip
    __slots__ = FIELDS
    dealer: str
    discarder: str | None  # the seat whose discard (or robbed kong) won; None: unknown
    wild: tuple[str, ...]  # 会牌: tile codes that stand for any tile in the hand
    heavenly_win: bool  # 天和 / 天胡: the dealer's fourteen dealt tiles
    earthly_win: bool  # 地和 / 地胡: a win before the winner's first discard
    kong_discard: bool  # 杠上炮: won on the tile a player let go after his kong
    burned_rounds: int  # 烧庄: rounds in which all three followed the dealer's first discard
    mutual_pay: tuple[str, ...]  # 互包: seats that pay the winner's whole hand
    kaibao: bool  # 开宝: the dice showed a double 1 or 4
    huangfan: bool  # 荒番: the hand follows a drawn hand

    def __init__(
        self,
        dealer: str = "E",
        discarder: str | None = None,
        wild: tuple[str, ...] = (),
        heavenly_win: bool = False,
        earthly_win: bool = False,
        kong_discard: bool = False,
        burned_rounds: int = 0,
        mutual_pay: tuple[str, ...] = (),
        kaibao: bool = False,
        huangfan: bool = False,
    ) -> None:
        _set = object.__setattr__
        _set(self, "dealer", dealer)
        _set(self, "discarder", discarder)
        _set(self, "wild", wild)
        _set(self, "heavenly_win", heavenly_win)
        _set(self, "earthly_win", earthly_win)
        _set(self, "kong_discard", kong_discard)
        _set(self, "burned_rounds", burned_rounds)
        _set(self, "mutual_pay", mutual_pay)
        _set(self, "kaibao", kaibao)
        _set(self, "huangfan", huangfan)

    def to_json(self) -> dict[str, Any]:
        """The fields that differ from the defaults, as Hand JSON keys."""
        out: dict[str, Any] = {}
        for name in TABLE_FIELDS:
            value = getattr(self, name)
            if value != getattr(PLAIN_TABLE, name):
                out[name] = list(value) if isinstance(value, tuple) else value
        return out

    def given(self) -> tuple[str, ...]:
        """The names of the fields that differ from the defaults."""
        return tuple(n for n in TABLE_FIELDS if getattr(self, n) != getattr(PLAIN_TABLE, n))


TABLE_FIELDS: tuple[str, ...] = Table.FIELDS
PLAIN_TABLE = Table()


class Hand(Record):
    """A declared win. `concealed` excludes the winning tile; a kong counts as three tiles."""

    FIELDS = (
        "melds", "concealed", "winning_tile", "self_drawn", "seat_wind", "prevalent_wind",
        "flowers", "flower_count", "last_tile", "last_of_wall", "kong_replacement",
        "robbing_kong", "table",
    )  # fmt: skip
    __slots__ = FIELDS
    melds: tuple[Meld, ...]
    concealed: tuple[str, ...]
    winning_tile: str
    self_drawn: bool
    seat_wind: str
    prevalent_wind: str
    flowers: tuple[str, ...]
    flower_count: int  # equals len(flowers) when the flowers are named
    last_tile: bool  # 和绝张
    last_of_wall: bool  # 妙手回春 (self-drawn) / 海底捞月 (on a discard)
    kong_replacement: bool  # 杠上开花
    robbing_kong: bool  # 抢杠和
    table: Table

    def __init__(
        self,
        melds: tuple[Meld, ...],
        concealed: tuple[str, ...],
        winning_tile: str,
        self_drawn: bool = False,
        seat_wind: str = "E",
        prevalent_wind: str = "E",
        flowers: tuple[str, ...] = (),
        flower_count: int = 0,
        last_tile: bool = False,
        last_of_wall: bool = False,
        kong_replacement: bool = False,
        robbing_kong: bool = False,
        table: Table = PLAIN_TABLE,
    ) -> None:
        _set = object.__setattr__
        _set(self, "melds", melds)
        _set(self, "concealed", concealed)
        _set(self, "winning_tile", winning_tile)
        _set(self, "self_drawn", self_drawn)
        _set(self, "seat_wind", seat_wind)
        _set(self, "prevalent_wind", prevalent_wind)
        _set(self, "flowers", flowers)
        _set(self, "flower_count", flower_count)
        _set(self, "last_tile", last_tile)
        _set(self, "last_of_wall", last_of_wall)
        _set(self, "kong_replacement", kong_replacement)
        _set(self, "robbing_kong", robbing_kong)
        _set(self, "table", table)

    def to_json(self) -> dict[str, Any]:
        """The Hand JSON of DESIGN.md (the table's fields only where given)."""
        out: dict[str, Any] = {
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
        if self.table is not PLAIN_TABLE:
            out.update(self.table.to_json())
        return out


class Waiting(Record):
    """A hand one tile short of a win: 13 tiles (a kong counting three), no winning tile yet.

    It keeps only the context that holds whichever tile wins: the winds, the flowers and
    whether the wall is at its last tile (妙手回春 self-drawn, 海底捞月 on a discard)."""

    FIELDS = ("melds", "concealed", "seat_wind", "prevalent_wind", "flowers", "flower_count",
                 "last_of_wall", "table")  # fmt: skip
    __slots__ = FIELDS
    melds: tuple[Meld, ...]
    concealed: tuple[str, ...]
    seat_wind: str
    prevalent_wind: str
    flowers: tuple[str, ...]
    flower_count: int
    last_of_wall: bool
    table: Table  # never a fact of one win (discarder, heavenly, earthly, 杠上炮)

    def __init__(
        self,
        melds: tuple[Meld, ...],
        concealed: tuple[str, ...],
        seat_wind: str = "E",
        prevalent_wind: str = "E",
        flowers: tuple[str, ...] = (),
        flower_count: int = 0,
        last_of_wall: bool = False,
        table: Table = PLAIN_TABLE,
    ) -> None:
        _set = object.__setattr__
        _set(self, "melds", melds)
        _set(self, "concealed", concealed)
        _set(self, "seat_wind", seat_wind)
        _set(self, "prevalent_wind", prevalent_wind)
        _set(self, "flowers", flowers)
        _set(self, "flower_count", flower_count)
        _set(self, "last_of_wall", last_of_wall)
        _set(self, "table", table)

    def won_on(self, tile: str, self_drawn: bool) -> Hand:
        """The win on `tile`, by a self-draw or on a discard. The caller checks that a fifth
        copy is not asked for; the other conditions of a win cannot clash here."""
        return Hand(
            self.melds, self.concealed, tile, self_drawn, self.seat_wind, self.prevalent_wind,
            self.flowers, self.flower_count, last_of_wall=self.last_of_wall, table=self.table,
        )  # fmt: skip

    def to_json(self) -> dict[str, Any]:
        """Hand JSON without `winning_tile`: how DESIGN.md writes a hand waiting to win."""
        out: dict[str, Any] = {
            "melds": [m.to_json() for m in self.melds],
            "concealed": list(self.concealed),
            "seat_wind": self.seat_wind,
            "prevalent_wind": self.prevalent_wind,
            "flowers": list(self.flowers) if self.flowers else self.flower_count,
            "last_of_wall": self.last_of_wall,
        }
        if self.table is not PLAIN_TABLE:
            out.update(self.table.to_json())
        return out
