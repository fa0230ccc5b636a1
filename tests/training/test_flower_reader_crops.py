"""The detected flower crops the flower reader trains on: flowers only, split for evaluation."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from scoring.tiles import CLASSES, FLOWERS
from training.flower_crops import DETECTED_EVAL, detected_flowers, named
from vision.flowers import READER_H, READER_W
from vision.registry import shipped


def _pack(path: Path, codes: list[str]) -> str:
    crops = np.zeros((len(codes), READER_H, READER_W, 3), np.uint8)
    for i in range(len(codes)):
        crops[i, 0, 0, :2] = divmod(i, 256)  # each crop tells which it is
    np.savez(path, crops=crops, labels=np.array([CLASSES.index(c) for c in codes]))
    return str(path)


def test_only_flowers_are_kept_labelled_among_the_eight_and_the_last_are_set_apart(
    tmp_path: Path,
) -> None:
    codes = [FLOWERS[i % 8] if i % 3 else "5p" for i in range(3000)]
    train, held = detected_flowers([_pack(tmp_path / "a.npz", codes)])
    flowers = [c for c in codes if c in FLOWERS]
    assert len(train[1]) + len(held[1]) == len(flowers) and len(held[1]) == DETECTED_EVAL
    assert [FLOWERS[k] for k in held[1]] == flowers[-DETECTED_EVAL:]
    kept = [i for i, c in enumerate(codes) if c in FLOWERS]
    first = held[0][0, 0, 0]
    assert 256 * int(first[0]) + int(first[1]) == kept[-DETECTED_EVAL]


def test_a_small_pack_keeps_four_fifths_to_train_on(tmp_path: Path) -> None:
    train, held = detected_flowers([_pack(tmp_path / "a.npz", list(FLOWERS) * 5)])
    assert (len(train[1]), len(held[1])) == (32, 8)


def test_crops_of_another_size_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "small.npz"
    np.savez(path, crops=np.zeros((10, 80, 64, 3), np.uint8), labels=np.full(10, 34))
    with pytest.raises(SystemExit, match="reader's size"):
        detected_flowers([str(path)])


def test_named_counts_exact_number_and_group_apart() -> None:
    labels = np.array([0, 1, 4, 7])  # 1h 2h 5h 8h
    predicted = np.array([0, 5, 0, 3])  # right; season of its number; flower of it; 4h
    assert named(predicted, labels) == {"exact": 0.25, "number": 1.0, "group": 0.25}


def test_the_command_reads_every_crop_of_a_pack_with_each_reader(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from datasets.faces.flower_art import flower_face
    from training.flower_crops import main

    rng = np.random.default_rng(0)
    faces = [flower_face(code, rng, (READER_W, READER_H)) for code in FLOWERS for _ in range(2)]
    labels = [CLASSES.index(code) for code in FLOWERS for _ in range(2)]
    path = tmp_path / "p.npz"
    np.savez(path, crops=np.stack(faces), labels=np.array(labels))
    reader = str(shipped("flower_reader").path)
    assert main([reader, reader, "--packs", str(path), "--all"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and lines[0] == lines[1]
    assert lines[0].startswith(f"{reader}: exact ") and lines[0].endswith(" of 16 crops")
