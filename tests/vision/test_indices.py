"""The index reader's answer as a likelihood per code, and how it joins the classifier's."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from scoring.tiles import CLASSES, FLOWERS
from tests.datasets.test_faces import _source
from tests.vision.test_classify import scene_tiles
from tests.vision.test_flowers import one_hot_ish
from vision.classify import FACE_MARGIN, INDEX_SURE, Classifier, rectify, widen
from vision.indices import (
    GROUPS,
    INDEX_PRIOR,
    INDEX_SYMBOLS,
    READER_H,
    READER_W,
    IndexReader,
    code_symbol,
    join,
    join_photo,
    likelihoods,
    printed_shares,
)
from vision.registry import optional


def reading(symbol: str, p: float) -> np.ndarray:
    """A reader's answer: `symbol` with probability p, the rest spread by the prior."""
    row = INDEX_PRIOR * (1 - p) / (1 - INDEX_PRIOR[INDEX_SYMBOLS.index(symbol)])
    row[INDEX_SYMBOLS.index(symbol)] = p
    return row.astype(np.float32)


def test_each_code_prints_its_rank_or_letter() -> None:
    assert [code_symbol(c) for c in ("6s", "7m", "1p", "E", "C", "P")] == list("671ECP")
    # Flowers and seasons print 1-4: the season of a number shares the flower's numeral.
    assert [code_symbol(c) for c in ("1h", "4h", "5h", "8h")] == list("1414")
    assert code_symbol("back") is None


def test_the_prior_is_a_distribution() -> None:
    assert len(INDEX_PRIOR) == len(INDEX_SYMBOLS)
    assert abs(INDEX_PRIOR.sum() - 1) < 1e-9


def test_a_read_six_turns_a_nine_of_bamboo_read_with_some_doubt_into_the_six() -> None:
    """Held-out KDE's 6 of bamboo (two columns of canes, a 6 in the corner) read 9s."""
    probs = one_hot_ish("9s", 0.7)
    probs[CLASSES.index("6s")] += 0.2
    probs = (probs / probs.sum())[None]
    joined = join(probs, reading("6", 0.95)[None])
    assert CLASSES[int(joined.argmax())] == "6s"
    np.testing.assert_allclose(joined.sum(axis=1), 1.0, rtol=1e-5)


def test_no_index_read_leaves_codes_of_one_printing_as_they_were() -> None:
    """With nothing in the corner, every rank of a suit is as likely as before."""
    probs = one_hot_ish("3p", 0.5)[None]
    probs[0, CLASSES.index("5p")] = 0.3
    probs /= probs.sum()
    joined = join(probs, INDEX_PRIOR[None].astype(np.float32))
    three, five = CLASSES.index("3p"), CLASSES.index("5p")
    assert abs(joined[0, three] / joined[0, five] - probs[0, three] / probs[0, five]) < 1e-4


def test_a_set_that_prints_indices_makes_a_blank_corner_count_against_its_suit() -> None:
    """Every bamboo tile of the photo shows its index, so a face with none is likelier the
    white dragon (blank on that set) than a 9 of bamboo (KDE traditional's frame of bars)."""
    n = 6
    probs = np.stack(
        [one_hot_ish(f"{r}s", 0.95) for r in range(2, 2 + n - 1)] + [one_hot_ish("9s", 0.55)]
    )
    probs[-1, CLASSES.index("P")] += 0.35
    probs /= probs.sum(axis=1, keepdims=True)
    reader = np.stack(
        [reading(str(r), 0.97) for r in range(2, 2 + n - 1)] + [reading("none", 0.97)]
    )
    shares = printed_shares(probs, reader)
    assert shares[GROUPS.index("s")] > 0.75
    joined = join_photo(probs, reader)
    assert CLASSES[int(joined[-1].argmax())] == "P"
    assert CLASSES[int(join(probs, reader)[-1].argmax())] == "9s"  # one share for all: no


def test_flowers_joined_move_among_the_flowers_only() -> None:
    """KDE default's plum (a 1 in its corner) read as the bamboo flower (4h): a read 1
    makes it the plum or the spring; the flowers' mass stays theirs, and without the
    flower block the split is left alone."""
    probs = one_hot_ish("4h", 0.6)
    probs[CLASSES.index("1h")] += 0.25
    probs[CLASSES.index("1s")] += 0.1
    probs = (probs / probs.sum())[None]
    look = reading("1", 0.95)[None]
    joined = join(probs, look, flowers=True)
    assert CLASSES[int(joined.argmax())] == "1h"
    flower = [CLASSES.index(c) for c in FLOWERS]
    np.testing.assert_allclose(joined[0, flower].sum(), probs[0, flower].sum(), rtol=1e-5)
    np.testing.assert_allclose(join(probs, look, flowers=False)[:, flower], probs[:, flower])


def test_likelihoods_are_positive_and_the_back_reads_only_the_blank() -> None:
    lik = likelihoods(np.stack([reading("none", 0.9), reading("E", 0.9)]))
    assert (lik > 0).all()
    back = CLASSES.index("back")
    assert lik[0, back] > lik[1, back]


@pytest.mark.skipif(
    not (optional("classifier") and optional("index_reader")), reason="no shipped models"
)
def test_each_face_read_unsure_gets_the_index_readers_look() -> None:
    """The classifier's reading (its flower reader's included) of each face it reads under
    INDEX_SURE joined with the index reader's look at it through the classifier's widened
    quad, those faces as one set's; the faces read surer keep the classifier's reading."""
    photo, tiles, _ = scene_tiles("scene_declared_win.jpg")
    own = Classifier(index=False).classify(photo, tiles).probs
    with_index = Classifier()
    named = with_index.classify(photo, tiles).probs
    assert with_index.index_reader is not None
    unsure = own.max(axis=1) < INDEX_SURE
    assert 0 < unsure.sum() < len(unsure)  # the photo holds both
    quads = widen(tiles.corners[unsure], FACE_MARGIN)
    crops = [rectify(photo.image, q, (READER_W, READER_H)) for q in quads]
    looks = with_index.index_reader.read(crops)
    np.testing.assert_allclose(named[unsure], join_photo(own[unsure], looks), atol=1e-6)
    np.testing.assert_allclose(named[~unsure], own[~unsure], atol=1e-6)
    # Which flower, and whether a face is a flower or the back, stay as they were.
    keep = [CLASSES.index(c) for c in (*FLOWERS, "back")]
    np.testing.assert_allclose(named[:, keep], own[:, keep], atol=1e-6)


class _CountingReader:
    """An index reader that records how many crops it was asked to read."""

    def __init__(self) -> None:
        self.crops = 0

    def read(self, crops: list[np.ndarray]) -> np.ndarray:
        self.crops += len(crops)
        return np.tile(INDEX_PRIOR.astype(np.float32), (len(crops), 1))


@pytest.mark.skipif(not optional("classifier"), reason="no shipped classifier")
def test_the_index_reader_is_not_run_for_faces_read_sure() -> None:
    """The reader costs a model run a face: faces the classifier reads at INDEX_SURE or
    surer are not sent to it, and a photo of sure faces alone runs it not at all."""
    photo, tiles, _ = scene_tiles("scene_declared_win.jpg")
    classifier = Classifier(index=False)
    own = classifier.classify(photo, tiles).probs
    counting = _CountingReader()
    classifier.index_reader = counting  # type: ignore[assignment]
    classifier.classify(photo, tiles)
    assert counting.crops == int((own.max(axis=1) < INDEX_SURE).sum())
    sure = np.nonzero(own.max(axis=1) >= INDEX_SURE)[0]
    counting.crops = 0
    named = classifier.classify(photo, tiles[sure]).probs
    assert counting.crops == 0
    np.testing.assert_allclose(named, own[sure], atol=1e-6)


@pytest.mark.skipif(
    not (optional("classifier") and optional("index_reader")), reason="no shipped models"
)
def test_the_reader_reads_a_drawn_index_and_its_absence() -> None:
    """A procedural 6 of bamboo with a 9 in its corner reads 9; with none, none."""
    _source("procedural")
    from datasets.faces.procedural import draw_face

    reader = IndexReader()
    faces = [
        draw_face("6s", np.random.default_rng(seed), text, "k")
        for seed in range(6)
        for text in ("9", None)
    ]
    crops = [cv2.cvtColor(f, cv2.COLOR_RGB2BGR) for f in faces]
    read = [INDEX_SYMBOLS[i] for i in reader.read(crops).argmax(axis=1)]
    assert read.count("9") >= 5 and read[1::2].count("none") >= 5
