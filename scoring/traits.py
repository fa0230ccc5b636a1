"""Fans of the whole hand: its suits, its kinds of tile, its ranks, its tile hogs.

Each takes every tile of the hand (a kong's four included) and adds what it finds.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import fan_ids as F
from .tally import Tally
from .tile_index import DRAGON_TILES, GREEN, REVERSIBLE, TERMINALS, TERMINALS_OR_HONORS, WIND_TILES

SUIT_TILES = tuple(frozenset(range(9 * s, 9 * s + 9)) for s in range(3))
HONOR_TILES = frozenset(range(27, 34))
SUITED_TILES = frozenset(range(27))
# Ranks as sets of suited tiles: 1-3, 1-4, 4-6, 6-9, 7-9.
BY_RANKS = {
    name: frozenset(t for t in range(27) if low <= t % 9 + 1 <= high)
    for name, (low, high) in {
        "1-3": (1, 3),
        "1-4": (1, 4),
        "4-6": (4, 6),
        "6-9": (6, 9),
        "7-9": (7, 9),
    }.items()
}
# The checks below work on the set of distinct tiles: set operations run in C.


def suit_fans(tally: Tally, tiles: Sequence[int]) -> None:
    """无字 No Honors, 缺一门 One Voided Suit, 混一色 / 清一色 flushes, 五门齐 All Types."""
    kinds = set(tiles)
    honors = not kinds.isdisjoint(HONOR_TILES)
    if not honors:
        tally.add(F.NO_HONORS)
    missing = sum(1 for suit in SUIT_TILES if kinds.isdisjoint(suit))
    if missing == 2:
        tally.add(F.HALF_FLUSH if honors else F.FULL_FLUSH)
    elif missing == 1:
        tally.add(F.ONE_VOIDED_SUIT)
    elif not missing and not kinds.isdisjoint(WIND_TILES) and not kinds.isdisjoint(DRAGON_TILES):
        tally.add(F.ALL_TYPES)


def tile_kind_fans(tally: Tally, tiles: Sequence[int]) -> None:
    """断幺 All Simples, 推不倒 Reversible, 绿一色 All Green, 字一色 / 清幺九 / 混幺九."""
    kinds = set(tiles)
    simples = kinds.isdisjoint(TERMINALS_OR_HONORS)
    if simples:
        tally.add(F.ALL_SIMPLES)
    if kinds <= REVERSIBLE:
        tally.add(F.REVERSIBLE_TILES)
    if kinds <= GREEN:
        tally.add(F.ALL_GREEN)
    if simples:
        return
    if kinds <= HONOR_TILES:
        tally.add(F.ALL_HONORS)
    elif kinds <= TERMINALS:
        tally.add(F.ALL_TERMINALS)
    elif kinds <= TERMINALS_OR_HONORS:
        tally.add(F.ALL_TERMINALS_AND_HONORS)


def rank_range_fans(tally: Tally, tiles: Sequence[int]) -> None:
    """小于五 / 全小, 大于五 / 全大, 全中: suited tiles only, within a range of ranks."""
    kinds = set(tiles)
    if not kinds <= SUITED_TILES:
        return
    if kinds <= BY_RANKS["1-4"]:
        tally.add(F.LOWER_TILES if kinds <= BY_RANKS["1-3"] else F.LOWER_FOUR)
    elif kinds <= BY_RANKS["6-9"]:
        tally.add(F.UPPER_TILES if kinds <= BY_RANKS["7-9"] else F.UPPER_FOUR)
    elif kinds <= BY_RANKS["4-6"]:
        tally.add(F.MIDDLE_TILES)


def tile_hog_fans(tally: Tally, tiles: Sequence[int]) -> None:
    """四归一: all four copies of a tile without declaring them as a kong."""
    kongs = len(tiles) - 14
    counts = [0] * 34
    for t in tiles:
        counts[t] += 1
    hogs = counts.count(4) - kongs
    if hogs > 0:
        tally.add(F.TILE_HOG, tuple(t for t in range(34) if counts[t] == 4), hogs)
