"""The detector's corner spellings: canonical order, and diagonals with no cut."""

from __future__ import annotations

import numpy as np
import pytest

from vision import corner_code
from vision.detect import decode_heads
from vision.geometry import canonical_order


def _face(degrees: float, centre: tuple[float, float] = (3.0, -2.0)) -> np.ndarray:
    """A 30 x 40 face turned `degrees` clockwise on the image, TL TR BR BL as it reads."""
    a = np.radians(degrees)
    turn = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    quad = np.array([[-15, -20], [15, -20], [15, 20], [-15, 20]], float) @ turn.T
    return (quad + centre).astype(np.float32)


@pytest.mark.parametrize("degrees", np.arange(-180, 180, 7.5).tolist())
def test_diagonals_give_back_the_face_in_canonical_order(degrees: float) -> None:
    quad = _face(degrees)[None]
    got = corner_code.decode(corner_code.encode(quad))
    want = canonical_order(quad)
    if degrees % 180 == 45:  # on the cut itself rounding picks the half: either is right
        want = want if np.abs(got - want).max() < 1e-3 else np.roll(want, 2, axis=1)
    np.testing.assert_allclose(got, want, atol=1e-3)


def test_diagonals_spell_a_face_and_the_face_half_round_alike() -> None:
    quad = _face(33.0)[None]
    np.testing.assert_allclose(
        corner_code.encode(quad), corner_code.encode(np.roll(quad, 2, axis=1)), atol=1e-5
    )


def test_diagonals_change_little_where_the_canonical_order_jumps() -> None:
    """Either side of the cut (the face's up near the up-right diagonal, 45 degrees clockwise)
    the canonical targets differ by a whole face, the diagonal ones by a sliver."""
    before, after = _face(44.0)[None], _face(46.0)[None]
    jump = np.abs(canonical_order(before) - canonical_order(after)).max()
    step = np.abs(corner_code.encode(before) - corner_code.encode(after)).max()
    assert jump > 30
    assert step < 2


def test_a_perspective_quad_comes_back_clockwise() -> None:
    quad = np.array([[[-12, -18], [14, -21], [17, 19], [-15, 22]]], np.float32)
    got = corner_code.decode(corner_code.encode(quad))[0]
    np.testing.assert_allclose(got, canonical_order(quad)[0], atol=1e-3)
    u, v = got[1] - got[0], got[2] - got[1]
    assert u[0] * v[1] - u[1] * v[0] > 0


def test_decode_heads_reads_a_graph_that_spells_diagonals() -> None:
    heat = np.zeros((2, 16, 16), np.float32)
    reg = np.zeros((12, 16, 16), np.float32)
    heat[0, 5, 7] = 0.9
    reg[:4, 5, 7] = 0.75
    quad = _face(45.0, centre=(0.0, 0.0))
    reg[4:, 5, 7] = corner_code.encode(quad[None])[0] / 32.0
    tiles = decode_heads(heat, reg, threshold=0.3, code=corner_code.DIAGONALS)
    cell = np.array([7.5 * 4, 5.5 * 4], np.float32)
    np.testing.assert_allclose(tiles.corners[0], canonical_order(quad[None])[0] + cell, atol=1e-3)
