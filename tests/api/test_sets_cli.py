"""`mjlens sets` and `--set` with the real models: teach a rendered set, read with it, and
every bad input a one-line error with a non-zero exit."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from api.cli import main
from tests.api.test_real_models import HAVE_MODELS

pytestmark = pytest.mark.skipif(not HAVE_MODELS, reason="no shipped models")

FACE_SEED = 4242  # one physical set: the enrollment photo and the win show the same faces


def _render(path: Path, kind: str, seed: int) -> dict[str, Any]:
    from datasets.scene import render_scene

    scene = render_scene(
        np.random.default_rng(seed), ("procedural",), kind, 1024, face_seed=FACE_SEED
    )
    cv2.imwrite(str(path), scene.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    return {"hand": scene.hand, "annotations": scene.annotations, "size": scene.image.shape}


@pytest.fixture(scope="module")
def photos(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("photos")
    out: dict[str, Any] = {"folder": folder}
    out["enroll"] = _render(folder / "enroll.jpg", "enrollment", 11)
    out["win"] = _render(folder / "win.jpg", "declared_win", 12)
    return out


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("MJLENS_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def _json(capsys: pytest.CaptureFixture[str], *args: str) -> Any:
    code, out, err = _run(capsys, *args)
    assert code == 0, err
    return json.loads(out)


def test_a_set_is_taught_listed_shown_exported_imported_and_removed(
    photos: dict[str, Any], home: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = photos["folder"]
    report = _json(capsys, "sets", "--json", "enroll", "club", str(folder / "enroll.jpg"))
    assert report["looks_added"] == 42 and report["faces"] == 42
    assert (home / "sets" / "club.mjset").is_file()
    listed = _json(capsys, "sets", "--json", "list")
    assert [s["name"] for s in listed["sets"]] == ["club"]
    sheet = tmp_path / "sheet.png"
    shown = _json(capsys, "sets", "--json", "show", "club", "--out", str(sheet))
    assert shown["looks"] == 42 and shown["untaught"] == ["back"]
    assert cv2.imread(str(sheet)) is not None
    exported = tmp_path / "club.mjset"
    _json(capsys, "sets", "--json", "export", "club", str(exported))
    copy = _json(capsys, "sets", "--json", "import", str(exported), "--name", "club-copy")
    assert copy["name"] == "club-copy" and copy["looks"] == 42
    code, _, err = _run(capsys, "sets", "import", str(exported))
    assert code == 2 and "exists" in err and len(err.strip().splitlines()) == 1
    _json(capsys, "sets", "--json", "remove", "club")
    assert [s["name"] for s in _json(capsys, "sets", "--json", "list")["sets"]] == ["club-copy"]


def test_recognize_and_classify_read_with_the_set(
    photos: dict[str, Any], home: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = photos["folder"]
    _json(capsys, "sets", "enroll", "--json", "club", str(folder / "enroll.jpg"))
    read = _json(capsys, "recognize", "--set", "club", "--json", str(folder / "win.jpg"))
    assert read["set"] == "club"
    plain = _json(capsys, "recognize", "--json", str(folder / "win.jpg"))
    assert plain["set"] is None
    truth = sorted(a["code"] for a in photos["win"]["annotations"] if not a.get("face_down"))
    seen = sorted(t["code"] for t in read["tiles"] if t["code"] != "back")
    assert len(seen) >= len(truth) - 1
    # A crop of one face, read with the set: the tile it was taught as.
    ann = next(a for a in photos["enroll"]["annotations"] if a["code"] == "5p")
    x, y, w, h = (round(v) for v in ann["bbox"])
    crop = cv2.imread(str(folder / "enroll.jpg"))[y : y + h, x : x + w]
    cv2.imwrite(str(tmp_path / "crop.png"), crop)
    code, out, err = _run(capsys, "classify", "--set", "club", str(tmp_path / "crop.png"))
    assert code == 0, err
    assert out.split("\t")[1] == "5p"


def test_readings_left_unflagged_teach_a_new_set_as_the_photos_are_read(
    photos: dict[str, Any], home: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """`--learn`: a name no set has starts one; each reading no review check flags adds its
    hand's and flowers' face-up tiles under the codes read; a flagged one adds nothing."""
    wins = [str(photos["folder"] / "win.jpg")]
    for seed in (21, 22):
        _render(tmp_path / f"w{seed}.jpg", "declared_win", seed)
        wins.append(str(tmp_path / f"w{seed}.jpg"))
    code, out, err = _run(capsys, "recognize", "--set", "night", "--learn", "--json", *wins)
    assert code == 0, err
    reads = [json.loads(line) for line in out.splitlines()]
    assert len(reads) == 3
    for k, read in enumerate(reads):  # read with the set once an earlier reading taught it
        taught_before = any(not r["review"] for r in reads[:k])
        assert read["set"] == ("night" if taught_before else None)
    taught: dict[str, int] = {}  # the most each code may have been taught
    for read in reads:
        hand = [t["code"] for t in read["tiles"] if t["role"] != "stray" and not t["face_down"]]
        if read["review"]:
            assert read["learned"] == 0
            continue
        # Each face-up hand tile, but those the classifier alone names otherwise (here
        # every one of 14, two readings).
        assert len(hand) - 1 <= read["learned"] <= len(hand)
        for code in hand:
            taught[code] = taught.get(code, 0) + 1
    assert taught, "every reading flagged: pick wins that read surely"
    assert "set night is new" in err and err.count("set night learned") == sum(
        not r["review"] for r in reads
    )
    shown = _json(capsys, "sets", "--json", "show", "night")
    assert sum(shown["counts"].values()) == sum(r["learned"] for r in reads)
    assert all(n <= taught.get(code, 0) for code, n in shown["counts"].items())
    code, _, err = _run(capsys, "recognize", "--learn", wins[0])
    assert code == 2 and "--set" in err and len(err.strip().splitlines()) == 1


def _coco(photos: dict[str, Any], tmp_path: Path, jitter: float) -> Path:
    """A COCO file of the win, boxes a little off as a person draws them."""
    rng = np.random.default_rng(3)
    codes = sorted({a["code"] for a in photos["win"]["annotations"] if not a.get("face_down")})
    # Some labelling tools change a name's case: 1S, e.
    categories = [{"id": k + 1, "name": c.swapcase()} for k, c in enumerate(codes)]
    annotations = []
    for k, a in enumerate(photos["win"]["annotations"]):
        if a.get("face_down"):
            continue
        x, y, w, h = a["bbox"]
        box = [x + rng.normal(0, jitter * w), y + rng.normal(0, jitter * h), w, h]
        annotations.append(
            {"id": k + 1, "image_id": 1, "bbox": box, "category_id": codes.index(a["code"]) + 1}
        )
    (tmp_path / "win.jpg").write_bytes((photos["folder"] / "win.jpg").read_bytes())
    coco = {
        "images": [{"id": 1, "file_name": "win.jpg"}],
        "annotations": annotations,
        "categories": categories,
    }
    path = tmp_path / "labels.json"
    path.write_text(json.dumps(coco))
    return path


def test_labelled_photos_teach_a_set(
    photos: dict[str, Any], home: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = _coco(photos, tmp_path, jitter=0.05)
    report = _json(capsys, "sets", "--json", "add", "table", "--coco", str(path))
    labelled = len(json.loads(path.read_text())["annotations"])
    assert report["looks_added"] == labelled
    assert report["labels_matched_to_a_tile"] >= labelled - 2
    read = _json(capsys, "recognize", "--set", "table", "--json", str(photos["folder"] / "win.jpg"))
    assert read["set"] == "table"


def test_a_coco_file_finds_its_photos_where_labelling_tools_export_them(
    photos: dict[str, Any], home: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """CVAT writes annotations/instances_default.json beside images/; elsewhere, --images."""
    labels = _coco(photos, tmp_path, jitter=0.0)
    export = tmp_path / "export"
    (export / "annotations").mkdir(parents=True)
    (export / "images").mkdir()
    (tmp_path / "win.jpg").rename(export / "images" / "win.jpg")
    coco = export / "annotations" / "instances_default.json"
    labels.rename(coco)
    report = _json(capsys, "sets", "--json", "add", "cvat", "--coco", str(coco))
    assert report["labels_matched_to_a_tile"] >= report["looks_added"] - 2
    # A path the photo had on the labelling server: its name is looked for.
    data = json.loads(coco.read_text())
    data["images"][0]["file_name"] = "/data/upload/1/win.jpg"
    coco.write_text(json.dumps(data))
    assert _json(capsys, "sets", "--json", "add", "cvat", "--coco", str(coco))["photos"] == 1
    moved = tmp_path / "photos"
    (export / "images").rename(moved)
    code, _, err = _run(capsys, "sets", "add", "cvat", "--coco", str(coco))
    assert code == 2 and "give --images" in err and len(err.strip().splitlines()) == 1
    report = _json(
        capsys, "sets", "--json", "add", "cvat", "--coco", str(coco), "--images", str(moved)
    )
    assert report["photos"] == 1
    code, _, err = _run(capsys, "sets", "add", "cvat", "--coco", str(coco), "--images", "nowhere")
    assert code == 2 and "--images nowhere: no such folder" in err


def test_boxes_measured_before_the_photos_exif_turn_teach_the_faces_they_label(
    photos: dict[str, Any], home: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A phone stores a photo lying on its side with EXIF orientation 6; a labelling tool
    that ignores it measures the boxes on the pixels as stored. Taken as given, the boxes
    would cut faces from the wrong places and teach them under the wrong codes."""
    from tests.vision.test_load import _with_exif

    upright = cv2.imread(str(photos["folder"] / "win.jpg"))
    width = upright.shape[1]
    stored = cv2.rotate(upright, cv2.ROTATE_90_COUNTERCLOCKWISE)  # EXIF 6 turns it back
    ok, jpeg = cv2.imencode(".jpg", stored, [cv2.IMWRITE_JPEG_QUALITY, 92])
    assert ok
    (tmp_path / "side.jpg").write_bytes(_with_exif(bytes(jpeg.tobytes()), 6))
    faces = [a for a in photos["win"]["annotations"] if not a.get("face_down")]
    codes = sorted({a["code"] for a in faces})
    annotations = []
    for k, a in enumerate(faces):
        x, y, w, h = a["bbox"]
        box = [y, width - x - w, h, w]  # the same box in the stored pixels
        annotations.append(
            {"id": k + 1, "image_id": 1, "bbox": box, "category_id": codes.index(a["code"]) + 1}
        )
    coco = {
        "images": [
            {"id": 1, "file_name": "side.jpg", "width": stored.shape[1], "height": stored.shape[0]}
        ],
        "annotations": annotations,
        "categories": [{"id": k + 1, "name": c} for k, c in enumerate(codes)],
    }
    path = tmp_path / "labels.json"
    path.write_text(json.dumps(coco))
    report = _json(capsys, "sets", "--json", "add", "table", "--coco", str(path))
    assert report["labels_matched_to_a_tile"] >= len(faces) - 2
    assert any("before its EXIF turn" in w for w in report["warnings"])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["sets", "enroll", "../up", "x.jpg"], "bad set name"),
        (["sets", "enroll", "club", "missing.jpg"], "missing.jpg: no such file"),
        (["sets", "show", "nobody"], "no tile set named 'nobody'"),
        (["sets", "remove", "nobody"], "no tile set named 'nobody'"),
        (["recognize", "--set", "nobody", "x.jpg"], "no tile set named 'nobody'"),
        (["sets", "add", "club", "--coco", "missing.json"], "no such file"),
    ],
)
def test_bad_input_is_one_line(
    home: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, _, err = _run(capsys, *args)
    assert code == 2
    assert message in err and len(err.strip().splitlines()) == 1


def test_a_photo_that_is_no_enrollment_teaches_nothing(
    photos: dict[str, Any], home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = photos["folder"]
    code, _, err = _run(capsys, "sets", "enroll", "club", str(folder / "win.jpg"))
    assert code == 2 and "win.jpg: " in err and "row" in err
    assert not (home / "sets" / "club.mjset").exists()


def test_a_damaged_set_file_is_a_clear_error(
    home: Path, capsys: pytest.CaptureFixture[str], photos: dict[str, Any]
) -> None:
    (home / "sets").mkdir(parents=True)
    (home / "sets" / "broken.mjset").write_bytes(b"PK\x03\x04 not really")
    for args in (
        ["sets", "show", "broken"],
        ["recognize", "--set", "broken", str(photos["folder"] / "win.jpg")],
    ):
        code, _, err = _run(capsys, *args)
        assert code == 2 and "not a tile set file" in err, err
    listed = _json(capsys, "sets", "--json", "list")
    assert listed["sets"][0]["name"] == "broken" and "error" in listed["sets"][0]


def test_a_coco_file_with_a_category_that_is_no_tile_is_refused_whole(
    photos: dict[str, Any], home: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = _coco(photos, tmp_path, jitter=0.0)
    coco = json.loads(path.read_text())
    coco["categories"][0]["name"] = "dragon"
    path.write_text(json.dumps(coco))
    code, _, err = _run(capsys, "sets", "add", "club", "--coco", str(path))
    assert code == 2 and "'dragon' is not a tile code" in err
    coco["categories"][0]["name"] = "1m"
    coco["images"][0]["file_name"] = "elsewhere.jpg"
    path.write_text(json.dumps(coco))
    code, _, err = _run(capsys, "sets", "add", "club", "--coco", str(path))
    assert code == 2 and "'elsewhere.jpg' not found" in err
    coco["images"][0] |= {"file_name": "win.jpg", "width": "wide", "height": 768}
    path.write_text(json.dumps(coco))
    code, _, err = _run(capsys, "sets", "add", "club", "--coco", str(path))
    assert code == 2 and "width and height" in err and len(err.strip().splitlines()) == 1
    assert not (home / "sets" / "club.mjset").exists()
