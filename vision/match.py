"""Pair detections with labelled tiles, one to one: by box IoU, or by the face a centre lies on.

What the benchmarks measure with and the trainers label the detector's tiles with (each
detection labelled by the face its centre falls on); nothing in recognition uses it.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.nms import box_iou
from vision.types import FloatArray


def match(pred: FloatArray, truth: FloatArray, threshold: float = 0.5) -> list[tuple[int, int]]:
    """Greedy one-to-one pairs (prediction, truth) of xyxy boxes by IoU, best pairs first.

    Example:
        >>> truth = np.array([[0, 0, 10, 10]], np.float32)
        >>> match(np.array([[1, 0, 11, 10]], np.float32), truth)
        [(0, 0)]
    """
    if len(pred) == 0 or len(truth) == 0:
        return []
    iou = np.stack([box_iou(p, truth) for p in pred.astype(np.float32)])
    pairs: list[tuple[int, int]] = []
    while True:
        i, j = np.unravel_index(int(np.argmax(iou)), iou.shape)
        if iou[i, j] < threshold:
            return pairs
        pairs.append((int(i), int(j)))
        iou[i, :] = -1
        iou[:, j] = -1


def match_faces(
    centres: FloatArray, confidence: FloatArray, quads: FloatArray
) -> list[tuple[int, int]]:
    """One-to-one pairs (detection, tile) where the detection's centre lies on the tile's
    labelled face quad ((n, 4, 2)); more confident detections choose first."""
    pairs: list[tuple[int, int]] = []
    taken: set[int] = set()
    for i in np.argsort(-confidence):
        point = (float(centres[i][0]), float(centres[i][1]))
        for j, quad in enumerate(quads):
            if j not in taken and cv2.pointPolygonTest(quad.reshape(-1, 1, 2), point, False) >= 0:
                pairs.append((int(i), j))
                taken.add(j)
                break
    return pairs
