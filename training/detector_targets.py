"""Training targets of the detector: canonical corner order, heatmaps, dense regressions.

The detector cannot tell a face from the same face turned half round at its input size, so
its corner targets are the face corners in a canonical order: rotated by half a turn when
needed so the face's "up" points into the upper-left half-plane. The classifier reads faces
either way up. The cut between the two halves lies on the diagonals, away from the upright
and sideways tiles that photos are full of.
"""

from __future__ import annotations

import numpy as np

from training.detector_net import REG_UNIT, STRIDE
from vision import corner_code
from vision.geometry import canonical_order


def canonical_corners(corners: np.ndarray) -> np.ndarray:
    """Face corners TL, TR, BR, BL (as the face reads) -> the same four in canonical order."""
    return canonical_order(np.asarray(corners, dtype=np.float32).reshape(1, 4, 2))[0]


def draw_targets(
    boxes: np.ndarray,
    corners: np.ndarray,
    face_down: np.ndarray,
    height: int,
    width: int,
    code: str = corner_code.CANONICAL,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Heatmaps (2, h, w), regression targets (12, h, w), regression weights (h, w).

    boxes: (n, 4) xyxy input pixels; corners: (n, 4, 2) canonical order; face_down: (n,);
    code: how the corner channels spell the quad (`vision.corner_code`).
    Regression is supervised where a tile's Gaussian exceeds one half, weighted by the
    inverse tile size so that small and large tiles pull alike.
    """
    h, w = height // STRIDE, width // STRIDE
    heat = np.zeros((2, h, w), np.float32)
    reg = np.zeros((12, h, w), np.float32)
    weight = np.zeros((h, w), np.float32)
    owner = np.zeros((h, w), np.float32)  # the Gaussian value of the tile owning each cell
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    px, py = (xs + 0.5) * STRIDE, (ys + 0.5) * STRIDE
    for box, quad, down in zip(boxes, corners, face_down, strict=True):
        centre = quad.mean(axis=0)
        side_a = np.linalg.norm(quad[1] - quad[0])
        side_b = np.linalg.norm(quad[3] - quad[0])
        size = float(np.sqrt(max(side_a * side_b, 1.0)))
        sigma = max(0.12 * min(side_a, side_b) / STRIDE, 0.6)
        cx, cy = centre / STRIDE - 0.5
        x0, x1 = int(max(cx - 3 * sigma, 0)), int(min(cx + 3 * sigma + 2, w))
        y0, y1 = int(max(cy - 3 * sigma, 0)), int(min(cy + 3 * sigma + 2, h))
        if x0 >= x1 or y0 >= y1:
            continue
        g = np.exp(-((xs[y0:y1, x0:x1] - cx) ** 2 + (ys[y0:y1, x0:x1] - cy) ** 2) / (2 * sigma**2))
        # The exact peak cell gets 1.0 even when the centre falls between cells.
        ix, iy = int(np.clip(round(cx), 0, w - 1)), int(np.clip(round(cy), 0, h - 1))
        channel = int(bool(down))
        heat[channel, y0:y1, x0:x1] = np.maximum(heat[channel, y0:y1, x0:x1], g)
        heat[channel, iy, ix] = 1.0
        take = (g > 0.5) & (g > owner[y0:y1, x0:x1])
        if 0 <= iy - y0 < y1 - y0 and 0 <= ix - x0 < x1 - x0:
            take[iy - y0, ix - x0] = True
        if not take.any():
            continue
        cell_x, cell_y = px[y0:y1, x0:x1][take], py[y0:y1, x0:x1][take]
        values = [cell_x - box[0], cell_y - box[1], box[2] - cell_x, box[3] - cell_y]
        if code == corner_code.DIAGONALS:
            cells = np.stack([cell_x, cell_y], axis=1)[:, None, :]
            values += list(corner_code.encode(quad[None] - cells).T)
        else:
            for k in range(4):
                values += [quad[k, 0] - cell_x, quad[k, 1] - cell_y]
        region_y, region_x = np.nonzero(take)
        region_y, region_x = region_y + y0, region_x + x0
        for c, v in enumerate(values):
            reg[c, region_y, region_x] = v / REG_UNIT
        weight[region_y, region_x] = REG_UNIT / size
        owner[region_y, region_x] = g[take]
    return heat, reg, weight
