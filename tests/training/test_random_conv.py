"""Random convolution of training crops: shapes kept, look changed, only the share touched."""

from __future__ import annotations

import cv2
import numpy as np
import torch

from training.random_conv import random_convolution


def _three_coins() -> torch.Tensor:
    face = np.full((80, 64, 3), 0.94, np.float32)
    for y in (20, 40, 60):
        cv2.circle(face, (32, y), 7, (0.1, 0.25, 0.8), -1)
    return torch.from_numpy(face).permute(2, 0, 1)


def test_no_share_leaves_the_batch_alone() -> None:
    x = torch.rand(8, 3, 80, 64)
    assert random_convolution(x, 0.0, torch.Generator().manual_seed(0)) is x


def test_convolved_crops_keep_range_and_shapes_but_change_look() -> None:
    x = _three_coins().expand(16, -1, -1, -1).contiguous()
    out = random_convolution(x, 1.0, torch.Generator().manual_seed(1))
    assert out.shape == x.shape and float(out.min()) >= 0 and float(out.max()) <= 1
    assert torch.equal(x, _three_coins().expand(16, -1, -1, -1))  # the input is not changed
    changed = (out - x).abs().mean((1, 2, 3))
    assert float(changed.max()) > 0.01
    coins = (x[0, 0] < 0.5).numpy().astype(np.uint8)
    near = cv2.dilate(coins, np.ones((9, 9), np.uint8)).astype(bool)  # a 7-pixel kernel's reach
    for crop in out:  # what differs from the ground lies on and around the coins
        away = np.abs(crop.numpy() - np.median(crop.numpy(), (1, 2), keepdims=True)).sum(0)
        assert away[near].mean() > 3 * away[~near].mean()


def test_only_about_the_share_is_touched() -> None:
    x = torch.rand(400, 3, 16, 16)
    out = random_convolution(x, 0.3, torch.Generator().manual_seed(2))
    touched = (out != x).flatten(1).any(1).float().mean().item()
    assert 0.2 < touched < 0.4
