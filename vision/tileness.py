"""Whether a detection is a tile, judged from its pixels and their surroundings.

The objectness model (`vision.objectness`) judges a detection by the classifier's embedding
and its photo; beside a declared win the photo's many sure tiles lift every detection, so a
keyboard's keys, dominoes or a card's corner next to the hand passed. This small network was
trained for that one question on synthetic tables crowded with look-alikes: it sees the face
with a ring of its surroundings (a tile's thick body and edge, a key's thin outline and its
neighbours). Its log-odds are one of the objectness model's inputs, weighed there with the
rest (`vision/weights/tileness.md`).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from vision.classify import open_model, rectify, run_in_batches, widen
from vision.load import Photo
from vision.registry import optional
from vision.types import FloatArray, Tiles

CROP_W, CROP_H = 40, 48
# The face and half again round it: enough of a tile's body and of what lies beside it.
CONTEXT = 1.6


def context_crops(photo: Photo, corners: FloatArray) -> npt.NDArray[np.uint8]:
    """(n, 48, 40, 3) BGR: each face in `corners` (original pixels) widened by CONTEXT,
    rectified upright."""
    quads = widen(corners / np.float32(photo.scale), CONTEXT)
    crops = [rectify(photo.image, q, (CROP_W, CROP_H)) for q in quads]
    return np.stack(crops) if crops else np.zeros((0, CROP_H, CROP_W, 3), np.uint8)


def network_batch(crops: npt.NDArray[np.uint8]) -> FloatArray:
    """BGR crops (n, h, w, 3) as the network's input: RGB, NCHW, in [0, 1]."""
    rgb = crops[..., ::-1].astype(np.float32) / np.float32(255.0)
    return np.ascontiguousarray(rgb.transpose(0, 3, 1, 2))


class Tileness:
    """The network, loaded once."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path, self.session = open_model(path, "tileness", threads=1)

    def logits(self, photo: Photo, tiles: Tiles) -> FloatArray:
        """(n,) each detection's log-odds of being a tile."""
        if not len(tiles):
            return np.zeros(0, np.float32)
        return self.crop_logits(context_crops(photo, tiles.corners))

    def crop_logits(self, crops: npt.NDArray[np.uint8]) -> FloatArray:
        """(n,) the log-odds of `context_crops` (or crops cut alike) being a tile."""
        return run_in_batches(self.session, network_batch(crops), 1)[:, 0]


@cache
def shipped_tileness() -> Tileness | None:
    """The shipped network, or None where its file is absent (every detection passes)."""
    path = optional("tileness")
    return Tileness(path) if path is not None else None
