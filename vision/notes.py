"""What a reading says about itself: each warning and each review reason as a typed note.

A note carries a stable `code` (the page translates it; nothing matches the English text),
the tiles it is about (indices into the recognition's `tiles`) and the English sentence.
The codes are a contract (docs/DESIGN.md lists them): a new kind of note gets a new code, and
a code never changes its meaning.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class NoteCode(StrEnum):
    """One code per kind of warning or review check."""

    # The layout: how the tiles lie.
    NO_TILES = "no_tiles"
    MIXED_DIRECTIONS = "mixed_directions"
    NO_UPRIGHT_FACE = "no_upright_face"
    READING_SENSE_UNSURE = "reading_sense_unsure"
    TILES_APART = "tiles_apart"
    TILE_FITS_NO_MELD = "tile_fits_no_meld"
    WINNING_TILE_NOT_APART = "winning_tile_not_apart"
    WINNING_TILE_UNSURE = "winning_tile_unsure"
    APART_IN_THIRTEEN = "apart_in_thirteen"
    KEPT_OUT_OF_THIRTEEN = "kept_out_of_thirteen"
    CROWDED_OUT = "crowded_out"
    MELD_CROSSWISE_UNSEEN = "meld_crosswise_unseen"
    KONG_TILE_APART = "kong_tile_apart"
    ROW_END_FLOWERS = "row_end_flowers"
    FLOWER_TAKEN_AS_TILE = "flower_taken_as_tile"
    ASKEW_TILE_TAKEN = "askew_tile_taken"
    TWO_CROSSWISE_TILES = "two_crosswise_tiles"
    LONE_CROSSWISE_TAKEN = "lone_crosswise_taken"
    KONG_FACES_BLANK = "kong_faces_blank"
    FALSE_CLAIM = "false_claim"
    FAINT_TILE_LEFT_OUT = "faint_tile_left_out"
    READ_AS_THIRTEEN = "read_as_thirteen"
    FAINT_TILE_TAKEN = "faint_tile_taken"
    FAINT_FLOWER_TAKEN = "faint_flower_taken"
    FAINT_FLOWER_LEFT_OUT = "faint_flower_left_out"
    TILE_AT_EDGE = "tile_at_edge"
    # The decoding: which tiles they are.
    CONTEXT_FLOWERS = "context_flowers"
    TOO_MANY_FLOWERS = "too_many_flowers"
    HIDDEN_KONG_UNKNOWN = "hidden_kong_unknown"
    DOUBTFUL_TILE_LEFT_OUT = "doubtful_tile_left_out"
    WRONG_TILE_COUNT = "wrong_tile_count"
    NO_WINNING_TILE = "no_winning_tile"
    NO_LEGAL_HAND = "no_legal_hand"
    WIN_FLAGS_DROPPED = "win_flags_dropped"
    SEARCH_CUT_SHORT = "search_cut_short"
    # Review checks: why a person should look at the photo.
    FLOWERS_LEFT_OUT = "flowers_left_out"
    MAYBE_FLOWER_LEFT_OUT = "maybe_flower_left_out"
    WHICH_FLOWER = "which_flower"
    ANOTHER_READING = "another_reading"
    OVERRULED_READING = "overruled_reading"
    CONCEALED_SET_LIKE_MELD = "concealed_set_like_meld"
    UNFAMILIAR_SET = "unfamiliar_set"
    TOO_MANY_COPIES = "too_many_copies"
    SCORER_REJECTS = "scorer_rejects"
    UNLIKELY_RIGHT = "unlikely_right"


@dataclass(frozen=True)
class Note:
    """One thing a reading says about itself. `str(note)` is its English sentence."""

    code: NoteCode
    message: str
    tiles: tuple[int, ...] = ()

    def __str__(self) -> str:
        return self.message

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code.value, "tiles": list(self.tiles), "message": self.message}


def messages(notes: tuple[Note, ...] | list[Note]) -> list[str]:
    """The English sentences of `notes`, in order."""
    return [note.message for note in notes]
