"""`patterns.match`, worked out in integer steps, is the first check of its patterns that
holds (`matched_by_checks`, the definition), on every sorted choice of tiles."""

from __future__ import annotations

from itertools import combinations_with_replacement

import pytest

from scoring.patterns import CHOW_PATTERNS, PUNG_PATTERNS, match, matched_by_checks
from scoring.tile_index import CODES

CHOW_MIDDLES = [t for t in range(27) if t % 9 not in (0, 8)]  # a chow is named by its middle


@pytest.mark.parametrize("size", [2, 3, 4])
def test_chows_match_their_checks(size: int) -> None:
    found = set()
    for tiles in combinations_with_replacement(CHOW_MIDDLES, size):
        want = matched_by_checks(CHOW_PATTERNS, tiles)
        assert match(CHOW_PATTERNS, list(tiles)) == want, [CODES[t] for t in tiles]
        found.add(want)
    assert len(found - {None}) == len(CHOW_PATTERNS[size])  # every fan of that size is met


@pytest.mark.parametrize("size", [2, 3, 4])
def test_pungs_match_their_checks(size: int) -> None:
    found = set()
    for tiles in combinations_with_replacement(range(34), size):
        want = matched_by_checks(PUNG_PATTERNS, tiles)
        assert match(PUNG_PATTERNS, list(tiles)) == want, [CODES[t] for t in tiles]
        found.add(want)
    assert len(found - {None}) == len(PUNG_PATTERNS[size])
