"""MCR scoring of one hand: every reading of it, scored fan by fan, the highest kept.

The flow follows the reference calculator (PyMahjongGB 1.4.0, after Jeff Wang's
ChineseOfficialMahjongHelper) step for step, so that profile `mcr-mil` agrees with it exactly:
sets first, then the hand as a whole, then the wait, then the principles, then the winds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from . import fan_ids as F
from .combos import chow_fans, pung_fans
from .deal import Deal
from .fan_table import ROWS
from .shapes import CHOW, KONG, PAIR, PUNG, Set, only_winning_tile, tile_divisions
from .tally import NON_REPEAT, Tally
from .tile_index import DRAGON_TILES, EAST, NORTH, RED, WIND_TILES
from .traits import Added, add_all, whole_hand_fans

# How many Pungs of Terminals or Honors a fan takes back instead of all of them.
PARTIAL_EXCLUSION: Final[dict[tuple[int, int], int]] = {
    (F.NINE_GATES, F.PUNG_OF_TERMINALS_OR_HONORS): 1,
    (F.BIG_THREE_WINDS, F.PUNG_OF_TERMINALS_OR_HONORS): 3,
}
PARTIAL_FAN: Final = F.PUNG_OF_TERMINALS_OR_HONORS  # the one fan taken back in part
EXCLUDES: Final = {fan: row.excludes for fan, row in ROWS.items()}
# The same by fan id in a list, for the inner loop (an index, not a hash).
EXCLUDED_BY: Final[list[tuple[int, ...]]] = [EXCLUDES.get(fan, ()) for fan in range(max(ROWS) + 1)]
CONCEALED_PUNG_FANS: Final = {
    2: F.TWO_CONCEALED_PUNGS,
    3: F.THREE_CONCEALED_PUNGS,
    4: F.FOUR_CONCEALED_PUNGS,
}


def win_condition_fans(tally: Tally, deal: Deal) -> None:
    """和绝张, 妙手回春 / 海底捞月, 杠上开花 / 抢杠和, 自摸."""
    if deal.last_tile:
        tally.add(F.LAST_TILE, (deal.win,))
    if deal.wall_last:
        tally.add(F.LAST_TILE_DRAW if deal.self_drawn else F.LAST_TILE_CLAIM, (deal.win,))
    if deal.about_kong:
        tally.add(
            F.OUT_WITH_REPLACEMENT_TILE if deal.self_drawn else F.ROBBING_THE_KONG, (deal.win,)
        )
    if deal.self_drawn:
        tally.add(F.SELF_DRAWN, (deal.win,))


def kong_and_pung_fans(tally: Tally, pungs: Sequence[Set], deal: Deal) -> None:
    """Kongs, concealed pungs, All Pungs, and each pung's own fan (箭刻, 幺九刻)."""
    concealed: list[Set] = []
    kongs = 0
    for s in pungs:  # one pass: most hands hold no kong
        if not s[2]:
            concealed.append(s)
        if s[0] == KONG:
            kongs += 1
    if kongs:
        _kong_fans(tally, pungs, deal, kongs)
    # Two concealed kongs alone already are two concealed sets: no Two Concealed Pungs on top.
    if not (kongs == 2 and len(concealed) == 2 and all(s[0] == KONG for s in concealed)):
        fan = CONCEALED_PUNG_FANS.get(len(concealed))
        if fan is not None:
            tally.add(fan, tuple(concealed))
    if len(pungs) == 4:
        tally.add(F.ALL_PUNGS, tuple(pungs))
    for s in pungs:
        t = s[1]
        if t >= RED:  # a dragon
            tally.add(F.DRAGON_PUNG, (s,))
        elif t >= EAST or t % 9 == 0 or t % 9 == 8:  # a wind or a terminal
            tally.add(F.PUNG_OF_TERMINALS_OR_HONORS, (s,))


def _kong_fans(tally: Tally, pungs: Sequence[Set], deal: Deal, kongs: int) -> None:
    """The kong fans of `kong_and_pung_fans`, for a hand with `kongs` kongs."""
    melded_kongs = [s for s in pungs if s[0] == KONG and s[2]]
    concealed_kongs = [s for s in pungs if s[0] == KONG and not s[2]]
    if kongs == 1:
        tally.add(
            F.MELDED_KONG if melded_kongs else F.CONCEALED_KONG,
            tuple(melded_kongs or concealed_kongs),
        )
    elif kongs == 2 and len(concealed_kongs) == 1:
        both = (*concealed_kongs, *melded_kongs)
        if deal.profile.concealed_and_melded_kong_fan:
            tally.add(F.CONCEALED_AND_MELDED_KONG, both)
        else:
            tally.add(F.CONCEALED_KONG, tuple(concealed_kongs))
            tally.add(F.MELDED_KONG, tuple(melded_kongs))
    elif kongs == 2:
        both_fan = F.TWO_CONCEALED_KONGS if concealed_kongs else F.TWO_MELDED_KONGS
        tally.add(both_fan, tuple(melded_kongs or concealed_kongs))
        single = F.CONCEALED_KONG if concealed_kongs else F.MELDED_KONG
        tally.dropped_inner(single, both_fan, NON_REPEAT)
    elif kongs >= 3:
        big = F.THREE_KONGS if kongs == 3 else F.FOUR_KONGS
        tally.add(big, tuple(s for s in pungs if s[0] == KONG))
        # the smaller kong fans its kongs would form are implied, not counted
        for smaller, present in (
            (F.THREE_KONGS, kongs == 4),
            (F.TWO_MELDED_KONGS, len(melded_kongs) >= 2),
            (F.TWO_CONCEALED_KONGS, len(concealed_kongs) >= 2),
            (F.MELDED_KONG, len(melded_kongs) == 1),
            (F.CONCEALED_KONG, len(concealed_kongs) == 1),
        ):
            if present:
                tally.dropped_inner(smaller, big, NON_REPEAT)


def terminal_chows(chows: Sequence[Set], pair: int) -> int | None:
    """一色双龙会 / 三色双龙会: 123 and 789 chows around a pair of 5."""
    if pair >= 27 or pair % 9 != 4:
        return None
    pair_suit = pair // 9
    ends = sorted((s[1] // 9, s[1] % 9) for s in chows)
    if any(r not in (1, 7) for _, r in ends):
        return None
    if all(su == pair_suit for su, _ in ends) and sorted(r for _, r in ends) == [1, 1, 7, 7]:
        return F.PURE_TERMINAL_CHOWS
    others = sorted({0, 1, 2} - {pair_suit})
    if ends == [(others[0], 1), (others[0], 7), (others[1], 1), (others[1], 7)]:
        return F.THREE_SUITED_TERMINAL_CHOWS
    return None


def is_nine_gates(standing: Sequence[int]) -> bool:
    """九莲宝灯: the 13 tiles held before the win are 1112345678999 of one suit."""
    if len(standing) != 13 or standing[0] >= 27 or standing[0] // 9 != standing[-1] // 9:
        return False
    counts = [0] * 9
    for t in standing:
        counts[t % 9] += 1
    return counts == [3, 1, 1, 1, 1, 1, 1, 1, 3]


def concealment_fans(tally: Tally, deal: Deal) -> None:
    """门前清 / 不求人 with nothing exposed (a concealed kong is not), 全求人 with four melds."""
    melded = deal.melded_count()
    if melded == 0:
        tally.add(F.FULLY_CONCEALED_HAND if deal.self_drawn else F.CONCEALED_HAND)
    elif melded == 4 and not deal.self_drawn:
        tally.add(F.MELDED_HAND)


def pair_fans(tally: Tally, chows: Sequence[Set], pungs: Sequence[Set], pair: int) -> None:
    """What the pair completes: 平和 (four chows, a suited pair), 小三元, 小四喜."""
    pair_set: Set = (PAIR, pair, False)
    if len(chows) == 4:
        if pair < 27:
            tally.add(F.ALL_CHOWS)
    elif tally.has(F.TWO_DRAGON_PUNGS):
        if pair in DRAGON_TILES:
            dragons = tuple(s for s in pungs if s[1] in DRAGON_TILES)
            tally.add(F.LITTLE_THREE_DRAGONS, (*dragons, pair_set))
    elif tally.has(F.BIG_THREE_WINDS) and pair in WIND_TILES:
        winds = tuple(s for s in pungs if s[1] in WIND_TILES)
        tally.add(F.LITTLE_FOUR_WINDS, (*winds, pair_set))


def set_trait_fans(tally: Tally, sets: Sequence[Set]) -> None:
    """全带幺 Outside Hand, 全带五 All Five, 全双刻 All Even Pungs: every set and the pair."""
    outside = fives = evens = 0
    for kind, t, _ in sets:
        if t >= 27:
            outside += 1
            continue
        r = t % 9 + 1
        if kind == CHOW:
            outside += r in (2, 8)
            fives += r in (4, 5, 6)
        else:
            outside += r in (1, 9)
            fives += r == 5
            evens += r % 2 == 0
    if outside == 5:
        tally.add(F.OUTSIDE_HAND)
    elif fives == 5:
        tally.add(F.ALL_FIVE)
    elif evens == 5:
        tally.add(F.ALL_EVEN_PUNGS)


def wait_fans(
    tally: Tally, concealed_sets: Sequence[Set], standing: Sequence[int], deal: Deal
) -> None:
    """边张 / 嵌张 / 单钓将, only when exactly one tile could have won."""
    if tally.has(F.MELDED_HAND) or tally.has(F.FOUR_KONGS):
        return
    win = deal.win
    edge = closed = single = None
    for s in concealed_sets:
        kind, t, _ = s
        if kind == CHOW:
            if t == win:
                closed = s
            elif t + 1 == win or t - 1 == win:
                edge = s
        elif kind == PAIR and t == win:
            single = s
    if edge is None and closed is None and single is None:
        return
    # Only now the costlier question: is this the one tile that could have won?
    if not only_winning_tile(standing, not deal.fixed):
        return
    if edge is not None:
        tally.add(F.EDGE_WAIT, (edge, win))
    elif closed is not None:
        tally.add(F.CLOSED_WAIT, (closed, win))
    elif single is not None:
        tally.add(F.SINGLE_WAIT, (single, win))


def apply_exclusions(tally: Tally) -> None:
    """Non-repeat principle: each counted fan, highest first, removes the fans it implies."""
    counts = tally.counts
    for fan in sorted(counts):
        if fan not in counts:
            continue
        for excluded in EXCLUDED_BY[fan]:
            if excluded in counts:
                n = PARTIAL_EXCLUSION.get((fan, excluded)) if excluded == PARTIAL_FAN else None
                tally.drop(excluded, fan, NON_REPEAT, n)


def wind_fans(tally: Tally, pungs: Sequence[Set], deal: Deal) -> None:
    """圈风刻 / 门风刻, each taking back that pung's Pung of Honors unless already taken."""
    for s in pungs:
        if EAST <= s[1] <= NORTH:
            break
    else:  # no pung of a wind (most hands)
        return
    if tally.has(F.BIG_FOUR_WINDS):
        return
    taken = (
        tally.has(F.BIG_THREE_WINDS)
        or tally.has(F.ALL_TERMINALS_AND_HONORS)
        or tally.has(F.ALL_HONORS)
        or tally.has(F.LITTLE_FOUR_WINDS)
    )
    for s in pungs:
        if s[1] not in WIND_TILES:
            continue
        if s[1] == deal.prevalent:
            tally.add(F.PREVALENT_WIND, (s,))
            if not taken:
                tally.drop(F.PUNG_OF_TERMINALS_OR_HONORS, F.PREVALENT_WIND, NON_REPEAT, 1)
        if s[1] == deal.seat:
            tally.add(F.SEAT_WIND, (s,))
            if deal.seat != deal.prevalent and not taken:
                tally.drop(F.PUNG_OF_TERMINALS_OR_HONORS, F.SEAT_WIND, NON_REPEAT, 1)


def all_tiles(sets: Sequence[Set]) -> list[int]:
    tiles: list[int] = []
    for kind, t, _ in sets:
        if kind == CHOW:
            tiles += (t - 1, t, t + 1)
        elif kind == PUNG:
            tiles += (t, t, t)
        elif kind == KONG:
            tiles += (t, t, t, t)
        else:
            tiles += (t, t)
    return tiles


def score_sets(
    deal: Deal, concealed_sets: list[Set], pair: int, whole: Sequence[Added] | None = None
) -> Tally:
    """All fans of one reading as four sets and a pair (the basic shape); `whole`: the hand's
    `whole_hand_fans`, the same for every reading (found here when not given)."""
    tally = Tally()
    win_condition_fans(tally, deal)
    chows: list[Set] = []
    pungs: list[Set] = []
    for s in deal.fixed:
        (chows if s[0] == CHOW else pungs).append(s)
    win = deal.win
    held_by_chow = False  # a concealed chow that the winning tile could complete
    for s in concealed_sets:
        if s[0] == CHOW:
            chows.append(s)
            if abs(s[1] - win) <= 1 and s[1] // 9 == win // 9:
                held_by_chow = True
        else:
            pungs.append(s)
    if not deal.self_drawn and not held_by_chow:
        # Won on a discard that no concealed chow can hold: that pung was completed by the
        # discard and counts as exposed.
        for i, (k, t, m) in enumerate(pungs):  # `pungs` is this reading's own list
            if t == deal.win and not m:
                pungs[i] = (k, t, True)
    if pungs:
        kong_and_pung_fans(tally, pungs, deal)
    pair_set: Set = (PAIR, pair, False)
    terminal = terminal_chows(chows, pair) if len(chows) == 4 else None
    if terminal is not None:
        tally.add(terminal, (*chows, pair_set))
    else:
        chow_fans(tally, chows)
        pung_fans(tally, pungs)
    if is_nine_gates(deal.standing):
        tally.add(F.NINE_GATES)
    concealment_fans(tally, deal)
    pair_fans(tally, chows, pungs, pair)
    sets = [*deal.fixed, *concealed_sets, pair_set]
    set_trait_fans(tally, sets)
    add_all(tally, whole_hand_fans(all_tiles(sets)) if whole is None else whole)
    wait_fans(tally, [*concealed_sets, pair_set], deal.standing, deal)
    apply_exclusions(tally)
    wind_fans(tally, pungs, deal)
    chicken_hand(tally)
    return tally


def chicken_hand(tally: Tally) -> None:
    """无番和: nothing else counted (flowers are added later and do not change it)."""
    if not tally.counts:
        tally.add(F.CHICKEN_HAND)


def basic_readings(deal: Deal) -> list[tuple[Tally, list[Set]]]:
    out: list[tuple[Tally, list[Set]]] = []
    found = tile_divisions((*deal.standing, deal.win), 4 - len(deal.fixed))
    if not found:
        return out
    # Every reading holds the same tiles: a kong's four, the concealed ones and the win.
    whole = whole_hand_fans([*all_tiles(deal.fixed), *deal.standing, deal.win])
    for concealed_sets, pair in found:
        tally = score_sets(deal, concealed_sets, pair, whole)
        out.append((tally, [*deal.fixed, *concealed_sets, (PAIR, pair, False)]))
    return out
