"""Shanghai 敲麻 (seed document 003): a base of 2 points plus flowers, or whole 勒子 of 10.

A win needs a claim first (a chow, pung or kong taken from a discard; a concealed kong is
none): "only allowed to [win] after touching". Eight flowers win on any tiles.

Flowers (花) are the flower tiles plus what kongs and honor pungs are worth: a suited kong 1
(concealed 2), a wind pung 1 (exposed kong 2, concealed kong 3), a dragon pung 2 (3, 4).
A plain win is 2 + flowers, capped at one 勒子 (10 points). Limit hands score whole 勒子:
清一色 and 混碰 1, 清碰 and 字一色 2, 字碰 4, eight flowers 2. A win on a kong replacement
(杠开) or with twelve tiles claimed and a single wait (大吊车) is worth at least one 勒子.
開宝 (a double 1 or 4 on the dice) and 荒番 (the hand after a drawn one) each double the
points, whole 勒子 included. `total` is in points; a robbed kong costs its robbed player
three shares; a player three of whose discards the winner claimed (承包) pays the whole win.
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
    claimed_from_seats,
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

LIMITS = (3, 4, 5, 6, 7, 8, 9, 10)  # the ids of the rows that stand for base and flowers
PLAIN = Row(
    1,
    "Plain Win (base)",
    "平和",
    BASE,
    "Any win: the base, plus flowers, capped at one 勒子 (10).",
    (),
)
FLOWERS = Row(
    2,
    "Flowers (each)",
    "花",
    1,
    "Each flower tile 1; a suited kong 1 (concealed 2); "
    "a wind pung 1, kong 2, concealed kong 3; a dragon pung 2, kong 3, concealed 4.",
    (),
)
FULL_FLUSH = Row(3, "Full Flush (1 勒子)", "清一色", LEZI, "Every tile of one suit.", (1, 2))
HALF_FLUSH_PUNGS = Row(
    4, "Half Flush All Pungs (1 勒子)", "混碰", LEZI, "One suit and honours, all pungs.", (1, 2)
)
FULL_FLUSH_PUNGS = Row(
    5, "Full Flush All Pungs (2 勒子)", "清碰", 2 * LEZI, "One suit, all pungs.", (1, 2, 3)
)
ALL_HONORS = Row(
    6,
    "All Honors (2 勒子)",
    "字一色",
    2 * LEZI,
    "Only winds and dragons, in sets or not (乱风).",
    (1, 2),
)
ALL_HONOR_PUNGS = Row(
    7,
    "All Honors All Pungs (4 勒子)",
    "字碰",
    4 * LEZI,
    "Only winds and dragons, all pungs.",
    (1, 2, 6),
)
EIGHT_FLOWERS = Row(
    8,
    "Eight Flowers (2 勒子)",
    "八花",
    2 * LEZI,
    "All eight flower tiles: a win whatever the other tiles.",
    (1, 2),
)
KONG_BLOOM = Row(
    9,
    "Win on a Kong Replacement (at least one 勒子)",
    "杠开",
    LEZI,
    "A plain win on a kong's replacement tile, raised to one 勒子.",
    (1, 2),
)
BIG_CRANE = Row(
    10,
    "Twelve Tiles Claimed, Single Wait (at least one 勒子)",
    "大吊车",
    LEZI,
    "Four claimed melds and a single wait, raised to one 勒子.",
    (1, 2),
)
KAIBAO = Row(
    11,
    "Kaibao (doubles)",
    "开宝",
    0,
    "The dice showed a double 1 or 4: the points double, whole 勒子 included.",
    (),
)
HUANGFAN = Row(
    12,
    "Huangfan (doubles)",
    "荒番",
    0,
    "The hand after a drawn hand: the points double, whole 勒子 included.",
    (),
)
ROWS = (PLAIN, FLOWERS, FULL_FLUSH, HALF_FLUSH_PUNGS, FULL_FLUSH_PUNGS, ALL_HONORS,
        ALL_HONOR_PUNGS, EIGHT_FLOWERS, KONG_BLOOM, BIG_CRANE, KAIBAO, HUANGFAN)  # fmt: skip
CONTRACT_CLAIMS = 3  # "robbed [claimed from] for more than three times (including three)"


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
    if hand.flower_count < EIGHT and all(m.concealed for m in hand.melds):
        return (
            "a Shanghai win needs a claim first (a chow, pung or kong from a discard): "
            "'only allowed to [win] after touching'; eight flowers excepted"
        )
    return None


EIGHT = 8  # flowers


def contractor(hand: Hand) -> str | None:
    """承包: the seat three of whose discards the winner claimed, where the melds say whom."""
    sources = claimed_from_seats(hand)
    for seat in set(sources):
        if sources.count(seat) >= CONTRACT_CLAIMS:
            return seat
    return None


def _settle(points: int, hand: Hand) -> dict[str, int | None]:
    """The payments, the contractor's and each seat's where they are known."""
    pay = payments(points, hand, robbed_pays_all=True)
    liable = contractor(hand)
    if liable is None:
        return pay
    # "the contractor pays one point for [a discard win] and three points for self-taking";
    # a robbed kong: "the contractor will also pay three copies", in the robbed player's place
    owed = 3 * points if hand.self_drawn or hand.robbing_kong else points
    nets = dict.fromkeys(("E", "S", "W", "N"), 0)
    nets[hand.seat_wind], nets[liable] = owed, -owed
    return {"winner": owed, "discarder": None, "others": 0, "contractor": -owed, **nets}


def score_shanghai(hand: Hand | Mapping[str, Any]) -> Score:
    """Score a win under Shanghai rules; an impossible hand answers `valid: false`."""
    checked = admit(hand, RULESET, _refusal)
    if isinstance(checked, Score):
        return checked
    readings = arrangements(checked)
    text: tuple[str, ...] = ()
    if not readings and all(suit_of(t) == "z" for t in all_tiles(checked)):
        points, items = ALL_HONORS.points, [(ALL_HONORS, 1)]  # 乱风: any fourteen honors
    elif not readings and checked.flower_count == EIGHT:
        points, items = EIGHT_FLOWERS.points, [(EIGHT_FLOWERS, 1)]  # a win on any tiles
    elif not readings:
        return invalid(RULESET, "not a winning hand: four sets and a pair, or all honors")
    else:
        (points, items), text = max(
            ((_value(checked, sets), reading_text(sets, pair)) for sets, pair in readings),
            key=lambda found: found[0][0],
        )
    summed = sum(row.points * n for row, n in items)
    capped_from = summed if summed > points else None  # a plain win over one 勒子
    for row, holds in ((KAIBAO, checked.table.kaibao), (HUANGFAN, checked.table.huangfan)):
        if holds:  # "Wasteland and Kaibao can double": Qing Touch + Kaibao is 4 lira
            items.append((Row(row.id, row.name_en, row.name_zh, points), 1))
            points *= 2
    return make_score(
        RULESET,
        points,
        items,
        flower_points=checked.flower_count,
        payments=_settle(points, checked),
        sets={row.id: text for row, _ in items if row.id not in (KAIBAO.id, HUANGFAN.id)},
        capped_from=capped_from,
    )
