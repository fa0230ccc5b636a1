"""Greedy non-maximum suppression over axis-aligned boxes, in numpy."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from vision.types import FloatArray


def box_iou(box: FloatArray, boxes: FloatArray) -> FloatArray:
    """IoU of one xyxy box against (n, 4) boxes."""
    x1 = np.maximum(box[0], boxes[:, 0])
    y1 = np.maximum(box[1], boxes[:, 1])
    x2 = np.minimum(box[2], boxes[:, 2])
    y2 = np.minimum(box[3], boxes[:, 3])
    inter = np.clip(x2 - x1, 0, None) * np.clip(y2 - y1, 0, None)
    area = (box[2] - box[0]) * (box[3] - box[1])
    areas = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    iou: FloatArray = (inter / np.maximum(area + areas - inter, 1e-6)).astype(np.float32)
    return iou


def nms(boxes: FloatArray, scores: FloatArray, iou_threshold: float) -> npt.NDArray[np.int_]:
    """Indices of the boxes kept, best first.

    Example:
        >>> b = np.array([[0, 0, 10, 10], [1, 1, 10, 10], [20, 20, 30, 30]], np.float32)
        >>> nms(b, np.array([0.9, 0.8, 0.7], np.float32), 0.5).tolist()
        [0, 2]
    """
    order = np.argsort(-scores, kind="stable")
    keep: list[int] = []
    while len(order):
        best = int(order[0])
        keep.append(best)
        rest = order[1:]
        order = rest[box_iou(boxes[best], boxes[rest]) <= iou_threshold]
    return np.array(keep, dtype=np.int_)
