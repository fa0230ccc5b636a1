"""Which tiles lie a quarter turn from their neighbours (a claimed tile laid sideways, 横放).

A tile's long axis is read from its face corners; the dominant axis around it is the
confidence-free average of its nearest neighbours' axes in doubled-angle form (an axis has no
arrow, so 0 and 180 degrees must agree). A tile is sideways when its axis is more than 45
degrees from that dominant axis.
"""

from __future__ import annotations

import numpy as np

from vision.types import BoolArray, FloatArray

NEIGHBOURS = 6
REACH = 3.0  # neighbours within this many tile lengths count


def long_axes(corners: FloatArray) -> FloatArray:
    """(n, 2) doubled-angle unit vectors of each face's long axis."""
    up = (corners[:, 0] + corners[:, 1]) / 2 - (corners[:, 3] + corners[:, 2]) / 2
    across = (corners[:, 1] + corners[:, 2]) / 2 - (corners[:, 0] + corners[:, 3]) / 2
    up_len = np.linalg.norm(up, axis=1)
    across_len = np.linalg.norm(across, axis=1)
    # Faces are portrait; if the corners say otherwise, the long axis is "across".
    axis = np.where((up_len >= across_len)[:, None], up, across)
    angle = np.arctan2(axis[:, 1], axis[:, 0])
    return np.stack([np.cos(2 * angle), np.sin(2 * angle)], axis=1).astype(np.float32)


def sideways_flags(corners: FloatArray) -> BoolArray:
    """(n,) True where a tile's axis is a quarter turn from its neighbours'."""
    n = len(corners)
    if n < 3:
        return np.zeros(n, dtype=bool)
    axes = long_axes(corners)
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
        dominant = axes[near].sum(axis=0)
        if np.linalg.norm(dominant) < 1e-6:
            continue
        flags[i] = float(axes[i] @ dominant) < 0
    return flags
