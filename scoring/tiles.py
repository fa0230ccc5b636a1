"""Tile codes of DESIGN.md and their fixed order.

The order of `FACES` is also the classifier's class order (with `BACK` last): change it and
every shipped model reads the wrong tile.
"""

from __future__ import annotations

from typing import Final

SUITS: Final = ("m", "p", "s")  # characters 萬, dots 筒, bamboo 條
SUITED: Final[tuple[str, ...]] = tuple(f"{rank}{suit}" for suit in SUITS for rank in range(1, 10))
WINDS: Final[tuple[str, ...]] = ("E", "S", "W", "N")
DRAGONS: Final[tuple[str, ...]] = ("C", "F", "P")  # red 中, green 發, white 白
HONORS: Final[tuple[str, ...]] = WINDS + DRAGONS
# 1h-4h plum, orchid, chrysanthemum, bamboo (梅蘭菊竹); 5h-8h spring..winter (春夏秋冬)
FLOWERS: Final[tuple[str, ...]] = tuple(f"{n}h" for n in range(1, 9))
SEASONS: Final[tuple[str, ...]] = FLOWERS[4:]  # a set prints them alike, and apart from 1h-4h
PLAYING: Final[tuple[str, ...]] = SUITED + HONORS  # the 34 tiles that form hands
FACES: Final[tuple[str, ...]] = PLAYING + FLOWERS  # the 42 printed faces
BACK: Final = "back"
CLASSES: Final[tuple[str, ...]] = (*FACES, BACK)  # 43 classifier classes
COPIES: Final = 4  # a set holds four of each playing tile and one of each flower
# How a set is laid out to be taught, one face of each, rows top to bottom: characters,
# circles, bamboos 1-9, the honours E S W N C F P, then the flowers and seasons it has.
STANDARD_ROWS: Final[tuple[tuple[str, ...], ...]] = (
    SUITED[0:9],
    SUITED[9:18],
    SUITED[18:27],
    HONORS,
    FLOWERS,
)
