"""The tile detector network: a small from-scratch CNN with a stride-4 anchor-free head.

Training-time only (torch). Per output cell (stride 4) it predicts:
  heat (2): centre heatmaps for a face-up tile and a face-down tile (sigmoid),
  box (4): distances from the cell to the tile's box edges left, top, right, bottom,
  corners (8): the face's four corners relative to the cell, in the canonical order of
      `training.detector_targets.canonical_corners`,
all regressions in units of `REG_UNIT` input pixels. The input is float RGB in [0, 1], NCHW,
with H and W multiples of 32.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

STRIDE = 4
REG_UNIT = 32.0
HEAT, BOX, CORNERS = 2, 4, 8


def conv_bn(cin: int, cout: int, stride: int = 1, k: int = 3) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, k, stride, k // 2, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class Stage(nn.Module):
    """Downsample by two, then `depth` residual 3x3 convs."""

    def __init__(self, cin: int, cout: int, depth: int) -> None:
        super().__init__()
        self.down = conv_bn(cin, cout, 2)
        self.blocks = nn.ModuleList(
            nn.Sequential(nn.Conv2d(cout, cout, 3, 1, 1, bias=False), nn.BatchNorm2d(cout))
            for _ in range(depth)
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.down(x)
        for block in self.blocks:
            x = F.relu(x + block(x))
        return x


class TileDetector(nn.Module):
    def __init__(self, widths: tuple[int, ...] = (16, 24, 48, 96, 128), head: int = 32) -> None:
        super().__init__()
        self.stem = conv_bn(3, widths[0], 2)  # /2
        self.s4 = Stage(widths[0], widths[1], 1)  # /4
        self.s8 = Stage(widths[1], widths[2], 1)  # /8
        self.s16 = Stage(widths[2], widths[3], 2)  # /16
        self.s32 = Stage(widths[3], widths[4], 1)  # /32
        self.lat32 = conv_bn(widths[4], head, k=1)
        self.lat16 = conv_bn(widths[3], head, k=1)
        self.lat8 = conv_bn(widths[2], head, k=1)
        self.lat4 = conv_bn(widths[1], head, k=1)
        self.smooth = conv_bn(head, head)
        self.heat = nn.Conv2d(head, HEAT, 1)
        self.reg = nn.Conv2d(head, BOX + CORNERS, 1)
        nn.init.constant_(self.heat.bias, -4.0)  # start near "no tile anywhere" (focal loss)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """(heat probabilities (N, 2, H/4, W/4), regressions (N, 12, H/4, W/4))."""
        c4 = self.s4(self.stem(x - 0.5))
        c8 = self.s8(c4)
        c16 = self.s16(c8)
        c32 = self.s32(c16)
        p = self.lat32(c32)
        p = self.lat16(c16) + F.interpolate(p, scale_factor=2.0, mode="nearest")
        p = self.lat8(c8) + F.interpolate(p, scale_factor=2.0, mode="nearest")
        p = self.lat4(c4) + F.interpolate(p, scale_factor=2.0, mode="nearest")
        p = self.smooth(p)
        return torch.sigmoid(self.heat(p)), self.reg(p)
