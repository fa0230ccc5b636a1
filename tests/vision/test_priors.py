"""The layout search's priors: each detection's inputs, the fit, and the file's round trip."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from vision.layout import layout
from vision.priors import (
    FEATURES,
    Attribute,
    LayoutPriors,
    detection_features,
    fit_prior,
    log_probs,
    shipped_priors,
)
from vision.simulate import lay_out_hand, tiles_from_annotations

HAND: dict[str, Any] = {
    "melds": [{"type": "pung", "tiles": ["C", "C", "C"], "claimed_from": "opposite"}],
    "concealed": ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "W"],
    "winning_tile": "W",
    "flowers": [],
}


def test_a_tile_seen_twice_is_each_others_twin() -> None:
    ann = lay_out_hand(HAND)
    claimed = next(i for i, a in enumerate(ann) if a["sideways"])
    again = {**ann[claimed], "sideways": False}
    tiles = tiles_from_annotations([*ann, again], np.random.default_rng(0), (40.0, 41.0))
    tiles.confidence[claimed], tiles.confidence[-1] = 0.4, 0.8
    named = detection_features(tiles, layout(tiles))
    assert named["twin_gap"][claimed] == pytest.approx(0.0, abs=1e-6)
    assert named["crosswise_twin"][[claimed, -1]].tolist() == [1.0, 1.0]
    assert named["fainter_twin"][[claimed, -1]].tolist() == [1.0, 0.0]
    assert named["crosswise_twin"][:claimed].sum() == 0  # the other tiles lie apart


def test_a_tile_far_from_the_hand_is_laid_out_of_the_win_and_far_from_it() -> None:
    ann = lay_out_hand(HAND)
    far = {**ann[0], "corners": [[x, y + 900] for x, y in ann[0]["corners"]]}
    tiles = tiles_from_annotations([*ann, far], np.random.default_rng(0), (40.0, 41.0))
    named = detection_features(tiles, layout(tiles))
    assert named["laid_in_win"][-1] == 0.0 and named["laid_in_win"][:-1].all()
    assert named["win_gap"][-1] > 3 * named["win_gap"][0]


def test_the_fit_learns_what_the_labels_follow() -> None:
    rng = np.random.default_rng(0)
    x = rng.normal(size=(400, 2))
    y = x[:, 0] + 0.3 * rng.normal(size=400) > 0  # the first input decides, the second not
    prior = fit_prior(x, y)
    assert prior.weights[0] > 5 * abs(prior.weights[1])
    yes, no = log_probs(prior.log_odds(x))
    assert np.allclose(np.exp(yes) + np.exp(no), 1.0)
    assert float(np.where(y, yes, no).mean()) > np.log(0.8)


def test_the_shipped_priors_round_trip_and_refuse_other_features() -> None:
    priors = shipped_priors()
    assert priors is not None
    again = LayoutPriors.from_json(priors.to_json())
    for attribute in Attribute:
        assert np.allclose(again.models[attribute].weights, priors.models[attribute].weights)
        assert len(priors.models[attribute].weights) == len(FEATURES[attribute])
    changed = priors.to_json()
    changed["features"]["crosswise"] = ["crosswise_flag"]
    with pytest.raises(ValueError, match="crosswise"):
        LayoutPriors.from_json(changed)


def test_a_flower_beside_the_hand_is_laid_as_a_flower_and_nothing_else_is() -> None:
    ann = lay_out_hand({**HAND, "flowers": ["3h"]})
    tiles = tiles_from_annotations(ann, np.random.default_rng(0), (40.0, 41.0))
    named = detection_features(tiles, layout(tiles))
    flower = [i for i, a in enumerate(ann) if a["code"] == "3h"]
    assert named["laid_as_flower"][flower].tolist() == [1.0]
    assert named["laid_as_flower"].sum() == 1.0
