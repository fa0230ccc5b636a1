"""The per-kind detector benchmark's one-to-one matching at IoU 0.5."""

from __future__ import annotations

import numpy as np

from benchmarks.detector_kinds import iou, matched


def box(x: float, y: float, w: float = 10, h: float = 10) -> np.ndarray:
    return np.array([x, y, x + w, y + h], np.float64)


def test_iou_of_a_box_with_itself_and_a_stranger() -> None:
    found = np.stack([box(0, 0), box(100, 100)])
    assert iou(box(0, 0), found).tolist() == [1.0, 0.0]


def test_one_detection_matches_one_label_only() -> None:
    # Two labels on top of each other and one detection: one tile found, not two.
    assert matched([box(0, 0), box(0, 0)], np.stack([box(0, 0)])) == 1


def test_a_shifted_box_under_half_overlap_is_a_miss() -> None:
    assert matched([box(0, 0)], np.stack([box(6, 0)])) == 0  # IoU 4/16
    assert matched([box(0, 0)], np.stack([box(2, 0)])) == 1  # IoU 8/12


def test_no_detections() -> None:
    assert matched([box(0, 0)], np.zeros((0, 4))) == 0
