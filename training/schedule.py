"""The learning-rate schedules the trainers here run over their wall-clock budgets."""

from __future__ import annotations

import math

WARMUP = 0.03  # share of the budget over which the rate climbs linearly from zero


def warmup_cosine(base_lr: float, frac: float) -> float:
    """The rate at `frac` (0-1) of the budget: a linear warm-up over WARMUP, then a cosine
    from `base_lr` down to zero at the end of the budget."""
    return base_lr * min(1.0, frac / WARMUP) * 0.5 * (1 + math.cos(math.pi * frac))


def cosine(base_lr: float, frac: float) -> float:
    """The rate at `frac` (0-1) of the budget: a cosine from `base_lr` down to zero, no
    warm-up (the small networks trained from scratch in minutes)."""
    return base_lr * 0.5 * (1 + math.cos(math.pi * frac))
