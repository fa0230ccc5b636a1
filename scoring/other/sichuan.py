"""Sichuan 血战到底 (Chengdu rules, the "bloody battle" section of seed document 003).

108 suited tiles, no honors or flowers, no chows (不吃), and a winning hand must lack a
suit (缺一门). Base patterns do not add up: only the highest counts. Extras (杠上花, 抢杠,
one 根 per four of a kind) add to it. The sum is capped at 3 番; a hand is worth 2**番
base units (平胡 0 番 = 1), which the discarder pays, or each of the three on a self-draw.
`total` is the 番 after the cap; `payments` are in base units.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .common import (
    Hand,
    HandError,
    Row,
    Score,
    Set,
    all_tiles,
    arrangements,
    four_of_a_kind,
    invalid,
    is_pung,
    load,
    make_score,
    payments,
    rank_of,
    seven_pairs,
    suit_of,
)

RULESET = "sichuan"
CAP = 3  # 番: "the maximum is 3 times ... 8 times"

PLAIN = Row(1, "Plain Win", "平胡", 0)
ALL_PUNGS = Row(2, "All Pungs", "对对胡", 1)
FULL_FLUSH = Row(3, "Full Flush", "清一色", 2)
TERMINALS_IN_ALL = Row(4, "Terminal in Every Set", "带幺九", 2)
SEVEN_PAIRS = Row(5, "Seven Pairs", "七对", 2)
PURE_PUNGS = Row(6, "Full Flush All Pungs", "清对", 3)
TWO_FIVE_EIGHT = Row(7, "All Pungs of 2 5 8", "将对", 3)
DRAGON_SEVEN_PAIRS = Row(8, "Dragon Seven Pairs", "龙七对", 3)
PURE_SEVEN_PAIRS = Row(9, "Full Flush Seven Pairs", "清七对", 3)
PURE_TERMINALS = Row(10, "Full Flush Terminal in Every Set", "清幺九", 3)
KONG_BLOOM = Row(11, "Win on a Kong Replacement", "杠上花", 1)
ROBBING_KONG = Row(12, "Robbing the Kong", "抢杠", 1)
ROOT = Row(13, "Root (Four of a Kind)", "根", 1)
ROWS = (PLAIN, ALL_PUNGS, FULL_FLUSH, TERMINALS_IN_ALL, SEVEN_PAIRS, PURE_PUNGS,
        TWO_FIVE_EIGHT, DRAGON_SEVEN_PAIRS, PURE_SEVEN_PAIRS, PURE_TERMINALS, KONG_BLOOM,
        ROBBING_KONG, ROOT)  # fmt: skip


def _refusal(hand: Hand) -> str | None:
    tiles = all_tiles(hand)
    if any(suit_of(t) == "z" for t in tiles):
        return "Sichuan uses no honor tiles"
    if hand.flower_count:
        return "Sichuan uses no flowers"
    if any(m.kind == "chow" for m in hand.melds):
        return "Sichuan allows no chows (不吃)"
    if len({suit_of(t) for t in tiles}) > 2:
        return "a Sichuan win must lack one suit (缺一门)"
    return None


def _regular_base(sets: list[Set], pair: str, flush: bool) -> Row:
    """The highest base pattern of one four-sets-and-a-pair reading."""
    pungs = all(is_pung(s) for s in sets)
    ends = all(any(rank_of(t) in (1, 9) for t in s) for s in sets) and rank_of(pair) in (1, 9)
    candidates = [PLAIN]
    if pungs:
        candidates.append(PURE_PUNGS if flush else ALL_PUNGS)
        if all(rank_of(s[0]) in (2, 5, 8) for s in sets) and rank_of(pair) in (2, 5, 8):
            candidates.append(TWO_FIVE_EIGHT)
    if ends:
        candidates.append(PURE_TERMINALS if flush else TERMINALS_IN_ALL)
    if flush:
        candidates.append(FULL_FLUSH)
    return max(candidates, key=lambda r: r.points)


def _base(hand: Hand) -> tuple[Row, bool] | None:
    """(best base pattern, whether its four of a kind already pays a 根), or None: no win."""
    flush = len({suit_of(t) for t in all_tiles(hand)}) == 1
    best: tuple[Row, bool] | None = None
    if seven_pairs(hand):
        quads = four_of_a_kind(hand) > 0
        row = PURE_SEVEN_PAIRS if flush else DRAGON_SEVEN_PAIRS if quads else SEVEN_PAIRS
        best = (row, quads and not flush)  # 龙七对 "subtract 1": its four pays no extra 根
    for sets, pair in arrangements(hand):
        row = _regular_base(sets, pair, flush)
        if best is None or row.points > best[0].points:
            best = (row, False)
    return best


def score_sichuan(hand: Hand | Mapping[str, Any]) -> Score:
    """Score a win under Sichuan rules; an impossible hand answers `valid: false`."""
    try:
        checked = load(hand)
    except HandError as error:
        return invalid(RULESET, error.message, error.pointer)
    reason = _refusal(checked)
    if reason:
        return invalid(RULESET, reason)
    found = _base(checked)
    if found is None:
        return invalid(RULESET, "not a winning hand (four sets and a pair, or seven pairs)")
    base, quad_paid = found
    fans: list[tuple[Row, int]] = [(base, 1)]
    if checked.kong_replacement:
        fans.append((KONG_BLOOM, 1))
    if checked.robbing_kong:
        fans.append((ROBBING_KONG, 1))
    roots = four_of_a_kind(checked) - quad_paid
    if roots > 0:
        fans.append((ROOT, roots))
    total = min(CAP, sum(row.points * n for row, n in fans))
    return make_score(RULESET, total, fans, payments=payments(2**total, checked))
