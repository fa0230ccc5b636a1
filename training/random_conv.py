"""Random convolution of training crops (RandConv: Xu et al., ICLR 2021).

The held-out designs differ from the trained ones in their ink, texture and stroke more than
in what the faces show: nine coins are nine coins. Passing a share of each batch through a
convolution with random weights (a new kernel each batch, 1 to 7 pixels wide, mixing the
colour channels) keeps every shape and scrambles its local look, so the net has to read the
shapes. The result is blended with the crop by a random weight, as the paper does, and keeps
the crop's own per-channel mean and spread: a plain tile stays a plain tile.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F

KERNEL_SIZES = (1, 3, 5, 7)


def random_convolution(x: torch.Tensor, share: float, generator: torch.Generator) -> torch.Tensor:
    """`x` (n, 3, h, w) in [0, 1] with about `share` of its crops convolved; `x` is not changed."""
    if share <= 0:
        return x
    picked = (torch.rand(x.shape[0], generator=generator) < share).to(x.device)
    if not bool(picked.any()):
        return x
    k = KERNEL_SIZES[int(torch.randint(len(KERNEL_SIZES), (1,), generator=generator))]
    # He-style scale: the output's spread does not depend on the kernel's size.
    weight = torch.randn(3, 3, k, k, generator=generator) / (3 * k * k) ** 0.5
    src = x[picked]
    out = F.conv2d(src, weight.to(x), padding=k // 2)
    mean, std = src.mean((2, 3), keepdim=True), src.std((2, 3), keepdim=True)
    out_mean, out_std = out.mean((2, 3), keepdim=True), out.std((2, 3), keepdim=True)
    out = (out - out_mean) / (out_std + 1e-6) * std + mean
    alpha = torch.rand(len(src), 1, 1, 1, generator=generator).to(x)
    mixed = x.clone()
    mixed[picked] = (alpha * src + (1 - alpha) * out).clamp(0, 1)
    return mixed
