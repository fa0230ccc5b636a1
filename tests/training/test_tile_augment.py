"""Training augmentation: faces drawn by another hand keep their size, ground and count."""

from __future__ import annotations

import cv2
import numpy as np

from training.tile_augment import art_warp, augment


def _three_coins() -> np.ndarray:
    face = np.full((160, 120, 3), 240, np.uint8)
    for y in (40, 80, 120):
        cv2.circle(face, (60, y), 12, (20, 60, 200), -1)
    return face


def test_a_warped_face_keeps_its_size_ground_and_count() -> None:
    face = _three_coins()
    for seed in range(20):
        warped = art_warp(face, np.random.default_rng(seed))
        assert warped.shape == face.shape and warped.dtype == np.uint8
        assert tuple(warped[0, 0]) == (240, 240, 240)  # the ground, not black, fills in
        ink = (warped[..., 0] < 120).astype(np.uint8)
        assert cv2.connectedComponents(ink)[0] - 1 == 3


def test_warps_differ_from_the_face_and_from_each_other() -> None:
    face = _three_coins()
    a = art_warp(face, np.random.default_rng(1))
    b = art_warp(face, np.random.default_rng(2))
    assert np.abs(a.astype(int) - face).mean() > 1.0
    assert np.abs(a.astype(int) - b).mean() > 1.0


def test_augment_without_warp_share_draws_as_before() -> None:
    face = _three_coins()
    plain = augment(face, np.random.default_rng(7))
    again = augment(face, np.random.default_rng(7), warp_share=0.0)
    assert np.array_equal(plain, again)


def test_ink_restyle_changes_only_the_ink_and_keeps_some_of_it() -> None:
    from training.tile_augment import ink_restyle

    face = np.full((160, 120, 3), 235, np.uint8)
    face[40:120, 30:90] = (20, 60, 180)  # one block of ink on ivory
    ink = np.linalg.norm(face.astype(float) - 235, axis=2) > 60
    for seed in range(6):
        out = ink_restyle(face, np.random.default_rng(seed))
        assert out.shape == face.shape and out.dtype == np.uint8
        assert (out[~ink] == face[~ink]).all()  # the paper stays paper
        kept = (out[ink] == face[ink]).all(axis=1).mean()
        assert 0.05 < kept < 0.95  # a style, not the same print nor an empty face
    blank = np.full((160, 120, 3), 235, np.uint8)
    assert (ink_restyle(blank, np.random.default_rng(0)) == blank).all()


def test_a_small_tile_keeps_the_crop_size_and_loses_the_fine_strokes() -> None:
    from training.tile_augment import low_resolution

    crop = np.full((128, 96, 3), 240, np.uint8)
    crop[10:24:2, 8:20] = 20  # a small mark of one-pixel lines, as a corner numeral's strokes
    for seed in range(10):
        small = low_resolution(crop, np.random.default_rng(seed))
        assert small.shape == crop.shape and small.dtype == np.uint8
        mark = small[10:24, 8:20].astype(int)
        assert (
            np.abs(np.diff(mark, axis=0)).mean()
            < 0.5 * np.abs(np.diff(crop[10:24, 8:20].astype(int), axis=0)).mean()
        )
    assert np.array_equal(
        augment(crop, np.random.default_rng(7)),
        augment(crop, np.random.default_rng(7), lowres_share=0.0),
    )
