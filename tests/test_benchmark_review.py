"""The review benchmark's reliability bins and their diagram."""

from pathlib import Path

import cv2
import numpy as np

from benchmarks.review import reliability, reliability_png


def test_reliability_bins_hold_each_photo_once_with_its_mean_and_share_right() -> None:
    p = np.array([0.05, 0.05, 0.95, 0.97, 0.6])
    right = np.array([False, True, True, True, False])
    bins = reliability(p, right)
    assert sum(b["photos"] for b in bins) == 5
    low = next(b for b in bins if b["bin"] == "0.00-0.10")
    assert low["photos"] == 2 and low["right"] == 0.5 and low["mean_p"] == 0.05


def test_the_diagram_draws_a_dot_where_a_bin_lies(tmp_path: Path) -> None:
    path = tmp_path / "reliability.png"
    reliability_png([{"bin": "0.90-0.95", "photos": 10, "mean_p": 0.9, "right": 0.5}], 0.915, path)
    image = cv2.imread(str(path))
    assert image is not None and image.shape == (516, 516, 3)
    # the dot's centre: 48 px of margin, 420 px a unit of probability
    x, y = 48 + int(0.9 * 420), 48 + int(0.5 * 420)
    assert tuple(image[y, x]) == (200, 120, 0)
    assert tuple(image[48 + int(0.15 * 420), 48 + int(0.15 * 420)]) == (255, 255, 255)
