"""How the detector's regression head spells a face's four corners.

The detector cannot tell a face from the same face turned half round, so a quad's corners
are known only up to that turn: (c0, c1, c2, c3) and (c2, c3, c0, c1) are the same answer.
The first detectors regressed the corners in a canonical order (the face's up turned into
the upper-left half-plane, `vision.geometry.canonical_order`); across the cut between the
two halves, faces whose up lies near the up-right diagonal, the target jumps half a turn,
the network averages both and the quad collapses to its centre. On the real-face wins the
photos whose tiles lie within 15 degrees of that cut were 23 % right against 76 % for
upright ones, with 7.9 % of their hand tiles missed.

"diagonals" spells a quad with no such cut: each diagonal {c0, c2} and {c1, c3} as its
midpoint and its half-vector d in doubled-angle form (|d| cos 2a, |d| sin 2a), which d
and -d share. Decoding takes either end of the first diagonal, then the end of the second
that makes the quad clockwise, and puts the result in the canonical order the rest of the
pipeline reads. A graph says which spelling it uses in its `corner_code` metadata.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from vision.geometry import canonical_order

CANONICAL = "canonical"
DIAGONALS = "diagonals"
CODES = (CANONICAL, DIAGONALS)

Array = npt.NDArray[np.float32]


def _double(d: Array) -> Array:
    """(n, 2) vectors -> their doubled-angle form, the same for d and -d."""
    r = np.linalg.norm(d, axis=1, keepdims=True)
    dx, dy = d[:, :1], d[:, 1:]
    out = np.concatenate([dx * dx - dy * dy, 2 * dx * dy], axis=1) / np.maximum(r, 1e-6)
    return np.asarray(out, np.float32)


def _halve(e: Array) -> Array:
    """Doubled-angle form -> one of the two vectors it stands for."""
    r = np.linalg.norm(e, axis=1)
    a = np.arctan2(e[:, 1], e[:, 0]) / 2
    return np.stack([r * np.cos(a), r * np.sin(a)], axis=1).astype(np.float32)


def encode(quads: Array) -> Array:
    """(n, 4, 2) corners relative to the cell (either half-turn) -> (n, 8) regression targets:
    midpoint and doubled half-vector of diagonal c0-c2, then of diagonal c1-c3."""
    q = np.asarray(quads, np.float32).reshape(-1, 4, 2)
    parts: list[Array] = []
    for a, b in ((0, 2), (1, 3)):
        half = np.asarray((q[:, a] - q[:, b]) / 2, np.float32)
        parts += [np.asarray((q[:, a] + q[:, b]) / 2, np.float32), _double(half)]
    return np.concatenate(parts, axis=1).astype(np.float32)


def decode(codes: Array) -> Array:
    """(n, 8) regressions -> (n, 4, 2) corners relative to the cell, clockwise on the image
    (TL, TR, BR, BL of the face or of the face turned half round), in canonical order."""
    c = np.asarray(codes, np.float32).reshape(-1, 8)
    mid_a, d_a, mid_b, d_b = c[:, 0:2], _halve(c[:, 2:4]), c[:, 4:6], _halve(c[:, 6:8])
    c0, c2 = mid_a + d_a, mid_a - d_a
    c1, c3 = mid_b + d_b, mid_b - d_b
    # TL -> TR -> BR turns clockwise on an image whose y points down: a positive cross product.
    u, v = c1 - c0, c2 - c1
    flip = (u[:, 0] * v[:, 1] - u[:, 1] * v[:, 0]) < 0
    c1[flip], c3[flip] = c3[flip].copy(), c1[flip].copy()
    return canonical_order(np.stack([c0, c1, c2, c3], axis=1).astype(np.float32))
