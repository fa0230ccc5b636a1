"""A plain MCR win as Hand JSON straight to the scorer's numbers (`Deal`), for the stream.

Most hands a client sends are plain: known keys, legal melds and tile codes, no table facts,
and flags that hold together (Last Tile, a kong's replacement tile and a robbed kong are
checked against the tiles as `parse.check_flags` checks them). `plain_deal` reads such a hand
in one pass, without building the `Hand` the full parser (`parse.py`) builds and checks;
anything else, and any doubt, answers None and the hand takes the full parser, which names
what is wrong. A hand read here is a hand the full parser accepts, turned into the same
`Deal` (tests/scoring/test_plain.py).
"""

from __future__ import annotations

from typing import Final

from .deal import Deal, fixed_set
from .hand import HandError
from .parse import KEYS, ORDER, checked_meld, meld_key, read_flowers
from .profiles import Profile
from .rulesets import RULESETS
from .shapes import CHOW, KONG, Set
from .table import TABLE_KEYS
from .tile_index import INDEX
from .tiles import COPIES, FLOWERS, WINDS

# The keys of a plain win: any of Hand JSON's but the table facts.
PLAIN_KEYS: Final = frozenset(KEYS - TABLE_KEYS)
FLOWER_SET: Final = frozenset(FLOWERS)


class PlainWin:
    """A plain win read from its Hand JSON: the Deal, and what the Score needs besides."""

    def __init__(self, deal: Deal, flowers: tuple[str, ...], flower_count: int) -> None:
        self.deal = deal
        self.flowers = flowers
        self.flower_count = flower_count


def plain_deal(data: dict[str, object], profile: Profile) -> PlainWin | None:
    """The Deal of a plain win, or None: not plain, or not valid (the full parser says why)."""
    for key in data:
        if key not in PLAIN_KEYS:
            return None
    named = data.get("ruleset")
    if named is not None and (type(named) is not str or named not in RULESETS):
        return None
    self_drawn = data.get("self_drawn", False)
    wall_last = data.get("last_of_wall", False)
    last_tile = data.get("last_tile", False)
    replacement = data.get("kong_replacement", False)
    robbing = data.get("robbing_kong", False)
    for flag in (self_drawn, wall_last, last_tile, replacement, robbing):
        if flag is not True and flag is not False:
            return None
    seat, prevalent = data.get("seat_wind", "E"), data.get("prevalent_wind", "E")
    if type(seat) is not str or seat not in WINDS:
        return None
    if type(prevalent) is not str or prevalent not in WINDS:
        return None
    win_code = data.get("winning_tile")
    concealed = data.get("concealed")
    melds_value = data.get("melds", [])
    if type(win_code) is not str or win_code not in ORDER or type(concealed) is not list:
        return None
    if type(melds_value) is not list or len(melds_value) > 4:
        return None
    if 3 * len(melds_value) + len(concealed) != 13:
        return None
    counts = [0] * 34
    win = INDEX[win_code]
    counts[win] = 1
    standing: list[int] = []
    for code in concealed:
        if type(code) is not str:
            return None
        t = INDEX.get(code, -1)  # the 34 playing tiles' codes
        if t < 0:
            return None
        counts[t] += 1
        standing.append(t)
    win_held = counts[win] > 1  # a copy of the winning tile among the concealed ones
    fixed: list[Set] = []
    win_in_melds = 0
    has_kong = False
    for value in melds_value:
        s = _known_meld(value)
        if s is None:
            return None
        fixed.append(s)
        kind, t, _ = s
        if kind == CHOW:
            counts[t - 1] += 1
            counts[t] += 1
            counts[t + 1] += 1
            if t - 1 <= win <= t + 1:
                win_in_melds += 1
        else:
            n = 3
            if kind == KONG:
                n = 4
                has_kong = True
            counts[t] += n
            if t == win:
                win_in_melds += n
    for n in counts:
        if n > COPIES:
            return None
    if (last_tile or replacement or robbing) and not _flags_hold(
        self_drawn, wall_last, last_tile, replacement, robbing, win_held, win_in_melds, has_kong
    ):
        return None
    flowers_value = data.get("flowers", 0)
    if type(flowers_value) is int and 0 <= flowers_value <= 8:  # counted, not named
        flowers: tuple[str, ...] = ()
        flower_count = flowers_value
    elif type(flowers_value) is list and len(flowers_value) <= 8:  # named: each once
        for name in flowers_value:
            if type(name) is not str or name not in FLOWER_SET:
                return None
        flowers = tuple(flowers_value)
        flower_count = len(flowers)
        if len(set(flowers)) != flower_count:
            return None
    else:
        try:
            flowers, flower_count = read_flowers(flowers_value)
        except HandError:
            return None
    standing.sort()
    deal = Deal(
        fixed=tuple(fixed),
        standing=tuple(standing),
        win=win,
        self_drawn=self_drawn is True,
        # three copies in one's own melds: the last of its kind
        last_tile=last_tile is True or win_in_melds == 3,
        wall_last=wall_last is True,
        about_kong=replacement is True or robbing is True,
        seat=INDEX[seat],
        prevalent=INDEX[prevalent],
        flowers=flower_count,
        profile=profile,
    )
    return PlainWin(deal, flowers, flower_count)


def _flags_hold(
    self_drawn: object,
    wall_last: object,
    last_tile: object,
    replacement: object,
    robbing: object,
    win_held: bool,
    win_in_melds: int,
    has_kong: bool,
) -> bool:
    """Whether the flags that need the tiles hold together, as `parse.check_flags` asks: a
    robbed kong's tile is held nowhere else and not self-drawn nor the wall's last; a
    replacement tile is self-drawn beside a kong; the last tile is not held already."""
    if robbing is True and (self_drawn is True or win_held or win_in_melds or wall_last is True):
        return False
    if replacement is True and (self_drawn is not True or not has_kong):
        return False
    return not (last_tile is True and win_held)


def _known_meld(value: object) -> Set | None:
    """The set of a meld, checked by the full parser's meld check (remembered there); None
    for a meld it refuses, left to the full parser to name."""
    key = meld_key(value)
    if key is None:
        return None
    try:
        found = _SETS.get(key)
    except TypeError:  # something unhashable
        return None
    if found is None:
        try:
            meld = checked_meld(value)
        except (HandError, TypeError, ValueError, LookupError, AttributeError):
            return None
        found = _SETS[key] = fixed_set(meld)
    return found


_SETS: Final[dict[tuple[object, ...], Set]] = {}
