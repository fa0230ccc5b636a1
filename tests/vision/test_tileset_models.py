"""A set taught from one enrollment photo reads later photos of that set better, with the
shipped models, on a design they were never trained on (KDE classic, whose 8s and 1p the
classifier alone misreads)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from benchmarks.sets import _matched, face_seed_for
from datasets.scene.art import usable_sources
from vision.calibration import WHOLE_SET, reading_features, shipped_review_model
from vision.pipeline import Recognizer
from vision.registry import optional
from vision.teaching import enrollment_looks
from vision.tileset import TileSet

pytestmark = [
    pytest.mark.skipif(optional("classifier") is None, reason="no shipped models"),
    pytest.mark.slow,
]


def _jpeg(image: np.ndarray) -> bytes:
    return bytes(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 92])[1])


def test_a_taught_set_names_a_held_out_designs_tiles() -> None:
    from datasets.scene import render_scene

    assert usable_sources(["kde"]) == ["kde"], "KDE art is fetched by scripts/fetch_art.sh"
    recognizer = Recognizer()
    face_seed = face_seed_for("kde/classic", 500)
    rng = np.random.default_rng(31)
    enroll = render_scene(rng, ("kde",), "enrollment", 1024, face_seed=face_seed)
    photo, tiles = recognizer.read_tiles(_jpeg(enroll.image))
    looks, _ = enrollment_looks(photo, tiles, "enroll.jpg", recognizer.classifier)
    tileset = looks.added_to(TileSet("classic"), recognizer.classifier_digest)
    assert tileset.counts() == {code: 1 for code in tileset.faces} and len(tileset.faces) == 42
    right = {"without": 0, "with": 0, "cut again": 0}
    total = 0
    for _ in range(4):
        win = render_scene(rng, ("kde",), "declared_win", 1024, face_seed=face_seed)
        photo, tiles = recognizer.read_tiles(_jpeg(win.image))
        rows, truth = _matched(tiles, win.annotations)
        read = replace(tiles, probs=tileset.read(tiles.probs, tiles.embeddings, tiles.looks))
        cut = recognizer.read_with_set(photo, tiles, tileset)
        right["without"] += int((tiles.probs[rows].argmax(axis=1) == truth).sum())
        right["with"] += int((read.probs[rows].argmax(axis=1) == truth).sum())
        right["cut again"] += int((cut.probs[rows].argmax(axis=1) == truth).sum())
        total += len(rows)
    # Measured on these four photos: 56 of 64 found tiles named right without the set, 59
    # with it, 61 with the faces it finds unlike all its looks cut again (`vision.recut`);
    # the floors are one tile under that.
    assert right["with"] >= 58 and right["cut again"] >= 60
    assert right["with"] > right["without"]


def test_a_set_taught_a_few_faces_reads_no_worse_than_none() -> None:
    """Taught from the labelled tiles of two wins (about half the faces), as a person teaches
    from corrected photos: with weights fitted on whole sets alone, such a set read the
    faces it was never shown worse than the classifier alone (held-out KDE traditional,
    found tiles right 92.4 -> 88.5 %), and it was much less sure of them."""
    from datasets.scene import render_scene
    from vision.teaching import Label, label_looks

    recognizer = Recognizer()
    face_seed = face_seed_for("kde/traditional", 700)
    rng = np.random.default_rng(32)
    tileset = TileSet("two-wins")
    for _ in range(2):
        win = render_scene(rng, ("kde",), "declared_win", 1024, face_seed=face_seed)
        photo, tiles = recognizer.read_tiles(_jpeg(win.image))
        labels = [Label(a["code"], tuple(a["bbox"])) for a in win.annotations if not a["face_down"]]
        looks = label_looks(photo, tiles, labels, "win.jpg", recognizer.classifier)
        tileset = looks.added_to(tileset, recognizer.classifier_digest)
    assert 10 <= len(tileset.faces) <= 34
    right = {"without": 0, "with": 0, "untaught": 0, "untaught with": 0}
    sure: dict[str, list[float]] = {"without": [], "with": []}  # p of the true untaught face
    for _ in range(4):
        win = render_scene(rng, ("kde",), "declared_win", 1024, face_seed=face_seed)
        _, tiles = recognizer.read_tiles(_jpeg(win.image))
        rows, truth = _matched(tiles, win.annotations)
        joint = tileset.read(tiles.probs, tiles.embeddings, tiles.looks)[rows]
        read = joint.argmax(axis=1)
        base = tiles.probs[rows].argmax(axis=1)
        untaught = ~tileset.taught()[truth]
        right["without"] += int((base == truth).sum())
        right["with"] += int((read == truth).sum())
        right["untaught"] += int((base == truth)[untaught].sum())
        right["untaught with"] += int((read == truth)[untaught].sum())
        picked = np.arange(len(rows))[untaught], np.asarray(truth)[untaught]
        sure["without"] += tiles.probs[rows][picked].tolist()
        sure["with"] += joint[picked].tolist()
    assert right["with"] >= right["without"]
    assert right["untaught with"] >= right["untaught"] - 1
    # How sure it is of the faces never shown: 0.727 alone, 0.698 with the set on these
    # photos; with the weights fitted on whole sets alone the drop was 0.17 (GNOME smooth
    # wins flagged 24 -> 63 %), which this still catches.
    assert np.mean(sure["with"]) >= np.mean(sure["without"]) - 0.04
    # Its readings are judged as no set's: the review model for readings with a set was
    # fitted on sets shown every face.
    model = shipped_review_model()
    assert model is not None and tileset.coverage < WHOLE_SET
    result = recognizer.recognize(_jpeg(win.image), tileset=tileset)
    read = reading_features(
        result.tiles, result.layout, result.decoded, result.doubts, result.notes
    )
    assert result.p_right == pytest.approx(model.p_right(read, taught=False), abs=1e-9)
