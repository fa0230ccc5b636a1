"""The layout search as a whole: one objective over moves, best-first within its budget, the
k best readings weighed."""

from __future__ import annotations

import json
from dataclasses import replace
from itertools import pairwise
from typing import Any

import numpy as np
import pytest

from vision.pipeline import interpret
from vision.priors import Attribute, LayoutPriors, shipped_priors
from vision.recognition import hand_json
from vision.search import MAX_HYPOTHESES, read
from vision.simulate import lay_out_hand, read_as, tiles_from_annotations
from vision.types import Tiles

HAND: dict[str, Any] = {
    "melds": [{"type": "pung", "tiles": ["C", "C", "C"], "claimed_from": "opposite"}],
    "concealed": ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "W"],
    "winning_tile": "W",
    "flowers": ["3h"],
}
BLANK_DRAGONS: dict[str, Any] = {
    "melds": [{"type": "pung", "tiles": ["C", "C", "C"], "claimed_from": "opposite"}],
    "concealed": ["1m", "2m", "3m", "4p", "5p", "6p", "P", "P", "P", "W"],
    "winning_tile": "W",
    "flowers": [],
}


@pytest.fixture(scope="module")
def priors() -> LayoutPriors:
    found = shipped_priors()
    assert found is not None, "fit them: python benchmarks/priors.py fit"
    return found


def _tiles(hand: dict[str, Any] = HAND) -> tuple[Tiles, list[dict[str, Any]]]:
    ann = lay_out_hand(hand)
    return tiles_from_annotations(ann, np.random.default_rng(0), (40.0, 41.0)), ann


def test_a_clean_hand_is_read_at_the_first_hypothesis(priors: LayoutPriors) -> None:
    tiles, _ = _tiles()
    result = read(tiles, {}, priors)
    assert result.decoded.hand is not None
    assert sorted(hand_json(result.decoded.hand)["concealed"]) == sorted(
        [*HAND["concealed"][:-1], "W"]
    )
    assert result.ranked[0][0].moves == ()
    assert result.decoded.confidence > 0.9


def test_a_crosswise_tile_seen_twice_reads_as_one_pung_not_a_kong(priors: LayoutPriors) -> None:
    """The detector fired on a pung's crosswise tile twice, the more confident quad upright:
    kept both, the pung reads as a kong of four."""
    ann = lay_out_hand(HAND)
    claimed = next(i for i, a in enumerate(ann) if a["sideways"])
    centre = np.array(ann[claimed]["corners"]).mean(axis=0)
    face = np.array([[-28, -38], [28, -38], [28, 38], [-28, 38]], float)
    upright = {**ann[claimed], "sideways": False, "corners": (centre + face).tolist()}
    tiles = tiles_from_annotations([*ann, upright], np.random.default_rng(0), (40.0, 41.0))
    tiles.confidence[claimed] = 0.43
    tiles.confidence[len(ann)] = 0.75
    result = read(tiles, {}, priors)
    assert result.decoded.hand is not None
    (pung,) = hand_json(result.decoded.hand)["melds"]
    assert pung["type"] == "pung" and pung["claimed_from"] == "opposite"
    assert len(result.tiles) == len(ann)


def test_a_tile_seen_twice_is_one_tile_whatever_the_priors_say(priors: LayoutPriors) -> None:
    """Priors sure that every detection is the win's cannot keep both detections of one
    crosswise tile in the hand: one tile lies in one place, so no such reading counts."""
    ann = lay_out_hand(HAND)
    claimed = next(i for i, a in enumerate(ann) if a["sideways"])
    again = {**ann[claimed], "sideways": False}
    tiles = tiles_from_annotations([*ann, again], np.random.default_rng(0), (40.0, 41.0))
    tiles.confidence[claimed], tiles.confidence[-1] = 0.9, 0.9
    of_win = priors.models[Attribute.OF_THE_WIN]
    sure = {
        **priors.models,
        Attribute.OF_THE_WIN: replace(of_win, weights=of_win.weights * 0, bias=30.0),
    }
    result = read(tiles, {}, LayoutPriors(sure, {}))
    assert result.decoded.hand is not None
    (pung,) = hand_json(result.decoded.hand)["melds"]
    assert pung["type"] == "pung"
    assert len(result.tiles) == len(ann)


def test_a_blank_white_dragon_flagged_face_down_is_read_as_a_face(priors: LayoutPriors) -> None:
    """A white dragon with a blank face flagged face-down stood alone in the concealed row:
    the hand lacked a tile and no legal hand was read as the tiles lay."""
    ann = lay_out_hand(BLANK_DRAGONS)
    tiles = tiles_from_annotations(ann, np.random.default_rng(0), (40.0, 41.0))
    dragon = [i for i, a in enumerate(ann) if a["code"] == "P"][1]
    tiles.face_down[dragon] = True
    result = read(tiles, {}, priors)
    assert result.decoded.hand is not None
    assert hand_json(result.decoded.hand)["concealed"].count("P") == 3


def test_the_budget_holds_and_the_same_tiles_read_the_same(priors: LayoutPriors) -> None:
    tiles, _ = _tiles()
    for t in range(0, 12, 2):  # many unsure, faint tiles: many moves worth a try
        tiles.confidence[t] = 0.35
        read_as(tiles, t, {tiles.codes[t]: 0.5, "9m": 0.5})
    first, again = read(tiles, {}, priors), read(tiles, {}, priors)
    assert first.tried <= MAX_HYPOTHESES
    assert json.dumps(hand_json(first.decoded.hand)) == json.dumps(hand_json(again.decoded.hand))
    assert first.decoded.confidence == again.decoded.confidence


def test_the_k_best_readings_are_weighed_into_one_distribution(priors: LayoutPriors) -> None:
    tiles, ann = _tiles()
    for t in (i for i, a in enumerate(ann) if a["code"] == "W"):
        read_as(tiles, t, {"W": 0.55, "N": 0.45})  # a pair of west or of north winds
    result = read(tiles, {}, priors)
    shares = [h for h, _ in result.ranked]
    assert sum(w for _, w in result.ranked) == pytest.approx(1.0)
    assert all(a.score >= b.score for a, b in pairwise(shares))
    total = result.decoded.confidence + sum(p for _, p in result.decoded.alternatives)
    assert 0.9 < total <= 1.0 + 1e-9
    assert result.decoded.alternatives and result.decoded.confidence < 0.9


def test_a_concealed_kong_showing_no_face_is_withheld_not_made_up() -> None:
    # The search once turned the kong's backs face up and named them, a hand made up.
    waiting = {
        "melds": [{"type": "kong", "tiles": ["C"] * 4, "concealed": True}],
        "concealed": ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "W", "W"],
    }
    ann = lay_out_hand(waiting, kong_style="all")
    tiles = tiles_from_annotations(ann, np.random.default_rng(0), (40.0, 41.0))
    data = interpret(tiles).to_json()
    assert data["hand"] is None and data["review"]
    assert "hidden_kong_unknown" in [note["code"] for note in data["notes"]]


SCENES = 12  # seeded declared wins of the held-out designs, rendered here
SCENE_SEED = 5570
# Hands and scores right of the SCENES, measured.
MEASURED = 10


@pytest.fixture(scope="module")
def scenes() -> list[tuple[Tiles, dict[str, Any]]]:
    """The engine's own layouts and hands, the tiles read with calibrated simulated
    misreads (about 2 % of faces read wrong at the benchmark's sharpness)."""
    from datasets.scene import render_scene

    rng = np.random.default_rng(SCENE_SEED)
    out = []
    for _ in range(SCENES):
        scene = render_scene(rng, ("kde", "gnome"), "declared_win", 640)
        tiles = tiles_from_annotations(scene.annotations, rng, (3.5, 6.5))
        out.append((tiles, scene.hand))
    return out


@pytest.mark.slow
def test_seeded_renders_read_as_the_engine_laid_them(
    scenes: list[tuple[Tiles, dict[str, Any]]],
) -> None:
    """Hands and scores against the engine's truth; the floor is the value measured less one
    hand."""
    from benchmarks.recognize import canonical, context_of, score_key, true_score

    right = 0
    for tiles, hand in scenes:
        result = interpret(tiles, context_of(hand))
        same = canonical(hand_json(result.decoded.hand)) == canonical(hand)
        right += same and score_key(result.score) == score_key(true_score(hand, "mcr"))
    assert right >= MEASURED - 1


def test_the_search_without_its_priors_fails_when_the_models_load(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import vision.pipeline
    from vision.registry import ModelMissingError

    def missing() -> LayoutPriors:
        raise ModelMissingError("layout_priors is missing")

    monkeypatch.setattr(vision.pipeline, "_priors", missing)
    with pytest.raises(ModelMissingError):
        vision.pipeline.Recognizer()
