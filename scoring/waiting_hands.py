"""Seeded generator of hands one tile short of a win (13 tiles), for the waits tests and
benchmark.

A waiting hand is a legal win with one of its concealed tiles taken away, so it waits at
least on that tile. The wins come from `generate.random_hand` (every regular shape, melds
and kongs, flowers) and, at a fixed share, from the special shapes built here: seven pairs,
thirteen orphans, honors-and-knitted and a knitted straight with a set and a pair, concealed
or beside one meld. `near_hands` then swaps one tile of such a hand at random, which mostly
leaves it no longer waiting: the other side of the comparison.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from itertools import permutations
from typing import Any

from scoring.generate import random_hand
from scoring.tiles import COPIES, HONORS, PLAYING, SUITS, WINDS

Json = dict[str, Any]
ORDER = {tile: i for i, tile in enumerate(PLAYING)}
ORPHANS = (*(f"{r}{s}" for s in SUITS for r in (1, 9)), *HONORS)
KNITTED = tuple(
    tuple(f"{r}{suit}" for ranks, suit in zip(((1, 4, 7), (2, 5, 8), (3, 6, 9)), suits, strict=True)
          for r in ranks)
    for suits in permutations(SUITS)
)  # fmt: skip
CHOWS = tuple(tuple(f"{r + i}{s}" for i in range(3)) for s in SUITS for r in range(1, 8))
SIDES = ("left", "opposite", "right")


def _seven_pairs(rng: random.Random) -> list[str]:
    if rng.random() < 0.3:  # one suit, often shifted pairs: many waits at once
        suit = rng.choice(SUITS)
        pool = [f"{r}{suit}" for r in range(1, 10)]
    else:
        pool = list(PLAYING)
    return [t for t in rng.choices(pool, k=7) for _ in range(2)]  # a repeat is four of a kind


def _thirteen_orphans(rng: random.Random) -> list[str]:
    return [*ORPHANS, rng.choice(ORPHANS)]


def _honors_and_knitted(rng: random.Random) -> list[str]:
    honors = rng.randint(5, 7)
    return rng.sample(rng.choice(KNITTED), 14 - honors) + rng.sample(HONORS, honors)


def _knitted_straight(rng: random.Random) -> tuple[list[Json], list[str]]:
    """组合龙 + a set + a pair; the set concealed, or declared as a meld (a kong always)."""
    tiles = [*rng.choice(KNITTED), *[rng.choice(PLAYING)] * 2]
    if rng.random() < 0.5:
        group = list(rng.choice(CHOWS))
        meld: Json = {"type": "chow", "tiles": group, "claimed_from": "left"}
    else:
        group = [rng.choice(PLAYING)] * 3
        meld = {"type": "pung", "tiles": group, "claimed_from": rng.choice(SIDES)}
        if rng.random() < 0.3:
            group = [*group, group[0]]
            meld = {"type": "kong", "tiles": group, "concealed": rng.random() < 0.5}
    if meld["type"] != "kong" and rng.random() < 0.65:
        return [], tiles + group
    return [meld], tiles


SPECIALS = (_seven_pairs, _thirteen_orphans, _honors_and_knitted)


def _win(rng: random.Random) -> tuple[list[Json], list[str], Json]:
    """Melds, the fourteen-or-fewer held tiles (the winning one among them) and the context."""
    context: Json = {"seat_wind": rng.choice(WINDS), "prevalent_wind": rng.choice(WINDS)}
    if rng.random() < 0.05:
        context["last_of_wall"] = True
    roll = rng.random()
    if roll < 0.7:
        hand = random_hand(rng)
        context |= {k: hand[k] for k in ("seat_wind", "prevalent_wind", "flowers")}
        return hand["melds"], [*hand["concealed"], hand["winning_tile"]], context
    if roll < 0.85:
        melds, held = _knitted_straight(rng)
    else:
        melds, held = [], rng.choice(SPECIALS)(rng)
    return melds, held, context


def waiting_hand(rng: random.Random) -> Json:
    """A legal hand of 13 tiles (Hand JSON without a winning tile) that waits on at least
    the tile taken from a win."""
    while True:
        melds, held, context = _win(rng)
        everything = held + [t for m in melds for t in m["tiles"]]
        if max(Counter(everything).values()) > COPIES:
            continue
        held.remove(rng.choice(held))
        return {"melds": melds, "concealed": sorted(held, key=ORDER.__getitem__), **context}


def waiting_hands(seed: int, n: int) -> Iterator[Json]:
    """`n` waiting hands from one seed; the same seed gives the same hands everywhere."""
    rng = random.Random(seed)
    for _ in range(n):
        yield waiting_hand(rng)


def near_hands(seed: int, n: int) -> Iterator[Json]:
    """`n` waiting hands with one concealed tile swapped for another: most wait no more."""
    rng = random.Random(seed)
    while n:
        hand = waiting_hand(rng)
        held = list(hand["concealed"])
        held[rng.randrange(len(held))] = rng.choice(PLAYING)
        everything = held + [t for m in hand["melds"] for t in m["tiles"]]
        if max(Counter(everything).values()) > COPIES:
            continue
        n -= 1
        yield hand | {"concealed": sorted(held, key=ORDER.__getitem__)}
