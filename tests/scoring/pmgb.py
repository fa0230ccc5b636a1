"""Adapter from Hand JSON to PyMahjongGB 1.4.0 (`MahjongGB`), the reference MCR calculator.

Test- and benchmark-only: scoring/ itself never imports it. PyMahjongGB names tiles W1-9
characters (our m), B1-9 dots (our p), T1-9 bamboo (our s), F1-4 winds E S W N and J1-3
dragons red, green, white (our C F P). A claimed pung or kong gives the seat it came from
(1 left/上家, 2 opposite, 3 right/下家), a chow which of its three tiles was claimed (1-3),
and a kong with offer 0 is concealed. Its fans come back as (points, count, zh, en).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import MahjongGB

SUIT_LETTER = {"m": "W", "p": "B", "s": "T"}
HONOR_CODE = {"E": "F1", "S": "F2", "W": "F3", "N": "F4", "C": "J1", "F": "J2", "P": "J3"}
WIND_INDEX = {"E": 0, "S": 1, "W": 2, "N": 3}
OFFER = {"left": 1, "opposite": 2, "right": 3}
PACK = {"chow": "CHI", "pung": "PENG", "kong": "GANG"}

# PyMahjongGB's English fan names, in its enum order, which is the rule book's table order:
# the position (from 1) is our fan id. "Concealed Kong and Melded Kong" (明暗杠, 5 points) is
# its non-standard 82nd fan; profile mcr-mil keeps it.
FAN_NAMES = (
    "Big Four Winds", "Big Three Dragons", "All Green", "Nine Gates", "Four Kongs",
    "Seven Shifted Pairs", "Thirteen Orphans", "All Terminals", "Little Four Winds",
    "Little Three Dragons", "All Honors", "Four Concealed Pungs", "Pure Terminal Chows",
    "Quadruple Chow", "Four Pure Shifted Pungs", "Four Pure Shifted Chows", "Three Kongs",
    "All Terminals and Honors", "Seven Pairs", "Greater Honors and Knitted Tiles",
    "All Even Pungs", "Full Flush", "Pure Triple Chow", "Pure Shifted Pungs", "Upper Tiles",
    "Middle Tiles", "Lower Tiles", "Pure Straight", "Three-Suited Terminal Chows",
    "Pure Shifted Chows", "All Five", "Triple Pung", "Three Concealed Pungs",
    "Lesser Honors and Knitted Tiles", "Knitted Straight", "Upper Four", "Lower Four",
    "Big Three Winds", "Mixed Straight", "Reversible Tiles", "Mixed Triple Chow",
    "Mixed Shifted Pungs", "Chicken Hand", "Last Tile Draw", "Last Tile Claim",
    "Out with Replacement Tile", "Robbing The Kong", "All Pungs", "Half Flush",
    "Mixed Shifted Chows", "All Types", "Melded Hand", "Two Concealed Kongs",
    "Two Dragons Pungs", "Outside Hand", "Fully Concealed Hand", "Two Melded Kongs",
    "Last Tile", "Dragon Pung", "Prevalent Wind", "Seat Wind", "Concealed Hand", "All Chows",
    "Tile Hog", "Double Pung", "Two Concealed Pungs", "Concealed Kong", "All Simples",
    "Pure Double Chow", "Mixed Double Chow", "Short Straight", "Two Terminal Chows",
    "Pung of Terminals or Honors", "Melded Kong", "One Voided Suit", "No Honors", "Edge Wait",
    "Closed Wait", "Single Wait", "Self-Drawn", "Flower Tiles",
    "Concealed Kong and Melded Kong",
)  # fmt: skip
FAN_ID = {name: i for i, name in enumerate(FAN_NAMES, start=1)}
CONCEALED_AND_MELDED_KONG = 82  # PyMahjongGB's extra fan; not in the rule book's table


def tile(code: str) -> str:
    """Our tile code -> PyMahjongGB's: `5p` -> `B5`, `C` -> `J1`."""
    if code in HONOR_CODE:
        return HONOR_CODE[code]
    return f"{SUIT_LETTER[code[1]]}{code[0]}"


def _pack(meld: Mapping[str, Any]) -> tuple[str, str, int]:
    kind, tiles = meld["type"], list(meld["tiles"])
    if kind == "chow":
        tiles.sort()
        claimed = meld.get("claimed_tile", tiles[1])
        return ("CHI", tile(tiles[1]), tiles.index(claimed) + 1)
    offer = 0 if meld.get("concealed") else OFFER[meld.get("claimed_from", "left")]
    return (PACK[kind], tile(tiles[0]), offer)


def arguments(hand: Mapping[str, Any]) -> dict[str, Any]:
    """Keyword arguments of `MahjongGB.MahjongFanCalculator` for one Hand JSON."""
    flowers = hand.get("flowers", [])
    self_drawn = bool(hand.get("self_drawn", False))
    about_kong = hand.get("kong_replacement", False) if self_drawn else hand.get("robbing_kong")
    return {
        "pack": tuple(_pack(m) for m in hand.get("melds", [])),
        "hand": tuple(tile(t) for t in hand["concealed"]),
        "winTile": tile(hand["winning_tile"]),
        "flowerCount": flowers if isinstance(flowers, int) else len(flowers),
        "isSelfDrawn": self_drawn,
        "is4thTile": bool(hand.get("last_tile", False)),
        "isAboutKong": bool(about_kong),
        "isWallLast": bool(hand.get("last_of_wall", False)),
        "seatWind": WIND_INDEX[hand.get("seat_wind", "E")],
        "prevalentWind": WIND_INDEX[hand.get("prevalent_wind", "E")],
        "verbose": True,
    }


def fans(hand: Mapping[str, Any]) -> dict[int, int]:
    """{fan id: count} that PyMahjongGB gives the hand; raises TypeError when it refuses it."""
    result = MahjongGB.MahjongFanCalculator(**arguments(hand))
    return {FAN_ID[name_en]: count for _points, count, _zh, name_en in result}


def total(hand: Mapping[str, Any]) -> int:
    """PyMahjongGB's point total, flowers included."""
    result = MahjongGB.MahjongFanCalculator(**arguments(hand))
    return sum(points * count for points, count, _zh, _en in result)


OUR_CODE = {
    **{pmgb: ours for ours, pmgb in HONOR_CODE.items()},
    **{f"{letter}{r}": f"{r}{suit}" for suit, letter in SUIT_LETTER.items() for r in range(1, 10)},
}


def waits(hand: Mapping[str, Any]) -> tuple[int, frozenset[str]]:
    """PyMahjongGB's shanten of a 13-tile hand (Hand JSON without a winning tile) and, when it
    is 0, the tiles that complete it: the useful tiles of each shape function at shanten 0.

    The shape functions see only the concealed tiles: four sets and a pair always, a knitted
    straight with at most one meld, the fully concealed shapes with none. They list a tile
    even when all four copies are in the hand already."""
    standing = tuple(tile(t) for t in hand["concealed"])
    melds = len(hand.get("melds", []))
    shapes = [MahjongGB.RegularShanten]
    if melds <= 1:
        shapes.append(MahjongGB.KnittedStraightShanten)
    if melds == 0:
        shapes += [
            MahjongGB.SevenPairsShanten,
            MahjongGB.ThirteenOrphansShanten,
            MahjongGB.HonorsAndKnittedTilesShanten,
        ]
    found = [shape(standing) for shape in shapes]
    shanten = min(s for s, _ in found)
    useful = {OUR_CODE[t] for s, tiles in found if s == 0 for t in tiles}
    return shanten, frozenset(useful)


def packs(hand: Mapping[str, Any]) -> tuple[tuple[str, str, int], ...]:
    """The hand's melds as PyMahjongGB's packs."""
    return tuple(_pack(m) for m in hand.get("melds", []))


def shanten(hand: Mapping[str, Any]) -> int:
    """`MahjongGB.MahjongShanten` of a 13-tile hand, melds included."""
    standing = tuple(tile(t) for t in hand["concealed"])
    return int(MahjongGB.MahjongShanten(pack=packs(hand), hand=standing))
