"""How alike two faces in one photo look: the same face is printed alike on every copy.

The classifier names each face alone, and on a design it never saw its mistakes are
systematic: every copy of a face is misread the same way. What it cannot see alone, the photo
shows: a tile read as 9s that looks nothing like the 9s beside it is not a 9s. Each face is
kept as a small blurred colour crop (`describe`); two faces' likeness (`alike`) is their
normalized correlation at the best of a few one-pixel shifts (the detector's corners wander)
and both half turns (the corners may come upside down). `log_likeness_ratio` turns a
likeness into evidence that two faces are the same face, which decoding weighs against the
classifier's probabilities.

On the held-out KDE wins, with the shipped models, the pairs of different faces that the
classifier reads as one code look unlike (median likeness 0.46; 98.4 % of them under 0.91),
while 95 % of the true copies it reads alike are above 0.91 (`python benchmarks/alike.py`,
docs/recognize.md).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.types import FloatArray

LOOK_W, LOOK_H = 24, 30  # the kept crop, inside a one-pixel border that shifts look into
SHIFT = 1  # pixels each way the faces may slide against each other
_FACE_SHARE = 0.9  # read inside the quad: the face's rim and the table do not count
_BLUR = 1.0  # Gaussian sigma in crop pixels: ink noise and JPEG blocks do not count
# log p(likeness | same face) - log p(likeness | two faces) = A + B * likeness, clipped:
# a logistic fit on the training sources' wins (`python benchmarks/alike.py --fit`).
LOG_RATIO_A = -16.26
LOG_RATIO_B = 20.32
LOG_RATIO_CLIP = 4.0
# A set prints its four flowers alike and its four seasons alike (one ink, one painting,
# one layout: a pot under every season, a character beside every flower's numeral), and the
# two groups apart from each other, on most sets; on many, all eight alike. So two flower
# tiles' likeness is evidence that they are of one group: log p(likeness | one group) -
# log p(likeness | a flower and a season) = A + B * likeness, a logistic fit on the
# training sources' wins (`python benchmarks/alike.py --fit`; 237 and 313 pairs). It is
# weak there (procedural sets paint the seasons apart half the time only) and stronger on
# the sets not trained on.
GROUP_RATIO_A = -1.17
GROUP_RATIO_B = 1.83


def describe(image: np.ndarray, corners: FloatArray) -> FloatArray:
    """(n, 3, LOOK_H + 2 SHIFT, LOOK_W + 2 SHIFT) blurred colour crops of the faces inside
    `corners` ((n, 4, 2) TL, TR, BR, BL in `image` pixels), for `alike`."""
    from vision.classify import rectify, widen  # classify imports this module

    size = (LOOK_W + 2 * SHIFT, LOOK_H + 2 * SHIFT)
    looks = np.zeros((len(corners), 3, size[1], size[0]), np.float32)
    for i, quad in enumerate(widen(corners, _FACE_SHARE)):
        crop = rectify(image, quad, size=size)
        blurred = cv2.GaussianBlur(crop.astype(np.float32), (0, 0), _BLUR)
        looks[i] = blurred.reshape(size[1], size[0], -1)[..., :3].transpose(2, 0, 1)
    return looks


def alike(looks: FloatArray) -> FloatArray:
    """(n, n) likeness in [-1, 1] of every pair of faces; 1 on the diagonal."""
    if len(looks) == 0:
        return np.zeros((0, 0), np.float32)
    best = alike_to(looks, looks)
    best = np.maximum(best, best.T)
    np.fill_diagonal(best, 1.0)
    return best


def alike_to(looks: FloatArray, others: FloatArray, floor: float = 1e-6) -> FloatArray:
    """(n, m) likeness in [-1, 1] of each of `looks` to each of `others` (a taught set's),
    at the best shift of `others` and either half turn. `floor` is added to each face's
    contrast before it is scaled to unit norm: with a floor, a face with little print (a
    blank white dragon, a tile's back) is like nothing rather than like any other."""
    if len(looks) == 0 or len(others) == 0:
        return np.zeros((len(looks), len(others)), np.float32)
    centre = _normalized(looks[:, :, SHIFT : SHIFT + LOOK_H, SHIFT : SHIFT + LOOK_W], floor)
    best = np.full((len(looks), len(others)), -1.0, np.float32)
    for dy in range(-SHIFT, SHIFT + 1):
        for dx in range(-SHIFT, SHIFT + 1):
            window = others[
                :, :, SHIFT + dy : SHIFT + dy + LOOK_H, SHIFT + dx : SHIFT + dx + LOOK_W
            ]
            for turned in (window, window[:, :, ::-1, ::-1]):
                best = np.maximum(best, centre @ _normalized(turned, floor).T)
    return best


def describe_crops(crops: np.ndarray, margin: float) -> FloatArray:
    """`describe` of faces already rectified into crops (n, h, w, 3) that keep `margin` times
    the face (the classifier's crops keep FACE_MARGIN): the middle cut out and blurred alike."""
    size = (LOOK_W + 2 * SHIFT, LOOK_H + 2 * SHIFT)
    looks = np.zeros((len(crops), 3, size[1], size[0]), np.float32)
    for i, crop in enumerate(crops):
        h, w = crop.shape[:2]
        keep = _FACE_SHARE / margin
        y0, x0 = round(h * (1 - keep) / 2), round(w * (1 - keep) / 2)
        middle = crop[y0 : h - y0, x0 : w - x0]
        small = cv2.resize(middle, size, interpolation=cv2.INTER_AREA).astype(np.float32)
        blurred = cv2.GaussianBlur(small, (0, 0), _BLUR)
        looks[i] = blurred.reshape(size[1], size[0], -1)[..., :3].transpose(2, 0, 1)
    return looks


def log_likeness_ratio(likeness: FloatArray) -> FloatArray:
    """Evidence that two faces are one face, as a log likelihood ratio, per likeness."""
    ratio = LOG_RATIO_A + LOG_RATIO_B * likeness.astype(np.float64)
    return np.asarray(np.clip(ratio, -LOG_RATIO_CLIP, LOG_RATIO_CLIP), np.float32)


def log_same_group_ratio(likeness: FloatArray) -> FloatArray:
    """Evidence that two flower tiles are of one group (two flowers, or two seasons), as a
    log likelihood ratio, per likeness."""
    return np.asarray(GROUP_RATIO_A + GROUP_RATIO_B * likeness.astype(np.float64), np.float32)


def _normalized(window: FloatArray, floor: float = 1e-6) -> FloatArray:
    """(n, d) zero mean per channel, unit norm per face: lighting and contrast do not count
    (but for `floor`, in grey levels per pixel: see `alike_to`)."""
    flat = window - window.mean(axis=(2, 3), keepdims=True)
    flat = flat.reshape(len(window), -1)
    norm = np.linalg.norm(flat, axis=1, keepdims=True) + floor * np.sqrt(flat.shape[1])
    return np.asarray(flat / norm, np.float32)


def crop_looks(crops: list[np.ndarray]) -> FloatArray:
    """`describe` of single-tile photos, each face filling its image (`mjlens classify`)."""
    looks = [
        describe(crop, np.array([[[0, 0], [w, 0], [w, h], [0, h]]], np.float32))
        for crop in crops
        for h, w in [crop.shape[:2]]
    ]
    if not looks:
        return np.zeros((0, 3, LOOK_H + 2 * SHIFT, LOOK_W + 2 * SHIFT), np.float32)
    return np.concatenate(looks)
