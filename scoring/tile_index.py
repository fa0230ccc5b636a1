"""Tiles as small integers for the scorer's inner loops.

Numbering: characters 0-8, bamboo 9-17, dots 18-26, winds E S W N 27-30, dragons C F P 31-33.
Bamboo comes before dots (unlike `tiles.PLAYING`) because that is the reference calculator's
order, and the order in which decompositions are tried decides which of two equally scored
ones is kept: profile `mcr-mil` must keep the same one.
"""

from __future__ import annotations

from typing import Final

SUIT_ORDER: Final = ("m", "s", "p")
CODES: Final[tuple[str, ...]] = (
    *(f"{r}{s}" for s in SUIT_ORDER for r in range(1, 10)),
    "E",
    "S",
    "W",
    "N",
    "C",
    "F",
    "P",
)
INDEX: Final[dict[str, int]] = {code: i for i, code in enumerate(CODES)}
HONOR_SUIT: Final = 3
EAST: Final = 27
SOUTH: Final = 28
WEST: Final = 29
NORTH: Final = 30
RED: Final = 31
GREEN_DRAGON: Final = 32
WHITE: Final = 33
WIND_TILES: Final = frozenset(range(27, 31))
DRAGON_TILES: Final = frozenset(range(31, 34))

TERMINALS: Final = frozenset(t for t in range(27) if t % 9 in (0, 8))
TERMINALS_OR_HONORS: Final = TERMINALS | frozenset(range(27, 34))
# 绿一色: 2 3 4 6 8 bamboo and the green dragon
GREEN: Final = frozenset({INDEX[c] for c in ("2s", "3s", "4s", "6s", "8s", "F")})
# 推不倒: faces that read the same upside down
REVERSIBLE: Final = frozenset(
    INDEX[c]
    for c in ("1p", "2p", "3p", "4p", "5p", "8p", "9p", "2s", "4s", "5s", "6s", "8s", "9s", "P")
)
THIRTEEN_ORPHANS: Final = tuple(sorted(TERMINALS_OR_HONORS))
# 组合龙: 1-4-7, 2-5-8, 3-6-9 spread over the three suits, in every assignment of suits
KNITTED_STRAIGHTS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(
        sorted(
            s * 9 + r - 1
            for s, ranks in zip(perm, ((1, 4, 7), (2, 5, 8), (3, 6, 9)), strict=True)
            for r in ranks
        )
    )
    for perm in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
)


def suit(tile: int) -> int:
    """0 characters, 1 bamboo, 2 dots, 3 honors."""
    return tile // 9 if tile < 27 else HONOR_SUIT


def rank(tile: int) -> int:
    """1-9 for a suited tile, 0 for an honor."""
    return tile % 9 + 1 if tile < 27 else 0


def is_suited(tile: int) -> bool:
    return tile < 27
