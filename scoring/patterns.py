"""Fans made of two, three or four sets (chows by their middle tile, pungs by their tile).

Each check is a pure predicate over tile numbers (`tile_index`), listed in the order the
reference calculator tries them; within one size at most one can hold for the same sets.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import pairwise
from typing import Final

from . import fan_ids as F
from .tile_index import DRAGON_TILES, EAST, NORTH, RED, SOUTH, TERMINALS, WEST, WIND_TILES

Check = Callable[[Sequence[int]], bool]


def _suits(ts: Sequence[int]) -> list[int]:
    return [t // 9 for t in ts]


def _ranks(ts: Sequence[int]) -> list[int]:
    return [t % 9 for t in ts]


def _three_suits(ts: Sequence[int]) -> bool:
    return all(t < 27 for t in ts) and len(set(_suits(ts))) == 3


def _one_suit(ts: Sequence[int]) -> bool:
    return all(t < 27 for t in ts) and len(set(_suits(ts))) == 1


def _stepped(ts: Sequence[int], step: int) -> bool:
    return all(b - a == step for a, b in pairwise(ts))


def _ranks_consecutive(ts: Sequence[int]) -> bool:
    return _stepped(sorted(_ranks(ts)), 1)


# --- chows, given sorted middle tiles ------------------------------------------------------


def four_pure_shifted_chows(ts: Sequence[int]) -> bool:  # 一色四步高
    return _one_suit(ts) and (_stepped(ts, 1) or _stepped(ts, 2))


def quadruple_chow(ts: Sequence[int]) -> bool:  # 一色四同顺
    return _stepped(ts, 0)


def mixed_shifted_chows(ts: Sequence[int]) -> bool:  # 三色三步高
    return _three_suits(ts) and _ranks_consecutive(ts)


def mixed_triple_chow(ts: Sequence[int]) -> bool:  # 三色三同顺
    return _three_suits(ts) and len(set(_ranks(ts))) == 1


def mixed_straight(ts: Sequence[int]) -> bool:  # 花龙
    return _three_suits(ts) and sorted(_ranks(ts)) == [1, 4, 7]


def pure_straight(ts: Sequence[int]) -> bool:  # 清龙
    return _one_suit(ts) and _stepped(ts, 3) and ts[0] % 9 == 1


def pure_shifted_chows(ts: Sequence[int]) -> bool:  # 一色三步高
    return _one_suit(ts) and (_stepped(ts, 1) or _stepped(ts, 2))


def pure_triple_chow(ts: Sequence[int]) -> bool:  # 一色三同顺
    return _stepped(ts, 0)


def mixed_double_chow(ts: Sequence[int]) -> bool:  # 喜相逢
    return ts[0] // 9 != ts[1] // 9 and ts[0] % 9 == ts[1] % 9


def short_straight(ts: Sequence[int]) -> bool:  # 连六
    return ts[0] // 9 == ts[1] // 9 and abs(ts[0] - ts[1]) == 3


def two_terminal_chows(ts: Sequence[int]) -> bool:  # 老少副
    return ts[0] // 9 == ts[1] // 9 and sorted(_ranks(ts)) == [1, 7]


def pure_double_chow(ts: Sequence[int]) -> bool:  # 一般高
    return ts[0] == ts[1]


# --- pungs and kongs, given sorted tiles ---------------------------------------------------


def four_pure_shifted_pungs(ts: Sequence[int]) -> bool:  # 一色四节高
    return _one_suit(ts) and _stepped(ts, 1)


def big_four_winds(ts: Sequence[int]) -> bool:  # 大四喜
    return list(ts) == [EAST, SOUTH, WEST, NORTH]


def mixed_shifted_pungs(ts: Sequence[int]) -> bool:  # 三色三节高
    return _three_suits(ts) and _ranks_consecutive(ts)


def triple_pung(ts: Sequence[int]) -> bool:  # 三同刻
    return _three_suits(ts) and len(set(_ranks(ts))) == 1


def pure_shifted_pungs(ts: Sequence[int]) -> bool:  # 一色三节高
    return _one_suit(ts) and _stepped(ts, 1)


def big_three_winds(ts: Sequence[int]) -> bool:  # 三风刻
    return all(t in WIND_TILES for t in ts)


def big_three_dragons(ts: Sequence[int]) -> bool:  # 大三元
    return all(t in DRAGON_TILES for t in ts)


def double_pung(ts: Sequence[int]) -> bool:  # 双同刻
    return ts[0] < 27 and ts[1] < 27 and ts[0] % 9 == ts[1] % 9


def two_dragon_pungs(ts: Sequence[int]) -> bool:  # 双箭刻
    return ts[0] >= RED and ts[1] >= RED


CHOW_PATTERNS: Final[dict[int, tuple[tuple[int, Check], ...]]] = {
    4: (
        (F.FOUR_PURE_SHIFTED_CHOWS, four_pure_shifted_chows),
        (F.QUADRUPLE_CHOW, quadruple_chow),
    ),
    3: (
        (F.MIXED_SHIFTED_CHOWS, mixed_shifted_chows),
        (F.MIXED_TRIPLE_CHOW, mixed_triple_chow),
        (F.MIXED_STRAIGHT, mixed_straight),
        (F.PURE_STRAIGHT, pure_straight),
        (F.PURE_SHIFTED_CHOWS, pure_shifted_chows),
        (F.PURE_TRIPLE_CHOW, pure_triple_chow),
    ),
    2: (
        (F.MIXED_DOUBLE_CHOW, mixed_double_chow),
        (F.SHORT_STRAIGHT, short_straight),
        (F.TWO_TERMINAL_CHOWS, two_terminal_chows),
        (F.PURE_DOUBLE_CHOW, pure_double_chow),
    ),
}
PUNG_PATTERNS: Final[dict[int, tuple[tuple[int, Check], ...]]] = {
    4: (
        (F.FOUR_PURE_SHIFTED_PUNGS, four_pure_shifted_pungs),
        (F.BIG_FOUR_WINDS, big_four_winds),
    ),
    3: (
        (F.MIXED_SHIFTED_PUNGS, mixed_shifted_pungs),
        (F.TRIPLE_PUNG, triple_pung),
        (F.PURE_SHIFTED_PUNGS, pure_shifted_pungs),
        (F.BIG_THREE_WINDS, big_three_winds),
        (F.BIG_THREE_DRAGONS, big_three_dragons),
    ),
    2: ((F.DOUBLE_PUNG, double_pung), (F.TWO_DRAGON_PUNGS, two_dragon_pungs)),
}


def match(patterns: dict[int, tuple[tuple[int, Check], ...]], tiles: Sequence[int]) -> int | None:
    """The fan that these sets (sorted tiles) form together, if any: the first of `patterns`
    whose check holds (`matched_by_checks`), worked out for chows and pungs in a few integer
    steps (tests/scoring/test_patterns.py compares the two on every sorted input)."""
    if patterns is CHOW_PATTERNS:
        fan = _chow_fan(tiles)
    elif patterns is PUNG_PATTERNS:
        fan = _pung_fan(tiles)
    else:
        return matched_by_checks(patterns, tiles)
    return fan or None


def matched_by_checks(
    patterns: dict[int, tuple[tuple[int, Check], ...]], tiles: Sequence[int]
) -> int | None:
    """The first fan of `patterns` for this many sets whose check holds: the definition."""
    return next((fan for fan, check in patterns[len(tiles)] if check(tiles)), None)


def _chow_fan(ts: Sequence[int]) -> int:
    """`CHOW_PATTERNS` for sorted middle tiles (0: none)."""
    n = len(ts)
    if n == 2:
        return chow_pair_fan(ts[0], ts[1])
    if n == 3:
        return chow_triple_fan(ts[0], ts[1], ts[2])
    if n == 4:
        return chow_quad_fan(ts[0], ts[1], ts[2], ts[3])
    return 0


def chow_pair_fan(a: int, b: int) -> int:
    """The fan of two chows by their middle tiles, a <= b (0: none)."""
    if a // 9 != b // 9:
        return F.MIXED_DOUBLE_CHOW if a % 9 == b % 9 else 0
    if b - a == 3:
        return F.SHORT_STRAIGHT
    if a % 9 == 1 and b % 9 == 7:
        return F.TWO_TERMINAL_CHOWS
    return F.PURE_DOUBLE_CHOW if a == b else 0


def chow_triple_fan(a: int, b: int, c: int) -> int:
    """The fan of three chows by their middle tiles, a <= b <= c (0: none)."""
    sa, sb, sc = a // 9, b // 9, c // 9
    if sa != sb and sb != sc and sa != sc:
        return _mixed_ranks(a % 9, b % 9, c % 9, True)
    if sa == sc:  # sorted: one suit
        if b - a == 3 and c - b == 3 and a % 9 == 1:
            return F.PURE_STRAIGHT
        if b - a == c - b and (b - a == 1 or b - a == 2):
            return F.PURE_SHIFTED_CHOWS
    return F.PURE_TRIPLE_CHOW if a == b == c else 0


def chow_quad_fan(a: int, b: int, c: int, d: int) -> int:
    """The fan of four chows by their middle tiles, sorted (0: none)."""
    step = b - a
    if a // 9 == d // 9 and (step == 1 or step == 2) and c - b == step and d - c == step:
        return F.FOUR_PURE_SHIFTED_CHOWS
    return F.QUADRUPLE_CHOW if a == b == c == d else 0


def _pung_fan(ts: Sequence[int]) -> int:
    """`PUNG_PATTERNS` for sorted tiles of pungs and kongs (0: none)."""
    n = len(ts)
    if n == 2:
        return pung_pair_fan(ts[0], ts[1])
    if n == 3:
        return pung_triple_fan(ts[0], ts[1], ts[2])
    if n == 4:
        return pung_quad_fan(ts[0], ts[1], ts[2], ts[3])
    return 0


def pung_pair_fan(a: int, b: int) -> int:
    """The fan of two pungs (or kongs) by their tiles, a <= b (0: none)."""
    if a < 27 and b < 27 and a % 9 == b % 9:
        return F.DOUBLE_PUNG
    return F.TWO_DRAGON_PUNGS if a >= RED and b >= RED else 0


def pung_triple_fan(a: int, b: int, c: int) -> int:
    """The fan of three pungs (or kongs) by their tiles, a <= b <= c (0: none)."""
    if c < 27:
        sa, sb, sc = a // 9, b // 9, c // 9
        if sa != sb and sb != sc and sa != sc:
            return _mixed_ranks(a % 9, b % 9, c % 9, False)
        if sa == sc and b - a == 1 and c - b == 1:
            return F.PURE_SHIFTED_PUNGS
        return 0
    if a >= EAST and c <= NORTH:
        return F.BIG_THREE_WINDS
    return F.BIG_THREE_DRAGONS if a >= RED else 0


def pung_quad_fan(a: int, b: int, c: int, d: int) -> int:
    """The fan of four pungs (or kongs) by their tiles, sorted (0: none)."""
    if d < 27 and a // 9 == d // 9 and b - a == 1 and c - b == 1 and d - c == 1:
        return F.FOUR_PURE_SHIFTED_PUNGS
    if a == EAST and b == SOUTH and c == WEST and d == NORTH:
        return F.BIG_FOUR_WINDS
    return 0


def _mixed_ranks(ra: int, rb: int, rc: int, chows: bool) -> int:
    """Three sets in three suits, by their ranks: shifted, the same, or (chows) 1-4-7."""
    low = min(ra, rb, rc)
    high = max(ra, rb, rc)
    middle = ra + rb + rc - low - high
    if middle == low + 1 and high == middle + 1:
        return F.MIXED_SHIFTED_CHOWS if chows else F.MIXED_SHIFTED_PUNGS
    if low == high:
        return F.MIXED_TRIPLE_CHOW if chows else F.TRIPLE_PUNG
    if chows and low == 1 and middle == 4 and high == 7:
        return F.MIXED_STRAIGHT
    return 0


def single_pung_fan(tile: int) -> int | None:
    """箭刻 for a dragon; 幺九刻 for a terminal or a wind."""
    if tile in DRAGON_TILES:
        return F.DRAGON_PUNG
    if tile in TERMINALS or tile in WIND_TILES:
        return F.PUNG_OF_TERMINALS_OR_HONORS
    return None
