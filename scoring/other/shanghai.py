"""Shanghai 敲麻 (seed document 003): a base of 2 points plus flowers, or whole 勒子 of 10.

Flowers (花) are the flower tiles plus what kongs and honor pungs are worth: a suited kong 1
(concealed 2), a wind pung 1 (exposed kong 2, concealed kong 3), a dragon pung 2 (3, 4).
A plain win is 2 + flowers, capped at one 勒子 (10 points). Limit hands score whole 勒子:
清一色 and 混碰 1, 清碰 and 字一色 2, 字碰 4, eight flowers 2. A win on a kong replacement
(杠开) or with twelve tiles claimed and a single wait (大吊车) is worth at least one 勒子.
`total` is in points; a robbed kong costs its robbed player three shares.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.tiles import DRAGONS, WINDS

from .common import (
    Hand,
    Row,
    Score,
    Set,
    admit,
    all_tiles,
    arrangements,
    invalid,
    is_pung,
    make_score,
    payments,
    reading_text,
    suit_of,
)

RULESET = "shanghai"
BASE = 2  # 底: "a fixed score for each game. 2 points"
LEZI = 10  # 勒子: "the upper limit value. 10 point"

PLAIN = Row(1, "Plain Win (base)", "平和", BASE)
FLOWERS = Row(2, "Flowers", "花", 1)
FULL_FLUSH = Row(3, "Full Flush", "清一色", LEZI)
HALF_FLUSH_PUNGS = Row(4, "Half Flush All Pungs", "混碰", LEZI)
FULL_FLUSH_PUNGS = Row(5, "Full Flush All Pungs", "清碰", 2 * LEZI)
ALL_HONORS = Row(6, "All Honors", "字一色", 2 * LEZI)
ALL_HONOR_PUNGS = Row(7, "All Honors All Pungs", "字碰", 4 * LEZI)
EIGHT_FLOWERS = Row(8, "Eight Flowers", "八花", 2 * LEZI)
KONG_BLOOM = Row(9, "Win on a Kong Replacement (at least one 勒子)", "杠开", LEZI)
BIG_CRANE = Row(10, "Twelve Tiles Claimed, Single Wait (at least one 勒子)", "大吊车", LEZI)
ROWS = (PLAIN, FLOWERS, FULL_FLUSH, HALF_FLUSH_PUNGS, FULL_FLUSH_PUNGS, ALL_HONORS,
        ALL_HONOR_PUNGS, EIGHT_FLOWERS, KONG_BLOOM, BIG_CRANE)  # fmt: skip


def _set_flowers(s: Set, concealed_kong: bool) -> int:
    """What one set adds to the flower count (rules 2-4 of the text's flower list)."""
    kong = len(s) == 4
    if s[0] in DRAGONS:
        values = (2, 3, 4)
    elif s[0] in WINDS:
        values = (1, 2, 3)
    else:
        values = (0, 1, 2)
    if not is_pung(s):
        return 0
    return values[0] if not kong else values[2] if concealed_kong else values[1]


def _flowers(hand: Hand, sets: list[Set]) -> int:
    concealed_kongs = {m.tiles for m in hand.melds if m.kind == "kong" and m.concealed}
    return hand.flower_count + sum(_set_flowers(s, s in concealed_kongs) for s in sets)


def _limit(hand: Hand, sets: list[Set]) -> Row | None:
    suits = {suit_of(t) for t in all_tiles(hand)}
    pungs = all(is_pung(s) for s in sets)
    if suits == {"z"}:
        return ALL_HONOR_PUNGS if pungs else ALL_HONORS
    if len(suits) == 1:
        return FULL_FLUSH_PUNGS if pungs else FULL_FLUSH
    if len(suits) == 2 and "z" in suits and pungs:
        return HALF_FLUSH_PUNGS
    return None


def _value(hand: Hand, sets: list[Set]) -> tuple[int, list[tuple[Row, int]]]:
    """Points and the items behind them for one reading of the hand."""
    limit = _limit(hand, sets)
    if hand.flower_count == 8 and (limit is None or limit.points < EIGHT_FLOWERS.points):
        limit = EIGHT_FLOWERS
    if limit is not None:
        return limit.points, [(limit, 1)]
    flowers = _flowers(hand, sets)
    items: list[tuple[Row, int]] = [(PLAIN, 1)] + ([(FLOWERS, flowers)] if flowers else [])
    points = min(LEZI, BASE + flowers)
    crane = len([m for m in hand.melds if not m.concealed]) == 4
    for row, holds in ((KONG_BLOOM, hand.kong_replacement), (BIG_CRANE, crane)):
        if holds and points < LEZI:
            return LEZI, [(row, 1)]  # raised to one 勒子: the flowers no longer count
    return points, items


def _refusal(hand: Hand) -> str | None:
    if any(m.kind == "chow" and m.claimed_from not in (None, "left") for m in hand.melds):
        return "only the next player (下家) may chow a discard"
    return None


def score_shanghai(hand: Hand | Mapping[str, Any]) -> Score:
    """Score a win under Shanghai rules; an impossible hand answers `valid: false`."""
    checked = admit(hand, RULESET, _refusal)
    if isinstance(checked, Score):
        return checked
    readings = arrangements(checked)
    if not readings and all(suit_of(t) == "z" for t in all_tiles(checked)):
        points, items = ALL_HONORS.points, [(ALL_HONORS, 1)]  # 乱风: any fourteen honors
        text: tuple[str, ...] = ()
    elif not readings:
        return invalid(RULESET, "not a winning hand: four sets and a pair, or all honors")
    else:
        (points, items), text = max(
            ((_value(checked, sets), reading_text(sets, pair)) for sets, pair in readings),
            key=lambda found: found[0][0],
        )
    return make_score(
        RULESET,
        points,
        items,
        flower_points=checked.flower_count,
        payments=payments(points, checked, robbed_pays_all=True),
        sets={row.id: text for row, _ in items},
    )
