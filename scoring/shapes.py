"""Winning shapes: every way to split concealed tiles into sets and a pair, and the waits.

Tiles are counted in a list of 34 (`tile_index` numbering). Decompositions come out in the
order the reference calculator finds them (sets sorted by lowest tile, a pung before a chow
at the same tile), because the first of two equally scored decompositions is the one kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import product
from typing import Final

CHOW: Final = 1
PUNG: Final = 2
KONG: Final = 3
PAIR: Final = 4
# A set: (kind, tile, melded). A chow is named by its middle tile, like the reference does.
Set = tuple[int, int, bool]

# Per-suit answers are cached by the suit's counts. Hands seen in play repeat a few thousand
# suit patterns; a client sending arbitrary hands could reach hundreds of thousands, so the
# caches keep the most recent ones only (a server's memory stays bounded).
SUIT_CACHE: Final = 1 << 14


def divisions(counts: list[int], n_sets: int) -> list[tuple[list[Set], int]]:
    """Every split of `counts` into `n_sets` concealed sets plus a pair: [(sets, pair tile)].

    Each suit is split on its own (suit patterns repeat, so that is remembered, by the suit's
    counts packed four bits a tile) and the splits are combined suit by suit, which keeps the
    reference's order."""
    keys = [0, 0, 0, 0]
    pair_suit = -1
    odd = False  # a count too big for its four bits: the splits are not remembered
    for g in range(4):
        start = 9 * g
        key = total = 0
        for t in range(start, start + (9 if g < 3 else 7)):
            n = counts[t]
            if n > 15:
                odd = True
            key = key << 4 | n
            total += n
        rest = total % 3
        if rest == 1 or (rest == 2 and pair_suit >= 0):
            return []
        if rest == 2:
            pair_suit = g
        keys[g] = key
    if pair_suit < 0:
        return []
    options = []
    several = False
    for g in range(4):
        if keys[g]:
            splits = _suit_splits(counts, g, g == pair_suit, -1 if odd else keys[g])
            if not splits:
                return []
            options.append(splits)
            several = several or len(splits) > 1
    return _combined(options, several, n_sets)


def tile_divisions(tiles: Sequence[int], n_sets: int) -> list[tuple[list[Set], int]]:
    """`divisions` of the counts of `tiles`, each suit's counts packed straight from the
    tiles (no count of 34 first); tests/scoring/test_shapes.py compares the two."""
    if len(tiles) > 15:  # a count could pass four bits: counted the long way
        counts = [0] * 34
        for t in tiles:
            counts[t] += 1
        return divisions(counts, n_sets)
    k0 = k1 = k2 = k3 = 0  # packed as `divisions` packs them, in local integers
    n0 = n1 = n2 = n3 = 0
    for t in tiles:
        if t < 9:
            k0 += 1 << 4 * (8 - t)
            n0 += 1
        elif t < 18:
            k1 += 1 << 4 * (17 - t)
            n1 += 1
        elif t < 27:
            k2 += 1 << 4 * (26 - t)
            n2 += 1
        else:
            k3 += 1 << 4 * (33 - t)
            n3 += 1
    keys = [k0, k1, k2, k3]
    pair_suit = -1
    for g, n in enumerate((n0, n1, n2, n3)):
        rest = n % 3
        if rest == 1 or (rest == 2 and pair_suit >= 0):
            return []
        if rest == 2:
            pair_suit = g
    if pair_suit < 0:
        return []
    options = []
    several = False
    for g in range(4):
        if keys[g]:
            splits = _packed_splits(keys[g], g, g == pair_suit)
            if not splits:
                return []
            options.append(splits)
            several = several or len(splits) > 1
    return _combined(options, several, n_sets)


def _combined(options: list[Splits], several: bool, n_sets: int) -> list[tuple[list[Set], int]]:
    """The suits' splits combined suit by suit into `n_sets` sets and the pair."""
    if not several:  # each suit splits one way (most hands): that split alone
        sets = [s for splits in options for s in splits[0][0]]
        if len(sets) != n_sets:
            return []
        return [(sets, next(splits[0][1] for splits in options if splits[0][1] >= 0))]
    found = []
    for combo in product(*options):
        sets = [s for split, _ in combo for s in split]
        if len(sets) == n_sets:
            found.append((sets, next(pair for _, pair in combo if pair >= 0)))
    return found


Splits = tuple[tuple[tuple[Set, ...], int], ...]


def _suit_splits(counts: list[int], g: int, with_pair: bool, packed: int) -> Splits:
    """`_suit_divisions` of suit `g`, remembered by its packed counts (-1: not remembered)."""
    key = packed | g << 36 | with_pair << 38
    found = _SPLITS.get(key) if packed >= 0 else None
    if found is None:
        if len(_SPLITS) >= SUIT_CACHE:
            _SPLITS.clear()
        start = 9 * g
        group = tuple(counts[start : start + (9 if g < 3 else 7)])
        found = _suit_divisions(group, start, with_pair)
        if packed >= 0:
            _SPLITS[key] = found
    return found


def _packed_splits(packed: int, g: int, with_pair: bool) -> Splits:
    """`_suit_splits` of suit `g` given by its packed counts alone."""
    key = packed | g << 36 | with_pair << 38
    found = _SPLITS.get(key)
    if found is None:
        if len(_SPLITS) >= SUIT_CACHE:
            _SPLITS.clear()
        found = _suit_divisions(_unpacked(packed | g << 36), 9 * g, with_pair)
        _SPLITS[key] = found
    return found


_SPLITS: Final[dict[int, Splits]] = {}


def _suit_divisions(group: tuple[int, ...], base: int, with_pair: bool) -> Splits:
    """The splits of one suit into sets (and the pair, else -1), sets in non-decreasing order
    of (tile, pung before chow): the order in which the reference finds them."""
    found: list[tuple[tuple[Set, ...], int]] = []
    _search(list(group), base, with_pair, [], found, 0, True, sum(group))
    return tuple(found)


def _search(
    work: list[int],
    base: int,
    with_pair: bool,
    chosen: list[Set],
    found: list[tuple[tuple[Set, ...], int]],
    start: int,
    pung_allowed: bool,
    left: int,
) -> None:
    """One step of `_suit_divisions`: the sets from tile `start` on of the counts `work`
    (changed and restored), `chosen` so far, `left` tiles to place."""
    size = len(work)
    if left == (2 if with_pair else 0):
        if not with_pair:
            found.append((tuple(chosen), -1))
            return
        k = 0
        while not work[k]:
            k += 1
        if work[k] == 2:
            found.append((tuple(chosen), base + k))
        return
    behind = 0
    for k in range(start, size):
        n = work[k]
        if not n:
            continue
        if behind > (2 if with_pair else 0):  # tiles left behind can only be the pair
            return
        if n >= 3 and (k > start or pung_allowed):
            work[k] = n - 3
            chosen.append((PUNG, base + k, False))
            _search(work, base, with_pair, chosen, found, k, True, left - 3)
            chosen.pop()
            work[k] = n
        if size == 9 and k < 7 and work[k + 1] and work[k + 2]:
            work[k] = n - 1
            work[k + 1] -= 1
            work[k + 2] -= 1
            chosen.append((CHOW, base + k + 1, False))
            # the same tile again: only another chow
            _search(work, base, with_pair, chosen, found, k, False, left - 3)
            chosen.pop()
            work[k] = n
            work[k + 1] += 1
            work[k + 2] += 1
        behind += work[k]


def _suit_complete(counts: tuple[int, ...], with_pair: bool) -> bool:
    """Whether one suit's counts split into sets (and one pair when asked). Not remembered:
    a few dozen integer steps cost less than looking a suit's counts up."""
    if not with_pair:
        return _sets_only(list(counts))
    for t, n in enumerate(counts):
        if n >= 2:
            rest = list(counts)
            rest[t] -= 2
            if _sets_only(rest):
                return True
    return False


def _sets_only(rest: list[int]) -> bool:
    """Whether one suit's counts (changed in place) split into sets alone."""
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
    # A suit left as it is must already be sets (count 0 mod 3) or sets and the pair (2 mod 3);
    # the winning tile goes to a suit at 1 mod 3 (it becomes the pair's suit) or, when two
    # suits stand at 2 mod 3, to either of them.
    if sorted(sums) == [0, 0, 0, 1]:
        target = sums.index(1)
        others_ok = all(_suit_complete(g, False) for i, g in enumerate(groups) if i != target)
        return [9 * target + k for k in _group_waits(groups[target], True)] if others_ok else []
    if sorted(sums) != [0, 0, 2, 2]:
        return []
    if not all(_suit_complete(g, False) for g, s in zip(groups, sums, strict=True) if s == 0):
        return []
    twos = [i for i, s in enumerate(sums) if s == 2]
    waits: list[int] = []
    for target, other in (twos, twos[::-1]):
        if _suit_complete(groups[other], True):
            waits += [9 * target + k for k in _group_waits(groups[target], False)]
    return waits


@lru_cache(maxsize=SUIT_CACHE)
def _group_waits(group: tuple[int, ...], with_pair: bool) -> tuple[int, ...]:
    """Which tiles of one suit complete it (suit patterns repeat, so this is cached)."""
    found = []
    for k in range(len(group)):
        if _near(group, k):
            trial = list(group)
            trial[k] += 1
            if _suit_complete(tuple(trial), with_pair):
                found.append(k)
    return tuple(found)


def only_winning_tile(standing: Sequence[int], seven_pairs_too: bool) -> bool:
    """Whether exactly one tile completes these concealed tiles (seven pairs included when
    nothing is declared): `basic_waits` and `seven_pairs_waits`, each suit's part of the
    answer remembered by its counts packed four bits a tile (a whole hand rarely recurs, its
    suits do)."""
    if len(standing) > 15:  # a count could pass four bits: answered the long way
        counts = [0] * 34
        for t in standing:
            counts[t] += 1
        waits = set(basic_waits(counts))
        if waits and seven_pairs_too:
            waits.update(seven_pairs_waits(counts))
        return len(waits) == 1
    # Each suit's counts packed four bits a tile (its first tile highest), the honors marked
    # (bits 36-37): the three suits' answers are alike by rank, so a pattern seen in one suit
    # is known in the others. Counted in plain local integers (compiled, list items would be
    # boxed at each step).
    k0 = k1 = k2 = k3 = 0
    n0 = n1 = n2 = n3 = 0
    odd = 0  # the tiles held an odd number of times, a bit each
    for t in standing:
        if t < 9:
            k0 += 1 << 4 * (8 - t)
            n0 += 1
        elif t < 18:
            k1 += 1 << 4 * (17 - t)
            n1 += 1
        elif t < 27:
            k2 += 1 << 4 * (26 - t)
            n2 += 1
        else:
            k3 += 1 << 4 * (33 - t)
            n3 += 1
        odd ^= 1 << t
    keys = [k0, k1, k2, k3 | 3 << 36]
    rests = [n0 % 3, n1 % 3, n2 % 3, n3 % 3]
    ones = rests.count(1)
    twos = rests.count(2)
    wait = -1  # the one basic wait found so far
    if ones == 1 and twos == 0:
        target = rests.index(1)
        for g in range(4):
            if g != target and not _suit_whole(keys[g], False):
                return False
        found = _suit_waits(keys[target], True)
        if len(found) != 1:
            return False
        wait = 9 * target + found[0]
    elif ones == 0 and twos == 2:
        for g in range(4):
            if rests[g] == 0 and not _suit_whole(keys[g], False):
                return False
        first = rests.index(2)
        second = rests.index(2, first + 1)
        for target, other in ((first, second), (second, first)):
            if _suit_whole(keys[other], True):
                found = _suit_waits(keys[target], False)
                if len(found) > 1 or (found and wait >= 0):
                    return False
                if found:
                    wait = 9 * target + found[0]
        if wait < 0:
            return False
    else:
        return False
    # `seven_pairs_waits`: thirteen tiles with one tile held an odd number of times are six
    # pairs (four of a kind counting two) and a single, which a seventh pair completes.
    if seven_pairs_too and len(standing) == 13 and odd & (odd - 1) == 0:
        return odd == 1 << wait
    return True


def _suit_whole(key: int, with_pair: bool) -> bool:
    """`_suit_complete` of the suit packed in `key` (its counts, honors or not), remembered."""
    key |= with_pair << 38
    found = _WHOLE.get(key)
    if found is None:
        if len(_WHOLE) >= SUIT_CACHE:
            _WHOLE.clear()
        found = _WHOLE[key] = _suit_complete(_unpacked(key), with_pair)
    return found


def _suit_waits(key: int, with_pair: bool) -> tuple[int, ...]:
    """`_group_waits` of the suit packed in `key`: the ranks that complete it, remembered."""
    key |= with_pair << 38
    found = _WAITS.get(key)
    if found is None:
        if len(_WAITS) >= SUIT_CACHE:
            _WAITS.clear()
        found = _WAITS[key] = _group_waits(_unpacked(key), with_pair)
    return found


def _unpacked(key: int) -> tuple[int, ...]:
    """The counts of the suit packed in `key`, its first tile first."""
    size = 9 if key >> 36 & 3 < 3 else 7
    return tuple([key >> 4 * (size - 1 - k) & 15 for k in range(size)])


_WHOLE: Final[dict[int, bool]] = {}
_WAITS: Final[dict[int, tuple[int, ...]]] = {}


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
