"""Fast winning-shape test on tile counts, the inner loop of rule-aware decoding.

`scoring` has the authoritative check (and scores the hand); this one answers "could these
concealed tiles, next to this many exposed melds, be a complete MCR hand?" in microseconds, so
the decoder can try thousands of readings. Shapes (和牌型): four sets and a pair, seven pairs
(七对), thirteen orphans (十三幺), honours and knitted tiles (全不靠), knitted straight (组合龙)
with a set and a pair. `waits_of` answers the same for 13 tiles, one short of a win (听牌):
which tiles would complete them.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import permutations

from scoring.tile_index import CODES
from scoring.tiles import COPIES, PLAYING
from scoring.waits import completing

Counts = tuple[int, ...]  # 34 counts in PLAYING order

_INDEX = {code: i for i, code in enumerate(PLAYING)}
_HONOURS = range(27, 34)
_TO_SCORING = tuple(CODES.index(code) for code in PLAYING)  # scoring.tile_index numbers
_FROM_SCORING = tuple(PLAYING.index(code) for code in CODES)
_ORPHANS = tuple(_INDEX[c] for c in ("1m", "9m", "1p", "9p", "1s", "9s", *PLAYING[27:]))
# 组合龙: 147 / 258 / 369 in three different suits.
_KNITTED = tuple(
    frozenset(
        9 * suit + rank - 1
        for suit, ranks in zip(order, (1, 2, 3), strict=True)
        for rank in (ranks, ranks + 3, ranks + 6)
    )
    for order in permutations(range(3))
)


def counts_of(codes: list[str]) -> Counts:
    counts = [0] * len(PLAYING)
    for code in codes:
        counts[_INDEX[code]] += 1
    return tuple(counts)


@lru_cache(maxsize=65536)
def is_winning(concealed: Counts, melds: int) -> bool:
    """Concealed tiles (winning tile included) complete a hand beside `melds` exposed sets."""
    sets = 4 - melds
    if sum(concealed) != 3 * sets + 2:
        return False
    if _sets_and_pair(concealed, sets):
        return True
    if melds == 0 and (
        _seven_pairs(concealed) or _orphans(concealed) or _knitted_honours(concealed)
    ):
        return True
    return melds <= 1 and _knitted_straight(concealed, sets)


@lru_cache(maxsize=65536)
def waits_of(concealed: Counts, melds: int) -> frozenset[int]:
    """Tiles (PLAYING indices) that complete the concealed tiles of a hand of 13 (3 fewer for
    each of its `melds` exposed sets) into any MCR winning shape, a fifth copy not ruled out
    here.

    `scoring.waits.completing` is the authority; this keeps its answers in PLAYING order and
    caches them: the decoder asks for thousands of readings, many alike (about 35 us each
    the first time, under 1 us again).
    """
    counts = [0] * len(CODES)
    for i, n in enumerate(concealed):
        if n:
            counts[_TO_SCORING[i]] = n
    return frozenset(_FROM_SCORING[t] for t in completing(counts, melds))


def is_waiting(concealed: Counts, melds: int, held: Counts) -> bool:
    """13 tiles wait on some tile of which the hand (`held`: its concealed and melded tiles,
    PLAYING order) holds fewer than four: a win on a fifth copy is none."""
    return any(held[t] < COPIES for t in waits_of(concealed, melds))


def _sets_and_pair(counts: Counts, sets: int) -> bool:
    for i, n in enumerate(counts):
        if n >= 2:
            rest = list(counts)
            rest[i] -= 2
            if _all_sets(tuple(rest)):
                return True
    return False


@lru_cache(maxsize=65536)
def _all_sets(counts: Counts) -> bool:
    i = next((k for k, n in enumerate(counts) if n), -1)
    if i < 0:
        return True
    rest = list(counts)
    if counts[i] >= 3:
        rest[i] -= 3
        if _all_sets(tuple(rest)):
            return True
        rest[i] += 3
    if i < 27 and i % 9 <= 6 and counts[i + 1] and counts[i + 2]:
        for k in (i, i + 1, i + 2):
            rest[k] -= 1
        return _all_sets(tuple(rest))
    return False


def _seven_pairs(counts: Counts) -> bool:
    # MCR counts four of a kind as two pairs.
    return all(n % 2 == 0 for n in counts) and sum(counts) == 14


def _orphans(counts: Counts) -> bool:
    return all(counts[i] >= 1 for i in _ORPHANS) and sum(counts[i] for i in _ORPHANS) == 14


def _knitted_honours(counts: Counts) -> bool:
    """全不靠: 14 single tiles from one knitted pattern and the seven honours."""
    if any(n > 1 for n in counts):
        return False
    held = {i for i, n in enumerate(counts) if n}
    return any(held <= (pattern | set(_HONOURS)) for pattern in _KNITTED)


def _knitted_straight(counts: Counts, sets: int) -> bool:
    for pattern in _KNITTED:
        if all(counts[i] >= 1 for i in pattern):
            rest = list(counts)
            for i in pattern:
                rest[i] -= 1
            if sets - 1 >= 0 and _sets_and_pair(tuple(rest), sets - 1):
                return True
    return False
