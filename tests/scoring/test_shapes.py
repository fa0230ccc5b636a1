"""Shape questions answered by remembered per-suit parts give the answer of their definition."""

from __future__ import annotations

import random

from scoring.shapes import (
    basic_waits,
    divisions,
    only_winning_tile,
    seven_pairs_waits,
    tile_divisions,
)
from scoring.tile_index import CODES


def _by_definition(standing: list[int], seven_pairs_too: bool) -> bool:
    counts = [0] * 34
    for t in standing:
        counts[t] += 1
    waits = set(basic_waits(counts))
    if waits and seven_pairs_too:
        waits.update(seven_pairs_waits(counts))
    return len(waits) == 1


def _standings(rng: random.Random, n: int) -> list[list[int]]:
    """Concealed tiles of every size a hand can hold, drawn from a few suits so that many
    wait; at most four copies of a tile."""
    out = []
    for _ in range(n):
        size = rng.choice((1, 4, 7, 10, 13, 13, 13))
        pool = [t for t in range(34) if rng.random() < 0.4] or [0]
        tiles: list[int] = []
        while len(tiles) < size:
            t = rng.choice(pool)
            if tiles.count(t) < 4:
                tiles.append(t)
            elif all(tiles.count(p) >= 4 for p in pool):
                pool.append(rng.randrange(34))
        out.append(sorted(tiles))
    return out


def test_only_winning_tile_is_a_single_wait_by_definition() -> None:
    rng = random.Random(5)
    single = 0
    for standing in _standings(rng, 6000):
        for seven in (False, True):
            want = _by_definition(standing, seven)
            got = only_winning_tile(standing, seven)
            assert got == want, ([CODES[t] for t in standing], seven)
            single += want
    assert single > 100  # the draw reaches hands with one wait, not only the other answer


def test_only_winning_tile_known_hands() -> None:
    def tiles(codes: str) -> list[int]:
        return sorted(CODES.index(codes[i : i + 2]) for i in range(0, len(codes), 2))

    assert only_winning_tile(tiles("1m2m3m4m5m6m7m8m9m1p2p3p5s"), False)  # 5s alone
    assert not only_winning_tile(tiles("1m2m3m4m5m6m7m8m9m1p2p3p4p"), False)  # 1p and 4p
    assert only_winning_tile([*tiles("1m2m3m4m5m6m7m8m9m1p2p3p4p")[:12], 30], False)  # N
    # six pairs and a single: seven pairs waits on 1p, but no basic wait, so no one wait
    six_pairs = tiles("1m1m4m4m7m7m2s2s5s5s8s8s1p")
    assert only_winning_tile(six_pairs, False) is False  # no basic wait at all
    assert only_winning_tile(six_pairs, True) is False  # seven pairs only counts beside one


def test_tile_divisions_are_the_divisions_of_the_counts() -> None:
    rng = random.Random(6)
    split = 0
    for standing in _standings(rng, 6000):
        for extra in (*range(34), *standing):  # every tile added, the likely ones twice
            tiles = sorted([*standing, extra])
            if tiles.count(extra) > 4:
                continue
            counts = [0] * 34
            for t in tiles:
                counts[t] += 1
            for n_sets in (len(tiles) // 3, len(tiles) // 3 - 1):
                want = divisions(counts, n_sets)
                assert tile_divisions(tiles, n_sets) == want, ([CODES[t] for t in tiles], n_sets)
                split += bool(want)
    assert split > 1000  # many of them split, not only the empty answer
    too_many = [0] * 4 + [1] * 4 + [2] * 4 + [3] * 4 + [4, 4]  # over 15 tiles: the long way
    counts = [0] * 34
    for t in too_many:
        counts[t] += 1
    assert tile_divisions(too_many, 5) == divisions(counts, 5)
