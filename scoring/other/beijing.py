"""Beijing rules (seed document 003, "1.9 Changes in scoring rules"): 番 that add up.

136 tiles, no flowers; a hand that chowed may only win by self-draw (robbing a kong counts
as a discard); seven pairs are a win. 会 (wild) tiles, named in the hand's `wild`, stand for
any tile among the concealed ones and the winning tile: three of them must self-draw, four
win at once (四会, 8). 推倒和 (1) is the plain win, counted only when no pattern applies; 庄
counts when the dealer wins or deals in, 门清 when nothing was claimed and no 会 is held.
烧庄 rounds are printed as their own item and paid by the dealer to each other player.
`total` is the 番 (烧庄 included, as the seed's "total fan" adds it); `payments` has the
hand's own settlement (winner, discarder, others) and, where every seat's share is known,
each seat's net (E S W N) with 烧庄 and 互包 applied.
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
from .wild import stand_ins, wild_count

RULESET = "beijing"
WILD_SELF_DRAW = 3  # "three 会 in your hand, you must touch them yourself"
FOUR_WILDS = 4

PUSH_DOWN = Row(
    1, "Push Down (plain win)", "推倒和", 1, "A win with none of the patterns below.", ()
)
DEALER = Row(2, "Dealer", "庄", 1, "The dealer wins, or deals the winning tile in.", ())
CONCEALED = Row(3, "Concealed Hand", "门清", 1, "Nothing claimed and no 会 in the hand.", ())
ALL_PUNGS = Row(4, "All Pungs", "对对和", 2, "Four pungs or kongs and a pair.", (1,))
BIG_SINGLE = Row(
    5,
    "Twelve Tiles Claimed, Single Wait",
    "大吊",
    2,
    "Four claimed melds; the last tile pairs the one left.",
    (1,),
)
CATCH_FIVE = Row(
    6,
    "Closed Wait on the 5 of Characters",
    "捉五魁",
    2,
    "The 5 of characters completes 4-5-6 of characters, and only that.",
    (1,),
)
LAST_OF_WALL = Row(7, "Last Tile of the Wall", "海底捞月", 2, "Won on the wall's last tile.", (1,))
STRAIGHT = Row(8, "Pure Straight", "一条龙", 3, "1-9 of one suit as three chows.", (1,))
SEVEN_PAIRS = Row(9, "Seven Pairs", "七对", 4, "Seven pairs, nothing claimed.", (1,))
KONG_BLOOM = Row(
    10,
    "Win on a Kong Replacement",
    "杠上开花",
    5,
    "Self-drawn on the tile that replaces a kong.",
    (1,),
)
FULL_FLUSH = Row(
    11, "Full Flush", "清一色", 6, "Every tile of one suit (honours are no suit).", (1,)
)
LUXURY_PAIRS = Row(
    12, "Luxury Seven Pairs", "豪华七对", 8, "Seven pairs with four of one tile.", (1, 9)
)
FOUR_WILD = Row(
    13,
    "Four Wild Tiles",
    "四会",
    8,
    "Four 会 in the hand: a win whatever the shape (its tiles score nothing else).",
    (1, 3, 4, 5, 6, 7, 8, 9, 11, 12),
)
HEAVENLY = Row(
    14, "Heavenly Win", "天和", 10, "The dealer wins on the fourteen dealt tiles.", (1, 2)
)
EARTHLY = Row(15, "Earthly Win", "地和", 8, "Another player wins before his first discard.", (1,))
BURNED = Row(
    16,
    "Burned Dealer (per hand: 2^(rounds-1))",
    "烧庄",
    1,
    "Each round all three follow the dealer's first discard; the dealer pays each "
    "other player 2^(rounds-1).",
    (),
)
ROWS = (PUSH_DOWN, DEALER, CONCEALED, ALL_PUNGS, BIG_SINGLE, CATCH_FIVE, LAST_OF_WALL,
        STRAIGHT, SEVEN_PAIRS, KONG_BLOOM, FULL_FLUSH, LUXURY_PAIRS, FOUR_WILD, HEAVENLY,
        EARTHLY, BURNED)  # fmt: skip


def _refusal(hand: Hand) -> str | None:
    if hand.flower_count:
        return "Beijing uses no flowers"
    if any(m.kind == "chow" for m in hand.melds) and not hand.self_drawn:
        return "a Beijing hand that chowed may only win by self-draw"
    if wild_count(hand) >= WILD_SELF_DRAW and not hand.self_drawn:
        return "a Beijing hand holding three 会 (wild tiles) may only win by self-draw"
    return None


def _catch_five(hand: Hand, sets: list[Set]) -> bool:
    """捉五魁: the 5 of characters completes 4-5-6 characters, and only that."""
    if hand.winning_tile != "5m" or ("4m", "5m", "6m") not in sets:
        return False
    hidden = [*hand.concealed]
    return "4m" in hidden and "6m" in hidden and hidden.count("5m") == 0


def _flush(hand: Hand) -> bool:
    """清一色: one suit; an all-honour hand has no suit, so it is not one."""
    suits = {suit_of(t) for t in tiles_of(hand)}
    return len(suits) == 1 and "z" not in suits


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
    if _flush(hand):
        rows.append(FULL_FLUSH)
    if hand.last_of_wall:
        rows.append(LAST_OF_WALL)
    if hand.kong_replacement:
        rows.append(KONG_BLOOM)
    return rows


def _best_patterns(hand: Hand) -> tuple[list[Row], tuple[str, ...]] | None:
    """The highest pattern items over every reading of every tile the 会 could stand for."""
    best: tuple[list[Row], tuple[str, ...]] | None = None
    best_points = -1
    for tiles in stand_ins(hand):
        readings: list[tuple[list[Set] | None, tuple[str, ...]]] = [
            (sets, reading_text(sets, pair)) for sets, pair in arrangements(tiles)
        ]
        if seven_pairs(tiles):
            readings.append((None, pairs_text(tiles)))
        for sets, text in readings:
            rows = _patterns(tiles, sets)
            points = sum(r.points for r in rows)
            if points > best_points:
                best, best_points = (rows, text), points
    return best


def score_beijing(hand: Hand | Mapping[str, Any]) -> Score:
    """Score a win under Beijing rules; an impossible hand answers `valid: false`."""
    checked = admit(hand, RULESET, _refusal)
    if isinstance(checked, Score):
        return checked
    table = checked.table
    wilds = wild_count(checked)
    text: tuple[str, ...] = ()
    if wilds >= FOUR_WILDS:
        rows = [FOUR_WILD]
    else:
        found = _best_patterns(checked)
        if found is None:
            return invalid(RULESET, "not a winning hand (four sets and a pair, or seven pairs)")
        patterns, text = found
        rows = patterns or [PUSH_DOWN]
        if not exposed(checked) and not wilds:
            rows.append(CONCEALED)
    excluded: list[Exclusion] = []
    if table.heavenly_win:
        rows = [r for r in rows if r is not PUSH_DOWN] + [HEAVENLY]
    elif table.earthly_win:
        rows = [r for r in rows if r is not PUSH_DOWN] + [EARTHLY]
    dealer_in = checked.seat_wind == table.dealer or table.discarder == table.dealer
    if dealer_in and table.heavenly_win:
        excluded.append(Exclusion(DEALER.id, HEAVENLY.id, "non-repeat"))
    elif dealer_in:
        rows.append(DEALER)
    rows.sort(key=lambda r: r.id)
    hand_fan = sum(r.points for r in rows)
    fans = [(r, 1) for r in rows]
    burned = 2 ** (table.burned_rounds - 1) if table.burned_rounds else 0
    if burned:
        fans.append((Row(BURNED.id, BURNED.name_en, BURNED.name_zh, burned), 1))
    sets = {r.id: text for r in rows if r not in (DEALER, CONCEALED, HEAVENLY, EARTHLY)}
    pay = payments(hand_fan, checked)
    pay.update(seat_nets(checked, hand_fan, burned))
    return make_score(RULESET, hand_fan + burned, fans, pay, excluded=excluded, sets=sets)


def seat_nets(hand: Hand, hand_fan: int, burned: int) -> dict[str, int | None]:
    """Each seat's net in base units (E S W N), when the payers are known: the hand's 番 from
    the discarder (or each of the three on a self-draw), or all of it from each 互包 partner
    ("the other family will hand over all its points"); 烧庄 from the dealer to each other."""
    table = hand.table
    winner = hand.seat_wind
    if not hand.self_drawn and table.discarder is None:
        return {}
    nets = dict.fromkeys(("E", "S", "W", "N"), 0)
    owed = 3 * hand_fan if hand.self_drawn else hand_fan
    if table.mutual_pay:
        payers = {seat: owed for seat in table.mutual_pay}
    elif hand.self_drawn:
        payers = {seat: hand_fan for seat in nets if seat != winner}
    else:
        payers = {str(table.discarder): hand_fan}
    for seat, amount in payers.items():
        nets[seat] -= amount
        nets[winner] += amount
    if burned:
        for seat in nets:
            if seat != table.dealer:
                nets[seat] += burned
                nets[table.dealer] -= burned
    return {seat: n for seat, n in nets.items()}
