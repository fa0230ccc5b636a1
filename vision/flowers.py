"""Which flower or season a flower tile is: a second look.

The classifier names the eight flowers worst of all on designs it never saw (held-out KDE
flower tiles in wins: 42 % misnamed). The flower reader (`vision/weights/flower_reader.onnx`,
card `flower_reader.md` beside it), two nets trained on the eight alone from the classifier's
features, looks again at the faces the classifier takes for a flower, at READER_H x
READER_W, and errs elsewhere. The classifier keeps its say on whether a tile is a flower at
all; the reader's answer and the classifier's own split among the eight are joined as a
product of experts (`join`), each raised to its weight. (The larger crop was meant to read
the corner numeral and character better; on real crops the readers alone are mixed: what
the join gains is mostly that of two different readings.)
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from scoring.tiles import CLASSES, FLOWERS
from vision.registry import optional
from vision.types import FloatArray

READER_H, READER_W = 128, 96
FLOWER_IDS = np.array([CLASSES.index(code) for code in FLOWERS])
# A face is read again when the classifier gives the flowers together at least this much.
FLOWER_GATE = 0.05
# Nor is a face whose long side spans fewer pixels than this in the working image: the reader
# was trained on faces of 96-136 px, and from smaller ones it names no more right than the
# classifier. On the training sources' 640 px photos (`runs/det_train`, first 400, detected
# faces), exact flowers, classifier -> joined with the reader: faces under 40 px 75.8 ->
# 74.9 % (211), 40-50 px 88.4 -> 91.3 % (69), larger ones unchanged (44).
READER_MIN_SIDE = 40.0
# The reader's weight in the product of experts; the classifier's is 1 - READER_WEIGHT. Set
# before measuring; the exponents that fit the training sources' flower tiles best are no
# more accurate (`vision/weights/flower_reader.md`).
READER_WEIGHT = 0.5


def candidates(probs: FloatArray, sides: FloatArray | None = None) -> np.ndarray:
    """Indices of the rows of (n, 43) `probs` whose flower mass reaches FLOWER_GATE and, where
    the faces' long sides in pixels (`sides`, n) are given, whose face is READER_MIN_SIDE or
    more."""
    wanted = probs[:, FLOWER_IDS].sum(axis=1) >= FLOWER_GATE
    if sides is not None:
        wanted &= sides >= READER_MIN_SIDE
    return np.nonzero(wanted)[0]


def join(probs: FloatArray, reader: FloatArray, weight: float = READER_WEIGHT) -> FloatArray:
    """`probs` (n, 43) with each row's flower mass split anew among the eight flowers, in
    proportion to reader^weight * (the classifier's own split)^(1 - weight); `reader` (n, 8)
    in FLOWERS order. The mass itself, and every other class, is left as it was."""
    out = probs.copy()
    mass = probs[:, FLOWER_IDS].sum(axis=1, keepdims=True)
    own = probs[:, FLOWER_IDS] / np.maximum(mass, 1e-12)
    split = np.power(np.maximum(reader, 1e-12), weight) * np.power(
        np.maximum(own, 1e-12), 1.0 - weight
    )
    split /= split.sum(axis=1, keepdims=True)
    out[:, FLOWER_IDS] = mass * split
    return np.asarray(out, dtype=np.float32)


class FlowerReader:
    """The ONNX flower reader, loaded once."""

    def __init__(self, model_path: str | Path | None = None, threads: int | None = None) -> None:
        from vision.classify import open_model  # classify imports this module

        self.model_path, self.session = open_model(model_path, "flower_reader", threads)

    def read(self, crops: Sequence[npt.NDArray[np.uint8]]) -> FloatArray:
        """(n, 8) probabilities in FLOWERS order for BGR face crops of any size (each
        resized to READER_H x READER_W)."""
        from vision.classify import network_input, run_in_batches

        if not crops:
            return np.zeros((0, len(FLOWERS)), np.float32)
        batch = np.stack([network_input(crop, (READER_W, READER_H)) for crop in crops])
        return run_in_batches(self.session, batch, len(FLOWERS))

    @classmethod
    def shipped(cls, threads: int | None = None) -> FlowerReader | None:
        """The shipped reader, or None where the file is absent (the classifier's own
        reading of the flowers then stands)."""
        path = optional("flower_reader")
        return cls(path, threads) if path is not None else None
