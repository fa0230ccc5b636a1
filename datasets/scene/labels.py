"""Labels from what was drawn: one per tile visible enough, in COCO's pixel convention.

Visibility is the share of a tile's silhouette still showing in the id map once neighbours, the
finger and the frame edge have taken their part.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from datasets.scene.body import Drawn
from datasets.scene.layout import Placement

AA_FRINGE = 1.0  # px of anti-aliased edge that the boxes take in
MIN_VISIBLE = 0.4  # tiles less visible than this (frame edge, finger, neighbours) get no label
OBLIQUE = 0.25  # |cos| of the view to the visible cap below which a label says "oblique"


def annotate(
    placements: list[Placement],
    drawn: dict[int, Drawn],
    ids: np.ndarray,
    source: str,
    design: str | None = None,
) -> tuple[list[dict[str, Any]], list[int]]:
    """One label per tile visible enough, and the placement index behind each label."""
    h, w = ids.shape
    counts = np.bincount(ids.ravel(), minlength=len(placements) + 1)
    out, kept = [], []
    for i, p in enumerate(placements):
        d = drawn[i]
        area = float(cv2.contourArea(d.hull.astype(np.float32)))
        visible = counts[i + 1] / max(area, 1.0)
        if visible < MIN_VISIBLE:
            continue
        # Labels use COCO's pixel convention (pixel i spans [i, i+1]); OpenCV draws pixel i
        # centred on i, hence the half-pixel shift. The face's (sharp) corners stand a hair
        # outside the rounded body; the box takes them in so that it holds the face quad.
        # OpenCV's anti-aliased fill also reaches about a pixel past the exact outline.
        extent = np.vstack([d.hull, d.corners])
        x0, y0 = extent.min(axis=0) + 0.5 - AA_FRINGE
        x1, y1 = extent.max(axis=0) + 0.5 + AA_FRINGE
        x0, y0, x1, y1 = max(x0, 0.0), max(y0, 0.0), min(x1, float(w)), min(y1, float(h))
        back = d.facing <= 0  # lying face-down, or standing with its back to us
        ann = {
            "code": "back" if back else p.code,
            "bbox": [round(float(v), 2) for v in (x0, y0, x1 - x0, y1 - y0)],
            "corners": [[round(float(x) + 0.5, 2), round(float(y) + 0.5, 2)] for x, y in d.corners],
            "sideways": p.sideways,
            "face_down": back,
            "role": p.role,
            "meld_id": p.meld_id,
            "source": source,
            "design": design or source,
            "visibility": round(min(float(visible), 1.0), 3),
            "face_visibility": round(_quad_visibility(ids, i + 1, d.corners), 3),
        }
        if back:
            ann["hidden_code"] = p.code
        if abs(d.facing) < OBLIQUE:
            ann["oblique"] = True  # its face or back is seen nearly edge-on: hard to read
        out.append(ann)
        kept.append(i)
    return out, kept


def _quad_visibility(ids: np.ndarray, tile_id: int, quad: np.ndarray) -> float:
    """Share of the visible cap's quad (face, or back) still showing this tile: what a crop
    along the corners would see of it, once neighbours, the finger and the frame took theirs."""
    h, w = ids.shape
    x0, y0 = np.floor(quad.min(axis=0)).astype(int)
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 1
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(mask, np.round((quad - (x0, y0)) * 16).astype(np.int32), 1, cv2.LINE_8, 4)
    total = int(mask.sum())
    if total == 0:
        return 0.0
    cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if cx1 <= cx0 or cy1 <= cy0:
        return 0.0
    inside = mask[cy0 - y0 : cy1 - y0, cx0 - x0 : cx1 - x0]
    mine = ids[cy0:cy1, cx0:cx1] == tile_id
    return float((mine & (inside > 0)).sum()) / total
