"""Batch generation: seeded per image, same result however it is split, and the CLI around it."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from api.cli import main
from datasets.synth import generate, image_rng, parse_kind, pick_kind


def _labels(root):
    return json.loads((root / "annotations.coco.json").read_text())


def test_a_slice_renders_the_same_images_as_the_whole_set(tmp_path) -> None:
    whole = generate(3, tmp_path / "a", seed=5, size=256, kinds=("declared_win", "pile"))
    part = generate(1, tmp_path / "b", seed=5, size=256, kinds=("declared_win", "pile"), start=2)
    assert whole["annotations"] and whole["images"][2]["hand"] == part["images"][0]["hand"]
    assert whole["images"][2]["scene"] == part["images"][0]["scene"]
    assert {img["scene"]["kind"] for img in whole["images"]} <= {"declared_win", "pile"}
    a = cv2.imread(str(tmp_path / "a/images/000002.jpg"))
    b = cv2.imread(str(tmp_path / "b/images/000002.jpg"))
    assert np.array_equal(a, b)
    third = [x for x in whole["annotations"] if x["image_id"] == 3]
    assert [x["bbox"] for x in third] == [x["bbox"] for x in part["annotations"]]


@pytest.mark.slow
def test_two_workers_give_the_same_set_as_one(tmp_path) -> None:
    one = generate(3, tmp_path / "one", seed=1, size=200, workers=1)
    two = generate(3, tmp_path / "two", seed=1, size=200, workers=2)
    assert one["annotations"] == two["annotations"] and one["images"] == two["images"]


def test_cli_writes_a_set_and_its_contact_sheet(tmp_path, capsys) -> None:
    out = tmp_path / "set"
    assert (
        main(
            [
                "synth",
                "--n",
                "2",
                "--out",
                str(out),
                "--seed",
                "3",
                "--size",
                "256",
                "--kinds",
                "declared_win,scattered",
                "--yolo",
            ]
        )
        == 0
    )
    assert len(_labels(out)["images"]) == 2
    assert (out / "labels/000001.txt").is_file() and (out / "data.yaml").is_file()
    sheet = tmp_path / "sheet.png"
    assert main(["synth", "preview", str(out), "--out", str(sheet), "--count", "2"]) == 0
    assert cv2.imread(str(sheet)) is not None
    crops = tmp_path / "crops.png"
    assert main(["synth", "preview", str(out), "--crops", "--out", str(crops), "--count", "6"]) == 0
    assert cv2.imread(str(crops)).shape[0] > 72


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["synth", "--n", "2"], "--out"),  # no output folder
        (["synth", "--n", "1", "--out", "{tmp}", "--kinds", "heap"], "unknown kind"),
        (["synth", "--n", "1", "--out", "{tmp}", "--kinds", "rows:x"], "not a number"),
        (["synth", "--n", "1", "--out", "{tmp}", "--sources", "nope"], "nope"),
        (["synth", "preview", "{tmp}"], "annotations.coco.json"),  # not a synth folder
    ],
)
def test_cli_errors_are_one_line(argv, message, tmp_path, capsys) -> None:
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_a_failing_image_is_left_out_and_reported(tmp_path, monkeypatch) -> None:
    import datasets.synth as synth

    real = synth.render_scene

    def flaky(rng, sources, kind, size):
        scene = real(rng, sources, kind, size)
        if len(scene.annotations) % 2:  # some images "fail", deterministically
            raise RuntimeError("face source broke")
        return scene

    monkeypatch.setattr(synth, "render_scene", flaky)
    coco = generate(6, tmp_path, seed=2, size=160)
    failed = coco["info"]["failed"]
    assert len(coco["images"]) + len(failed) == 6 and 0 < len(failed) < 6
    assert all("face source broke" in f["error"] for f in failed)


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        ("rows", ("rows", 0.15)),  # default weight
        ("pile:2.5", ("pile", 2.5)),  # explicit weight
    ],
)
def test_kind_entries_carry_optional_weights(entry, expected) -> None:
    assert parse_kind(entry) == expected


@pytest.mark.parametrize("entry", ["heap", "rows:x", "rows:0", "rows:-1"])
def test_bad_kind_entries_are_refused(entry) -> None:
    with pytest.raises(ValueError):
        parse_kind(entry)


def test_weights_steer_the_mix() -> None:
    picks = [pick_kind(image_rng(0, i), ["declared_win:9", "pile:1"]) for i in range(400)]
    assert 0.8 < picks.count("declared_win") / len(picks) < 0.97


def test_designs_counts_each_seeded_set_once_and_fixed_art_by_theme() -> None:
    from datasets.synth import designs

    def img(i, source, design, seed):
        return {"id": i, "scene": {"source": source, "design": design, "set_seed": seed}}

    coco = {
        "images": [
            img(1, "procedural", "procedural", 10),
            img(2, "procedural", "procedural", 11),
            img(3, "procedural", "procedural", 10),  # the same set again
            img(4, "kde", "kde/classic", 12),
            img(5, "kde", "kde/classic", 13),  # fixed art: one theme, one design
            img(6, "procedural", "procedural", 14),  # a table with no tiles: no design shown
        ],
        "annotations": [{"image_id": i} for i in (1, 2, 3, 4, 5)],
    }
    assert designs(coco) == 3


def test_every_photo_draws_a_new_set_unless_a_set_seed_is_fixed(tmp_path) -> None:
    from datasets.synth import designs

    coco = generate(4, tmp_path / "a", seed=3, size=200, kinds=("pile",))
    assert designs(coco) == 4
