"""The evaluation-only camerash face source: registered by path, never among the defaults."""

from pathlib import Path

import numpy as np
import pytest

from datasets.faces import SOURCES, get_source
from datasets.faces.base import FACE_HEIGHT, FACE_WIDTH

CAMERASH = Path(__file__).resolve().parents[3] / "shared" / "data" / "camerash-crops"


def test_not_a_default_source() -> None:
    assert "camerash" not in SOURCES


@pytest.mark.skipif(not CAMERASH.is_dir(), reason="camerash-crops not present")
def test_registered_source_gives_faces_of_every_code() -> None:
    from datasets.faces.camerash import register

    source = get_source(register(CAMERASH))
    assert len(source.codes) == 42
    face = source.face("5p", np.random.default_rng(0))
    assert face.shape == (FACE_HEIGHT, FACE_WIDTH, 3) and face.dtype == np.uint8


@pytest.mark.skipif(not CAMERASH.is_dir(), reason="camerash-crops not present")
def test_crops_labelled_as_another_face_are_read_as_the_face_they_show() -> None:
    """133.jpg shows eight dots (labelled 8m), 350.jpg nine dots and a 9 (labelled 8p)."""
    from datasets.faces.camerash import read_camerash

    codes = {path.name: code for path, code in read_camerash(CAMERASH)}
    assert (codes["133.jpg"], codes["350.jpg"]) == ("8p", "9p")
    assert codes["2.jpg"] == "8m"  # the rest as data.csv says
