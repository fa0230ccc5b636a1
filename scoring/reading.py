"""Choosing the reading of a hand that scores highest (就高不就低), as the reference does:
a knitted straight or special shape first, then every four-sets-and-a-pair split, which
replaces it only when strictly higher."""

from __future__ import annotations

from collections.abc import Sequence

from . import fan_ids as F
from .deal import Deal
from .mcr import basic_readings
from .profiles import points_table
from .shapes import Set
from .special import knitted_straight, special_shapes
from .tally import HIGH_VERSUS_LOW, Tally


class Reading:
    """One way to read the tiles, with what it counts."""

    def __init__(self, tally: Tally, sets: list[Set] | None, tiles: list[int]) -> None:
        self.tally = tally
        self.sets = sets  # None for seven pairs, thirteen orphans and the knitted hands
        self.tiles = tiles  # the fourteen tiles (a kong's fourth aside)


def best_reading(deal: Deal) -> Reading | None:
    """The highest-scoring reading, or None when the tiles do not form a winning hand."""
    points = points_table(deal.profile)
    tiles = sorted((*deal.standing, deal.win))
    best: Reading | None = None
    if len(deal.fixed) <= 1:
        found = knitted_straight(deal)
        if found is not None:
            best = Reading(found[0], found[1], tiles)
    if best is None and not deal.fixed:
        special = special_shapes(deal, tiles)
        if special is not None:
            best = Reading(special, None, tiles)
    if best is not None and not best.tally.has(F.SEVEN_PAIRS):
        return best
    best_total = best.tally.total(points) if best is not None else 0
    over_seven_pairs = best is not None
    others: list[Tally] = []
    for tally, sets in basic_readings(deal):
        total = tally.total(points)
        if total > best_total or (total == best_total and (over_seven_pairs or _preferred(tally))):
            if best is not None:
                others.append(best.tally)
            best, best_total = Reading(tally, sets, tiles), total
        else:
            others.append(tally)
    if best is not None and others:
        _note_other_readings(best.tally, others, points)
    return best


def _note_other_readings(kept: Tally, others: list[Tally], points: Sequence[int]) -> None:
    """Fans that only a lower (or not preferred) reading of the same tiles would give are
    shown as not counted: high-versus-low, because of the kept reading's biggest fan."""
    if not kept.counts:
        return
    top = max(kept.counts, key=lambda fan: (points[fan], -fan))
    noted = set(kept.counts) | {d.id for d in kept.dropped}
    for tally in others:
        for fan in tally.counts:
            if fan not in noted:
                noted.add(fan)
                kept.dropped_inner(fan, top, HIGH_VERSUS_LOW)


def _preferred(tally: Tally) -> bool:
    """Between equal totals the reference prefers a reading with Pure Triple Chow or Triple
    Pung (its 2022/2023 rulings), and four sets over seven pairs."""
    return tally.has(F.PURE_TRIPLE_CHOW) or tally.has(F.TRIPLE_PUNG)
