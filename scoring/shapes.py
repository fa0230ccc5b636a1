"""Winning shapes: every way to split concealed tiles into sets and a pair, and the waits.

Tiles are counted in a list of 34 (`tile_index` numbering). Decompositions come out in the
order the reference calculator finds them (sets sorted by lowest tile, a pung before a chow
at the same tile), because the first of two equally scored decompositions is the one kept.
"""

from __future__ import annotations

from functools import cache

CHOW, PUNG, KONG, PAIR = 1, 2, 3, 4
# A set: (kind, tile, melded). A chow is named by its middle tile, like the reference does.
Set = tuple[int, int, bool]


def divisions(counts: list[int], n_sets: int) -> list[tuple[list[Set], int]]:
    """Every split of `counts` into `n_sets` concealed sets plus a pair: [(sets, pair tile)]."""
    found: list[tuple[list[Set], int]] = []
    work = list(counts)
    chosen: list[Set] = []

    def search(start: int, start_kind: int) -> None:
        if len(chosen) == n_sets:
            left = [t for t in range(34) if work[t]]
            if len(left) == 1 and work[left[0]] == 2:
                found.append((list(chosen), left[0]))
            return
        below = 0
        for t in range(start, 34):
            below += work[t - 1] if t > start else 0
            if below > 2:  # tiles left behind can only be the pair
                return
            if not work[t]:
                continue
            if work[t] >= 3 and (t > start or start_kind == PUNG):
                work[t] -= 3
                chosen.append((PUNG, t, False))
                search(t, PUNG)
                chosen.pop()
                work[t] += 3
            if t < 27 and t % 9 < 7 and work[t + 1] and work[t + 2]:
                work[t] -= 1
                work[t + 1] -= 1
                work[t + 2] -= 1
                chosen.append((CHOW, t + 1, False))
                search(t, CHOW)  # the same tile again: only another chow
                chosen.pop()
                work[t] += 1
                work[t + 1] += 1
                work[t + 2] += 1

    search(0, PUNG)
    return found


@cache
def _suit_complete(counts: tuple[int, ...], with_pair: bool) -> bool:
    """Whether one suit's counts split into sets (and one pair when asked)."""
    if with_pair:
        for t, n in enumerate(counts):
            if n >= 2:
                rest = list(counts)
                rest[t] -= 2
                if _suit_complete(tuple(rest), False):
                    return True
        return False
    rest = list(counts)
    if len(rest) == 7:  # honors: pungs only
        return all(n % 3 == 0 for n in rest)
    # Three chows from one tile can always be read as three pungs instead, so it is enough to
    # start (count mod 3) chows at each tile in turn.
    for t in range(9):
        c = rest[t] % 3
        if c:
            if t > 6 or rest[t + 1] < c or rest[t + 2] < c:
                return False
            rest[t + 1] -= c
            rest[t + 2] -= c
    return True


def _groups(counts: list[int]) -> list[tuple[int, ...]]:
    return [tuple(counts[0:9]), tuple(counts[9:18]), tuple(counts[18:27]), tuple(counts[27:34])]


def is_complete(counts: list[int]) -> bool:
    """Whether 3n+2 tiles form n sets and a pair."""
    groups = _groups(counts)
    pairs = [sum(g) % 3 for g in groups]
    if sorted(pairs) != [0, 0, 0, 2]:
        return False
    return all(_suit_complete(g, p == 2) for g, p in zip(groups, pairs, strict=True))


def basic_waits(counts: list[int]) -> list[int]:
    """Tiles that complete 3n+1 concealed tiles into sets and a pair (a fifth copy included,
    as the reference calculator does)."""
    groups = _groups(counts)
    sums = [sum(g) % 3 for g in groups]
    waits: list[int] = []
    for g_index, group in enumerate(groups):
        others = [i for i in range(4) if i != g_index]
        # The tile must go where it makes the suit's count 0 or 2 mod 3 with one pair overall.
        new_sum = (sums[g_index] + 1) % 3
        pattern = sorted([new_sum] + [sums[i] for i in others])
        if pattern != [0, 0, 0, 2]:
            continue
        if not all(_suit_complete(groups[i], sums[i] == 2) for i in others):
            continue
        base = 9 * g_index
        for k in range(len(group)):
            if not _near(group, k):
                continue
            trial = list(group)
            trial[k] += 1
            if _suit_complete(tuple(trial), new_sum == 2):
                waits.append(base + k)
    return waits


def _near(group: tuple[int, ...], k: int) -> bool:
    """A winning tile touches what is held: itself, or within two ranks in a suit."""
    if group[k]:
        return True
    if len(group) == 7:
        return False
    return any(group[j] for j in range(max(0, k - 2), min(9, k + 3)))


def seven_pairs_waits(counts: list[int]) -> list[int]:
    """The tile that completes seven pairs (four of a kind counting as two pairs)."""
    singles = [t for t in range(34) if counts[t] % 2]
    pairs = sum(n // 2 for n in counts)
    return singles if pairs == 6 and len(singles) == 1 else []
