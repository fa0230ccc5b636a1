"""A declared win read as 13 tiles: the detector's faint tiles tried as its 14th."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from vision.layout import layout
from vision.notes import NoteCode
from vision.pipeline import interpret
from vision.recognition import hand_json
from vision.simulate import lay_out_hand, tiles_from_annotations
from vision.types import Tiles, concatenate
from vision.unseen import FaintReader, apart, candidates

HAND: dict[str, Any] = {
    "melds": [{"type": "pung", "tiles": ["C", "C", "C"], "claimed_from": "opposite"}],
    "concealed": ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "W"],
    "winning_tile": "W",
    "flowers": [],
}


def _reader(faint: Tiles) -> FaintReader:
    """`faint` as recognition reads it: all, or those `keep` keeps."""

    def read(keep: Callable[[Tiles], np.ndarray] | None = None) -> Tiles:
        return faint if keep is None else faint[np.flatnonzero(keep(faint))]

    return read


def _split(missing: int) -> tuple[Tiles, Tiles, list[dict[str, Any]]]:
    """The hand's tiles as found surely, all but annotation `missing`, and that one alone
    (as the detector's faint look finds it)."""
    ann = lay_out_hand(HAND)
    tiles = tiles_from_annotations(ann, np.random.default_rng(0), (40.0, 41.0))
    kept = np.array([k for k in range(len(ann)) if k != missing])
    faint = tiles[np.array([missing])]
    faint.confidence[:] = 0.15
    return tiles[kept], faint, ann


def _winning(ann: list[dict[str, Any]]) -> int:
    return next(k for k, a in enumerate(ann) if a.get("role") == "winning")


def test_a_faint_tile_on_a_sure_one_is_no_candidate() -> None:
    tiles, faint, _ = _split(_winning(lay_out_hand(HAND)))
    again = tiles[np.array([0])]  # the detector's faint look finds the sure tiles too
    assert apart(again, tiles).tolist() == [False]
    assert apart(faint, tiles).tolist() == [True]


def _moved(one: Tiles, dx: float, dy: float, confidence: float | None = None) -> Tiles:
    """One tile moved by (dx, dy) pixels, at `confidence` where given."""
    return Tiles(
        one.xyxy + np.array([dx, dy, dx, dy], np.float32),
        one.corners + np.array([dx, dy], np.float32),
        one.confidence if confidence is None else np.array([confidence], np.float32),
        one.sideways,
        one.face_down,
        one.probs,
    )


def _shifted(tiles: Tiles, share: float) -> Tiles:
    """The first tile again, moved across by `share` of its width."""
    one = tiles[np.array([0])]
    return _moved(one, share * float(one.xyxy[0, 2] - one.xyxy[0, 0]), 0.0)


def test_a_faint_tile_is_its_own_where_it_overlaps_sure_ones_as_nms_allows() -> None:
    """A sure tile's box a little off a face the detector found only faintly beside it
    overlaps it: the faint one is a tile of its own up to the NMS's overlap of 0.5."""
    tiles, _, _ = _split(_winning(lay_out_hand(HAND)))
    assert apart(_shifted(tiles, 0.6), tiles).tolist() == [True]  # under 0.5 with both
    assert apart(_shifted(tiles, 0.1), tiles).tolist() == [False]  # IoU 0.82: tile 0 again


def test_only_faint_tiles_near_the_hand_are_tried_surest_first() -> None:
    tiles, faint, _ = _split(_winning(lay_out_hand(HAND)))
    far = _moved(faint, 5000.0, 5000.0, confidence=0.29)
    near = _moved(faint, 20.0, 20.0, confidence=0.25)
    found = layout(tiles, 13)
    both = concatenate(concatenate(faint, far), near)
    assert candidates(tiles, both, found) == [2, 0]


def test_a_winning_tile_found_only_faintly_completes_the_win_and_is_flagged() -> None:
    ann = lay_out_hand(HAND)
    tiles, faint, _ = _split(_winning(ann))
    without = interpret(tiles)
    assert without.decoded.waiting  # the sure tiles alone: 13 waiting
    result = interpret(tiles, faint=_reader(faint))
    assert result.decoded.hand is not None and not result.decoded.waiting
    assert hand_json(result.decoded.hand)["winning_tile"] == "W"
    (taken,) = [n for n in result.doubts if n.code is NoteCode.FAINT_TILE_TAKEN]
    assert [result.tiles.confidence[t] for t in taken.tiles] == [np.float32(0.15)]
    assert result.review  # whether that tile is there is a guess


def test_a_win_read_asks_for_the_faint_tiles_once_for_its_flowers_alone() -> None:
    """A win read needs no faint tile to complete it; its flowers may lie among them
    (`vision.faint_flowers`), so they are asked for once."""
    ann = lay_out_hand(HAND)
    tiles = tiles_from_annotations(ann, np.random.default_rng(0), (40.0, 41.0))
    asked: list[int] = []

    def faint(keep: object = None) -> Tiles:
        asked.append(1)
        return Tiles.empty()

    result = interpret(tiles, faint=faint)
    assert result.decoded.hand is not None and not result.decoded.waiting
    assert asked == [1]
    assert all(n.code is not NoteCode.FAINT_TILE_TAKEN for n in result.notes)


def test_a_faint_tile_with_which_no_win_reads_is_not_taken() -> None:
    """A hand truly waiting (its winning tile not yet drawn) beside a faint discard that
    completes nothing stays a hand waiting."""
    ann = lay_out_hand(HAND)
    winning = _winning(ann)
    tiles, faint, _ = _split(winning)
    faint.probs[:] = 0.0
    faint.probs[0, 0] = 1.0  # read as 1m: with it no win is legal
    result = interpret(tiles, faint=_reader(faint))
    assert result.decoded.waiting
    assert all(n.code is not NoteCode.FAINT_TILE_TAKEN for n in result.notes)


def test_faint_tiles_join_no_sure_tiles_whatever_their_widths() -> None:
    """Classified faint tiles (with embeddings and looks) join an empty set of sure tiles,
    whose looks and embeddings have no width."""
    _, faint, _ = _split(_winning(lay_out_hand(HAND)))
    faint.embeddings = np.ones((1, 8), np.float32)
    joined = concatenate(Tiles.empty(), faint)
    assert len(joined) == 1 and joined.embeddings.shape == (1, 8)
    assert len(concatenate(faint, Tiles.empty())) == 1
