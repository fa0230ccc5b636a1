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
    Exclusion,
    Hand,
    Row,
    Score,
    Set,
    admit,
    all_tiles,
    arrangements,
    four_of_a_kind,
    invalid,
    is_pung,
    make_score,
    pairs_text,
    payments,
    quads_text,
    rank_of,
    reading_text,
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


def _regular_patterns(sets: list[Set], pair: str, flush: bool) -> list[Row]:
    """Every base pattern one four-sets-and-a-pair reading shows (平胡 always)."""
    pungs = all(is_pung(s) for s in sets)
    ends = all(any(rank_of(t) in (1, 9) for t in s) for s in sets) and rank_of(pair) in (1, 9)
    shown = [PLAIN]
    if pungs:
        shown += [ALL_PUNGS, PURE_PUNGS] if flush else [ALL_PUNGS]
        if all(rank_of(s[0]) in (2, 5, 8) for s in sets) and rank_of(pair) in (2, 5, 8):
            shown.append(TWO_FIVE_EIGHT)
    if ends:
        shown += [TERMINALS_IN_ALL, PURE_TERMINALS] if flush else [TERMINALS_IN_ALL]
    return shown + [FULL_FLUSH] * flush


def _seven_pairs_patterns(quads: bool, flush: bool) -> list[Row]:
    return [SEVEN_PAIRS] + [DRAGON_SEVEN_PAIRS] * quads + [FULL_FLUSH, PURE_SEVEN_PAIRS] * flush


Reading = tuple[list[Row], bool, tuple[str, ...]]  # patterns shown, 龙七对's four paid, sets


def _best(hand: Hand) -> Reading | None:
    """The patterns of the highest reading, its best first, whether that best is 龙七对 (whose
    four of a kind pays no extra 根: "subtract 1"), and its sets; None: not a winning hand."""
    flush = len({suit_of(t) for t in all_tiles(hand)}) == 1
    readings: list[Reading] = []
    if seven_pairs(hand):
        quads = four_of_a_kind(hand) > 0
        shown = _seven_pairs_patterns(quads, flush)
        readings.append((shown, quads and not flush, pairs_text(hand)))
    for sets, pair in arrangements(hand):
        shown = _regular_patterns(sets, pair, flush)
        readings.append((shown, False, reading_text(sets, pair)))
    if not readings:
        return None
    shown, quad_paid, text = max(readings, key=lambda r: max(row.points for row in r[0]))
    shown.sort(key=lambda row: -row.points)  # stable: the text's order breaks ties
    return shown, quad_paid and shown[0] is DRAGON_SEVEN_PAIRS, text


def score_sichuan(hand: Hand | Mapping[str, Any]) -> Score:
    """Score a win under Sichuan rules; an impossible hand answers `valid: false`."""
    checked = admit(hand, RULESET, _refusal)
    if isinstance(checked, Score):
        return checked
    found = _best(checked)
    if found is None:
        return invalid(RULESET, "not a winning hand (four sets and a pair, or seven pairs)")
    (base, *lower), quad_paid, text = found
    fans: list[tuple[Row, int]] = [(base, 1)]
    # base patterns do not add up: the others shown are left out for the highest one
    excluded = [Exclusion(row.id, base.id, "highest-only") for row in lower if row is not PLAIN]
    if checked.kong_replacement:
        fans.append((KONG_BLOOM, 1))
    if checked.robbing_kong:
        fans.append((ROBBING_KONG, 1))
    roots = four_of_a_kind(checked) - quad_paid
    if roots > 0:
        fans.append((ROOT, roots))
    total = min(CAP, sum(row.points * n for row, n in fans))
    sets = {base.id: text, ROOT.id: quads_text(checked)}
    return make_score(
        RULESET, total, fans, payments(2**total, checked), excluded=excluded, sets=sets
    )
