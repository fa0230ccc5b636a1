"""What a hand one tile short of a win waits on (听牌), and what each win on it would score.

`winning_tiles` is the shape search alone: the tiles that complete 13 tiles into any MCR
winning shape, never as a fifth copy of a tile. `waits` scores the win on each of them on a
discard and self-drawn; `discards` does that for each tile a 14-tile hand could let go.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from .hand import Hand, Waiting
from .record import Record
from .score import Score, score
from .shapes import basic_waits, is_complete, seven_pairs_waits
from .tile_index import CODES, INDEX, KNITTED_STRAIGHTS, THIRTEEN_ORPHANS
from .tiles import COPIES, PLAYING

ORDER = {code: i for i, code in enumerate(PLAYING)}  # answers list tiles in DESIGN.md's order
ORPHANS = frozenset(THIRTEEN_ORPHANS)


class Wait(Record):
    """One tile that completes the hand, and the win on it both ways.

    `unseen` counts the copies not among the hand's own tiles and melds (4 less those); a
    score under the rule set's minimum (MCR: 8 points, flowers aside) has
    `meets_minimum` false, and one the rule set refuses has `valid` false."""

    FIELDS = ("tile", "unseen", "discard", "self_drawn")
    __slots__ = FIELDS
    tile: str
    unseen: int
    discard: Score  # won on another player's discard
    self_drawn: Score  # drawn from the wall

    def __init__(self, tile: str, unseen: int, discard: Score, self_drawn: Score) -> None:
        _set = object.__setattr__
        _set(self, "tile", tile)
        _set(self, "unseen", unseen)
        _set(self, "discard", discard)
        _set(self, "self_drawn", self_drawn)

    def to_json(self) -> dict[str, Any]:
        return {
            "tile": self.tile,
            "unseen": self.unseen,
            "discard": self.discard.to_json(),
            "self_drawn": self.self_drawn.to_json(),
        }


class Discard(Record):
    """A tile a 14-tile hand can let go to be left waiting, with what it then waits on."""

    FIELDS = ("tile", "waits")
    __slots__ = FIELDS
    tile: str
    waits: tuple[Wait, ...]

    def __init__(self, tile: str, waits: tuple[Wait, ...]) -> None:
        object.__setattr__(self, "tile", tile)
        object.__setattr__(self, "waits", waits)

    @property
    def unseen(self) -> int:
        """The copies left to win on, all waits together."""
        return sum(w.unseen for w in self.waits)

    def to_json(self) -> dict[str, Any]:
        return {
            "tile": self.tile,
            "unseen": self.unseen,
            "waits": [w.to_json() for w in self.waits],
        }


def completing(counts: list[int], melds: int) -> set[int]:
    """Tiles (`tile_index` numbers) that complete the concealed `counts`, beside `melds`
    declared sets, into a winning shape; a fifth copy of a tile is not ruled out here.

    Four sets and a pair always; a knitted straight with a set and a pair (组合龙) with at most
    one declared set; seven pairs, thirteen orphans and the knitted hands (全不靠) only with
    none, as they are fully concealed."""
    found = set(basic_waits(counts))
    if melds <= 1:
        found.update(_knitted_straight_waits(counts))
    if melds == 0:
        found.update(seven_pairs_waits(counts))
        found.update(_thirteen_orphans_waits(counts))
        found.update(_honors_and_knitted_waits(counts))
    return found


def _knitted_straight_waits(counts: list[int]) -> list[int]:
    """组合龙: the nine tiles of one knitted straight, the rest a set and a pair (a pair beside
    a declared set). The winning tile is either the straight's one missing tile or one that
    completes the rest."""
    found: list[int] = []
    for seq in KNITTED_STRAIGHTS:
        missing = [t for t in seq if not counts[t]]
        if len(missing) > 1:
            continue
        rest = list(counts)
        for t in seq:
            if rest[t]:
                rest[t] -= 1
        if not missing:
            found += basic_waits(rest)
        elif is_complete(rest):
            found.append(missing[0])
    return found


def _thirteen_orphans_waits(counts: list[int]) -> list[int]:
    """十三幺: all thirteen terminals and honors held once wait on any of them; twelve of them
    with one paired wait on the missing one."""
    if any(counts[t] for t in range(34) if t not in ORPHANS):
        return []
    missing = [t for t in THIRTEEN_ORPHANS if not counts[t]]
    if not missing:
        return list(THIRTEEN_ORPHANS)
    return missing if len(missing) == 1 else []


def _honors_and_knitted_waits(counts: list[int]) -> list[int]:
    """全不靠 / 七星不靠: fourteen different tiles, honors and tiles of one knitted straight,
    7-9 of them suited. Thirteen different such tiles wait on the ones missing."""
    if max(counts) > 1:
        return []
    suited = {t for t in range(27) if counts[t]}
    for seq in KNITTED_STRAIGHTS:
        if suited <= set(seq):
            pool = [*seq, *range(27, 34)]
            return [t for t in pool if not counts[t] and 7 <= len(suited) + (t < 27) <= 9]
    return []


def _counts(tiles: tuple[str, ...]) -> list[int]:
    counts = [0] * 34
    for code in tiles:
        counts[INDEX[code]] += 1
    return counts


def winning_tiles(hand: Waiting) -> tuple[str, ...]:
    """The tiles that complete a 13-tile hand, in tile order; a tile whose four copies are all
    in the hand already cannot be won on, so it is no wait.

    Example:
        >>> from scoring.notation import read_notation
        >>> winning_tiles(read_notation("1112345678999m"))  # 九莲宝灯
        ('1m', '2m', '3m', '4m', '5m', '6m', '7m', '8m', '9m')
    """
    counts = _counts(hand.concealed)
    in_hand = list(counts)
    for meld in hand.melds:
        for code in meld.tiles:
            in_hand[INDEX[code]] += 1
    found = [CODES[t] for t in completing(counts, len(hand.melds)) if in_hand[t] < COPIES]
    return tuple(sorted(found, key=ORDER.__getitem__))


def waits(hand: Waiting, ruleset: str = "mcr") -> tuple[Wait, ...]:
    """Each tile the hand waits on, with the win on it by discard and by self-draw scored under
    `ruleset`. A rule set other than MCR may refuse a win MCR takes (Sichuan wants a suit
    missing, ...): a tile it refuses both ways is no wait there.

    Example:
        >>> from scoring.notation import read_notation
        >>> [(w.tile, w.unseen, w.discard.total) for w in waits(read_notation("123456789m1234p"))]
        [('1p', 3, 21), ('4p', 3, 22)]
    """
    in_hand = Counter(hand.concealed)
    for meld in hand.melds:
        in_hand.update(meld.tiles)
    candidates = winning_tiles(hand)
    if hand.table.wild:  # 会 (wild) tiles stand for any tile: the shape search cannot tell
        candidates = tuple(code for code in PLAYING if in_hand[code] < COPIES)
    found = []
    for code in candidates:
        on_discard = score(hand.won_on(code, self_drawn=False), ruleset)
        on_draw = score(hand.won_on(code, self_drawn=True), ruleset)
        if on_discard.valid or on_draw.valid:
            found.append(Wait(code, COPIES - in_hand[code], on_discard, on_draw))
    return tuple(found)


def score_waiting(hand: Waiting, ruleset: str = "mcr") -> Score:
    """The Score JSON answer for a hand of 13 tiles: not a win (`valid` false), with `waits`."""
    found = waits(hand, ruleset)
    if found:
        error = f"not a win yet: 13 tiles waiting on {' '.join(w.tile for w in found)}"
    elif shaped := winning_tiles(hand):  # a win in shape that this rule set refuses
        refused = score(hand.won_on(shaped[0], self_drawn=False), ruleset)
        error = f"not a win yet, and {ruleset} takes no win on {' '.join(shaped)}: {refused.error}"
    else:
        error = "not a win yet, and no tile completes these 13 tiles"
    return Score(ruleset=ruleset, valid=False, error=error, waits=found)


def is_winning_shape(hand: Hand) -> bool:
    """Whether the 14 tiles form an MCR winning shape, whatever they score."""
    return INDEX[hand.winning_tile] in completing(_counts(hand.concealed), len(hand.melds))


def discards(hand: Hand, ruleset: str = "mcr") -> tuple[Discard, ...]:
    """For 14 tiles: each tile whose discard leaves the hand waiting, with its waits, the most
    copies left to win on first (then in tile order). The winning tile counts as held; the
    context that holds for any win (winds, flowers, last tile of the wall) is kept."""
    held = [*hand.concealed, hand.winning_tile]
    found = []
    for code in sorted(set(held), key=ORDER.__getitem__):
        rest = list(held)
        rest.remove(code)
        waiting = Waiting(
            hand.melds, tuple(rest), hand.seat_wind, hand.prevalent_wind, hand.flowers,
            hand.flower_count, hand.last_of_wall,
        )  # fmt: skip
        left = waits(waiting, ruleset)
        if left:
            found.append(Discard(code, left))
    found.sort(key=lambda d: -d.unseen)
    return tuple(found)


def advise(hand: Hand, ruleset: str = "mcr") -> tuple[Discard, ...] | None:
    """`discards` for 14 tiles that form no winning shape; None when they form one (a win
    the rule set refused for another reason, or one under the minimum, needs no discard)."""
    return None if is_winning_shape(hand) else discards(hand, ruleset)
