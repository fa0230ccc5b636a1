"""Wild tiles (Beijing's 会): which tiles they could stand for in a hand.

A 会 among the concealed tiles or the winning tile stands for any tile; one in a declared
meld is its own face. Rather than all 34 faces, each 会 but the last is tried as the faces a
set could want beside the hand's other hidden tiles (the same tile, or two ranks either way
in its suit; with every hidden tile wild, any face), and the last only as the tiles that then
complete a winning shape.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations_with_replacement

from scoring.hand import Hand
from scoring.tile_index import CODES, INDEX
from scoring.tiles import PLAYING, SUITED
from scoring.waits import completing


def wild_count(hand: Hand) -> int:
    """The 会 among the hand's concealed tiles and its winning tile."""
    wild = hand.table.wild
    if not wild:
        return 0
    return sum(t in wild for t in (*hand.concealed, hand.winning_tile))


def _faces_near(tiles: list[str]) -> list[str]:
    """The faces a set could want beside `tiles`, in tile order."""
    near: set[str] = set()
    for t in tiles:
        near.add(t)
        if t in SUITED:
            rank, suit = int(t[0]), t[1]
            near.update(f"{r}{suit}" for r in range(max(1, rank - 2), min(9, rank + 2) + 1))
    return [t for t in PLAYING if t in near] or list(PLAYING)


def stand_ins(hand: Hand) -> Iterator[Hand]:
    """The hand itself when it holds no 会, else each hand its 会 could stand for (the
    winning tile's stand-in as the winning tile)."""
    wild = hand.table.wild
    if not wild_count(hand):
        yield hand
        return
    real = [t for t in hand.concealed if t not in wild]
    jokers = len(hand.concealed) - len(real)
    win_is_wild = hand.winning_tile in wild
    faces = _faces_near(real + ([] if win_is_wild else [hand.winning_tile]))
    seen: set[tuple[tuple[str, ...], str]] = set()
    fixed = real if win_is_wild else [*real, hand.winning_tile]
    for first in combinations_with_replacement(faces, jokers + win_is_wild - 1):
        counts = [0] * 34
        for code in (*fixed, *first):
            counts[INDEX[code]] += 1
        for last in completing(counts, len(hand.melds)):
            chosen = [*first, CODES[last]]
            for win in sorted(set(chosen)) if win_is_wild else [hand.winning_tile]:
                rest = list(chosen)
                if win_is_wild:
                    rest.remove(win)
                concealed = tuple(sorted((*real, *rest)))
                if (concealed, win) not in seen:
                    seen.add((concealed, win))
                    yield hand.replace(concealed=concealed, winning_tile=win)
