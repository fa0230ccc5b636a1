"""Beijing rules (seed document 003, "1.9 Changes in scoring rules"): 番 that add up.

136 tiles, no flowers; a hand that chowed may only win by self-draw (robbing a kong counts
as a discard); seven pairs are a win. 推倒和 (1) is the plain win, counted only when no
pattern below applies; 庄 (the dealer, seat East, wins) and 门清 add to anything. The
wild-tile (会牌) items, heavenly and earthly wins and 烧庄 need facts a Hand JSON does not
carry and are not scored. `total` is the 番; a self-draw costs each of the three that much.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .common import (
    Hand,
    Row,
    Score,
    Set,
    admit,
    arrangements,
    exposed,
    four_of_a_kind,
    invalid,
    is_pung,
    make_score,
    pairs_text,
    payments,
    reading_text,
    seven_pairs,
    suit_of,
)
from .common import all_tiles as tiles_of

RULESET = "beijing"

PUSH_DOWN = Row(1, "Push Down (plain win)", "推倒和", 1)
DEALER = Row(2, "Dealer Wins", "庄", 1)
CONCEALED = Row(3, "Concealed Hand", "门清", 1)
ALL_PUNGS = Row(4, "All Pungs", "对对和", 2)
BIG_SINGLE = Row(5, "Twelve Tiles Claimed, Single Wait", "大吊", 2)
CATCH_FIVE = Row(6, "Closed Wait on the 5 of Characters", "捉五魁", 2)
LAST_OF_WALL = Row(7, "Last Tile of the Wall", "海底捞月", 2)
STRAIGHT = Row(8, "Pure Straight", "一条龙", 3)
SEVEN_PAIRS = Row(9, "Seven Pairs", "七对", 4)
KONG_BLOOM = Row(10, "Win on a Kong Replacement", "杠上开花", 5)
FULL_FLUSH = Row(11, "Full Flush", "清一色", 6)
LUXURY_PAIRS = Row(12, "Luxury Seven Pairs", "豪华七对", 8)
ROWS = (PUSH_DOWN, DEALER, CONCEALED, ALL_PUNGS, BIG_SINGLE, CATCH_FIVE, LAST_OF_WALL,
        STRAIGHT, SEVEN_PAIRS, KONG_BLOOM, FULL_FLUSH, LUXURY_PAIRS)  # fmt: skip


def _refusal(hand: Hand) -> str | None:
    if hand.flower_count:
        return "Beijing uses no flowers"
    if any(m.kind == "chow" for m in hand.melds) and not hand.self_drawn:
        return "a Beijing hand that chowed may only win by self-draw"
    return None


def _catch_five(hand: Hand, sets: list[Set]) -> bool:
    """捉五魁: the 5 of characters completes 4-5-6 characters, and only that."""
    if hand.winning_tile != "5m" or ("4m", "5m", "6m") not in sets:
        return False
    hidden = [*hand.concealed]
    return "4m" in hidden and "6m" in hidden and hidden.count("5m") == 0


def _patterns(hand: Hand, sets: list[Set] | None) -> list[Row]:
    """The pattern items of one reading (`sets` None: seven pairs)."""
    rows: list[Row] = []
    if sets is None:
        rows.append(LUXURY_PAIRS if four_of_a_kind(hand) else SEVEN_PAIRS)
    else:
        if all(is_pung(s) for s in sets):
            rows.append(ALL_PUNGS)
        if sum(not m.concealed for m in hand.melds) == 4:
            rows.append(BIG_SINGLE)
        if _catch_five(hand, sets):
            rows.append(CATCH_FIVE)
        for suit in "mps":
            if all((f"{r}{suit}", f"{r + 1}{suit}", f"{r + 2}{suit}") in sets for r in (1, 4, 7)):
                rows.append(STRAIGHT)
    if len({suit_of(t) for t in tiles_of(hand)}) == 1:
        rows.append(FULL_FLUSH)
    if hand.last_of_wall:
        rows.append(LAST_OF_WALL)
    if hand.kong_replacement:
        rows.append(KONG_BLOOM)
    return rows


def score_beijing(hand: Hand | Mapping[str, Any]) -> Score:
    """Score a win under Beijing rules; an impossible hand answers `valid: false`."""
    checked = admit(hand, RULESET, _refusal)
    if isinstance(checked, Score):
        return checked
    readings: list[tuple[list[Set] | None, tuple[str, ...]]] = [
        (sets, reading_text(sets, pair)) for sets, pair in arrangements(checked)
    ]
    if seven_pairs(checked):
        readings.append((None, pairs_text(checked)))
    if not readings:
        return invalid(RULESET, "not a winning hand (four sets and a pair, or seven pairs)")
    patterns, text = max(
        ((_patterns(checked, r), text) for r, text in readings),
        key=lambda found: sum(r.points for r in found[0]),
    )
    rows = patterns or [PUSH_DOWN]
    if checked.seat_wind == "E":
        rows = [DEALER, *rows]
    if not exposed(checked):
        rows.append(CONCEALED)
    rows.sort(key=lambda r: r.id)
    total = sum(r.points for r in rows)
    sets = {r.id: text for r in rows if r not in (DEALER, CONCEALED)}
    return make_score(RULESET, total, [(r, 1) for r in rows], payments(total, checked), sets=sets)
