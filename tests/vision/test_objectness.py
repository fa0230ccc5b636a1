"""The objectness model: which detections are tiles."""

from __future__ import annotations

import numpy as np
import pytest

from vision.objectness import OWN, Linear, Objectness, fit_linear, photo_features
from vision.pipeline import interpret
from vision.types import Tiles


def _tiles(embeddings: np.ndarray, confidence: float = 0.9) -> Tiles:
    n = len(embeddings)
    xyxy = np.array([[40.0 * i, 0, 40.0 * i + 30, 40] for i in range(n)], np.float32)
    corners = np.stack([[[x1, y1], [x2, y1], [x2, y2], [x1, y2]] for x1, y1, x2, y2 in xyxy])
    return Tiles(
        xyxy,
        corners,
        np.full(n, confidence, np.float32),
        np.zeros(n, bool),
        np.zeros(n, bool),
        embeddings=embeddings.astype(np.float32),
    )


def _model(width: int, photo_weights: list[float] | None = None) -> Objectness:
    """The look's log-odds is 4 times the first embedding feature; the photo model takes
    the look alone unless told otherwise."""
    look = np.zeros(width + OWN)
    look[0] = 4.0
    photo = np.array(photo_weights or [0, 0, 0, 0, 1, 0, 0, 0], np.float64)
    return Objectness(Linear(look, 0.0), Linear(photo, 0.0), 0.5)


def test_a_detection_the_model_takes_for_no_tile_is_dropped() -> None:
    embeddings = np.array([[1.0, 0.0], [-1.0, 0.0], [0.5, 3.0]])
    kept = _model(2).keep(_tiles(embeddings))
    assert kept.embeddings[:, 0].tolist() == [1.0, 0.5]


def test_a_doubtful_look_among_tiles_is_kept_and_alone_is_dropped() -> None:
    # The photo model: the look's log-odds plus the mean of the others'.
    model = _model(1, [0, 0, 0, 0, 1, 1, 0, 0])
    among_tiles = _tiles(np.array([[-0.2], [1.0], [1.0], [1.0]]))
    assert len(model.keep(among_tiles)) == 4
    alone = _tiles(np.array([[-0.2], [-1.0]]))
    assert len(model.keep(alone)) == 0


def test_the_photo_features_leave_each_tile_out_of_its_own_context() -> None:
    own = np.zeros((3, OWN))
    x = photo_features(own, np.array([2.0, -1.0, 5.0]))
    assert x[:, OWN].tolist() == [2.0, -1.0, 5.0]
    assert x[:, OWN + 1].tolist() == [2.0, 3.5, 0.5]  # the others' mean log-odds
    assert x[:, OWN + 2].tolist() == pytest.approx(np.log1p([1, 2, 1]).tolist())
    lone = photo_features(np.zeros((1, OWN)), np.array([3.0]))
    assert lone[0, OWN + 1 :].tolist() == [0.0, 0.0, 0.0]


def test_tiles_without_embeddings_all_pass() -> None:
    tiles = _tiles(np.zeros((3, 0)))
    assert len(_model(2).keep(tiles)) == 3
    assert _model(2).p_tile(tiles).tolist() == [1.0, 1.0, 1.0]


def test_the_model_reads_back_what_it_wrote() -> None:
    model = _model(3, [0.5, -1, 0.25, 2, 1, 0.5, 0.1, -0.3])
    again = Objectness.from_json(model.to_json({"photos": 1}))
    tiles = _tiles(np.random.default_rng(0).normal(size=(5, 3)))
    assert np.allclose(again.p_tile(tiles), model.p_tile(tiles))


def test_a_model_whose_photo_weights_are_short_is_refused() -> None:
    data = _model(3).to_json({})
    data["photo"]["weights"] = data["photo"]["weights"][:-1]
    with pytest.raises(ValueError, match="disagree"):
        Objectness.from_json(data)


@pytest.mark.parametrize("basis", [False, True])
def test_the_fit_separates_two_clouds(basis: bool) -> None:
    rng = np.random.default_rng(1)
    tiles = rng.normal(1.0, 0.5, size=(200, 4))
    things = rng.normal(-1.0, 0.5, size=(40, 4))
    x = np.vstack([tiles, things])
    is_tile = np.arange(len(x)) < len(tiles)
    # With a basis, the first three inputs count only along (1, 1, 1) / sqrt(3).
    directions = np.full((1, 3), 1 / np.sqrt(3)) if basis else None
    model = fit_linear(x, is_tile, 1.0, basis=directions)
    z = model.logit(x)
    assert (z[is_tile] > 0).mean() > 0.97 and (z[~is_tile] < 0).mean() > 0.97
    if basis:
        assert np.allclose(model.weights[:3], model.weights[0])


def test_interpret_drops_what_the_given_model_takes_for_no_tile() -> None:
    tiles = _tiles(np.array([[1.0, 0.0], [-1.0, 0.0]]))
    assert len(interpret(tiles, objectness=_model(2)).tiles) == 1
    assert len(interpret(tiles, objectness=False).tiles) == 2


def test_the_shipped_model_fits_the_shipped_classifier() -> None:
    from vision.classify import Classifier
    from vision.objectness import shipped_objectness

    model = shipped_objectness()
    assert model is not None
    assert model.embedding_size == Classifier().embedding_size
    assert 0.0 < model.threshold < 1.0


def test_a_back_is_judged_by_the_face_up_tiles_beside_it() -> None:
    # own: the detector's confidence as log-odds, then the face-down flag.
    def own(*rows: tuple[float, int]) -> np.ndarray:
        out = np.zeros((len(rows), OWN))
        out[:, :2] = rows
        return out

    look = np.zeros(3)
    sure, unsure = np.log(0.8 / 0.2), np.log(0.4 / 0.6)
    alone = photo_features(own((sure, 1), (unsure, 0), (sure, 1)), look, company=True)
    assert alone[:, -1].tolist() == [1.0, 0.0, 1.0]  # no sure face-up detection: the backs
    beside = photo_features(own((sure, 1), (sure, 0), (unsure, 1)), look, company=True)
    assert beside[:, -1].tolist() == [0.0, 0.0, 0.0]
    assert photo_features(own((sure, 1)), look[:1]).shape[1] == OWN + 4  # fitted without


def test_a_model_fitted_with_the_backs_company_drops_a_lone_back_and_keeps_a_kong() -> None:
    photo = np.zeros(OWN + 5)
    photo[OWN] = 1.0  # the look's log-odds
    photo[-1] = -10.0  # a back with no face-up tile beside it
    look = np.zeros(1 + OWN)
    look[0] = 4.0
    model = Objectness(Linear(look, 0.0), Linear(photo, 0.0), 0.5, company=True)
    back = _tiles(np.array([[1.0], [1.0]]))
    back.face_down[:] = True
    assert len(model.keep(back)) == 0
    kong = _tiles(np.array([[1.0]] * 4))
    kong.face_down[[0, 3]] = True  # a concealed kong laid ends down
    assert len(model.keep(kong)) == 4
    again = Objectness.from_json(model.to_json({}))
    assert again.company and np.allclose(again.p_tile(kong), model.p_tile(kong))
    old = model.to_json({})
    del old["face_down_company"]
    old["photo"]["weights"] = old["photo"]["weights"][:-1]
    assert not Objectness.from_json(old).company  # a model fitted before reads as it did
