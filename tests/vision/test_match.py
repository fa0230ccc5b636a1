"""Detections paired with labelled tiles: box IoU pairs and face-centre pairs, one to one."""

import numpy as np

from vision.match import match, match_faces


def test_match_pairs_boxes_one_to_one() -> None:
    truth = np.array([[0, 0, 10, 10], [20, 0, 30, 10]], np.float32)
    pred = np.array([[21, 0, 31, 10], [1, 0, 11, 10], [0, 0, 10, 10]], np.float32)
    assert sorted(match(pred, truth)) == [(0, 1), (2, 0)]


def test_match_faces_takes_the_most_confident_detection_on_each_face() -> None:
    faces = np.array([[[0, 0], [10, 0], [10, 14], [0, 14]], [[20, 0], [30, 0], [30, 14], [20, 14]]])
    centres = np.array([[5, 7], [4, 6], [50, 50], [25, 3]], np.float32)
    confidence = np.array([0.5, 0.9, 0.99, 0.4], np.float32)
    assert sorted(match_faces(centres, confidence, faces.astype(np.float32))) == [(1, 0), (3, 1)]
