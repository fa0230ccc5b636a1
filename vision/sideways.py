"""Which tiles lie a quarter turn from their neighbours (a claimed tile laid sideways, 横放).

A sideways tile is wider along its row than the upright tiles beside it: a face is 3 by 4,
so turned it spans about 16/9 of its neighbours' width-to-height ratio. The row's direction
is the main axis of the neighbours' centres; each face's ratio is its extent along that
direction over its extent across it, and a tile is sideways when its ratio is more than
RATIO times the median of its neighbours'. Comparing with the neighbours, not reading a
face's own long axis, matters in real photos: a camera tilted over a row foreshortens the
upright faces until they are nearly square, and then their own long axis flips at random
(8 % of the found real faces came out sideways that way).
"""

from __future__ import annotations

import numpy as np

from vision.types import BoolArray, FloatArray

NEIGHBOURS = 6
REACH = 3.0  # neighbours within this many tile lengths count
# Between 1 (alike) and 16/9 (a quarter turn): chosen on the detector's faces of real
# camerash faces laid out as wins and of held-out KDE photos (1.33 over 1.2: fewer errors).
RATIO = 1.33


def _row_ratio(quad: FloatArray, along: FloatArray, across: FloatArray) -> float:
    a, b = quad @ along, quad @ across
    return float((a.max() - a.min()) / max(float(b.max() - b.min()), 1e-6))


def sideways_flags(corners: FloatArray) -> BoolArray:
    """(n,) True where a tile is a quarter turn from its neighbours."""
    n = len(corners)
    if n < 3:
        return np.zeros(n, dtype=bool)
    centres = corners.mean(axis=1)
    length = np.linalg.norm(corners[:, 0] - corners[:, 3], axis=1)
    dist = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    np.fill_diagonal(dist, np.inf)
    flags = np.zeros(n, dtype=bool)
    for i in range(n):
        order = np.argsort(dist[i])[:NEIGHBOURS]
        near = order[dist[i, order] < REACH * max(float(length[i]), 1.0)]
        if len(near) < 2:
            continue
        group = np.r_[i, near]
        spread = centres[group] - centres[group].mean(axis=0)
        along = np.linalg.svd(spread, full_matrices=False)[2][0]
        across = np.array([-along[1], along[0]], dtype=along.dtype)
        ratio = _row_ratio(corners[i], along, across)
        usual = float(np.median([_row_ratio(corners[j], along, across) for j in near]))
        flags[i] = ratio > RATIO * usual
    return flags
