"""A hand turned into numbers for the scorer: declared sets, concealed tiles, the win."""

from __future__ import annotations

from typing import Final

from .hand import Hand, Meld
from .profiles import Profile
from .shapes import CHOW, KONG, PAIR, PUNG, Set
from .tile_index import CODES, INDEX

WIND_OF: Final = {"E": INDEX["E"], "S": INDEX["S"], "W": INDEX["W"], "N": INDEX["N"]}


class Deal:
    """Built once per hand and never changed. A plain class with its own __init__: mypyc
    compiles it, where a dataclass's generated __init__ would stay interpreted."""

    def __init__(
        self,
        fixed: tuple[Set, ...],
        standing: tuple[int, ...],
        win: int,
        self_drawn: bool,
        last_tile: bool,
        wall_last: bool,
        about_kong: bool,
        seat: int,
        prevalent: int,
        flowers: int,
        profile: Profile,
    ) -> None:
        self.fixed = fixed  # declared melds; a concealed kong is not `melded`
        self.standing = standing  # concealed tiles without the winning tile
        self.win = win
        self.self_drawn = self_drawn
        self.last_tile = last_tile
        self.wall_last = wall_last
        self.about_kong = about_kong  # kong replacement when self-drawn, robbing one otherwise
        self.seat = seat
        self.prevalent = prevalent
        self.flowers = flowers
        self.profile = profile

    def standing_counts(self) -> list[int]:
        counts = [0] * 34
        for t in self.standing:
            counts[t] += 1
        return counts

    def melded_count(self) -> int:
        n = 0
        for s in self.fixed:  # a loop, not a generator: compiled, no generator object
            if s[2]:
                n += 1
        return n


def deal_from_hand(hand: Hand, profile: Profile) -> Deal:
    fixed = [fixed_set(meld) for meld in hand.melds]
    win = INDEX[hand.winning_tile]
    # Three copies of the winning tile in one's own melds make it the last of its kind.
    in_melds = sum(m.tiles.count(hand.winning_tile) for m in hand.melds)
    return Deal(
        fixed=tuple(fixed),
        standing=tuple(sorted(INDEX[c] for c in hand.concealed)),
        win=win,
        self_drawn=hand.self_drawn,
        last_tile=hand.last_tile or in_melds == 3,
        wall_last=hand.last_of_wall,
        about_kong=hand.kong_replacement or hand.robbing_kong,
        seat=WIND_OF[hand.seat_wind],
        prevalent=WIND_OF[hand.prevalent_wind],
        flowers=hand.flower_count,
        profile=profile,
    )


def fixed_set(meld: Meld) -> Set:
    """A declared meld as a set (melds are few and repeat: remembered)."""
    found = _FIXED.get(meld)
    if found is None:
        tiles = sorted(INDEX[c] for c in meld.tiles)
        if meld.kind == "chow":
            found = (CHOW, tiles[1], True)
        else:
            found = (PUNG if meld.kind == "pung" else KONG, tiles[0], not meld.concealed)
        _FIXED[meld] = found
    return found


_FIXED: Final[dict[Meld, Set]] = {}


def set_text(s: Set) -> str:
    """A set in the compact notation: 234m, EEE, 9999p, 55s."""
    kind, t, _ = s
    return _SET_TEXTS[kind * 34 + t]


def _set_text(kind: int, t: int) -> str:
    code = CODES[t]
    if kind == CHOW:
        r = int(code[0])
        return f"{r - 1}{r}{r + 1}{code[1]}"
    n = {PUNG: 3, KONG: 4}.get(kind, 2)
    if t < 27:
        return code[0] * n + code[1]
    return code * n


# Every set's text, at kind * 34 + tile (a chow only where one can be: its middle tile).
_SET_TEXTS: Final[list[str]] = [
    "" if kind == CHOW and (t >= 27 or t % 9 in (0, 8)) else _set_text(kind, t)
    for kind in range(PAIR + 1)
    for t in range(34)
]
