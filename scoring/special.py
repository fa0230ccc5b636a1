"""The shapes that are not four sets and a pair: seven pairs, thirteen orphans, the knitted
hands (全不靠 / 七星不靠), and a knitted straight with one set and a pair (组合龙)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from typing import Final

from . import fan_ids as F
from .deal import Deal
from .mcr import (
    EXCLUDES,
    apply_exclusions,
    kong_and_pung_fans,
    wait_fans,
    win_condition_fans,
    wind_fans,
)
from .shapes import CHOW, KONG, PAIR, Set, divisions
from .tally import NON_REPEAT, Tally
from .tile_index import KNITTED_STRAIGHTS, THIRTEEN_ORPHANS
from .traits import rank_range_fans, suit_fans, tile_hog_fans, tile_kind_fans

HONOR_RANGE: Final = range(27, 34)
ORPHAN_SET: Final = frozenset(THIRTEEN_ORPHANS)
KNITTED_MASKS: Final = tuple(sum(1 << t for t in seq) for seq in KNITTED_STRAIGHTS)


def seven_pairs(tiles: Sequence[int]) -> Tally | None:
    """七对 / 连七对 (fourteen concealed tiles, sorted)."""
    if any(tiles[i] != tiles[i + 1] for i in range(0, 14, 2)):
        return None
    tally = Tally()
    heads = tiles[::2]
    if (
        heads[0] < 27
        and heads[0] // 9 == heads[-1] // 9
        and all(b - a == 1 for a, b in pairwise(heads))
    ):
        tally.add(F.SEVEN_SHIFTED_PAIRS)
        tile_kind_fans(tally, tiles)
    else:
        tally.add(F.SEVEN_PAIRS)
        suit_fans(tally, tiles)
        tile_kind_fans(tally, tiles)
        rank_range_fans(tally, tiles)
        tile_hog_fans(tally, tiles)
    return tally


def thirteen_orphans(tiles: Sequence[int]) -> Tally | None:
    """十三幺: one of each terminal and honor plus one more of them."""
    if tiles[0] != THIRTEEN_ORPHANS[0] or set(tiles) != ORPHAN_SET:  # sorted: 1m comes first
        return None
    tally = Tally()
    tally.add(F.THIRTEEN_ORPHANS)
    return tally


def honors_and_knitted(tiles: Sequence[int]) -> Tally | None:
    """全不靠 / 七星不靠: distinct honors with 7-9 distinct tiles of one knitted straight."""
    for i in range(len(tiles) - 1):  # sorted: fourteen different tiles, none repeated
        if tiles[i] == tiles[i + 1]:
            return None
    suited = [t for t in tiles if t < 27]
    honors = [t for t in tiles if t >= 27]
    if not 7 <= len(suited) <= 9 or len(set(tiles)) != 14:
        return None
    if not any(set(suited) <= set(seq) for seq in KNITTED_STRAIGHTS):
        return None
    tally = Tally()
    if len(honors) == 7:
        tally.add(F.GREATER_HONORS_AND_KNITTED)
    else:
        tally.add(F.LESSER_HONORS_AND_KNITTED)
        if len(suited) == 9:
            tally.add(F.KNITTED_STRAIGHT)
    return tally


def special_shapes(deal: Deal, tiles: Sequence[int] | None = None) -> Tally | None:
    """The fully concealed special shapes, with the conditions of the win; `tiles`: the
    fourteen sorted, where the caller has them."""
    if tiles is None:
        tiles = sorted((*deal.standing, deal.win))
    tally = seven_pairs(tiles) or thirteen_orphans(tiles) or honors_and_knitted(tiles)
    if tally is None:
        return None
    win_condition_fans(tally, deal)
    apply_exclusions(tally)
    _note_book_exclusions(tally)
    return tally


SPECIAL_FANS: Final = (
    F.SEVEN_SHIFTED_PAIRS, F.THIRTEEN_ORPHANS, F.SEVEN_PAIRS,
    F.GREATER_HONORS_AND_KNITTED, F.LESSER_HONORS_AND_KNITTED,
)  # fmt: skip


def _note_book_exclusions(tally: Tally) -> None:
    """The book names, beside each special hand, the fans it leaves uncounted (seven pairs:
    Fully Concealed Hand, Concealed Hand, Single Wait). The shape never adds most of them, so
    they are listed here as not counted, because of the special hand (non-repeat)."""
    noted = {d.id for d in tally.dropped}
    for fan in SPECIAL_FANS:
        if fan not in tally.counts:
            continue
        for excluded in EXCLUDES[fan]:
            if excluded not in tally.counts and excluded not in noted:
                noted.add(excluded)
                tally.dropped_inner(excluded, fan, NON_REPEAT)


def knitted_straight(deal: Deal) -> tuple[Tally, list[Set]] | None:
    """组合龙 + one set + a pair; at most one declared meld."""
    if len(deal.fixed) > 1:
        return None
    # A cheap first test on the distinct tiles as a bit mask: one knitted straight held whole.
    kinds = 1 << deal.win
    for t in deal.standing:
        kinds |= 1 << t
    for mask in KNITTED_MASKS:
        if kinds & mask == mask:
            break
    else:
        return None
    counts = [0] * 34
    for t in deal.standing:
        counts[t] += 1
    counts[deal.win] += 1
    win_already_held = counts[deal.win] > 1
    seq = next((s for s in KNITTED_STRAIGHTS if all(counts[t] for t in s)), None)
    if seq is None:
        return None
    for t in seq:
        counts[t] -= 1
    found = divisions(counts, 1 - len(deal.fixed))
    if len(found) != 1:
        return None
    concealed_sets, pair = found[0]
    fourth = deal.fixed[0] if deal.fixed else concealed_sets[0]
    pair_set: Set = (PAIR, pair, False)
    tally = Tally()
    tally.add(F.KNITTED_STRAIGHT, (seq,))
    if fourth[0] == CHOW:
        if pair < 27:
            tally.add(F.ALL_CHOWS)
    else:
        kong_and_pung_fans(tally, [fourth], deal)
    win_condition_fans(tally, deal)
    if not deal.fixed or (fourth[0] == KONG and not fourth[2]):
        tally.add(F.FULLY_CONCEALED_HAND if deal.self_drawn else F.CONCEALED_HAND)
    tiles = [*seq, *_set_tiles(fourth), pair, pair]
    suit_fans(tally, tiles)
    tile_hog_fans(tally, tiles)
    _knitted_wait_fans(tally, deal, seq, counts, fourth, pair_set, win_already_held)
    apply_exclusions(tally)
    if fourth[0] != CHOW:
        wind_fans(tally, [fourth], deal)
    return tally, [*deal.fixed, *concealed_sets, pair_set]


def _knitted_wait_fans(
    tally: Tally,
    deal: Deal,
    seq: tuple[int, ...],
    rest: list[int],
    fourth: Set,
    pair_set: Set,
    held: bool,
) -> None:
    """Edge / Closed / Single Wait of a knitted-straight hand, read from its set and pair.

    `rest` counts the concealed tiles outside the knitted straight, the winning tile included;
    `held` says whether the winning tile was already held once before the win."""
    mode = deal.profile.knitted_waits
    inside = deal.win in seq
    if mode == "none" or (mode == "outside" and inside):
        return
    if deal.fixed:
        # With a declared set, a winning tile outside the knitted straight can only be the
        # pair's; one inside it is the pair's only if another copy was already held.
        if not inside or held:
            tally.add(F.SINGLE_WAIT, (pair_set, deal.win))
        return
    # The reference lists the tiles outside the knitted straight without the winning tile, at
    # most four, and reads the wait from them alone.
    rest = list(rest)
    rest[deal.win] -= 1
    standing = [t for t in range(34) for _ in range(max(rest[t], 0))][:4]
    wait_fans(tally, [fourth, pair_set], standing, deal)


def _set_tiles(s: Set) -> list[int]:
    kind, t, _ = s
    if kind == CHOW:
        return [t - 1, t, t + 1]
    return [t] * (4 if kind == KONG else 3)
