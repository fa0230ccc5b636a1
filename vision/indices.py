"""The corner index: a second look at the small numeral or letter in a face's top corner.

Many sets print each suit tile's rank in a corner (Hong Kong sets, most Western ones), a
letter on the winds and on some sets' dragons, a numeral on the flowers. On designs it never
saw the classifier reads the pattern and overlooks the index: held-out KDE 6s (two columns
of canes, a 6 in the corner) read 9s, 7m (a 7 over a stylised 七) 6m. The index reader
(`vision/weights/index_reader.onnx`, card `index_reader.md` beside it) was trained on faces
whose index was drawn at random, so it reads the index alone, and its answer is a likelihood
for each code (`likelihoods`) that multiplies the classifier's probabilities (`join`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from scoring.tiles import CLASSES, FLOWERS, PLAYING, SUITS
from vision.registry import optional
from vision.types import FloatArray

READER_H, READER_W = 128, 96  # as the flower reader's: the index is a small mark
DIGITS = tuple("123456789")
LETTERS = ("E", "S", "W", "N", "C", "F", "P")  # the winds' letters; C F P on some dragons
INDEX_SYMBOLS = ("none", *DIGITS, *LETTERS)
# How often each label was drawn in training (`training/index_art.py`): the reader's
# calibrated output divided by it is a likelihood ratio.
INDEX_PRIOR = np.array(
    [0.3] + [0.5 / len(DIGITS)] * len(DIGITS) + [0.2 / len(LETTERS)] * len(LETTERS)
)
# The share of faces of a set that print an index, where nothing else is known.
PRINTED = 0.5
# The reader's weight in the product with the classifier.
INDEX_WEIGHT = 1.0
# The chance that the reading says nothing of the face (a bird's head read as a 7, a
# flower's English name read as its letters): it bounds how far one reading can move a face.
MISREAD = 0.1


def code_symbol(code: str) -> str | None:
    """The index a face of `code` would print: its rank (flowers and seasons 1-4), its
    letter, or None (the back)."""
    if code in FLOWERS:
        return DIGITS[FLOWERS.index(code) % 4]
    if code[-1] in SUITS and code[0].isdigit():
        return code[0]
    return code if code in LETTERS else None


def code_group(code: str) -> str:
    """Faces of one group print an index or not alike on a set: a suit, the winds, the
    dragons, the flowers and seasons; the back prints none."""
    if code in FLOWERS:
        return "h"
    if code[0].isdigit():
        return code[-1]
    return {"E": "w", "S": "w", "W": "w", "N": "w", "C": "d", "F": "d", "P": "d"}.get(code, "")


GROUPS = ("m", "p", "s", "w", "d", "h")
_GROUP_OF_CLASS = np.array([GROUPS.index(g) if (g := code_group(c)) else -1 for c in CLASSES])
_SYMBOL_OF_CLASS = np.array(
    [INDEX_SYMBOLS.index(s) if (s := code_symbol(c)) else 0 for c in CLASSES]
)
_HAS_SYMBOL = np.array([code_symbol(c) is not None for c in CLASSES])
# The codes the index weighs among, each block within its own mass: whether a face is a
# flower, a suit or honour tile or the back stays the classifier's.
_PLAYING = np.array([c in PLAYING for c in CLASSES])
_FLOWERS = np.array([c in FLOWERS for c in CLASSES])
# Whether the reading re-splits the flowers too (the flower reader's split, `vision.flowers`):
# a reader trained on flower faces with random numerals reads their 1-4.
JOIN_FLOWERS = False


def likelihoods(
    reader: FloatArray, printed: float | FloatArray = PRINTED, misread: float = MISREAD
) -> FloatArray:
    """(n, 43) how likely each code makes the index reading `reader` (n, len(INDEX_SYMBOLS)),
    up to a factor per row: a face of the code prints its index with probability `printed`
    (one for all, or (43,) one per code), else none; and a reading is a misread, which fits
    every code alike, with probability `misread`."""
    ratio = reader / INDEX_PRIOR
    shown = ratio[:, _SYMBOL_OF_CLASS]
    blank = ratio[:, :1]
    out = np.where(_HAS_SYMBOL, printed * shown + (1.0 - printed) * blank, blank)
    return np.asarray((1.0 - misread) * out + misread, dtype=np.float32)


def printed_shares(probs: FloatArray, reader: FloatArray, pseudo: float = 1.0) -> FloatArray:
    """(len(GROUPS),) the share of each group's faces in one photo that print an index: the
    faces' chance of showing one (1 - the reader's none), weighed by how likely each face is
    of the group, with `pseudo` faces at PRINTED added (a group barely seen keeps it)."""
    shown = 1.0 - reader[:, 0]
    mass = np.stack([probs[:, g == _GROUP_OF_CLASS].sum(axis=1) for g in range(len(GROUPS))], 1)
    return np.asarray(
        (mass.T @ shown + pseudo * PRINTED) / (mass.sum(axis=0) + pseudo), dtype=np.float32
    )


def join_photo(
    probs: FloatArray,
    reader: FloatArray,
    weight: float = INDEX_WEIGHT,
    pseudo: float = 1.0,
    misread: float = MISREAD,
    flowers: bool = JOIN_FLOWERS,
) -> FloatArray:
    """`join` for all the faces of one photo, each group's printed share its own
    (`printed_shares`): a set prints indices on its characters and not on its dots, say."""
    shares = printed_shares(probs, reader, pseudo)
    printed = np.where(_GROUP_OF_CLASS >= 0, shares[np.maximum(_GROUP_OF_CLASS, 0)], PRINTED)
    return join(probs, reader, printed, weight, misread, flowers)


def join(
    probs: FloatArray,
    reader: FloatArray,
    printed: float | FloatArray = PRINTED,
    weight: float = INDEX_WEIGHT,
    misread: float = MISREAD,
    flowers: bool = JOIN_FLOWERS,
) -> FloatArray:
    """`probs` (n, 43) with each row's mass on the 34 suit and honour codes (and, with
    `flowers`, on the eight flowers) split anew in proportion to probs times the index's
    likelihoods raised to `weight`; each block's mass and the back are left as they were."""
    lik = np.power(np.maximum(likelihoods(reader, printed, misread), 1e-12), weight)
    out = probs.copy()
    for block in (_PLAYING, _FLOWERS) if flowers else (_PLAYING,):
        part = probs[:, block]
        split = part * lik[:, block]
        mass = part.sum(axis=1, keepdims=True)
        out[:, block] = mass * split / np.maximum(split.sum(axis=1, keepdims=True), 1e-30)
    return np.asarray(out, dtype=np.float32)


class IndexReader:
    """The ONNX index reader, loaded once."""

    def __init__(self, model_path: str | Path | None = None, threads: int | None = None) -> None:
        from vision.classify import open_model  # classify imports this module

        self.model_path, self.session = open_model(model_path, "index_reader", threads)

    def read(self, crops: Sequence[npt.NDArray[np.uint8]]) -> FloatArray:
        """(n, len(INDEX_SYMBOLS)) probabilities for BGR face crops of any size."""
        from vision.classify import network_input, run_in_batches

        if not crops:
            return np.zeros((0, len(INDEX_SYMBOLS)), np.float32)
        batch = np.stack([network_input(crop, (READER_W, READER_H)) for crop in crops])
        return run_in_batches(self.session, batch, len(INDEX_SYMBOLS))

    @classmethod
    def shipped(cls, threads: int | None = None) -> IndexReader | None:
        """The shipped reader, or None where the file is absent (no corner index is read)."""
        path = optional("index_reader")
        return cls(path, threads) if path is not None else None
