"""Fans of the whole hand: its suits, its kinds of tile, its ranks, its tile hogs.

Each takes every tile of the hand (a kong's four included) and adds what it finds. The
checks work on the distinct tiles as a bit mask (bit t for tile t): a test of set inclusion
is then one AND of two integers.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from . import fan_ids as F
from .tally import Tally, Use
from .tile_index import DRAGON_TILES, GREEN, REVERSIBLE, TERMINALS, TERMINALS_OR_HONORS, WIND_TILES

# A fan as added to a tally: the fan, what it uses, how many times.
Added = tuple[int, Use, int]


def mask_of(tiles: Iterable[int]) -> int:
    """The distinct tiles as a bit mask."""
    mask = 0
    for t in tiles:
        mask |= 1 << t
    return mask


SUIT_MASKS: Final = (mask_of(range(0, 9)), mask_of(range(9, 18)), mask_of(range(18, 27)))
HONORS: Final = mask_of(range(27, 34))
WINDS: Final = mask_of(WIND_TILES)
DRAGONS: Final = mask_of(DRAGON_TILES)
SIMPLES: Final = ~mask_of(TERMINALS_OR_HONORS)
NOT_REVERSIBLE: Final = ~mask_of(REVERSIBLE)
NOT_GREEN: Final = ~mask_of(GREEN)
NOT_HONORS: Final = ~HONORS
NOT_TERMINALS: Final = ~mask_of(TERMINALS)
NOT_TERMINALS_OR_HONORS: Final = ~mask_of(TERMINALS_OR_HONORS)


def _outside_ranks(low: int, high: int) -> int:
    """Every tile but the suited ones ranked low-high."""
    return ~mask_of(t for t in range(27) if low <= t % 9 + 1 <= high)


NOT_1_3: Final = _outside_ranks(1, 3)
NOT_1_4: Final = _outside_ranks(1, 4)
NOT_4_6: Final = _outside_ranks(4, 6)
NOT_6_9: Final = _outside_ranks(6, 9)
NOT_7_9: Final = _outside_ranks(7, 9)


def suit_fans(tally: Tally, tiles: Sequence[int]) -> None:
    """无字 No Honors, 缺一门 One Voided Suit, 混一色 / 清一色 flushes, 五门齐 All Types."""
    for fan in _suit_fans(mask_of(tiles), []):
        tally.add(fan)


def tile_kind_fans(tally: Tally, tiles: Sequence[int]) -> None:
    """断幺 All Simples, 推不倒 Reversible, 绿一色 All Green, 字一色 / 清幺九 / 混幺九."""
    for fan in _tile_kind_fans(mask_of(tiles), []):
        tally.add(fan)


def rank_range_fans(tally: Tally, tiles: Sequence[int]) -> None:
    """小于五 / 全小, 大于五 / 全大, 全中: suited tiles only, within a range of ranks."""
    for fan in _rank_range_fans(mask_of(tiles), []):
        tally.add(fan)


def _suit_fans(kinds: int, out: list[int]) -> list[int]:
    """`suit_fans` of the distinct tiles `kinds`, appended to `out`."""
    honors = kinds & HONORS != 0
    if not honors:
        out.append(F.NO_HONORS)
    missing = 0
    for suit in SUIT_MASKS:
        if not kinds & suit:
            missing += 1
    if missing == 2:
        out.append(F.HALF_FLUSH if honors else F.FULL_FLUSH)
    elif missing == 1:
        out.append(F.ONE_VOIDED_SUIT)
    elif not missing and kinds & WINDS and kinds & DRAGONS:
        out.append(F.ALL_TYPES)
    return out


def _tile_kind_fans(kinds: int, out: list[int]) -> list[int]:
    """`tile_kind_fans` of the distinct tiles `kinds`, appended to `out`."""
    simples = kinds & SIMPLES == kinds
    if simples:
        out.append(F.ALL_SIMPLES)
    if not kinds & NOT_REVERSIBLE:
        out.append(F.REVERSIBLE_TILES)
    if not kinds & NOT_GREEN:
        out.append(F.ALL_GREEN)
    if simples:
        return out
    if not kinds & NOT_HONORS:
        out.append(F.ALL_HONORS)
    elif not kinds & NOT_TERMINALS:
        out.append(F.ALL_TERMINALS)
    elif not kinds & NOT_TERMINALS_OR_HONORS:
        out.append(F.ALL_TERMINALS_AND_HONORS)
    return out


def _rank_range_fans(kinds: int, out: list[int]) -> list[int]:
    """`rank_range_fans` of the distinct tiles `kinds`, appended to `out`."""
    if kinds & HONORS:
        return out
    if not kinds & NOT_1_4:
        out.append(F.LOWER_TILES if not kinds & NOT_1_3 else F.LOWER_FOUR)
    elif not kinds & NOT_6_9:
        out.append(F.UPPER_TILES if not kinds & NOT_7_9 else F.UPPER_FOUR)
    elif not kinds & NOT_4_6:
        out.append(F.MIDDLE_TILES)
    return out


def tile_hog_fans(tally: Tally, tiles: Sequence[int]) -> None:
    """四归一: all four copies of a tile without declaring them as a kong."""
    kongs = len(tiles) - 14
    counts = [0] * 34
    for t in tiles:
        counts[t] += 1
    hogs = counts.count(4) - kongs
    if hogs > 0:
        tally.add(F.TILE_HOG, tuple(t for t in range(34) if counts[t] == 4), hogs)


def whole_hand_fans(tiles: Sequence[int]) -> list[Added]:
    """The fans of `suit_fans`, `tile_kind_fans`, `rank_range_fans` and `tile_hog_fans`, in
    the order they add them. They depend on the hand's tiles alone, the same in every reading
    of a hand: found once per hand and added to each reading's tally (`add_all`)."""
    kinds = 0
    counts = [0] * 34
    fours = 0
    for t in tiles:
        kinds |= 1 << t
        n = counts[t] + 1
        counts[t] = n
        if n == 4:
            fours += 1
    out = [
        ADDED_ONCE[fan]
        for fan in _rank_range_fans(kinds, _tile_kind_fans(kinds, _suit_fans(kinds, [])))
    ]
    hogs = fours - (len(tiles) - 14)  # a kong's four are not a tile hog
    if hogs > 0:
        out.append((F.TILE_HOG, tuple([t for t in range(34) if counts[t] == 4]), hogs))
    return out


# Each fan added once about the whole hand, as `whole_hand_fans` lists it (built once).
ADDED_ONCE: Final[list[Added]] = [(fan, None, 1) for fan in range(F.FLOWER_TILES + 1)]


def add_all(tally: Tally, added: Sequence[Added]) -> None:
    for fan, use, n in added:
        tally.add(fan, use, n)
