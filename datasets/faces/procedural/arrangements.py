"""Other ways a set lays out its N coins or N sticks: rows of other widths, grids, rings.

Most sets share one arrangement a rank, but not all: some print the 8 of dots as rows of
2-1-2-1-2 or a ring, the 6 of bamboo as two columns of three short canes. A reader that
learned one arrangement a rank reads such a face by its shape, not its count (held-out KDE
faces: 8 dots in rows read 5p, two columns of three canes read 9s). Drawing a share of faces
in another arrangement keeps the count the only thing a rank's faces share.

Each arrangement is a list of (u, v) centres in [0, 1] of the content box, row by row from
the top.
"""

from __future__ import annotations

import math
from functools import lru_cache
from itertools import pairwise

import numpy as np

Placement = list[tuple[float, float]]


def rows_of(widths: list[int], spread_u: float = 0.72, spread_v: float = 0.74) -> Placement:
    """Centred rows, top to bottom, of the given widths."""
    return [
        (u, v)
        for v, width in zip(_spaced(len(widths), spread_v), widths, strict=True)
        for u in _spaced(width, spread_u)
    ]


def _spaced(n: int, spread: float) -> list[float]:
    """n evenly spaced positions spanning `spread`, centred on 0.5 (one alone at 0.5)."""
    if n == 1:
        return [0.5]
    return [float(x) for x in np.linspace(0.5 - spread / 2, 0.5 + spread / 2, n)]


def row_widths(n: int, rng: np.random.Generator, widest: int = 4) -> list[int]:
    """A random split of n into 2-5 rows of 1..widest, symmetric top to bottom when it can
    be (sets print symmetric faces), never two rows of one in a row (it reads as a stick)."""
    options = [w for w in _splits(n, widest) if 2 <= len(w) <= 5 and not _lone_pair(w)]
    symmetric = [w for w in options if w == w[::-1]]
    pool = symmetric if symmetric and rng.random() < 0.8 else options
    return list(pool[int(rng.integers(len(pool)))])


def ring(n: int, rng: np.random.Generator, centre: bool) -> Placement:
    """n placed on an ellipse, one of them in its centre when `centre`."""
    around = n - 1 if centre else n
    start = float(rng.choice([0.0, math.pi / around]))
    placed = []
    for k in range(around):
        a = start + 2 * math.pi * k / around
        placed.append((0.5 + 0.36 * math.sin(a), 0.5 - 0.38 * math.cos(a)))
    if centre:
        placed.append((0.5, 0.5))
    return placed


def other_arrangement(n: int, rng: np.random.Generator, sticks: bool) -> Placement | None:
    """Another arrangement of n coins or sticks, or None where a rank has no other (1, 2,
    and 3 for sticks: their usual arrangement is already the only clear one)."""
    if n < 3 or (sticks and n < 4):
        return None
    kinds = ["rows", "rows"]
    if n >= 5 and not sticks:
        # Not sticks: a ring of sticks looks like the frame round a white dragon (runs X4
        # and W4, trained with stick rings, read held-out KDE white dragons as 7s or 8s;
        # X8 and W8, with sticks laid along the ring, read them as 8s 69 times in 600 wins).
        kinds.append("ring")
    kind = kinds[int(rng.integers(len(kinds)))]
    if kind == "ring":
        return ring(n, rng, centre=n >= 7 and rng.random() < 0.5)
    widths = row_widths(n, rng, widest=3 if sticks else 4)
    spread_u = float(rng.uniform(0.55, 0.8)) if max(widths) > 2 else float(rng.uniform(0.4, 0.6))
    return rows_of(widths, spread_u, float(rng.uniform(0.62, 0.8)))


@lru_cache(maxsize=64)
def _splits(n: int, widest: int) -> list[tuple[int, ...]]:
    if n == 0:
        return [()]
    return [(w, *rest) for w in range(1, min(n, widest) + 1) for rest in _splits(n - w, widest)]


def _lone_pair(widths: tuple[int, ...]) -> bool:
    return any(a == b == 1 for a, b in pairwise(widths))
