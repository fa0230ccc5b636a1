"""Sichuan (seed document 003): 血战到底 in 番, and the ordinary game's point table.

108 suited tiles, no honors or flowers, no chows (不吃), and a winning hand must lack a
suit (缺一门). Base patterns do not add up: only the highest counts ("the following numbers
are not calculated repeatedly, only the maximum number"). Extras add to it: 杠上花, 抢杠,
杠上炮 and one 根 per four of a kind (龙七对's own four not again: "subtract 1").

`sichuan` (血战到底): the sum is capped at 3 番; a hand is worth 2**番 base units, which the
discarder pays, or each of the three on a self-draw. `total` is the 番 after the cap.
`sichuan-ordinary` (the "ordinary Sichuan Mahjong" table before it): points that add, no
cap; each four of a kind 1, 杠上花 2, 抢杠 1; the discarder pays the points, or each of the
three on a self-draw.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
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

BLOOD = "sichuan"
ORDINARY = "sichuan-ordinary"
CAP = 3  # 番: "the maximum is 3 times ... 8 times"


@dataclass(frozen=True, slots=True)
class Rules:
    """One Sichuan table: the rows of each pattern and extra, and how a total is paid."""

    name: str
    plain: Row
    all_pungs: Row
    full_flush: Row
    terminals: Row
    seven_pairs: Row
    pure_pungs: Row
    two_five_eight: Row
    dragon_pairs: Row
    pure_pairs: Row | None  # 清七对: the ordinary table has none (its 清一色 / 七对 stand)
    pure_terminals: Row | None  # 清幺九: likewise
    pure_dragon_pairs: Row
    heavenly: Row
    earthly: Row
    kong_bloom: Row
    robbing: Row
    root: Row
    kong_discard: Row | None  # 杠上炮: the blood battle's only
    cap: int | None
    rows: tuple[Row, ...]


def _blood() -> Rules:
    hi = (1, 2, 3, 4, 5)  # a 3-番 pattern stands for the lower ones its hand shows
    plain = Row(1, "Plain Win", "平胡", 0, "Four sets and a pair.", ())
    all_pungs = Row(2, "All Pungs", "对对胡", 1, "Four pungs or kongs and a pair.", (1,))
    flush = Row(3, "Full Flush", "清一色", 2, "Every tile of one suit.", (1,))
    ends = Row(4, "Terminal in Every Set", "带幺九", 2, "A 1 or 9 in every set and the pair.", (1,))
    pairs = Row(5, "Seven Pairs", "七对", 2, "Seven pairs, nothing claimed.", (1,))
    pure_pungs = Row(6, "Full Flush All Pungs", "清对", 3, "All pungs of one suit.", hi)
    two_five_eight = Row(
        7, "All Pungs of 2 5 8", "将对", 3, "All pungs and the pair of 2, 5, 8.", hi
    )
    dragon = Row(
        8,
        "Dragon Seven Pairs",
        "龙七对",
        3,
        "Seven pairs with four of one tile (its four pays no 根).",
        hi,
    )
    pure_pairs = Row(9, "Full Flush Seven Pairs", "清七对", 3, "Seven pairs of one suit.", hi)
    pure_ends = Row(
        10,
        "Full Flush Terminal in Every Set",
        "清幺九",
        3,
        "One suit, a 1 or 9 in every set and the pair.",
        hi,
    )
    bloom = Row(
        11, "Win on a Kong Replacement", "杠上花", 1, "Self-drawn on a kong's replacement tile.", ()
    )
    robbing = Row(
        12, "Robbing the Kong", "抢杠", 1, "Won on the tile another player adds to his pung.", ()
    )
    root = Row(13, "Root (Four of a Kind)", "根", 1, "Each four of a kind, kong or not.", ())
    heavenly = Row(14, "Heavenly Win", "天胡", 3, "The dealer wins on the dealt tiles.", hi)
    earthly = Row(
        15, "Earthly Win", "地胡", 3, "Another player wins on the dealer's first discard.", hi
    )
    pure_dragon = Row(
        16,
        "Full Flush Dragon Seven Pairs",
        "清龙七对",
        3,
        "Seven pairs of one suit with four of one tile (its four pays no 根).",
        (*hi, 8, 9),
    )
    kong_discard = Row(
        17,
        "Win on the Discard after a Kong",
        "杠上炮",
        1,
        "Won on the tile a player let go after drawing his kong's replacement.",
        (),
    )
    rows = (
        plain,
        all_pungs,
        flush,
        ends,
        pairs,
        pure_pungs,
        two_five_eight,
        dragon,
        pure_pairs,
        pure_ends,
        bloom,
        robbing,
        root,
        heavenly,
        earthly,
        pure_dragon,
        kong_discard,
    )
    return Rules(
        BLOOD,
        plain,
        all_pungs,
        flush,
        ends,
        pairs,
        pure_pungs,
        two_five_eight,
        dragon,
        pure_pairs,
        pure_ends,
        pure_dragon,
        heavenly,
        earthly,
        bloom,
        robbing,
        root,
        kong_discard,
        CAP,
        rows,
    )


def _ordinary() -> Rules:
    plain = Row(1, "Plain Win", "平胡", 1, "Four sets and a pair.", ())
    all_pungs = Row(2, "All Pungs", "对对胡", 2, "Four pungs or kongs and a pair.", (1,))
    flush = Row(3, "Full Flush", "清一色", 3, "Every tile of one suit.", (1,))
    ends = Row(4, "Terminal in Every Set", "带幺九", 3, "A 1 or 9 in every set and the pair.", (1,))
    pairs = Row(5, "Seven Pairs", "七对", 3, "Seven pairs, nothing claimed.", (1,))
    dragon = Row(
        6,
        "Dragon Seven Pairs",
        "龙七对",
        4,
        "Seven pairs with four of one tile (its four is not counted again).",
        (1, 5),
    )
    pure_pungs = Row(7, "Full Flush All Pungs", "清对", 4, "All pungs of one suit.", (1, 2, 3))
    two_five_eight = Row(
        8, "All Pungs of 2 5 8", "将对", 4, "All pungs and the pair of 2, 5, 8.", (1, 2)
    )
    heavenly = Row(
        9,
        "Heavenly Win",
        "天胡",
        8,
        "The dealer wins on the dealt tiles.",
        (1, 2, 3, 4, 5, 6, 7, 8),
    )
    earthly = Row(
        10,
        "Earthly Win",
        "地胡",
        8,
        "Another player wins on his first tile.",
        (1, 2, 3, 4, 5, 6, 7, 8),
    )
    pure_dragon = Row(
        11,
        "Full Flush Dragon Seven Pairs",
        "清龙七对",
        8,
        "Seven pairs of one suit with four of one tile (its four is not counted again).",
        (1, 3, 5, 6),
    )
    root = Row(12, "Kong / Four of a Kind (each)", "杠", 1, "Each four of a kind, kong or not.", ())
    bloom = Row(
        13, "Win on a Kong Replacement", "杠上花", 2, "Self-drawn on a kong's replacement tile.", ()
    )
    robbing = Row(
        14,
        "Robbing the Kong",
        "抢杠",
        1,
        "Won on the tile another player adds to his pung (2 with the plain win: 抢杠胡).",
        (),
    )
    rows = (
        plain,
        all_pungs,
        flush,
        ends,
        pairs,
        dragon,
        pure_pungs,
        two_five_eight,
        heavenly,
        earthly,
        pure_dragon,
        root,
        bloom,
        robbing,
    )
    return Rules(
        ORDINARY,
        plain,
        all_pungs,
        flush,
        ends,
        pairs,
        pure_pungs,
        two_five_eight,
        dragon,
        None,
        None,
        pure_dragon,
        heavenly,
        earthly,
        bloom,
        robbing,
        root,
        None,
        None,
        rows,
    )


BLOOD_RULES = _blood()
ORDINARY_RULES = _ordinary()
ROWS = BLOOD_RULES.rows
ORDINARY_ROWS = ORDINARY_RULES.rows


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
    table = hand.table
    if table.earthly_win and (hand.self_drawn or table.discarder not in (None, table.dealer)):
        return "an earthly win (地胡) is on the dealer's first discard, not self-drawn"
    return None


def _regular(rules: Rules, sets: list[Set], pair: str, flush: bool) -> list[Row]:
    """Every base pattern one four-sets-and-a-pair reading shows (平胡 always)."""
    pungs = all(is_pung(s) for s in sets)
    ends = all(any(rank_of(t) in (1, 9) for t in s) for s in sets) and rank_of(pair) in (1, 9)
    shown = [rules.plain]
    if pungs:
        shown.append(rules.all_pungs)
        if flush:
            shown.append(rules.pure_pungs)
        if all(rank_of(s[0]) in (2, 5, 8) for s in sets) and rank_of(pair) in (2, 5, 8):
            shown.append(rules.two_five_eight)
    if ends:
        shown.append(rules.terminals)
        if flush and rules.pure_terminals is not None:
            shown.append(rules.pure_terminals)
    return shown + [rules.full_flush] * flush


def _pairs(rules: Rules, quads: bool, flush: bool) -> list[Row]:
    shown = [rules.seven_pairs]
    if quads:
        shown.append(rules.dragon_pairs)
    if flush:
        shown.append(rules.full_flush)
        if rules.pure_pairs is not None:
            shown.append(rules.pure_pairs)
        if quads:
            shown.append(rules.pure_dragon_pairs)
    return shown


Reading = tuple[list[Row], tuple[str, ...]]  # patterns shown, the sets


def _best(rules: Rules, hand: Hand) -> Reading | None:
    """The patterns of the highest reading, its best first, and its sets; None: no win."""
    flush = len({suit_of(t) for t in all_tiles(hand)}) == 1
    readings: list[Reading] = []
    if seven_pairs(hand):
        readings.append((_pairs(rules, four_of_a_kind(hand) > 0, flush), pairs_text(hand)))
    for sets, pair in arrangements(hand):
        readings.append((_regular(rules, sets, pair, flush), reading_text(sets, pair)))
    if not readings:
        return None
    shown, text = max(readings, key=lambda r: max(row.points for row in r[0]))
    table = hand.table
    for row, holds in ((rules.heavenly, table.heavenly_win), (rules.earthly, table.earthly_win)):
        if holds:
            shown.append(row)
    # stable, highest first; between equals the later (more particular) row of the table
    shown.sort(key=lambda row: (-row.points, -row.id))
    return shown, text


def _score(rules: Rules, hand: Hand | Mapping[str, Any]) -> Score:
    checked = admit(hand, rules.name, _refusal)
    if isinstance(checked, Score):
        return checked
    found = _best(rules, checked)
    if found is None:
        return invalid(rules.name, "not a winning hand (four sets and a pair, or seven pairs)")
    (base, *lower), text = found
    fans: list[tuple[Row, int]] = [(base, 1)]
    # base patterns do not add up: the others shown are left out for the highest one
    excluded = [
        Exclusion(row.id, base.id, "highest-only") for row in lower if row is not rules.plain
    ]
    extras = (
        (rules.kong_bloom, checked.kong_replacement),
        (rules.robbing, checked.robbing_kong),
        (rules.kong_discard, checked.table.kong_discard),
    )
    fans += [(row, 1) for row, holds in extras if row is not None and holds]
    # 龙七对 and 清龙七对 are paid for their four already: "subtract 1"
    own_four = base in (rules.dragon_pairs, rules.pure_dragon_pairs)
    roots = four_of_a_kind(checked) - own_four
    if roots > 0:
        fans.append((rules.root, roots))
    raw = sum(row.points * n for row, n in fans)
    total = raw if rules.cap is None else min(rules.cap, raw)
    worth = 2**total if rules.cap is not None else total
    sets = {base.id: text, rules.root.id: quads_text(checked)}
    return make_score(
        rules.name, total, fans, payments(worth, checked), excluded=excluded, sets=sets,
        capped_from=raw if raw > total else None,
    )  # fmt: skip


def score_sichuan(hand: Hand | Mapping[str, Any]) -> Score:
    """Score a win under the blood-battle rules (番, capped at 3); never raises."""
    return _score(BLOOD_RULES, hand)


def score_sichuan_ordinary(hand: Hand | Mapping[str, Any]) -> Score:
    """Score a win under the ordinary Sichuan point table; never raises."""
    return _score(ORDINARY_RULES, hand)
