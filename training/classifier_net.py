"""The tile classifier network: a small residual CNN on an 80x64 rectified face crop.

Training-time only (torch). The exported ONNX graph takes float RGB in [0, 1], NCHW, and
returns calibrated probabilities over `scoring.tiles.CLASSES` (temperature folded in), from
the logits of the crop and of the crop turned half round, averaged.
"""

from __future__ import annotations

import torch
from torch import nn

NUM_CLASSES = 43


def _conv_bn(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)
    )


class Residual(nn.Module):
    """Downsample by `stride`, then one residual 3x3 conv."""

    def __init__(self, cin: int, cout: int, stride: int) -> None:
        super().__init__()
        self.down = _conv_bn(cin, cout, stride)
        self.conv = nn.Sequential(nn.Conv2d(cout, cout, 3, 1, 1, bias=False), nn.BatchNorm2d(cout))
        self.act = nn.ReLU(inplace=True)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.down(x)
        return self.act(x + self.conv(x))


class TileClassifier(nn.Module):
    def __init__(self, num_classes: int = NUM_CLASSES, width: int = 32) -> None:
        super().__init__()
        self.register_buffer("mean", torch.tensor([0.5, 0.5, 0.5]).view(1, 3, 1, 1))
        self.register_buffer("std", torch.tensor([0.25, 0.25, 0.25]).view(1, 3, 1, 1))
        self.features = nn.Sequential(
            _conv_bn(3, 24, 2),  # 40x32
            _conv_bn(24, width),
            Residual(width, 2 * width, 2),  # 20x16
            Residual(2 * width, 4 * width, 2),  # 10x8
            Residual(4 * width, 8 * width, 2),  # 5x4
        )
        self.head = nn.Sequential(
            nn.AdaptiveAvgPool2d(1),
            nn.Flatten(),
            nn.Dropout(0.2),
            nn.Linear(8 * width, num_classes),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Logits from float RGB in [0, 1]."""
        x = (x - self.mean) / self.std
        return self.head(self.features(x))


def both_ways(net: nn.Module, x: torch.Tensor) -> torch.Tensor:
    """Mean logits of the crops and the crops turned half round.

    The detector's corners may put a face upside down, so the net is trained on both; asking
    it both ways and averaging reads unseen designs better (KDE faces 60.6 -> 62.4 %, camerash
    85.7 -> 87.3 % top-1 with the first shipped weights) for twice the classifier's time.
    """
    return (net(x) + net(torch.flip(x, dims=(2, 3)))) / 2


class Calibrated(nn.Module):
    """What ships: both-ways logits / temperature, softmaxed."""

    def __init__(self, net: TileClassifier, temperature: float) -> None:
        super().__init__()
        self.net = net
        self.temperature = float(temperature)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(both_ways(self.net, x) / self.temperature, dim=1)


class Ensemble(nn.Module):
    """What ships when two runs read better together: their calibrated probabilities
    averaged, then sharpened or softened by one more temperature (a mean of calibrated
    readings is underconfident). Two runs trained on different faces misread different
    tiles, and where they disagree the mean is unsure, which the review flag then catches."""

    def __init__(self, members: list[Calibrated], temperature: float = 1.0) -> None:
        super().__init__()
        self.members = nn.ModuleList(members)
        self.temperature = float(temperature)

    def mean_log_probs(self, x: torch.Tensor) -> torch.Tensor:
        return torch.log(torch.stack([m(x) for m in self.members]).mean(dim=0) + 1e-12)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(self.mean_log_probs(x) / self.temperature, dim=1)
