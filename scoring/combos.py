"""Fans between sets: how chows and pungs combine, under the combination principles.

A bigger combination (three or four sets) is looked for first; when found, its sets are not
split to form smaller ones (non-separation), and the set left over combines at most once
(account-once). Without one, pairs of chows are counted, at most three among four chows and
two among three, dropping repeats first (non-identical, account-once).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from operator import itemgetter
from typing import Final

from . import fan_ids as F
from .fan_table import ROWS
from .patterns import CHOW_PATTERNS, PUNG_PATTERNS, Check, match
from .shapes import Set
from .tally import ACCOUNT_ONCE, NON_IDENTICAL, NON_REPEAT, NON_SEPARATION, Tally

# Three of four sets, and the one left over.
TRIPLES_OF_FOUR: Final = ((0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 3, 1), (1, 2, 3, 0))
# When a three-chow fan leaves one chow, the reference takes its one extra fan in this order.
EXTRA_CHOW_ORDER: Final = (
    F.PURE_DOUBLE_CHOW,
    F.MIXED_DOUBLE_CHOW,
    F.SHORT_STRAIGHT,
    F.TWO_TERMINAL_CHOWS,
)
Patterns = dict[int, tuple[tuple[int, Check], ...]]
_tile_of: Final = itemgetter(1)


def _tiles(sets: Sequence[Set]) -> list[int]:
    return [s[1] for s in sets]


def _note_inner(tally: Tally, patterns: Patterns, sets: Sequence[Set], outer: int) -> None:
    """Record the smaller fans inside a bigger one as not counted, each kind once: implied by
    it (non-repeat, listed in its row) or made of its split sets (non-separation)."""
    seen = set()
    for size in range(len(sets) - 1, 1, -1):
        for group in combinations(sets, size):
            inner = match(patterns, _tiles(group))
            if inner is not None and inner not in seen:
                seen.add(inner)
                rule = NON_REPEAT if inner in ROWS[outer].excludes else NON_SEPARATION
                tally.dropped_inner(inner, outer, rule)


def chow_fans(tally: Tally, chows: list[Set]) -> None:
    if len(chows) < 2:
        return
    chows = sorted(chows, key=_tile_of)
    if len(chows) == 4:
        fan = match(CHOW_PATTERNS, _tiles(chows))
        if fan is not None:
            tally.add(fan, tuple(chows))
            _note_inner(tally, CHOW_PATTERNS, chows, fan)
            return
        for a, b, c, rest in TRIPLES_OF_FOUR:
            triple = [chows[a], chows[b], chows[c]]
            fan = match(CHOW_PATTERNS, _tiles(triple))
            if fan is not None:
                tally.add(fan, tuple(triple))
                _note_inner(tally, CHOW_PATTERNS, triple, fan)
                _extra_chow(tally, triple, chows[rest], fan)
                return
        _pairs_limited(tally, chows, 3)
    elif len(chows) == 3:
        fan = match(CHOW_PATTERNS, _tiles(chows))
        if fan is not None:
            tally.add(fan, tuple(chows))
            _note_inner(tally, CHOW_PATTERNS, chows, fan)
            return
        _pairs_limited(tally, chows, 2)
    elif len(chows) == 2:
        fan = match(CHOW_PATTERNS, _tiles(chows))
        if fan is not None:
            tally.add(fan, tuple(chows))


def _extra_chow(tally: Tally, triple: list[Set], extra: Set, outer: int) -> None:
    found: dict[int, Set] = {}
    for s in triple:
        fan = match(CHOW_PATTERNS, [min(s[1], extra[1]), max(s[1], extra[1])])
        if fan is not None:
            found.setdefault(fan, s)
    for fan in EXTRA_CHOW_ORDER:
        if fan in found:
            tally.add(fan, (found[fan], extra))
            for other in found:
                if other != fan:
                    tally.dropped_inner(other, fan, ACCOUNT_ONCE)
            return


def _pairs_limited(tally: Tally, chows: list[Set], most: int) -> None:
    """Pairs of chows without a bigger fan: at most `most`, fewer where a chow relates to none."""
    pairs: list[tuple[int, tuple[Set, Set]]] = []
    related = [False] * len(chows)
    for i, j in combinations(range(len(chows)), 2):
        fan = match(CHOW_PATTERNS, [chows[i][1], chows[j][1]])
        if fan is not None:
            pairs.append((fan, (chows[i], chows[j])))
            related[i] = related[j] = True
    if len(chows) == 4:
        most -= related.count(False)
        if most <= 0:
            return
    by_fan: dict[int, list[tuple[Set, Set]]] = {}
    for fan, sets in pairs:
        by_fan.setdefault(fan, []).append(sets)
    count = len(pairs)
    # Cut repeats first, down to one of each fan (a set does not form the same fan twice:
    # non-identical), then whole fans (account-once), in this order of fans: Two Terminal
    # Chows, Short Straight, Mixed Double Chow, Pure Double Chow.
    for keep, rule in ((1, NON_IDENTICAL), (0, ACCOUNT_ONCE)):
        for fan in reversed(EXTRA_CHOW_ORDER):
            group = by_fan.get(fan, [])
            while len(group) > keep and count > most:
                group.pop()
                count -= 1
                # non-identical: the same fan is already counted with this chow
                kept = fan if keep else next((f for f, g in by_fan.items() if g), fan)
                tally.dropped_inner(fan, kept, rule)
    for fan in EXTRA_CHOW_ORDER:
        for sets in by_fan.get(fan, []):
            tally.add(fan, sets)


def pung_fans(tally: Tally, pungs: list[Set]) -> None:
    if len(pungs) < 2:
        return
    pungs = sorted(pungs, key=_tile_of)
    if len(pungs) == 4:
        fan = match(PUNG_PATTERNS, _tiles(pungs))
        if fan is not None:
            tally.add(fan, tuple(pungs))
            _note_inner(tally, PUNG_PATTERNS, pungs, fan)
            return
        for a, b, c, rest in TRIPLES_OF_FOUR:
            triple = [pungs[a], pungs[b], pungs[c]]
            fan = match(PUNG_PATTERNS, _tiles(triple))
            if fan is not None:
                tally.add(fan, tuple(triple))
                _note_inner(tally, PUNG_PATTERNS, triple, fan)
                for s in triple:  # the fourth pung combines once, with the first that fits
                    pair_fan = match(PUNG_PATTERNS, sorted((s[1], pungs[rest][1])))
                    if pair_fan is not None:
                        tally.add(pair_fan, (s, pungs[rest]))
                        break
                return
    elif len(pungs) == 3:
        fan = match(PUNG_PATTERNS, _tiles(pungs))
        if fan is not None:
            tally.add(fan, tuple(pungs))
            _note_inner(tally, PUNG_PATTERNS, pungs, fan)
            return
    elif len(pungs) != 2:
        return
    for s, t in combinations(pungs, 2):
        fan = match(PUNG_PATTERNS, [s[1], t[1]])
        if fan is not None:
            tally.add(fan, (s, t))
