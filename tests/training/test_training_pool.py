"""The classifier's training pool: procedural designs first, renewed as training draws."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("torch")

from datasets.faces import ArtMissing, get_source
from training.train_classifier import AugmentedFaces, build_pool


def _procedural() -> None:
    try:
        get_source("procedural")
    except ArtMissing as e:  # CI fetches the fonts first; elsewhere skip with the reason
        pytest.skip(str(e))


def test_procedural_faces_come_first_in_the_pool_whatever_the_order_asked() -> None:
    _procedural()
    a = build_pool(["unicode", "procedural"], per_code=2, seed=0)
    b = build_pool(["procedural", "unicode"], per_code=2, seed=0)
    for code in ("5p", "E"):
        assert len(a[code]) == 5  # two procedural designs, three unicode variants
        for x, y in zip(a[code], b[code], strict=True):
            assert np.array_equal(x, y), code


def test_renewal_replaces_only_the_procedural_slots() -> None:
    _procedural()
    pool = build_pool(["procedural", "unicode"], per_code=3, seed=1)
    before = {code: [face.copy() for face in faces] for code, faces in pool.items()}
    data = AugmentedFaces(pool, batch=48, seed=2, flower_share=0.0, fresh_share=1.0, fresh_slots=3)
    batches = iter(data)
    for _ in range(3):
        x, y = next(batches)
        assert x.shape == (48, 3, 80, 64) and y.shape == (48,)
    renewed = 0
    for code, faces in pool.items():
        for i, face in enumerate(faces):
            same = np.array_equal(face, before[code][i])
            if i >= 3:
                assert same, (code, i)  # the unicode variants stay
            renewed += not same
    assert renewed > 30


def test_no_renewal_without_a_share() -> None:
    _procedural()
    pool = build_pool(["procedural"], per_code=2, seed=3)
    before = {code: [face.copy() for face in faces] for code, faces in pool.items()}
    data = AugmentedFaces(pool, batch=32, seed=4, flower_share=0.0, fresh_slots=2)
    next(iter(data))
    for code, faces in pool.items():
        assert all(np.array_equal(a, b) for a, b in zip(faces, before[code], strict=True))
