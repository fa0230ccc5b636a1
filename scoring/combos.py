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
from .patterns import (
    CHOW_PATTERNS,
    PUNG_PATTERNS,
    Check,
    chow_pair_fan,
    chow_triple_fan,
    match,
    pung_pair_fan,
    pung_triple_fan,
)
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


# One step of a plan: add `fan` using the sets at `positions` (sorted by tile), or, with no
# positions, record `fan` as not counted because of `because` under `rule`.
Step = tuple[int, tuple[int, ...], int, str]
MOST_REMEMBERED: Final = 1 << 16  # plans kept; a long stream of odd hands clears them


def chow_fans(tally: Tally, chows: list[Set]) -> None:
    if len(chows) >= 2:
        _follow(tally, sorted(chows, key=_tile_of), True)


def pung_fans(tally: Tally, pungs: list[Set]) -> None:
    if len(pungs) >= 2:
        _follow(tally, sorted(pungs, key=_tile_of), False)


def _follow(tally: Tally, sets: list[Set], chows: bool) -> None:
    """Add what `sets` (sorted by tile) form together. Which fans they form, and from which of
    them, depends on their tiles alone: the plan is remembered by the tiles packed in an int
    and followed with the sets at hand (a melded or a concealed one alike). The fans compare
    suits only for equality, so the suits are packed renamed in the order they come (the
    first 0, the next 1): 234s 567p and 234m 567s share a plan, in the same positions."""
    key = 1
    suit = label = -1
    for s in sets:
        t = s[1]
        if t < 27:
            if t // 9 != suit:
                suit = t // 9
                label += 1
            t = label * 9 + t % 9
        key = key << 6 | t
    plans = _CHOW_PLANS if chows else _PUNG_PLANS
    plan = plans.get(key)
    if plan is None:
        if len(plans) >= MOST_REMEMBERED:
            plans.clear()
        tiles = [s[1] for s in sets]
        plan = plans[key] = _chow_plan(tiles) if chows else _pung_plan(tiles)
    for fan, positions, because, rule in plan:
        if positions:
            tally.add(fan, tuple([sets[i] for i in positions]))
        else:
            tally.dropped_inner(fan, because, rule)


_CHOW_PLANS: Final[dict[int, list[Step]]] = {}
_PUNG_PLANS: Final[dict[int, list[Step]]] = {}


def _at(tiles: list[int], positions: Sequence[int]) -> list[int]:
    return [tiles[i] for i in positions]


def _note_inner(
    plan: list[Step], patterns: Patterns, tiles: list[int], group: tuple[int, ...], outer: int
) -> None:
    """Record the smaller fans inside a bigger one as not counted, each kind once: implied by
    it (non-repeat, listed in its row) or made of its split sets (non-separation)."""
    seen = set()
    for size in range(len(group) - 1, 1, -1):
        for inner_group in combinations(group, size):
            inner = match(patterns, _at(tiles, inner_group))
            if inner is not None and inner not in seen:
                seen.add(inner)
                rule = NON_REPEAT if inner in ROWS[outer].excludes else NON_SEPARATION
                plan.append((inner, (), outer, rule))


def _chow_plan(tiles: list[int]) -> list[Step]:
    """The plan of chows with these middle tiles (sorted)."""
    plan: list[Step] = []
    n = len(tiles)
    fan = chow_pair_fan(tiles[0], tiles[1]) if n == 2 else match_fan(CHOW_PATTERNS, tiles)
    if fan:
        everything = tuple(range(n))
        plan.append((fan, everything, 0, ""))
        if n > 2:
            _note_inner(plan, CHOW_PATTERNS, tiles, everything, fan)
        return plan
    if n == 4:
        for a, b, c, rest in TRIPLES_OF_FOUR:
            fan = chow_triple_fan(tiles[a], tiles[b], tiles[c])
            if fan:
                plan.append((fan, (a, b, c), 0, ""))
                _note_inner(plan, CHOW_PATTERNS, tiles, (a, b, c), fan)
                _extra_chow(plan, tiles, (a, b, c), rest)
                return plan
        _pairs_limited(plan, tiles, 3)
    elif n == 3:
        _pairs_limited(plan, tiles, 2)
    return plan


def match_fan(patterns: Patterns, tiles: list[int]) -> int:
    fan = match(patterns, tiles)
    return 0 if fan is None else fan


def _extra_chow(plan: list[Step], tiles: list[int], triple: tuple[int, ...], extra: int) -> None:
    found: dict[int, int] = {}
    for i in triple:
        fan = chow_pair_fan(min(tiles[i], tiles[extra]), max(tiles[i], tiles[extra]))
        if fan:
            found.setdefault(fan, i)
    for fan in EXTRA_CHOW_ORDER:
        if fan in found:
            plan.append((fan, (found[fan], extra), 0, ""))
            for other in found:
                if other != fan:
                    plan.append((other, (), fan, ACCOUNT_ONCE))
            return


def _pairs_limited(plan: list[Step], tiles: list[int], most: int) -> None:
    """Pairs of chows without a bigger fan: at most `most`, fewer where a chow relates to none."""
    n = len(tiles)
    pairs: list[tuple[int, tuple[int, int]]] = []
    related = 0  # a bit for each chow in a pair
    for i in range(n - 1):
        for j in range(i + 1, n):
            fan = chow_pair_fan(tiles[i], tiles[j])
            if fan:
                pairs.append((fan, (i, j)))
                related |= 1 << i | 1 << j
    if not pairs:
        return
    if n == 4:
        most -= n - bin(related).count("1")
        if most <= 0:
            return
    by_fan: dict[int, list[tuple[int, int]]] = {}
    for fan, pair in pairs:
        by_fan.setdefault(fan, []).append(pair)
    count = len(pairs)
    # Cut repeats first, down to one of each fan (a set does not form the same fan twice:
    # non-identical), then whole fans (account-once), in this order of fans: Two Terminal
    # Chows, Short Straight, Mixed Double Chow, Pure Double Chow.
    if count > most:
        for keep, rule in ((1, NON_IDENTICAL), (0, ACCOUNT_ONCE)):
            for fan in reversed(EXTRA_CHOW_ORDER):
                group = by_fan.get(fan, [])
                while len(group) > keep and count > most:
                    group.pop()
                    count -= 1
                    # non-identical: the same fan is already counted with this chow
                    kept = fan if keep else next((f for f, g in by_fan.items() if g), fan)
                    plan.append((fan, (), kept, rule))
    for fan in EXTRA_CHOW_ORDER:
        for pair in by_fan.get(fan, []):
            plan.append((fan, pair, 0, ""))


def _pung_plan(tiles: list[int]) -> list[Step]:
    """The plan of pungs and kongs of these tiles (sorted)."""
    plan: list[Step] = []
    n = len(tiles)
    if n >= 3:
        fan = match_fan(PUNG_PATTERNS, tiles)
        if fan:
            everything = tuple(range(n))
            plan.append((fan, everything, 0, ""))
            _note_inner(plan, PUNG_PATTERNS, tiles, everything, fan)
            return plan
    if n == 4:
        for a, b, c, rest in TRIPLES_OF_FOUR:
            fan = pung_triple_fan(tiles[a], tiles[b], tiles[c])
            if fan:
                plan.append((fan, (a, b, c), 0, ""))
                _note_inner(plan, PUNG_PATTERNS, tiles, (a, b, c), fan)
                for i in (a, b, c):  # the fourth pung combines once, with the first that fits
                    pair_fan = pung_pair_fan(min(tiles[i], tiles[rest]), max(tiles[i], tiles[rest]))
                    if pair_fan:
                        plan.append((pair_fan, (i, rest), 0, ""))
                        break
                return plan
    for i in range(n - 1):
        for j in range(i + 1, n):
            fan = pung_pair_fan(tiles[i], tiles[j])
            if fan:
                plan.append((fan, (i, j), 0, ""))
    return plan
