"""A taught tile set: its looks, its file, and the joint reading."""

from __future__ import annotations

import numpy as np
import pytest

from scoring.tiles import BACK, CLASSES, FLOWERS
from vision.tileset import (
    CROP_H,
    CROP_W,
    LOOKS_PER_FACE,
    UNTAUGHT_FLOWER,
    TileSet,
    TileSetError,
    check_name,
    joint_features,
    joint_reading,
    split_flowers,
)

D = 16


def _looks(codes: list[str], rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    embeddings = rng.random((len(codes), D)).astype(np.float32)
    crops = rng.integers(0, 255, (len(codes), CROP_H, CROP_W, 3), dtype=np.uint8)
    return embeddings, crops


def _set(codes: list[str], seed: int = 0) -> TileSet:
    embeddings, crops = _looks(codes, np.random.default_rng(seed))
    return TileSet("home").with_looks(codes, embeddings, crops, ["p.jpg"] * len(codes), "m1")


@pytest.mark.parametrize("name", ["", "../x", "a/b", "A", "-a", "a-", "a" * 65, "ä", "a b"])
def test_a_set_name_is_a_plain_slug(name: str) -> None:
    with pytest.raises(TileSetError, match="bad set name"):
        check_name(name)


@pytest.mark.parametrize("name", ["a", "home", "club-2026", "kde_classic", "x" * 64])
def test_slugs_are_names(name: str) -> None:
    assert check_name(name) == name


def test_a_face_keeps_its_newest_looks_up_to_the_cap() -> None:
    tileset = _set(["1s"] * (LOOKS_PER_FACE + 5) + ["E"])
    assert tileset.counts() == {"1s": LOOKS_PER_FACE, "E": 1}
    more = tileset.with_looks(["1s"], *_looks(["1s"], np.random.default_rng(9)), ["new"], "m1")
    assert more.counts()["1s"] == LOOKS_PER_FACE
    ones = [o for c, o in zip(more.codes, more.origins, strict=True) if c == "1s"]
    assert ones.count("new") == 1 and len(ones) == LOOKS_PER_FACE


def test_looks_of_another_classifier_are_refused() -> None:
    tileset = _set(["1s"])
    with pytest.raises(TileSetError, match="another classifier"):
        tileset.with_looks(["E"], *_looks(["E"], np.random.default_rng(1)), ["x"], "m2")


def test_a_set_file_reads_back_as_it_was_written() -> None:
    tileset = _set(["1s", "1s", "P", BACK])
    again = TileSet.from_bytes(tileset.to_bytes())
    assert again.codes == tileset.codes and again.origins == tileset.origins
    assert again.model == "m1" and again.name == "home"
    np.testing.assert_array_equal(again.embeddings, tileset.embeddings)
    np.testing.assert_array_equal(again.crops, tileset.crops)
    np.testing.assert_array_equal(again.own, tileset.own)


@pytest.mark.parametrize(
    "data", [b"", b"not a zip", b"PK\x03\x04" + b"\x00" * 40, np.zeros(3).tobytes()]
)
def test_anything_else_is_not_a_set_file(data: bytes) -> None:
    with pytest.raises(TileSetError, match="not a tile set file"):
        TileSet.from_bytes(data)


def test_a_set_file_with_unknown_codes_or_bad_numbers_is_refused() -> None:
    import io
    import json

    tileset = _set(["1s", "E"])

    def written(**changes: np.ndarray) -> bytes:
        buffer = io.BytesIO()
        arrays = {
            "meta": np.array(json.dumps({"format": 1, "name": "home", "model": "m1"})),
            "codes": np.array(tileset.codes),
            "embeddings": tileset.embeddings,
            "crops": tileset.crops,
            "origins": np.array(tileset.origins),
            **changes,
        }
        np.savez(buffer, **arrays)  # type: ignore[arg-type]
        return buffer.getvalue()

    # A file written before the classifier's readings of its looks were kept: not known.
    assert TileSet.from_bytes(written()).codes == ("1s", "E")
    assert np.isnan(TileSet.from_bytes(written()).own).all()
    assert TileSet.from_bytes(written()).misread.max() == 0.0
    with pytest.raises(TileSetError, match="one probability per look"):
        TileSet.from_bytes(written(own=np.array([0.5, 1.5], np.float32)))
    with pytest.raises(TileSetError, match="one probability per look"):
        TileSet.from_bytes(written(own=np.array([0.5], np.float32)))
    with pytest.raises(TileSetError, match="unknown tile codes"):
        TileSet.from_bytes(written(codes=np.array(["1s", "Z"])))
    with pytest.raises(TileSetError, match="NaN"):
        TileSet.from_bytes(written(embeddings=np.full((2, D), np.nan, np.float32)))
    with pytest.raises(TileSetError, match="differ in number"):
        TileSet.from_bytes(written(codes=np.array(["1s"])))
    with pytest.raises(TileSetError, match="bad set name"):
        meta = np.array(json.dumps({"format": 1, "name": "../etc", "model": "m1"}))
        TileSet.from_bytes(written(meta=meta))


def test_likeness_is_the_best_look_of_each_taught_face() -> None:
    e = np.eye(D, dtype=np.float32)
    crops = np.zeros((3, CROP_H, CROP_W, 3), np.uint8)
    tileset = TileSet("s").with_looks(["1s", "1s", "E"], e[[0, 1, 2]], crops, ["a"] * 3, "m")
    like = tileset.likeness(np.stack([e[1], e[2] + e[0]]))
    taught = tileset.taught()
    one_s, east = CLASSES.index("1s"), CLASSES.index("E")
    assert taught.sum() == 2 and taught[one_s] and taught[east]
    assert like[0, one_s] == pytest.approx(1.0) and like[0, east] == pytest.approx(0.0)
    assert like[1, one_s] == pytest.approx(like[1, east]) == pytest.approx(2**-0.5)


def test_a_face_that_looks_like_its_taught_look_wins_over_a_sure_misreading() -> None:
    """The bird 1s read as East: the set was shown this bird as 1s."""
    probs = np.full((1, len(CLASSES)), 1e-4, np.float32)
    probs[0, CLASSES.index("E")] = 0.97
    probs /= probs.sum()
    like = np.full((1, len(CLASSES)), 0.3, np.float32)
    like[0, CLASSES.index("1s")] = 0.97
    taught = np.ones(len(CLASSES), bool)
    taught[CLASSES.index(BACK)] = False
    read = joint_reading(joint_features(probs, like, like, taught))
    assert CLASSES[int(read.argmax())] == "1s"
    np.testing.assert_allclose(read.sum(axis=1), 1.0, rtol=1e-5)


def test_a_face_the_set_never_showed_keeps_the_classifiers_word() -> None:
    """A face-down tile, when the set was taught faces only: it looks like no face."""
    probs = np.full((1, len(CLASSES)), 1e-4, np.float32)
    probs[0, CLASSES.index(BACK)] = 0.99
    like = np.full((1, len(CLASSES)), 0.35, np.float32)
    taught = np.array([c != BACK for c in CLASSES])
    reading = joint_reading(joint_features(probs, like, like, taught))
    assert CLASSES[int(reading.argmax())] == BACK


def test_a_face_unlike_every_taught_look_is_no_back_unless_the_classifier_says_so() -> None:
    """A flower cut badly (a crosswise quad over half its face) looks like none of the set's
    faces; the classifier, unsure among faces, all but rules out a back."""
    probs = np.full((1, len(CLASSES)), 0.3 / (len(CLASSES) - 3), np.float32)
    for code, p in (("7h", 0.3), ("8h", 0.35), (BACK, 0.005)):
        probs[0, CLASSES.index(code)] = p
    like = np.full((1, len(CLASSES)), 0.05, np.float32)
    like[0, CLASSES.index("7h")] = 0.25
    taught = np.array([c != BACK for c in CLASSES])
    reading = joint_reading(joint_features(probs, like, like, taught))
    assert CLASSES[int(reading.argmax())] in ("7h", "8h")
    assert reading[0, CLASSES.index(BACK)] < 0.05


def test_an_empty_set_reads_as_the_classifier() -> None:
    probs = np.random.default_rng(0).dirichlet(np.ones(len(CLASSES)), 3).astype(np.float32)
    looks = np.zeros((3, 3, 32, 26), np.float32)
    assert TileSet("e").read(probs, np.zeros((3, D), np.float32), looks) is probs


def test_looks_of_another_width_are_a_clear_error() -> None:
    with pytest.raises(TileSetError, match="embed the set again"):
        _set(["1s"]).likeness(np.zeros((1, D + 1), np.float32))


def test_the_print_of_a_face_is_compared_with_the_taught_crops() -> None:
    """Two crops of one set: a face printed as taught reads as that face by its print alone,
    whichever way round it lies."""
    from vision.classify import FACE_MARGIN
    from vision.looks import describe_crops

    rng = np.random.default_rng(5)
    blocks = rng.integers(0, 255, (2, 10, 8, 3), dtype=np.uint8)  # a bold print
    crops = np.stack([cv2_blur(np.kron(b, np.ones((8, 8, 1), np.uint8))) for b in blocks])
    tileset = TileSet("s").with_looks(
        ["2p", "7m"], np.eye(2, D, dtype=np.float32), crops, ["a", "a"], "m"
    )
    seen = describe_crops(crops[[1, 0]], FACE_MARGIN)
    seen[0] = seen[0][:, ::-1, ::-1]  # the first one upside down
    printed = tileset.printed(seen)
    assert CLASSES[int(printed[0].argmax())] == "7m"
    assert CLASSES[int(printed[1].argmax())] == "2p"
    assert printed[1].max() > 0.7  # the same print; the contrast floor keeps it under 1


def test_a_face_with_little_print_is_like_nothing() -> None:
    """A blank white dragon and a tile's back: without the contrast floor two near-blank
    faces were alike at random, and a back was read as the set's blank P."""
    from vision.classify import FACE_MARGIN
    from vision.looks import describe_crops

    rng = np.random.default_rng(6)
    blank = (230 + rng.normal(0, 1.5, (1, CROP_H, CROP_W, 3))).astype(np.uint8)
    tileset = TileSet("s").with_looks(["P"], np.eye(1, D, dtype=np.float32), blank, ["a"], "m")
    back = (90 + rng.normal(0, 1.5, (1, CROP_H, CROP_W, 3))).astype(np.uint8)
    assert tileset.printed(describe_crops(back, FACE_MARGIN)).max() < 0.2


def cv2_blur(crop: np.ndarray) -> np.ndarray:
    import cv2

    return np.asarray(cv2.GaussianBlur(crop, (0, 0), 2.0), np.uint8)


def test_a_face_the_classifier_misread_on_its_looks_gains_on_every_copy() -> None:
    """A bird 1-bamboo the classifier takes for East on every copy: taught, its looks were
    misread too (the classifier gave 1s 1e-5 on them), so a tile like them that the
    classifier reads as East is read as 1s many times likelier than by a set that did not
    keep how its looks were read."""
    e = np.eye(D, dtype=np.float32)
    crops = np.zeros((2, CROP_H, CROP_W, 3), np.uint8)
    codes = ["1s", "2s"]
    misread = TileSet("s").with_looks(codes, e[:2], crops, ["a"] * 2, "m", np.array([1e-5, 0.9]))
    unknown = TileSet("s").with_looks(codes, e[:2], crops, ["a"] * 2, "m")
    g = misread.misread
    assert g[CLASSES.index("1s")] == pytest.approx(-np.log(1e-5), rel=1e-4)
    assert g[CLASSES.index("2s")] == pytest.approx(-np.log(0.9), rel=1e-4)
    assert unknown.misread.max() == 0.0
    probs = np.full((1, len(CLASSES)), 1e-6, np.float32)
    probs[0, CLASSES.index("E")], probs[0, CLASSES.index("1s")] = 0.99, 1e-5
    looks = np.zeros((1, 0), np.float32)
    one = CLASSES.index("1s")
    with_gap = misread.read(probs, e[:1], looks)[0, one]
    without = unknown.read(probs, e[:1], looks)[0, one]
    assert with_gap > 10 * without


def test_a_face_is_as_distinct_as_the_set_holds_no_face_like_it() -> None:
    """Two faces a set prints alike (flowers that differ by a tiny numeral) are no evidence
    for each other's likeness; a face unlike every other one is. Untaught faces, and the
    only face of a set, have no distinctness."""
    e = np.eye(D, dtype=np.float32)
    crops = np.zeros((3, CROP_H, CROP_W, 3), np.uint8)  # no print: only the embeddings count
    tileset = TileSet("s").with_looks(["1h", "2h", "3s"], e[[0, 0, 2]], crops, ["a"] * 3, "m")
    d = tileset.distinctness
    assert d[CLASSES.index("1h")] == pytest.approx(0.0, abs=1e-5)
    assert d[CLASSES.index("2h")] == pytest.approx(0.0, abs=1e-5)
    assert d[CLASSES.index("3s")] == pytest.approx(1.0, abs=1e-5)
    assert d[CLASSES.index("E")] == 0.0
    assert TileSet("t").with_looks(["1h"], e[:1], crops[:1], ["a"], "m").distinctness.max() == 0.0


def test_the_flowers_split_is_sharpened_and_their_mass_kept() -> None:
    """Which flower a flower tile is, sharpened: the order of the eight and the mass of the
    flowers against every other face stay as they were."""
    flowers = [CLASSES.index(code) for code in FLOWERS]
    probs = np.full((1, len(CLASSES)), 0.2 / (len(CLASSES) - 8), np.float32)
    probs[0, flowers] = [0.4, 0.2, 0.1, 0.1, 0.0, 0.0, 0.0, 0.0]
    sharp = split_flowers(probs, 0.5)
    assert sharp.sum() == pytest.approx(1.0, abs=1e-6)
    assert sharp[0, flowers].sum() == pytest.approx(0.8, abs=1e-6)
    assert sharp[0, flowers[0]] == pytest.approx(0.8 * 16 / 22, abs=1e-6)  # 0.4^2 / sum of squares
    others = [i for i in range(len(CLASSES)) if i not in flowers]
    np.testing.assert_allclose(sharp[0, others], probs[0, others])
    np.testing.assert_allclose(split_flowers(probs, 1.0), probs)
    # The split at 1 / T undoes the split at T.
    np.testing.assert_allclose(split_flowers(sharp, 2.0), probs, atol=1e-6)


def test_an_untaught_flower_is_lifted_in_the_split_and_the_mass_kept() -> None:
    """A set shown 1h but not 2h: a tile the classifier and the set both lean to 1h for
    likeness alone (one set draws its flowers alike) is split more evenly; the flowers'
    mass against every other face is the same, and a set shown every flower, or none, is
    split as before."""
    flowers = [CLASSES.index(code) for code in FLOWERS]
    probs = np.full((1, len(CLASSES)), 1e-3, np.float32)
    probs[0, flowers[0]], probs[0, flowers[1]] = 0.5, 0.4
    probs /= probs.sum()
    like = np.full((1, len(CLASSES)), 0.1, np.float32)
    like[0, flowers[0]] = 0.9
    taught = np.ones(len(CLASSES), bool)
    taught[[CLASSES.index(BACK), *flowers[1:]]] = False
    features = joint_features(probs, like, like, taught)
    lifted = joint_reading(features)
    plain = joint_reading(features, untaught_flower=0.0)
    one, two = flowers[:2]
    assert lifted[0, two] > plain[0, two] and lifted[0, one] < plain[0, one]
    ratio = (lifted[0, two] / lifted[0, one]) / (plain[0, two] / plain[0, one])
    assert ratio == pytest.approx(np.exp(UNTAUGHT_FLOWER), rel=1e-3)
    assert lifted[0, flowers].sum() == pytest.approx(plain[0, flowers].sum(), rel=1e-5)
    others = [i for i in range(len(CLASSES)) if i not in flowers]
    np.testing.assert_allclose(lifted[0, others], plain[0, others], rtol=1e-5)
    for shown in (np.ones(len(CLASSES), bool), np.array([c not in FLOWERS for c in CLASSES])):
        shown[CLASSES.index(BACK)] = False
        every = joint_features(probs, like, like, shown)
        np.testing.assert_allclose(
            joint_reading(every), joint_reading(every, untaught_flower=0.0), rtol=1e-6
        )
