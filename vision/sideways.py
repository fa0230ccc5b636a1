"""Which tiles lie a quarter turn from their neighbours (a claimed tile laid sideways, 横放).

Two clues, each weak alone on the detector's faces of real photos:

- Width. A sideways tile is wider along its row than the upright tiles beside it: a face is
  3 by 4, so turned it spans about 16/9 of its neighbours' width-to-height ratio. The row's
  direction is the main axis of the neighbours' centres; each face's ratio is its extent
  along that direction over its extent across it. Comparing with the neighbours, not reading
  a face's own long axis, matters: a camera tilted over a row foreshortens the upright faces
  until they are nearly square, and their own long axis flips at random. But the detector's
  quads of sideways tiles are loose (their width correlates only 0.26 with the true one), so
  width alone misses a third of them or, with a lower bar, flags upright tiles.
- Turn. The detector's corners follow the face's reading direction (up to half a turn), so a
  face whose "up" is a quarter turn from its neighbours' is turned, however square it looks.
  Alone this flags too many upright faces (its read of the glyph's direction is noisy).

A tile is sideways when it is clearly wider than its neighbours (WIDE), or when it is turned
(TURNED) and at least as wide as they are (WIDER_IF_TURNED); either way only if its quad is
not nearly square (SQUARE): there neither clue means anything.
"""

from __future__ import annotations

import numpy as np

from vision.geometry import face_sides, face_ups
from vision.types import BoolArray, FloatArray

NEIGHBOURS = 6
REACH = 3.0  # neighbours within this many tile lengths count
# Chosen on the detector's faces of real camerash faces laid out as wins (.cache/bench_real)
# and of held-out KDE photos (.cache/bench_kde4), minimising false plus missed flags: 160 ->
# 91 and 267 -> 174 of 5,124 and 10,076 found tiles, from the width clue alone (over 1.33).
WIDE = 1.5  # the width clue alone: 16/9 is a quarter turn, 1 alike
WIDER_IF_TURNED = 1.0
# A face whose quad is nearly square says nothing of its own turn: a flag on it needs its long
# side this many times its short (a face is 4 by 3). With detector G2, flags on faces squarer
# than this were wrong 5 times in 5 on half the real-face wins; over both sets below, false
# plus missed flags 102 -> 86 (real faces) and 180 -> 161 (held-out KDE) at 1.2, against 92
# and 171 at 1.1, 91 and 192 at 1.3 (`python benchmarks/detected_faces.py --data ...`).
SQUARE = 1.2
TURNED = np.radians(60.0)  # "up" this far from the neighbours' (a quarter turn is 90)


def _row_ratio(quad: FloatArray, along: FloatArray, across: FloatArray) -> float:
    a, b = quad @ along, quad @ across
    return float((a.max() - a.min()) / max(float(b.max() - b.min()), 1e-6))


def _up_angles(corners: FloatArray) -> FloatArray:
    """Each face's reading direction (top edge's midpoint minus bottom edge's), as an angle."""
    up = face_ups(corners)
    angles: FloatArray = np.arctan2(up[:, 1], up[:, 0])
    return angles


def _turn_from(angle: float, others: FloatArray) -> float:
    """How far `angle` is from the others' typical direction, modulo half a turn (radians)."""
    doubled = np.exp(2j * others)  # half a turn apart reads alike
    typical = np.angle(np.median(doubled.real) + 1j * np.median(doubled.imag)) / 2
    return float(abs((angle - typical + np.pi / 2) % np.pi - np.pi / 2))


def sideways_flags(corners: FloatArray) -> BoolArray:
    """(n,) True where a tile is a quarter turn from its neighbours."""
    n = len(corners)
    if n < 3:
        return np.zeros(n, dtype=bool)
    centres = corners.mean(axis=1)
    sides = face_sides(corners)
    length = sides[:, 1]
    dist = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    np.fill_diagonal(dist, np.inf)
    angles = _up_angles(corners)
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
        wider = ratio / float(np.median([_row_ratio(corners[j], along, across) for j in near]))
        turned = _turn_from(float(angles[i]), angles[near]) > TURNED
        flags[i] = wider > WIDE or (turned and wider > WIDER_IF_TURNED)
    flags &= sides.max(axis=1) >= SQUARE * np.maximum(sides.min(axis=1), 1e-6)
    return flags
