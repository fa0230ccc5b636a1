"""Fans of the whole hand: its suits, its kinds of tile, its ranks, its tile hogs.

Each takes every tile of the hand (a kong's four included) and adds what it finds.
"""

from __future__ import annotations

from collections.abc import Sequence

from .fan_table import Fan
from .tally import Tally
from .tile_index import DRAGON_TILES, GREEN, REVERSIBLE, TERMINALS, TERMINALS_OR_HONORS, WIND_TILES


def suit_fans(tally: Tally, tiles: Sequence[int]) -> None:
    """无字 No Honors, 缺一门 One Voided Suit, 混一色 / 清一色 flushes, 五门齐 All Types."""
    suits = {t // 9 if t < 27 else 3 for t in tiles}
    if 3 not in suits:
        tally.add(Fan.NO_HONORS)
    missing = 3 - len(suits - {3})
    if missing == 2:
        tally.add(Fan.HALF_FLUSH if 3 in suits else Fan.FULL_FLUSH)
    elif missing == 1:
        tally.add(Fan.ONE_VOIDED_SUIT)
    if (
        len(suits) == 4
        and any(t in WIND_TILES for t in tiles)
        and any(t in DRAGON_TILES for t in tiles)
    ):
        tally.add(Fan.ALL_TYPES)


def tile_kind_fans(tally: Tally, tiles: Sequence[int]) -> None:
    """断幺 All Simples, 推不倒 Reversible, 绿一色 All Green, 字一色 / 清幺九 / 混幺九."""
    simples = not any(t in TERMINALS_OR_HONORS for t in tiles)
    if simples:
        tally.add(Fan.ALL_SIMPLES)
    if all(t in REVERSIBLE for t in tiles):
        tally.add(Fan.REVERSIBLE_TILES)
    if all(t in GREEN for t in tiles):
        tally.add(Fan.ALL_GREEN)
    if simples:
        return
    if all(t >= 27 for t in tiles):
        tally.add(Fan.ALL_HONORS)
    elif all(t in TERMINALS for t in tiles):
        tally.add(Fan.ALL_TERMINALS)
    elif all(t in TERMINALS_OR_HONORS for t in tiles):
        tally.add(Fan.ALL_TERMINALS_AND_HONORS)


def rank_range_fans(tally: Tally, tiles: Sequence[int]) -> None:
    """小于五 / 全小, 大于五 / 全大, 全中: suited tiles only, within a range of ranks."""
    if any(t >= 27 for t in tiles):
        return
    ranks = {t % 9 + 1 for t in tiles}
    if max(ranks) <= 4:
        tally.add(Fan.LOWER_FOUR if 4 in ranks else Fan.LOWER_TILES)
    elif min(ranks) >= 6:
        tally.add(Fan.UPPER_FOUR if 6 in ranks else Fan.UPPER_TILES)
    elif min(ranks) >= 4 and max(ranks) <= 6:
        tally.add(Fan.MIDDLE_TILES)


def tile_hog_fans(tally: Tally, tiles: Sequence[int]) -> None:
    """四归一: all four copies of a tile without declaring them as a kong."""
    kongs = len(tiles) - 14
    counts = [0] * 34
    for t in tiles:
        counts[t] += 1
    hogs = counts.count(4) - kongs
    if hogs > 0:
        tally.add(Fan.TILE_HOG, tuple(t for t in range(34) if counts[t] == 4), hogs)
