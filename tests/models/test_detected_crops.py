"""Labelling detections by the annotated face their centre falls on."""

from __future__ import annotations

import numpy as np

from models.detected_crops import label_detections


def _ann(x: float, y: float, size: float = 10.0) -> dict:
    return {"corners": [[x, y], [x + size, y], [x + size, y + size], [x, y + size]]}


def test_each_face_labels_at_most_one_detection() -> None:
    anns = [_ann(0, 0), _ann(20, 0)]
    centres = np.array([[5.0, 5.0], [6.0, 4.0], [25.0, 5.0], [50.0, 50.0]])
    # the second detection on the first face is a duplicate; the last is on no face
    assert label_detections(centres, anns) == [0, None, 1, None]


def test_no_faces_no_labels() -> None:
    assert label_detections(np.array([[1.0, 1.0]]), []) == [None]
