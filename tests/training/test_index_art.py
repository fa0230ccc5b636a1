"""Faces for the index reader: the index is forced, the rest of the face is the design's."""

from __future__ import annotations

import numpy as np

from datasets.faces.procedural.canvas import Canvas
from scoring.tiles import FLOWERS
from tests.datasets.test_faces import _source
from training.index_art import INDEX_CODES, index_face, index_label, index_text
from vision.indices import INDEX_SYMBOLS


def test_labels_follow_the_shares_and_name_the_text() -> None:
    rng = np.random.default_rng(0)
    labels = [index_label(rng) for _ in range(4000)]
    assert 0.26 < labels.count(0) / len(labels) < 0.34
    assert set(labels) == set(range(len(INDEX_SYMBOLS)))
    for label in (INDEX_SYMBOLS.index("6"), INDEX_SYMBOLS.index("E")):
        texts = {index_text(label, rng) for _ in range(200)}
        assert texts <= {"6", "六", "E"} and texts & {"6", "E"}
    assert index_text(0, rng) is None


def test_every_face_takes_an_index_flowers_in_their_numeral() -> None:
    from datasets.faces.procedural import draw_face

    assert set(FLOWERS) < set(INDEX_CODES) and len(INDEX_CODES) == 42
    for seed in range(6):  # the title layout prints no numeral of its own: a forced one shows
        blank = draw_face("6h", np.random.default_rng(seed), None)
        marked = draw_face("6h", np.random.default_rng(seed), "3")
        differs = np.abs(blank.astype(int) - marked.astype(int)).max(axis=2) > 40
        assert 0 < differs.mean() < 0.1


def test_a_forced_index_changes_only_the_corner_of_the_same_design() -> None:
    source = _source("procedural")
    from datasets.faces.procedural import draw_face

    plain = draw_face("6s", np.random.default_rng(3), None)
    marked = draw_face("6s", np.random.default_rng(3), "9", "r")
    assert plain.shape == marked.shape == source.face("6s", np.random.default_rng(3)).shape
    differs = np.abs(plain.astype(int) - marked.astype(int)).max(axis=2) > 40
    assert differs.any()
    # The design is the same: the faces differ in a small part (the index, the pattern
    # moved over for it), not all over.
    assert differs.mean() < 0.25
    face, label = index_face(np.random.default_rng(5))
    assert face.ndim == 3 and 0 <= label < len(INDEX_SYMBOLS)


def test_a_circle_of_no_radius_draws_nothing() -> None:
    """A coin's inner ring on a squeezed face came out with a negative radius and crashed
    the index reader's second training run (Pillow: x1 must be >= x0)."""
    canvas = Canvas((250, 250, 246))
    before = np.asarray(canvas.image).copy()
    canvas.circle(20.0, 20.0, -0.5, fill=(0, 0, 0))
    np.testing.assert_array_equal(np.asarray(canvas.image), before)
