"""Faces for the index reader: a tile face whose corner index says nothing about its pattern.

The index reader (`vision/indices.py`) reads only the small numeral or letter many sets
print in a top corner. To teach it that and nothing else, every training face gets an index
drawn at random, whatever the face shows (a 6 of bamboo with a 9 in its corner, a wind with
none), so the pattern cannot tell the label; fixed-art faces, which print no index, come as
"none". Flowers and seasons get a random numeral in their own label layout (or none), beside
their name (Chinese or English): the reader learns that a flower's word is not a letter.
"""

from __future__ import annotations

import numpy as np

from datasets.faces.procedural import draw_face
from datasets.faces.procedural.layout import CHINESE_NUMERALS
from scoring.tiles import FACES
from vision.indices import DIGITS, INDEX_SYMBOLS, LETTERS

INDEX_CODES = FACES  # the 34 suit and honour faces and the eight flowers and seasons

# Label shares; the reader's calibrated output over them is its prior (INDEX_PRIOR).
NONE_SHARE, DIGIT_SHARE = 0.3, 0.5
CHINESE_SHARE = 0.25  # of the digits, printed 一..九 rather than 1..9
INK_ROLES, INK_SHARES = ("k", "r", "b", "g"), (0.5, 0.3, 0.15, 0.05)


def index_label(rng: np.random.Generator) -> int:
    """A label drawn by the shares above: an index into INDEX_SYMBOLS."""
    u = rng.random()
    if u < NONE_SHARE:
        return 0
    if u < NONE_SHARE + DIGIT_SHARE:
        return INDEX_SYMBOLS.index(DIGITS[int(rng.integers(len(DIGITS)))])
    return INDEX_SYMBOLS.index(LETTERS[int(rng.integers(len(LETTERS)))])


def index_text(label: int, rng: np.random.Generator) -> str | None:
    symbol = INDEX_SYMBOLS[label]
    if symbol == "none":
        return None
    if symbol in DIGITS and rng.random() < CHINESE_SHARE:
        return CHINESE_NUMERALS[int(symbol) - 1]
    return symbol


def index_face(rng: np.random.Generator) -> tuple[np.ndarray, int]:
    """A procedural face of a random code with a random index, and the index's label."""
    code = INDEX_CODES[int(rng.integers(len(INDEX_CODES)))]
    label = index_label(rng)
    ink = str(rng.choice(INK_ROLES, p=INK_SHARES))
    return draw_face(code, rng, index_text(label, rng), ink), label
