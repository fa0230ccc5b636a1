"""The taught-set benchmark: its fit finds the weights that made the data, its ECE is the
textbook one, and it keeps only enrollment photos that show every face."""

from __future__ import annotations

import numpy as np

from benchmarks.sets import ece, in_sight, newton_fit


def test_the_fit_recovers_the_weights_the_tiles_were_drawn_with() -> None:
    rng = np.random.default_rng(0)
    n, k = 4000, 12
    logp = np.log(rng.dirichlet(np.ones(k) * 0.5, n))
    like = rng.uniform(-0.2, 1.0, (n, k))
    printed = rng.uniform(-0.2, 1.0, (n, k))
    taught = np.ones((n, k), bool)
    taught[:, -2:] = False
    truth_weights = np.array([0.5, 5.0, 4.0, 6.0])
    feats = np.stack(
        [logp, np.where(taught, like, 0), (~taught).astype(float), np.where(taught, printed, 0)],
        axis=2,
    )
    z = feats @ truth_weights
    p = np.exp(z - z.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    truth = [int(rng.choice(k, p=row)) for row in p]
    fitted = np.array(newton_fit(feats, truth))
    np.testing.assert_allclose(fitted, truth_weights, rtol=0.15)


def test_ece_is_zero_when_confidence_matches_accuracy_and_counts_overconfidence() -> None:
    probs = np.array([[0.75, 0.25]] * 4, np.float32)
    assert ece(probs, [0, 0, 0, 1]) == 0.0
    assert abs(ece(probs, [1, 1, 1, 1]) - 0.75) < 1e-6


def test_an_enrollment_photo_with_a_face_out_of_sight_is_taken_again() -> None:
    """Every face of the set labelled, each 0.9 of it showing, or the benchmark draws the
    photo again (a finger over a tile: a person retakes it)."""
    from datasets.scene.art import FaceSet

    faces = sorted(FaceSet("procedural", 3, (230, 230, 230)).codes)
    labels = [{"code": c, "face_visibility": 1.0} for c in faces]
    assert in_sight(labels, 3, "procedural")
    assert not in_sight(labels[1:], 3, "procedural")  # a face hidden whole: no label
    half = [dict(a) for a in labels]
    half[5]["face_visibility"] = 0.5
    assert not in_sight(half, 3, "procedural")
