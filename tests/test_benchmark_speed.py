"""The speed benchmark's photos: 12 MP, never stretched, shown upright through EXIF."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from benchmarks import speed
from vision.load import load_photo, read_header

DATA = Path(__file__).parent / "vision" / "data"


def test_a_turned_photo_is_stored_sideways_and_shown_upright(tmp_path: Path) -> None:
    """Stored a quarter turn round with EXIF orientation 6, as a phone held upright writes
    it: the header says 4000 x 3000 and 6, and the loaded photo is the source again."""
    source = cv2.imread(str(DATA / "scene_declared_win.jpg"))  # 480 x 640, upright
    path = speed.write_12mp(source, tmp_path / "turned.jpg", turned=True)
    header = read_header(path.read_bytes())
    assert (header.width, header.height, header.orientation) == (4000, 3000, 6)
    photo = load_photo(path)
    assert photo.original_size == (3000, 4000)
    small = cv2.resize(photo.image, (480, 640), interpolation=cv2.INTER_AREA)
    assert float(np.abs(small.astype(np.float32) - source).mean()) < 3


def test_photos_not_framed_4_3_are_refused_rather_than_stretched(tmp_path: Path) -> None:
    wide = np.zeros((360, 640, 3), np.uint8)
    with pytest.raises(ValueError, match="not 4:3"):
        speed.write_12mp(wide, tmp_path / "wide.jpg", turned=False)


def test_it_takes_the_declared_wins_framed_4_3(tmp_path: Path) -> None:
    images = tmp_path / "set" / "images"
    images.mkdir(parents=True)
    rows = []
    for k, (kind, (w, h)) in enumerate(
        [("rows", (640, 480)), ("declared_win", (640, 360)), ("declared_win", (480, 640))]
    ):
        cv2.imwrite(str(images / f"{k}.jpg"), np.full((h, w, 3), 90, np.uint8))
        rows.append(
            {
                "id": k,
                "file_name": f"images/{k}.jpg",
                "width": w,
                "height": h,
                "scene": {"kind": kind},
            }
        )
    coco = {"images": rows, "annotations": []}
    (tmp_path / "set" / "annotations.coco.json").write_text(json.dumps(coco), encoding="utf-8")
    made = speed.make_photos(tmp_path / "set", 5, tmp_path / "out")
    assert len(made) == 1
    assert read_header(made[0].read_bytes()).width == 3000


def test_each_models_share_is_named_by_its_file_not_its_cached_graph() -> None:
    """Sessions open cached graphs under other names (`vision.sessions`); where a photo's
    time goes is still told by the model files."""
    from types import SimpleNamespace

    from vision.registry import shipped
    from vision.sessions import open_session

    path = shipped("sideways_look").path
    open_session(path, threads=1)  # the first opening stores the graph, the next reads it
    session = open_session(path, threads=1)
    feeds = {
        i.name: np.zeros([d if isinstance(d, int) else 1 for d in i.shape], np.float32)
        for i in session.get_inputs()
    }

    class Reader:
        def recognize(self, data: bytes) -> SimpleNamespace:
            session.run(None, feeds)
            return SimpleNamespace(timings_ms={"decode": 0.0})

    shares = speed.share_of_photo(Reader(), [b"photo"])
    assert set(shares) == {"sideways_look.onnx", "decode (search)"}
