"""Each move of the layout search on its own: what it proposes on constructed tiles, and what
applying it does."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from vision.layout import layout
from vision.moves import (
    FLIP_FLOOR,
    Move,
    MoveKind,
    apply_moves,
    drops,
    flips,
    merges,
    propose,
)
from vision.priors import Attribute
from vision.simulate import lay_out_hand, read_as, tiles_from_annotations
from vision.types import Tiles

HAND: dict[str, Any] = {
    "melds": [{"type": "pung", "tiles": ["C", "C", "C"], "claimed_from": "opposite"}],
    "concealed": ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "W"],
    "winning_tile": "W",
    "flowers": [],
}
SURE = 8.0  # log-odds: about 1 in 3,000 against


def _tiles(extra: list[dict[str, Any]] | None = None) -> tuple[Tiles, list[dict[str, Any]]]:
    ann = [*lay_out_hand(HAND), *(extra or [])]
    return tiles_from_annotations(ann, np.random.default_rng(0), (40.0, 41.0)), ann


def _odds(tiles: Tiles, **changed: tuple[int, float]) -> dict[Attribute, np.ndarray]:
    """Log-odds that agree surely with the detector's flags and that every tile is the
    win's, but for `changed` (attribute name: (tile, log-odds))."""
    odds = {
        Attribute.OF_THE_WIN: np.full(len(tiles), SURE),
        Attribute.FACE_DOWN: np.where(tiles.face_down, SURE, -SURE),
        Attribute.CROSSWISE: np.where(tiles.sideways, SURE, -SURE),
    }
    for name, (tile, value) in changed.items():
        odds[Attribute(name)][tile] = value
    return odds


def _everywhere(tiles: Tiles) -> np.ndarray:
    return np.ones(len(tiles), dtype=bool)


def _twice() -> tuple[Tiles, int, int]:
    """The pung's crosswise tile detected a second time, upright, more confidently."""
    ann = lay_out_hand(HAND)
    claimed = next(i for i, a in enumerate(ann) if a["sideways"])
    centre = np.array(ann[claimed]["corners"]).mean(axis=0)
    face = np.array([[-28, -38], [28, -38], [28, 38], [-28, 38]], float)
    upright = {**ann[claimed], "sideways": False, "corners": (centre + face).tolist()}
    tiles, _ = _tiles([upright])
    tiles.confidence[claimed] = 0.43
    tiles.confidence[len(ann)] = 0.75
    return tiles, claimed, len(ann)


def test_a_crosswise_tile_found_twice_is_proposed_as_one_kept_crosswise() -> None:
    tiles, claimed, duplicate = _twice()
    odds = _odds(tiles, crosswise=(duplicate, -1.0))
    (move,) = merges(tiles, layout(tiles), odds, _everywhere(tiles))
    assert move.kind is MoveKind.MERGE_TWICE and move.tiles == (duplicate, claimed)
    assert move.log_odds == 0.0  # the tile's flag is its crosswise detection's
    merged, kept = apply_moves(tiles, [move])
    assert len(merged) == len(tiles) - 1 and claimed not in kept
    assert merged.sideways[list(kept).index(duplicate)]


def test_two_upright_tiles_close_together_are_no_merge() -> None:
    tiles, _ = _tiles()
    tiles.sideways[:] = False
    tiles.corners[1] = tiles.corners[0] + 5.0
    assert merges(tiles, layout(tiles), _odds(tiles), _everywhere(tiles)) == []


def test_a_faint_detection_is_proposed_dropped_and_a_sure_one_is_not() -> None:
    tiles, _ = _tiles()
    tiles.confidence[3] = 0.35
    odds = _odds(tiles, of_the_win=(3, -0.5))
    (move,) = drops(tiles, odds, _everywhere(tiles))
    assert move == Move(MoveKind.DROP, (3,), 0.0, 0.5)
    rest, kept = apply_moves(tiles, [move])
    assert len(rest) == len(tiles) - 1 and 3 not in kept


def test_a_detection_the_prior_doubts_is_proposed_dropped_however_sure_the_detector() -> None:
    tiles, _ = _tiles()
    odds = _odds(tiles, of_the_win=(5, -3.0))
    assert [m.tiles for m in drops(tiles, odds, _everywhere(tiles))] == [(5,)]


def test_a_face_read_as_a_back_is_proposed_face_down() -> None:
    tiles, _ = _tiles()
    (move,) = flips(tiles, _odds(tiles, face_down=(2, 1.5)), _everywhere(tiles))
    assert move.kind is MoveKind.TURN_FACE_DOWN and move.tiles == (2,)
    assert move.log_odds == pytest.approx(1.5)  # log P(down) - log P(up)
    turned, _ = apply_moves(tiles, [move])
    assert turned.face_down[2] and not tiles.face_down[2]


def test_a_blank_face_flagged_face_down_is_proposed_face_up() -> None:
    tiles, _ = _tiles()
    tiles.face_down[4] = True
    (move,) = flips(tiles, _odds(tiles, face_down=(4, -0.5)), _everywhere(tiles))
    assert move.kind is MoveKind.TURN_FACE_UP and move.log_odds == pytest.approx(0.5)
    turned, _ = apply_moves(tiles, [move])
    assert not turned.face_down[4]


def test_a_blank_tile_is_proposed_turned_however_sure_the_prior() -> None:
    """A pale back and a blank white dragon look alike: the hand, not the prior, decides."""
    tiles, _ = _tiles()
    read_as(tiles, 3, {"P": 0.99, "back": 0.01})
    (move,) = flips(tiles, _odds(tiles), _everywhere(tiles))
    assert move.kind is MoveKind.TURN_FACE_DOWN and move.tiles == (3,)
    assert move.log_odds == pytest.approx(-SURE)  # proposed, still weighed by the prior
    read_as(tiles, 3, {"P": 0.6, "5p": 0.4})
    assert flips(tiles, _odds(tiles), _everywhere(tiles)) == []


def test_a_crosswise_flag_the_prior_doubts_is_proposed_upright() -> None:
    tiles, ann = _tiles()
    claimed = next(i for i, a in enumerate(ann) if a["sideways"])
    (move,) = flips(tiles, _odds(tiles, crosswise=(claimed, -2.0)), _everywhere(tiles))
    assert move.kind is MoveKind.TURN_UPRIGHT and move.log_odds == pytest.approx(2.0)
    turned, _ = apply_moves(tiles, [move])
    assert not turned.sideways[claimed]


def test_a_missed_crosswise_flag_is_proposed() -> None:
    tiles, _ = _tiles()
    (move,) = flips(tiles, _odds(tiles, crosswise=(7, -3.0)), _everywhere(tiles))
    assert move.kind is MoveKind.TURN_CROSSWISE and move.log_odds == pytest.approx(-3.0)
    turned, _ = apply_moves(tiles, [move])
    assert turned.sideways[7]


def test_a_flip_the_prior_gives_less_than_the_floor_is_not_proposed() -> None:
    tiles, _ = _tiles()
    below = float(np.log(FLIP_FLOOR / (1 - FLIP_FLOOR))) - 0.1
    assert flips(tiles, _odds(tiles, face_down=(2, below)), _everywhere(tiles)) == []


def test_faint_strays_are_proposed_dropped_together_and_nothing_else() -> None:
    ann = lay_out_hand(HAND)
    far = [
        {**ann[k], "corners": [[x, y + 900] for x, y in ann[k]["corners"]], "role": "stray"}
        for k in (0, 5)
    ]
    tiles, _ = _tiles(far)
    strays = (len(tiles) - 2, len(tiles) - 1)
    tiles.confidence[list(strays)] = 0.3
    odds = _odds(tiles, face_down=(strays[0], 0.0), of_the_win=(strays[1], -3.0))
    moves = propose(tiles, layout(tiles), odds)
    assert Move(MoveKind.DROP, strays) in moves
    assert all(not set(strays) & set(m.tiles) for m in moves if m.tiles != strays)


def test_flips_of_one_kind_in_one_row_are_also_proposed_together() -> None:
    tiles, _ = _tiles()
    odds = _odds(tiles)
    odds[Attribute.FACE_DOWN][[6, 7, 8]] = -1.0
    tiles.face_down[[6, 7, 8]] = True
    moves = [m for m in propose(tiles, layout(tiles), odds) if m.kind is MoveKind.TURN_FACE_UP]
    assert sorted(m.tiles for m in moves) == [(6,), (6, 7, 8), (7,), (8,)]
    assert next(m for m in moves if len(m.tiles) == 3).log_odds == pytest.approx(3.0)
