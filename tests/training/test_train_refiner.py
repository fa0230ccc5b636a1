"""The corner refiner's training pieces: the corner order of its targets, the jitter, the net."""

from __future__ import annotations

import numpy as np
import pytest

from training.train_refiner import closest_turn, face_widths, max_corner_error, throw_off
from vision.refine import FACE, PATCH, targets


def _face(cx: float = 100.0, cy: float = 80.0) -> np.ndarray:
    return np.array(
        [[cx - 20, cy - 26], [cx + 20, cy - 26], [cx + 20, cy + 26], [cx - 20, cy + 26]], np.float32
    )


def test_truth_is_rolled_to_the_detected_quads_order() -> None:
    truth = _face()
    for k in range(4):
        quad = np.roll(truth, k, axis=0) + 1.5  # the same face, its corners named from another one
        np.testing.assert_array_equal(closest_turn(quad, truth), np.roll(truth, k, axis=0))


def test_thrown_off_quads_miss_by_a_detectors_margin() -> None:
    rng = np.random.default_rng(3)
    truth = np.repeat(_face()[None], 2000, axis=0)
    moved = throw_off(truth, rng, far=0.0)
    error = max_corner_error(np.zeros((len(truth), 8), np.float32), targets(moved, truth))
    # the detector's own quads: median 0.12-0.13 face widths (benchmarks/corners.py)
    assert 0.06 < float(np.median(error)) < 0.2
    assert face_widths(truth)[0] == pytest.approx(40.0)


def test_the_net_answers_eight_offsets_inside_the_crop() -> None:
    torch = pytest.importorskip("torch")
    from training.train_refiner import build_net

    net = build_net().eval()
    with torch.no_grad():
        out = net(torch.rand(3, 3, PATCH[1], PATCH[0])).numpy()
    assert out.shape == (3, 8)
    points = FACE + out.reshape(3, 4, 2) * (FACE[1, 0] - FACE[0, 0])
    assert (
        (points >= 0).all()
        and (points[..., 0] <= PATCH[0]).all()
        and (points[..., 1] <= PATCH[1]).all()
    )
