"""Seeded generator of legal winning hands (Hand JSON), for differential tests and benchmarks.

A hand is drawn from a mixture: random structured hands over a themed tile pool (one suit,
terminals, green tiles, ...), templates that plant one multi-set pattern (shifted chows,
mixed straight, four winds, ...), and the special shapes (seven pairs, thirteen orphans,
knitted hands, nine gates). Enough hands reach every one of the 81 fans, rare ones included.
Flags are drawn only where they can hold: see `_flags`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from scoring.tiles import DRAGONS, HONORS, PLAYING, SUITS, WINDS

Meld = tuple[str, tuple[str, ...]]  # ("chow" | "pung", tiles); pungs may become kongs later
Draft = tuple[list[Meld], str]  # four sets and the pair tile
Json = dict[str, Any]
T = TypeVar("T")

ORDER = {tile: i for i, tile in enumerate(PLAYING)}
TERMINALS = frozenset(f"{r}{s}" for s in SUITS for r in (1, 9))
GREEN = frozenset({"2s", "3s", "4s", "6s", "8s", "F"})  # 绿一色
REVERSIBLE = frozenset({"1p", "2p", "3p", "4p", "5p", "8p", "9p"}) | frozenset(
    {"2s", "4s", "5s", "6s", "8s", "9s", "P"}
)  # 推不倒: tiles whose face reads the same upside down
KNITTED = ((1, 4, 7), (2, 5, 8), (3, 6, 9))  # 组合龙 rank groups
FLOWER_CODES = tuple(f"{n}h" for n in range(1, 9))
SIDES = ("left", "opposite", "right")


def _tile(rank: int, suit: str) -> str:
    return f"{rank}{suit}"


def _rank(tile: str) -> int:
    return int(tile[0]) if tile[0].isdigit() else 0


def _chow(rank: int, suit: str) -> Meld:
    return ("chow", tuple(_tile(rank + i, suit) for i in range(3)))


def _pung(tile: str) -> Meld:
    return ("pung", (tile, tile, tile))


ALL_CHOWS = [_chow(r, s) for s in SUITS for r in range(1, 8)]
ALL_PUNGS = [_pung(t) for t in PLAYING]


# --- themes: which sets and pairs a random structured hand may use -------------------------


class Theme:
    """A tile pool with the sets and pairs allowed in it; `chow_share` biases chows vs pungs."""

    def __init__(
        self,
        name: str,
        ok: Callable[[str], bool],
        chow_share: float = 0.5,
        set_ok: Callable[[Meld], bool] | None = None,
        pair_ok: Callable[[str], bool] | None = None,
    ) -> None:
        self.name = name
        keep = set_ok or (lambda meld: all(ok(t) for t in meld[1]))
        self.chows = [m for m in ALL_CHOWS if keep(m)]
        self.pungs = [m for m in ALL_PUNGS if keep(m)]
        self.pairs = [t for t in PLAYING if (pair_ok or (lambda t: ok(t) and keep(_pung(t))))(t)]
        self.chow_share = chow_share if self.chows and self.pungs else float(bool(self.chows))

    def draw_set(self, rng: random.Random) -> Meld:
        pool = self.chows if rng.random() < self.chow_share else self.pungs
        return rng.choice(pool)


def _suited_in(ranks: range) -> Callable[[str], bool]:
    return lambda t: _rank(t) in ranks


def _suit_pool(suit: str, honors: bool) -> Callable[[str], bool]:
    return lambda t: t.endswith(suit) or (honors and t in HONORS)


def _void_pool(suit: str, honors: bool) -> Callable[[str], bool]:
    return lambda t: not t.endswith(suit) and (honors or t not in HONORS)


def _plain(meld: Meld) -> bool:
    return all(t not in HONORS and t not in TERMINALS for t in meld[1])


def _window(low: int, suit: str) -> Callable[[str], bool]:
    return lambda t: low <= _rank(t) < low + 5 and t.endswith(suit)


def _themes() -> list[tuple[Theme, float]]:
    themes: list[tuple[Theme, float]] = [
        (Theme("any", lambda t: True), 6.0),
        (Theme("pungs", lambda t: True, chow_share=0.0), 1.5),
        (Theme("chows", lambda t: _rank(t) > 0, chow_share=1.0), 2.0),
        (Theme("simples", lambda t: 2 <= _rank(t) <= 8), 1.5),
        (Theme("terminals+honors", lambda t: t in TERMINALS or t in HONORS, 0.0), 0.7),
        (Theme("terminals", lambda t: t in TERMINALS, 0.0), 0.5),
        (Theme("honors", lambda t: t in HONORS, 0.0), 0.4),
        (Theme("upper", _suited_in(range(7, 10))), 0.4),
        (Theme("middle", _suited_in(range(4, 7))), 0.4),
        (Theme("lower", _suited_in(range(1, 4))), 0.4),
        (Theme("upper four", _suited_in(range(6, 10))), 0.4),
        (Theme("lower four", _suited_in(range(1, 5))), 0.4),
        (Theme("green", lambda t: t in GREEN), 0.4),
        (Theme("reversible", lambda t: t in REVERSIBLE), 0.4),
        (Theme("even pungs", lambda t: _rank(t) in (2, 4, 6, 8), 0.0), 0.3),
        (
            Theme("fives", lambda t: True, 0.6, set_ok=lambda m: any(_rank(t) == 5 for t in m[1])),
            0.4,
        ),
        (
            Theme(
                "outside",
                lambda t: True,
                0.5,
                set_ok=lambda m: any(t in TERMINALS or t in HONORS for t in m[1]),
            ),
            0.6,
        ),
        # suited sets around an honor pair: the likeliest home of a Chicken Hand (无番和)
        (Theme("honor pair", lambda t: True, 0.7, _plain, lambda t: t in HONORS), 1.0),
    ]
    for low in range(1, 6):  # five ranks of one suit: many overlapping readings to choose from
        themes += [(Theme(f"narrow {low}{suit}", _window(low, suit), 0.6), 0.2) for suit in SUITS]
    for suit in SUITS:
        themes += [
            (Theme(f"flush {suit}", _suit_pool(suit, honors=False)), 0.6),
            (Theme(f"half {suit}", _suit_pool(suit, honors=True)), 0.6),
            (Theme(f"void {suit}", _void_pool(suit, honors=True)), 0.6),
            (Theme(f"two suits no {suit}", _void_pool(suit, honors=False)), 0.3),
        ]
    return themes


THEMES = _themes()


# --- templates: plant one multi-set pattern, fill the rest from a theme -----------------------


def _shifted_chows(rng: random.Random, n: int) -> list[Meld]:
    step = rng.choice((1, 2))
    suit = rng.choice(SUITS)
    start = rng.randint(1, 7 - step * (n - 1))
    return [_chow(start + step * i, suit) for i in range(n)]


def _shifted_pungs(rng: random.Random, n: int) -> list[Meld]:
    suit = rng.choice(SUITS)
    start = rng.randint(1, 10 - n)
    return [_pung(_tile(start + i, suit)) for i in range(n)]


def _three_suits(rng: random.Random) -> list[str]:
    suits = list(SUITS)
    rng.shuffle(suits)
    return suits


def _mixed_chows(rng: random.Random, ranks: tuple[int, int, int]) -> list[Meld]:
    return [_chow(r, s) for r, s in zip(ranks, _three_suits(rng), strict=True)]


def _mixed_shifted_pungs(rng: random.Random) -> list[Meld]:
    start = rng.randint(1, 7)
    return [_pung(_tile(start + i, s)) for i, s in enumerate(_three_suits(rng))]


def _rank_pungs(rng: random.Random, n: int) -> list[Meld]:
    rank = rng.randint(1, 9)
    return [_pung(_tile(rank, s)) for s in _three_suits(rng)[:n]]


def _honor_pungs(rng: random.Random, pool: tuple[str, ...], n: int) -> list[Meld]:
    return [_pung(t) for t in rng.sample(pool, n)]


def _same_chows(rng: random.Random, n: int) -> list[Meld]:
    return [_chow(rng.randint(1, 7), rng.choice(SUITS))] * n


Pattern = Callable[[random.Random], tuple[list[Meld], str | None]]


def _p(sets: Callable[[random.Random], list[Meld]]) -> Pattern:
    return lambda rng: (sets(rng), None)


def _little_winds(rng: random.Random) -> tuple[list[Meld], str | None]:
    winds = list(WINDS)
    rng.shuffle(winds)
    return [_pung(t) for t in winds[:3]], winds[3]


def _little_dragons(rng: random.Random) -> tuple[list[Meld], str | None]:
    dragons = list(DRAGONS)
    rng.shuffle(dragons)
    return [_pung(t) for t in dragons[:2]], dragons[2]


def _terminal_chows(rng: random.Random) -> tuple[list[Meld], str | None]:
    suit = rng.choice(SUITS)  # 一色双龙会: 123 123 789 789 + 55 of one suit
    return [_chow(1, suit), _chow(1, suit), _chow(7, suit), _chow(7, suit)], _tile(5, suit)


def _three_suited_terminal_chows(rng: random.Random) -> tuple[list[Meld], str | None]:
    a, b, c = _three_suits(rng)  # 三色双龙会
    return [_chow(1, a), _chow(7, a), _chow(1, b), _chow(7, b)], _tile(5, c)


PATTERNS: list[tuple[Pattern, float]] = [
    (_p(lambda r: _shifted_chows(r, 3)), 1.0),
    (_p(lambda r: _shifted_chows(r, 4)), 0.4),
    (_p(lambda r: _shifted_pungs(r, 3)), 0.6),
    (_p(lambda r: _shifted_pungs(r, 4)), 0.3),
    (_p(lambda r: [_chow(1, s := r.choice(SUITS)), _chow(4, s), _chow(7, s)]), 0.8),
    (_p(lambda r: _mixed_chows(r, (1, 4, 7))), 0.8),
    (_p(lambda r: _mixed_chows(r, (x := r.randint(1, 7), x, x))), 0.8),
    (_p(lambda r: _mixed_chows(r, (x := r.randint(1, 5), x + 1, x + 2))), 0.8),
    (_p(_mixed_shifted_pungs), 0.6),
    (_p(lambda r: _rank_pungs(r, 3)), 0.6),
    (_p(lambda r: _rank_pungs(r, 2)), 0.6),
    (_p(lambda r: _same_chows(r, 2)), 0.6),
    (_p(lambda r: _same_chows(r, 3)), 0.5),
    (_p(lambda r: _same_chows(r, 4)), 0.3),
    (_p(lambda r: [_chow(x := r.randint(1, 4), s := r.choice(SUITS)), _chow(x + 3, s)]), 0.5),
    (_p(lambda r: [_chow(1, s := r.choice(SUITS)), _chow(7, s)]), 0.5),
    (_p(lambda r: _honor_pungs(r, WINDS, 3)), 0.5),
    (_p(lambda r: _honor_pungs(r, WINDS, 4)), 0.3),
    (_p(lambda r: _honor_pungs(r, DRAGONS, 3)), 0.4),
    (_p(lambda r: _honor_pungs(r, DRAGONS, 2)), 0.5),
    (_little_winds, 0.4),
    (_little_dragons, 0.4),
    (_terminal_chows, 0.2),
    (_three_suited_terminal_chows, 0.3),
]


def _draft(rng: random.Random) -> Draft:
    """Four sets and a pair, from a themed pool or a planted pattern plus random sets."""
    theme: Theme = _pick(rng, THEMES)
    sets: list[Meld] = []
    pair: str | None = None
    if rng.random() < 0.45:
        sets, pair = _pick(rng, PATTERNS)(rng)
        if rng.random() < 0.5:
            theme = THEMES[0][0]  # fill freely around the pattern as often as not
    while len(sets) < 4:
        sets.append(theme.draw_set(rng))
    return sets, pair if pair is not None else rng.choice(theme.pairs)


# --- special shapes: fourteen concealed tiles ----------------------------------------------------


def _seven_pairs(rng: random.Random) -> list[str]:
    if rng.random() < 0.25:  # 连七对
        suit, start = rng.choice(SUITS), rng.randint(1, 3)
        return [_tile(start + i, suit) for i in range(7) for _ in range(2)]
    theme: Theme = _pick(rng, THEMES)
    pool = theme.pairs if len(theme.pairs) >= 4 else list(PLAYING)
    return [t for t in rng.choices(pool, k=7) for _ in range(2)]  # repeats make a tile hog


def _thirteen_orphans(rng: random.Random) -> list[str]:
    orphans = sorted(TERMINALS) + list(HONORS)
    return [*orphans, rng.choice(orphans)]


def _knitted_tiles(rng: random.Random) -> list[str]:
    return [_tile(r, s) for ranks, s in zip(KNITTED, _three_suits(rng), strict=True) for r in ranks]


def _honors_and_knitted(rng: random.Random) -> list[str]:
    honors = 7 if rng.random() < 0.4 else rng.randint(5, 7)  # 7 honors: 七星不靠
    knitted = rng.sample(_knitted_tiles(rng), 14 - honors)
    return knitted + rng.sample(HONORS, honors)


def _nine_gates(rng: random.Random) -> list[str]:
    suit = rng.choice(SUITS)  # 九莲宝灯: 1112345678999 waiting on any tile of the suit
    gates = [_tile(r, suit) for r in (1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9)]
    return [*gates, _tile(rng.randint(1, 9), suit)]


# --- from a draft to a Hand JSON ------------------------------------------------------------------


def _pick(rng: random.Random, weighted: list[tuple[T, float]]) -> T:
    items = [item for item, _ in weighted]
    return rng.choices(items, weights=[weight for _, weight in weighted])[0]


def _legal_counts(tiles: list[str]) -> bool:
    return max(Counter(tiles).values()) <= 4


def _meld_json(kind: str, tiles: tuple[str, ...], exposed: bool, rng: random.Random) -> Json:
    if kind == "chow":  # only the left player's discard can be chowed
        chow: Json = {"type": "chow", "tiles": list(tiles), "claimed_from": "left"}
        if rng.random() < 0.8:  # naming the claimed tile is optional in Hand JSON
            chow["claimed_tile"] = rng.choice(tiles)
        return chow
    if kind == "kong" and not exposed:
        return {"type": "kong", "tiles": list(tiles), "concealed": True}
    meld: Json = {"type": kind, "tiles": list(tiles), "claimed_from": rng.choice(SIDES)}
    if kind == "kong":
        meld["concealed"] = False
    return meld


def _regular(rng: random.Random) -> Json | None:
    sets, pair = _draft(rng)
    kong_share = rng.choice((0.0, 0.0, 0.1, 0.3, 1.0))  # 1.0 reaches three and four kongs
    style = rng.choices(("concealed", "mixed", "melded"), weights=(3, 4, 2))[0]
    melds: list[Json] = []
    hidden: list[str] = [pair, pair]  # concealed tiles, the winning tile still among them
    everything: list[str] = [pair, pair]
    for kind, tiles in sets:
        if kind == "pung" and rng.random() < kong_share:
            kind, tiles = "kong", (*tiles, tiles[0])
        everything.extend(tiles)
        exposed = style == "melded" or (style == "mixed" and rng.random() < 0.5)
        if exposed or kind == "kong":  # a kong is a meld even when concealed
            melds.append(_meld_json(kind, tiles, exposed, rng))
        else:
            hidden.extend(tiles)
    if not _legal_counts(everything):
        return None
    winning = rng.choice(hidden)
    hidden.remove(winning)
    return _finish(rng, melds, hidden, winning)


def _special(rng: random.Random) -> Json | None:
    shape = rng.choices(
        (_seven_pairs, _thirteen_orphans, _honors_and_knitted, _nine_gates, None),
        weights=(5, 1, 2, 1, 2),
    )[0]
    melds: list[Json] = []
    if shape is None:  # 组合龙 + a set + a pair; the set may be claimed
        kind, tiles = THEMES[0][0].draw_set(rng)
        pair = rng.choice(PLAYING)
        tiles14 = [*_knitted_tiles(rng), pair, pair]
        if rng.random() < 0.35:
            melds.append(_meld_json(kind, tiles, True, rng))
        else:
            tiles14.extend(tiles)
        if not _legal_counts(tiles14 + [t for m in melds for t in m["tiles"]]):
            return None
    else:
        tiles14 = shape(rng)
        if not _legal_counts(tiles14):
            return None
    winning = rng.choice(tiles14)
    if shape is _nine_gates:
        winning = tiles14[-1]  # the nine gates wait is the 13 tiles before the extra one
    tiles14.remove(winning)
    return _finish(rng, melds, tiles14, winning)


def _flags(rng: random.Random, melds: list[Json], hidden: list[str], winning: str) -> Json:
    """Win conditions that can hold together for this hand (PyMahjongGB's checks and more).

    Last tile: forced when the other three copies lie in our own melds, never while a copy
    is still concealed. Robbing a kong: a discard win on a tile we hold no copy of, never
    with the last-tile flag. Kong replacement: a self-drawn win with a kong in the hand.
    """
    in_melds = sum(m["tiles"].count(winning) for m in melds)
    in_hand = hidden.count(winning)
    self_drawn = rng.random() < 0.4
    robbing = not self_drawn and in_melds + in_hand == 0 and rng.random() < 0.12
    has_kong = any(m["type"] == "kong" for m in melds)
    replacement = self_drawn and has_kong and rng.random() < 0.35
    last_tile = in_melds == 3 or (in_hand == 0 and not robbing and rng.random() < 0.15)
    return {
        "self_drawn": self_drawn,
        "last_tile": last_tile,
        "last_of_wall": not (robbing or replacement) and rng.random() < 0.08,
        "kong_replacement": replacement,
        "robbing_kong": robbing,
    }


def _finish(rng: random.Random, melds: list[Json], hidden: list[str], winning: str) -> Json:
    flowers = sorted(rng.sample(FLOWER_CODES, rng.choice((0, 0, 0, 1, 2, 3, rng.randint(4, 8)))))
    count_only = rng.random() < 0.05  # Hand JSON also allows a bare count of flowers
    return {
        "melds": melds,
        "concealed": sorted(hidden, key=ORDER.__getitem__),
        "winning_tile": winning,
        **_flags(rng, melds, hidden, winning),
        "seat_wind": rng.choice(WINDS),
        "prevalent_wind": rng.choice(WINDS),
        "flowers": len(flowers) if count_only else flowers,
    }


def random_hand(rng: random.Random) -> Json:
    """A legal winning hand as Hand JSON, drawn from `rng` alone (so a seed repeats it).

    Example:
        >>> hand = random_hand(random.Random(7))
        >>> len(hand["concealed"]) + 1 + sum(3 for m in hand["melds"])
        14
    """
    while True:
        hand = _special(rng) if rng.random() < 0.12 else _regular(rng)
        if hand is not None:
            return hand


def generate_hands(seed: int, n: int) -> Iterator[Json]:
    """`n` hands from one seed; the same seed gives the same hands on every machine."""
    rng = random.Random(seed)
    for _ in range(n):
        yield random_hand(rng)
