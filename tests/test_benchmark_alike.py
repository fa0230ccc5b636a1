"""The likeness evidence's fit: a logistic regression less the prior recovers the log ratio."""

from __future__ import annotations

import numpy as np

from benchmarks.alike import fit


def test_fit_recovers_the_log_likelihood_ratio_whatever_the_prior() -> None:
    # Copies' likeness ~ N(0.9, 0.1), two faces' ~ N(0.4, 0.1): the log likelihood ratio is
    # (0.9 - 0.4) / 0.01 * x - (0.81 - 0.16) / 0.02 = 50 x - 32.5, one copy pair in ten.
    rng = np.random.default_rng(0)
    copies = rng.normal(0.9, 0.1, 4000).tolist()
    two = rng.normal(0.4, 0.1, 40000).tolist()
    a, b = fit(copies, two)
    assert abs(b - 50) < 3
    assert abs(a - -32.5) < 2
    assert abs(a + b * 0.65) < 0.5  # even odds half way between the two means
