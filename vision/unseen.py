"""A declared win read as 13 tiles: a tile the detector found only faintly, tried as the 14th.

The detector keeps the tiles it finds at 0.3. A winning tile set apart near the photo's edge,
or a pale face, may be found only under that, and the sure tiles then read as a hand of 13
waiting to win. Where they do, the photo's faint tiles (`vision.pipeline.FAINT_CONFIDENCE`)
that lie on no sure tile and near a hand tile are tried, surest first, each added alone; the
first that reads a win is kept, unless the rules must overrule a confident tile reading to
make it one (a faint discard beside a hand truly waiting). The reading says so in a review
check: whether that tile is there is a guess the tiles' probabilities cannot vouch for.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Protocol

import numpy as np
import numpy.typing as npt

from vision.layout import Layout
from vision.nms import box_iou
from vision.notes import Note, NoteCode
from vision.roles import HAND_ROLES
from vision.search import SearchResult, doubtful_win
from vision.types import Tiles, concatenate

# Faint tiles tried, surest first: each try is a search of the whole layout.
MAX_TRIED = 3
# A faint tile is near the hand within this many face lengths of a hand tile's centre (a
# winning tile lies a gap apart from the row it completes)...
NEAR = 2.0
# ...and a tile of its own where its box overlaps no sure tile's more than the detector's
# NMS lets two detections overlap (`vision.detect.decode_heads`): the faint look finds the
# sure tiles again too, each at IoU 1 with itself.
OWN_IOU = 0.5
TAKEN = "a tile the detector found only faintly was taken into the hand: with it a win reads"


class FaintReader(Protocol):
    """The photo's tiles the detector found only faintly, on none of the sure ones, read by
    the classifier: all, or those `keep` keeps (judged from the detector's output alone,
    before reading: reading a face costs the classifier's time)."""

    def __call__(self, keep: Callable[[Tiles], npt.NDArray[np.bool_]] | None = None) -> Tiles: ...


def apart(faint: Tiles, tiles: Tiles) -> npt.NDArray[np.bool_]:
    """Which of `faint` lie on none of `tiles`: no box overlapping theirs over OWN_IOU."""
    if not len(tiles) or not len(faint):
        return np.ones(len(faint), bool)
    overlap = np.array([box_iou(box, tiles.xyxy).max() for box in faint.xyxy])
    return np.asarray(overlap <= OWN_IOU, bool)


def candidates(tiles: Tiles, faint: Tiles, found: Layout) -> list[int]:
    """Indices into `faint` worth trying as the hand's missing tile, surest first: on no
    tile, within NEAR face lengths of a hand tile."""
    hand = [t for g in found.groups if g.role in HAND_ROLES for t in g.tiles]
    if not hand or not len(faint):
        return []
    boxes = tiles.xyxy[hand]
    face = float(np.median((boxes[:, 2:] - boxes[:, :2]).max(axis=1)))  # a box's long side
    to_hand = np.linalg.norm(faint.centers[:, None] - tiles.centers[hand][None], axis=2)
    near = to_hand.min(axis=1) < NEAR * face
    chosen = np.flatnonzero(apart(faint, tiles) & near)
    return [int(k) for k in chosen[np.argsort(-faint.confidence[chosen], kind="stable")]]


def with_faint_tile(
    tiles: Tiles, found: Layout, faint: Tiles, read: Callable[[Tiles], SearchResult]
) -> SearchResult | None:
    """The reading (`read`) of `tiles` with the first faint tile near the hand
    (`candidates`) with which they read a win the tiles as read allow (`doubtful_win`),
    noted; None where none does."""
    for k in candidates(tiles, faint, found)[:MAX_TRIED]:
        searched = read(concatenate(tiles, faint[np.array([k])]))
        if searched.decoded.waiting or doubtful_win(searched.decoded):
            continue
        added = np.all(searched.tiles.xyxy == faint.xyxy[k], axis=1)
        note = Note(NoteCode.FAINT_TILE_TAKEN, TAKEN, tuple(int(t) for t in np.flatnonzero(added)))
        return replace(searched, found=searched.found.noted(note))
    return None
