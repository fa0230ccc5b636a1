"""Structured notes: every warning and review reason carries a stable code and its tiles."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from vision.notes import Note, NoteCode
from vision.pipeline import interpret
from vision.roles import Pose, Role
from vision.simulate import lay_out_hand, tiles_from_annotations

DESIGN = Path(__file__).resolve().parents[2] / "docs" / "DESIGN.md"

HAND: dict[str, Any] = {
    "melds": [{"type": "pung", "tiles": ["C", "C", "C"], "claimed_from": "opposite"}],
    "concealed": ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "W"],
    "winning_tile": "W",
    "flowers": ["3h"],
}


def _read(ann: list[dict[str, Any]], sharpness: tuple[float, float] = (40.0, 41.0)) -> Any:
    return interpret(tiles_from_annotations(ann, np.random.default_rng(0), sharpness))


def _assert_notes_cover(data: dict[str, Any]) -> None:
    """Each warning and review reason has one note of the same sentence, with a known code
    and tile indices into `tiles`."""
    codes = {code.value for code in NoteCode}
    messages = [note["message"] for note in data["notes"]]
    assert set(messages) == {*data["warnings"], *data["review_reasons"]}
    for note in data["notes"]:
        assert set(note) == {"code", "tiles", "message"}
        assert note["code"] in codes
        assert all(0 <= t < len(data["tiles"]) for t in note["tiles"])


def test_a_sure_reading_has_no_notes() -> None:
    data = _read(lay_out_hand(HAND)).to_json()
    assert data["notes"] == [] and data["warnings"] == [] and data["review_reasons"] == []


def test_a_layout_doubt_is_a_note_with_its_code_and_tiles() -> None:
    # Two lone tiles stand equally apart: which is the winning tile is a guess.
    ann = lay_out_hand(HAND)
    concealed = [a for a in ann if a["role"] == "concealed"]
    first = min(concealed, key=lambda a: a["bbox"][0])
    # Push the first concealed tile as far from the row as the winning tile stands.
    winning = next(a for a in ann if a["role"] == "winning")
    row = sorted(concealed, key=lambda a: a["bbox"][0])
    gap = winning["bbox"][0] - (row[-1]["bbox"][0] + row[-1]["bbox"][2])
    first["bbox"][0] -= gap
    first["corners"] = [[x - gap, y] for x, y in first["corners"]]
    result = _read(ann)
    data = result.to_json()
    _assert_notes_cover(data)
    unsure = [n for n in data["notes"] if n["code"] == NoteCode.WINNING_TILE_UNSURE]
    assert len(unsure) == 1 and data["review"]
    assert len(unsure[0]["tiles"]) == 2
    assert {data["tiles"][t]["role"] for t in unsure[0]["tiles"]} == {"concealed", "winning"}


def test_a_hand_two_tiles_short_says_so_in_notes() -> None:
    ann = [a for a in lay_out_hand(HAND) if a["code"] not in ("5p", "6p")]
    data = _read(ann).to_json()
    _assert_notes_cover(data)
    codes = [n["code"] for n in data["notes"]]
    assert "no_legal_hand" in codes and "wrong_tile_count" in codes
    assert data["hand"] is None and data["review"]


def test_a_tile_at_the_photo_edge_is_a_note_naming_it() -> None:
    tiles = tiles_from_annotations(lay_out_hand(HAND), np.random.default_rng(0), (40.0, 41.0))
    right = float(tiles.xyxy[:, 2].max())
    result = interpret(tiles, image_size=(int(right), 4000))
    data = result.to_json()
    _assert_notes_cover(data)
    edge = [n for n in data["notes"] if n["code"] == "tile_at_edge"]
    assert len(edge) == 1 and edge[0]["tiles"]
    assert all(data["tiles"][t]["box"][2] >= right - 2.0 for t in edge[0]["tiles"])
    assert not data["review"]  # a warning, not a review reason


def test_notes_serialize_as_plain_json() -> None:
    note = Note(NoteCode.TOO_MANY_COPIES, "five of a tile", (3, 4))
    assert json.loads(json.dumps(note.to_json())) == {
        "code": "too_many_copies",
        "tiles": [3, 4],
        "message": "five of a tile",
    }
    assert str(note) == "five of a tile"


def test_roles_and_poses_are_their_names_in_json() -> None:
    data = _read(lay_out_hand(HAND)).to_json()
    roles = {t["role"] for t in data["tiles"]}
    assert roles <= {role.value for role in Role}
    assert json.loads(json.dumps(data))["tiles"][0]["role"] in {r.value for r in Role}
    assert Pose.SIDEWAYS == "S" and Role.CONCEALED_KONG == "concealed_kong"


@pytest.mark.parametrize("code", list(NoteCode))
def test_every_code_is_documented(code: NoteCode) -> None:
    # The page's translators work from DESIGN.md's list of codes.
    assert re.search(rf"`{code.value}`", DESIGN.read_text()), code.value
