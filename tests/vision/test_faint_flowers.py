"""The win's flowers the detector found only faintly: judged, taken or doubted."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from vision import faint_flowers
from vision.faint_flowers import DOUBT, READ, TAKE, bound, features, judged, p_flower
from vision.notes import NoteCode
from vision.pipeline import interpret
from vision.recognition import hand_json
from vision.simulate import lay_out_hand, tiles_from_annotations
from vision.types import Tiles
from vision.unseen import FaintReader

HAND: dict[str, Any] = {
    "melds": [{"type": "pung", "tiles": ["C", "C", "C"], "claimed_from": "opposite"}],
    "concealed": ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "W"],
    "winning_tile": "W",
    "flowers": ["1h", "6h"],
}


def _reader(faint: Tiles) -> FaintReader:
    """`faint` as recognition reads it: all, or those `keep` keeps."""

    def read(keep: Callable[[Tiles], np.ndarray] | None = None) -> Tiles:
        return faint if keep is None else faint[np.flatnonzero(keep(faint))]

    return read


def _split(code: str) -> tuple[Tiles, Tiles]:
    """The win's tiles found surely, but for its flower `code`, found only faintly."""
    ann = lay_out_hand(HAND)
    tiles = tiles_from_annotations(ann, np.random.default_rng(0), (40.0, 41.0))
    pale = next(k for k, a in enumerate(ann) if a["code"] == code and a["role"] == "flower")
    faint = tiles[np.array([pale])]
    faint.confidence[:] = 0.2
    return tiles[np.array([k for k in range(len(ann)) if k != pale])], faint


@pytest.fixture
def judging(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Sets the model's probability for every face judged, whatever its inputs."""

    def at(p: float) -> None:
        monkeypatch.setattr(faint_flowers, "p_flower", lambda x: np.full(len(x), p))

    return at


def _flowers(result: Any) -> list[str]:
    return sorted(hand_json(result.decoded.hand)["flowers"])


def test_a_pale_flower_likelier_the_wins_than_not_is_taken_and_flagged(judging: Any) -> None:
    tiles, faint = _split("6h")
    assert _flowers(interpret(tiles)) == ["1h"]
    judging(TAKE + 0.01)
    result = interpret(tiles, faint=_reader(faint))
    assert _flowers(result) == ["1h", "6h"]
    (taken,) = [n for n in result.doubts if n.code is NoteCode.FAINT_FLOWER_TAKEN]
    assert [result.tiles.confidence[t] for t in taken.tiles] == [np.float32(0.2)]
    assert result.review  # whether the tile is there is a guess


def test_a_pale_flower_in_doubt_is_left_out_and_flagged(judging: Any) -> None:
    tiles, faint = _split("6h")
    judging(DOUBT)
    result = interpret(tiles, faint=_reader(faint))
    assert _flowers(result) == ["1h"]
    assert [n.code for n in result.doubts] == [NoteCode.FAINT_FLOWER_LEFT_OUT]
    assert result.review


def test_an_unlikely_flower_changes_nothing(judging: Any) -> None:
    tiles, faint = _split("6h")
    judging(DOUBT - 0.01)
    result = interpret(tiles, faint=_reader(faint))
    plain = interpret(tiles)
    assert _flowers(result) == _flowers(plain) == ["1h"]
    assert result.review == plain.review and result.doubts == plain.doubts


def test_a_faint_face_read_as_no_flower_is_not_judged(judging: Any) -> None:
    tiles, faint = _split("6h")
    faint.probs[:] = 0.0
    faint.probs[0, 0] = 1.0  # read as 1m
    assert judged(faint).tolist() == [False]
    judging(1.0)
    assert _flowers(interpret(tiles, faint=_reader(faint))) == ["1h"]


def test_a_taken_flower_that_changes_the_hand_is_left_out(judging: Any) -> None:
    """A faint face read as a flower that the layout takes into the concealed tiles would
    change the hand: it is not taken, only doubted."""
    ann = lay_out_hand(HAND)
    tiles = tiles_from_annotations(ann, np.random.default_rng(0), (40.0, 41.0))
    one = next(k for k, a in enumerate(ann) if a["code"] == "5p")
    faint = tiles[np.array([one])]
    faint.confidence[:] = 0.2
    rest = tiles[np.array([k for k in range(len(ann)) if k != one])]
    faint.probs[:] = 0.0
    faint.probs[0, faint_flowers.FLOWER_SLICE.start] = 1.0  # 5p read as a flower
    judging(1.0)
    result = interpret(rest, faint=_reader(faint))
    assert all(n.code is not NoteCode.FAINT_FLOWER_TAKEN for n in result.doubts)


def test_the_inputs_measure_the_face_against_the_win() -> None:
    tiles, faint = _split("6h")
    flowers = [k for k in range(len(tiles)) if tiles.codes[k] == "1h"]
    x = features(tiles, list(range(len(tiles))), flowers, faint)
    named = dict(zip(faint_flowers.FEATURES, x[0], strict=True))
    assert named["log_detected"] == pytest.approx(np.log(0.2))
    assert named["flower_mass"] == pytest.approx(1.0, abs=1e-3)
    assert 0.5 < named["flower_gap"] < 2.0  # beside the other flower
    assert named["shows_flowers"] == 1.0
    none = features(tiles, list(range(len(tiles))), [], faint)[0]
    assert none[faint_flowers.FEATURES.index("flower_gap")] == faint_flowers.FAR
    assert 0.0 <= p_flower(x)[0] <= 1.0


def test_flowers_the_player_gives_stand(judging: Any) -> None:
    tiles, _ = _split("6h")
    judging(1.0)

    def never(keep: object = None) -> Tiles:
        raise AssertionError("the player's flowers stand: no faint flower is looked for")

    result = interpret(tiles, {"flowers": 1}, faint=never)
    assert hand_json(result.decoded.hand)["flowers"] == 1


def test_the_bound_is_the_most_a_face_can_reach_once_read() -> None:
    """Faces are read only where `bound` reaches DOUBT: it must hold above every reading."""
    rng = np.random.default_rng(0)
    x = rng.normal(0.0, 1.0, (500, len(faint_flowers.FEATURES)))
    for name, (low, high) in READ.items():
        x[:, faint_flowers.FEATURES.index(name)] = rng.uniform(low, high, len(x))
    assert (bound(x) >= p_flower(x) - 1e-12).all()


def test_faces_that_cannot_reach_doubt_are_not_read() -> None:
    tiles, faint = _split("6h")
    faint.confidence[:] = 0.1
    faint.tileness[:] = -30.0  # the tileness network: no tile
    asked: list[int] = []

    def read(keep: Callable[[Tiles], np.ndarray] | None = None) -> Tiles:
        kept = faint if keep is None else faint[np.flatnonzero(keep(faint))]
        asked.append(len(kept))
        return kept

    result = interpret(tiles, faint=read)
    assert asked == [0] and _flowers(result) == ["1h"]
