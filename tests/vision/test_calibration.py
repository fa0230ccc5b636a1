"""The calibrated review flag: the logistic fit, the shipped model and the flag it gives."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from vision.calibration import (
    FEATURES,
    GUESS_CHECKS,
    Recalibration,
    ReviewModel,
    fit_logistic,
    judged_with_set,
    load_review_model,
    reading_features,
    shipped_review_model,
)
from vision.decode import Decoded
from vision.layout import layout
from vision.notes import Note, NoteCode
from vision.pipeline import interpret
from vision.registry import shipped
from vision.simulate import lay_out_hand, tiles_from_annotations

HAND = {
    "melds": [{"type": "pung", "tiles": ["C", "C", "C"], "claimed_from": "opposite"}],
    "concealed": ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "W"],
    "winning_tile": "W",
    "flowers": ["3h"],
}


def test_the_fit_recovers_a_known_logistic_model() -> None:
    rng = np.random.default_rng(1)
    x = rng.normal(size=(4000, 2)) * [1.0, 3.0] + [0.5, -1.0]
    logit = 2.0 * (x[:, 0] - 0.5) - 0.5 * (x[:, 1] + 1.0) / 3.0 * 3.0 + 0.3
    right = rng.random(4000) < 1 / (1 + np.exp(-logit))
    model = fit_logistic(x, right, l2=1e-6)
    # Weights are on standardized inputs: times each input's spread.
    assert model.weights[0] == pytest.approx(2.0 * 1.0, abs=0.25)
    assert model.weights[1] == pytest.approx(-0.5 * 3.0, abs=0.25)
    p = np.array([model.p_right(row) for row in x])
    # Calibrated on its own data: predicted and observed rates agree within each half.
    for half in (p < 0.5, p >= 0.5):
        assert p[half].mean() == pytest.approx(right[half].mean(), abs=0.03)


def test_the_penalty_shrinks_the_weights() -> None:
    rng = np.random.default_rng(2)
    x = rng.normal(size=(200, 3))
    right = rng.random(200) < 1 / (1 + np.exp(-2 * x[:, 0]))
    loose, tight = fit_logistic(x, right, 1e-6), fit_logistic(x, right, 100.0)
    assert np.abs(tight.weights).sum() < np.abs(loose.weights).sum()


def test_no_hand_is_never_right_and_hard_checks_flag_whatever_the_probability() -> None:
    model = ReviewModel(
        np.zeros(len(FEATURES)), 5.0, np.zeros(len(FEATURES)), np.ones(len(FEATURES)), 0.9,
        frozenset({NoteCode.CROWDED_OUT}),
    )  # fmt: skip
    assert model.p_right(None) == 0.0
    sure = model.p_right(np.zeros(len(FEATURES)))
    assert sure > 0.99 and not model.flags(sure, [])
    assert model.flags(sure, [Note(NoteCode.CROWDED_OUT, "a tile in line was left out")])
    assert not model.flags(sure, [Note(NoteCode.WHICH_FLOWER, "which flower")])


def test_a_model_that_needs_a_check_flags_only_where_one_fired() -> None:
    n = len(FEATURES)
    model = ReviewModel(np.zeros(n), -5.0, np.zeros(n), np.ones(n), 0.9, needs_check=True)
    unsure = model.p_right(np.zeros(n))
    assert unsure < 0.01
    assert not model.flags(unsure, [])  # no check fired: the reading stands
    assert model.flags(unsure, [Note(NoteCode.ANOTHER_READING, "another reading")])
    assert not model.flags(0.95, [Note(NoteCode.ANOTHER_READING, "another reading")])


def test_a_model_round_trips_through_its_json(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    x = rng.normal(size=(300, len(FEATURES)))
    right = rng.random(300) < 0.7
    fitted = fit_logistic(x, right)
    model = ReviewModel(
        fitted.weights, fitted.bias, fitted.mean, fitted.scale, 0.8, GUESS_CHECKS, True
    )
    path = tmp_path / "review.json"
    path.write_text(json.dumps(model.to_json({"data": "test"})))
    again = load_review_model(path)
    assert again.hard_checks == GUESS_CHECKS and again.threshold == 0.8 and again.needs_check
    assert again.p_right(x[0]) == pytest.approx(model.p_right(x[0]), abs=1e-5)


def test_a_model_of_other_features_is_refused(tmp_path: Path) -> None:
    data = json.loads(shipped("review").path.read_text())
    data["features"] = ["something", *data["features"][1:]]
    path = tmp_path / "review.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match="other features"):
        load_review_model(path)


def test_the_shipped_model_is_found_through_the_registry() -> None:
    model = shipped_review_model()
    assert model is not None and 0.0 < model.threshold < 1.0
    data = json.loads(shipped("review").path.read_text())
    assert data["features"] == list(FEATURES)
    assert "seed" in data["fitted_on"]["data"]


def test_features_follow_the_reading() -> None:
    ann = lay_out_hand(HAND)
    sure = tiles_from_annotations(ann, np.random.default_rng(0), (40.0, 41.0))
    unsure = tiles_from_annotations(ann, np.random.default_rng(0), (4.0, 5.0))
    found = layout(sure)
    assert reading_features(sure, found, Decoded(hand=None, codes=sure.codes), [], []) is None
    a, b = interpret(sure), interpret(unsure)
    fa = reading_features(a.tiles, a.layout, a.decoded, a.doubts, a.notes)
    fb = reading_features(b.tiles, b.layout, b.decoded, b.doubts, b.notes)
    assert fa is not None and fb is not None and fa.shape == (len(FEATURES),)
    least = FEATURES.index("log_least_sure_tile")
    assert fb[least] < fa[least]
    assert a.p_right is not None and b.p_right is not None and b.p_right <= a.p_right


def test_a_sure_reading_is_not_flagged_and_a_doubtful_one_is() -> None:
    ann = lay_out_hand(HAND)
    sure = interpret(tiles_from_annotations(ann, np.random.default_rng(0), (40.0, 41.0)))
    model = shipped_review_model()
    assert model is not None
    assert not sure.review and sure.to_json()["p_right"] >= model.threshold_for(False)
    none = interpret(
        tiles_from_annotations(
            [a for a in ann if a["code"] not in ("5p", "6p")], np.random.default_rng(0)
        )
    )
    assert none.review and none.p_right == 0.0


def test_a_missing_review_model_names_the_command_that_fits_it(tmp_path: Path) -> None:
    from vision.registry import ModelMissingError, require

    with pytest.raises(ModelMissingError, match=r"benchmarks/review.py fit"):
        require("review", tmp_path / "review.json")


def test_a_guess_about_the_count_is_an_input() -> None:
    ann = lay_out_hand(HAND)
    a = interpret(tiles_from_annotations(ann, np.random.default_rng(0), (40.0, 41.0)))
    guess = FEATURES.index("count_guess")
    plain = reading_features(a.tiles, a.layout, a.decoded, a.doubts, a.notes)
    apart = Note(NoteCode.APART_IN_THIRTEEN, "a tile stands apart")
    guessed = reading_features(a.tiles, a.layout, a.decoded, [*a.doubts, apart], a.notes)
    assert plain is not None and guessed is not None
    assert plain[guess] == 0.0 and guessed[guess] == 1.0
    other = Note(NoteCode.WINNING_TILE_UNSURE, "two lone tiles")
    unguessed = reading_features(a.tiles, a.layout, a.decoded, [other], a.notes)
    assert unguessed is not None and unguessed[guess] == 0.0


def _model(**recalibrated: Recalibration) -> ReviewModel:
    n = len(FEATURES)
    weights = np.linspace(-1.0, 1.0, n)
    return ReviewModel(weights, 1.0, np.zeros(n), np.ones(n), 0.9, **recalibrated)


def test_a_recalibration_moves_the_probability_and_keeps_the_flag() -> None:
    """Read with a set, the same inputs mean a surer reading: the probability is mapped up,
    and the threshold with it, so the same readings are flagged."""
    model = _model(taught=Recalibration(1.0, 0.9))
    rng = np.random.default_rng(4)
    features = rng.normal(size=(200, len(FEATURES)))
    features[:, FEATURES.index("log_confidence")] = 0.0  # the decoder is sure: no cap
    raised = 0
    for row in features:
        modelled = model.model_p(row)
        assert model.p_right(row, taught=False) == modelled
        taught = model.p_right(row, taught=True)
        raised += taught > modelled
        assert model.flags(taught, [], taught=True) == (modelled < model.threshold)
    assert raised > 150
    assert model.threshold_for(True) > model.threshold == model.threshold_for(False)


def test_a_recalibration_keeps_the_order_of_readings() -> None:
    with pytest.raises(ValueError, match="order"):
        Recalibration(0.5, 0.0)
    mapped = Recalibration(0.5, 0.8)
    assert mapped(0.0) == 0.0  # no hand read stays no hand
    assert mapped(0.2) < mapped(0.5) < mapped(0.9)


def test_a_recalibration_round_trips_and_a_model_without_one_is_read_as_fitted(
    tmp_path: Path,
) -> None:
    model = _model(no_set=Recalibration(0.2, 0.7), taught=Recalibration(1.0, 0.9))
    data = model.to_json({"data": "test"})
    path = tmp_path / "review.json"
    path.write_text(json.dumps(data))
    again = load_review_model(path)
    assert (again.no_set, again.taught) == (model.no_set, model.taught)
    del data["recalibration"]
    path.write_text(json.dumps(data))
    plain = load_review_model(path)
    assert plain.no_set == plain.taught == Recalibration()


def _with_set_model() -> ReviewModel:
    n = len(FEATURES)
    own = ReviewModel(
        np.linspace(1.0, -1.0, n),
        2.0,
        np.zeros(n),
        np.ones(n),
        0.95,
        frozenset({NoteCode.CROWDED_OUT}),
        capped=False,
    )
    return ReviewModel(
        np.linspace(-1.0, 1.0, n),
        1.0,
        np.zeros(n),
        np.ones(n),
        0.9,
        frozenset({NoteCode.CROWDED_OUT}),
        taught=Recalibration(1.0, 0.9),
        with_set=own,
    )


def test_a_model_of_its_own_judges_the_readings_with_a_set() -> None:
    model = _with_set_model()
    assert model.with_set is not None
    rng = np.random.default_rng(5)
    rows = rng.normal(size=(100, len(FEATURES)))
    for row in rows:
        assert model.p_right(row, taught=False) == model.model_p(row)
        taught = model.p_right(row, taught=True)
        assert taught == model.with_set.model_p(row)  # its own, not the base recalibrated
        assert model.flags(taught, [], taught=True) == (taught < 0.95)
    assert model.threshold_for(True) == 0.95 and model.threshold_for(False) == 0.9
    assert model.for_reading(True) is model.with_set and model.for_reading(False) is model
    crowded = [Note(NoteCode.CROWDED_OUT, "a tile in line was left out")]
    assert model.flags(0.999, crowded, taught=True)


def test_an_uncapped_model_may_be_surer_than_the_decoder() -> None:
    n = len(FEATURES)
    doubtful = np.zeros(n)
    doubtful[FEATURES.index("log_confidence")] = np.log(0.5)  # another reading as likely
    capped = ReviewModel(np.zeros(n), 5.0, np.zeros(n), np.ones(n), 0.9)
    uncapped = ReviewModel(np.zeros(n), 5.0, np.zeros(n), np.ones(n), 0.9, capped=False)
    assert capped.model_p(doubtful) == pytest.approx(0.5)
    assert uncapped.model_p(doubtful) > 0.99


def test_a_model_with_one_for_readings_with_a_set_round_trips(tmp_path: Path) -> None:
    model = _with_set_model()
    path = tmp_path / "review.json"
    path.write_text(json.dumps(model.to_json({"data": "test"})))
    again = load_review_model(path)
    assert again.with_set is not None and not again.with_set.capped and again.capped
    assert again.threshold_for(True) == 0.95
    row = np.random.default_rng(6).normal(size=len(FEATURES))
    assert again.p_right(row, True) == pytest.approx(model.p_right(row, True), abs=1e-5)
    assert again.p_right(row, False) == pytest.approx(model.p_right(row, False), abs=1e-5)


def test_a_reading_with_a_set_is_judged_by_the_shipped_model_for_such_readings() -> None:
    """`interpret(..., taught=True)` reports the probability and the flag of the shipped
    model's own model for readings with a taught set."""
    model = shipped_review_model()
    assert model is not None and model.with_set is not None
    ann = lay_out_hand(HAND)
    tiles = tiles_from_annotations(ann, np.random.default_rng(0), (3.0, 4.0))
    plain, taught = interpret(tiles), interpret(tiles, taught=True)
    assert plain.p_right is not None and taught.p_right is not None
    read = reading_features(
        taught.tiles, taught.layout, taught.decoded, taught.doubts, taught.notes
    )
    assert taught.p_right == pytest.approx(model.with_set.model_p(read), abs=1e-9)
    assert plain.p_right == pytest.approx(model.p_right(read, taught=False), abs=1e-9)
    assert 0.0 < plain.p_right < 1.0 and 0.0 < taught.p_right < 1.0
    assert taught.review == model.flags(taught.p_right, taught.doubts, taught=True)


def test_only_a_set_shown_most_faces_is_judged_as_one() -> None:
    """The model for readings with a set was fitted on enrollments' sets (every face): a set
    taught a few faces is judged as no set."""
    assert judged_with_set(1.0) and judged_with_set(34 / 42)
    assert not judged_with_set(19 / 42) and not judged_with_set(0.0)
