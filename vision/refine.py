"""Set each detected face's four corners on the face's own edges, from a close look.

The detector places corners from its 640 px view of the photo, where a face is 20-60 px
wide: on the real-face wins the worst corner of a face lay a median 0.13 face widths from
the truth, 0.24 at the 90th percentile, and read and laid out through the true corners
instead, 84.3 % of those wins came out right against 77.0 % (`docs/recognize.md`). The
refiner looks again at each face in the full working image: the quad is warped into a crop
with a margin of photo round it (`PATCH`, the face in `FACE` of it), a small network answers
where the face's corners really lie in that crop, and they are mapped back. Two rounds: the
second starts from the first's answer, the view the network was trained to correct by small
steps.

The network (`vision/weights/refiner.onnx`, card `refiner.md` beside it) keeps the corners'
order, so what the detector meant by TL is still TL; an answer that moves a corner further
than the margin it could see, or that is not a convex clockwise quad, is dropped for the
detector's.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from vision.classify import face_rect, open_model, rectify, run_in_batches
from vision.registry import optional
from vision.types import FloatArray

PATCH = (80, 96)  # crop width, height
MARGIN = (16.0, 16.0)  # photo kept round the quad, crop pixels: a third of a face width
FACE = face_rect(PATCH, MARGIN)  # the quad's corners in the crop (a 48 x 64 face)
FACE_W = float(FACE[1, 0] - FACE[0, 0])
# The margin as a share of a face's diagonal (16 of the 80 px of a 48 x 64 face's diagonal),
# with room to spare: in the photo no corner may move further than this share of the
# quad's longer diagonal.
MARGIN_SHARE = 2 * min(MARGIN) / float(np.hypot(FACE_W, FACE[2, 1] - FACE[1, 1]))
ROUNDS = 2


def patches(image: npt.NDArray[np.uint8], quads: FloatArray) -> FloatArray:
    """(n, 3, h, w) float32 RGB crops in [0, 1], each quad warped to FACE inside PATCH
    (BGR image in, as cv2 reads photos)."""
    crops = [rectify(image, q, PATCH, MARGIN) for q in quads]
    if not crops:
        return np.zeros((0, 3, PATCH[1], PATCH[0]), np.float32)
    rgb = np.stack(crops)[..., ::-1].astype(np.float32) / np.float32(255.0)
    return np.ascontiguousarray(rgb.transpose(0, 3, 1, 2))


def to_patch(quads: FloatArray, points: FloatArray) -> FloatArray:
    """(n, 4, 2) image points -> the same points in each quad's crop."""
    return _map(quads, points, into_crop=True)


def from_patch(quads: FloatArray, points: FloatArray) -> FloatArray:
    """(n, 4, 2) points in each quad's crop -> image points."""
    return _map(quads, points, into_crop=False)


def _map(quads: FloatArray, points: FloatArray, into_crop: bool) -> FloatArray:
    out = np.empty_like(points, dtype=np.float32)
    for i, (quad, pts) in enumerate(zip(quads, points, strict=True)):
        ends = (quad.astype(np.float32), FACE)
        matrix = cv2.getPerspectiveTransform(*(ends if into_crop else ends[::-1]))
        out[i] = cv2.perspectiveTransform(pts[None].astype(np.float32), matrix)[0]
    return out


def targets(quads: FloatArray, truth: FloatArray) -> FloatArray:
    """(n, 8) what the network answers: the true corners' offsets in the crop from where the
    quad put them, in face widths of the crop (training targets)."""
    return ((to_patch(quads, truth) - FACE) / FACE_W).reshape(-1, 8).astype(np.float32)


def answers(quads: FloatArray, offsets: FloatArray) -> FloatArray:
    """(n, 8) network offsets -> (n, 4, 2) corners in image pixels."""
    in_patch = FACE + FACE_W * offsets.reshape(-1, 4, 2)
    return from_patch(quads, in_patch.astype(np.float32))


def plausible(quads: FloatArray, refined: FloatArray) -> npt.NDArray[np.bool_]:
    """Refined quads that are convex and clockwise, with no corner moved further than the
    margin the network could see, in the crop and in the photo.

    In the photo too: a quad whose diagonals lie nearly along one line (a collapsed face
    lengthened along both its wrong directions, `vision.detect.restore_collapsed`) maps
    its crop through a near-singular homography, and a small step there lands hundreds of
    pixels off (on a real-face photo, a corner thrown 4 diagonals away, the face then read
    as the white dragon beside it and dropped as a duplicate)."""
    if not len(quads):
        return np.zeros(0, np.bool_)
    moved = np.abs(to_patch(quads, refined) - FACE).max(axis=(1, 2))
    reach = np.linalg.norm(quads[:, :2] - quads[:, 2:], axis=2).max(axis=1) * MARGIN_SHARE
    jumped = np.linalg.norm(refined - quads, axis=2).max(axis=1) > reach
    edges = np.roll(refined, -1, axis=1) - refined
    nxt = np.roll(edges, -1, axis=1)
    cross = edges[..., 0] * nxt[..., 1] - edges[..., 1] * nxt[..., 0]
    return np.asarray((moved <= min(MARGIN)) & ~jumped & (cross > 0).all(axis=1), np.bool_)


class Refiner:
    """The ONNX corner refiner, loaded once."""

    def __init__(self, model_path: str | Path | None = None, threads: int | None = None) -> None:
        self.model_path, self.session = open_model(model_path, "refiner", threads)

    def offsets(self, image: npt.NDArray[np.uint8], quads: FloatArray) -> FloatArray:
        """(n, 8) the network's answers for the quads' crops."""
        return run_in_batches(self.session, patches(image, quads), 8)

    def refine(self, image: npt.NDArray[np.uint8], corners: FloatArray) -> FloatArray:
        """(n, 4, 2) corners in `image` pixels, each set on its face's edges where the
        network's answer is plausible, else left as they came."""
        quads = np.asarray(corners, np.float32).copy()
        for _ in range(ROUNDS):
            if not len(quads):
                break
            refined = answers(quads, self.offsets(image, quads))
            keep = plausible(quads, refined)
            quads[keep] = refined[keep]
        return quads


@lru_cache(maxsize=1)
def shipped() -> Refiner | None:
    """The bundled refiner, or None where it is not there (the detector's corners stand)."""
    path = optional("refiner")
    return Refiner(path) if path is not None else None
