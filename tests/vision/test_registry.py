"""The shipped model files: one table, the files it names, and every loader looking there."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

from vision import priors, refine, registry, tileness
from vision.registry import MODELS, WEIGHTS_DIR, ModelMissingError, model_card, require, shipped

README = Path(__file__).resolve().parents[2] / "README.md"


def test_every_shipped_file_is_there_with_its_card_beside_it() -> None:
    for model in MODELS:
        assert model.path.is_file(), model.name
        assert model.card_path.is_file(), model.name


def test_the_weights_folder_holds_only_what_the_table_names() -> None:
    files = {p.name for p in WEIGHTS_DIR.iterdir() if p.suffix in (".onnx", ".json")}
    assert files == {model.file for model in MODELS}


def test_the_readme_says_what_each_file_is_for() -> None:
    text = README.read_text(encoding="utf-8")
    section = text.split("## Model files", 1)[1].split("\n## ", 1)[0]
    for model in MODELS:
        assert f"`{model.file}`" in section, model.file


def test_a_missing_file_names_the_model_its_trainer_and_where_it_was_looked_for(
    tmp_path: Path,
) -> None:
    with pytest.raises(ModelMissingError) as caught:
        require("sideways_look", tmp_path / "look.onnx")
    assert str(caught.value) == (
        f"sideways_look model not found at {tmp_path / 'look.onnx'}: "
        "train it (mjlens train sideways) or pass its path"
    )
    assert isinstance(caught.value, FileNotFoundError)  # what callers caught before


def test_a_path_given_wins_over_the_shipped_file(tmp_path: Path) -> None:
    mine = tmp_path / "d.onnx"
    mine.write_bytes(b"d")
    assert require("detector", mine) == mine
    assert require("detector") == shipped("detector").path


def test_an_unknown_name_lists_the_known_ones() -> None:
    with pytest.raises(KeyError, match="detector, refiner"):
        shipped("segmenter")


def test_the_card_a_recognition_reports() -> None:
    path = shipped("refiner").path
    digest = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    card = model_card(path)
    assert card == {"file": "refiner.onnx", "sha256": digest, "bytes": path.stat().st_size}
    assert re.fullmatch(r"[0-9a-f]{16}", card["sha256"])


def test_every_loader_looks_where_the_registry_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from vision.classify import Classifier
    from vision.detect import Detector
    from vision.flowers import FlowerReader
    from vision.indices import IndexReader
    from vision.pipeline import Recognizer
    from vision.refine import Refiner
    from vision.sideways import SidewaysModels

    monkeypatch.setattr(registry, "WEIGHTS_DIR", tmp_path)
    cached = (refine.shipped, priors.shipped_priors, tileness.shipped_tileness)
    for loader in cached:
        loader.cache_clear()
    try:
        for load, name in (
            (Detector, "detector"),
            (Classifier, "classifier"),
            (Refiner, "refiner"),
            (FlowerReader, "flower_reader"),
            (IndexReader, "index_reader"),
            (SidewaysModels.load, "sideways"),
            (Recognizer, "layout_priors"),  # the first file it needs
        ):
            with pytest.raises(ModelMissingError, match=f"{name} model not found at {tmp_path}"):
                load()
        # the optional ones are left out where their files are absent
        assert refine.shipped() is None
        assert FlowerReader.shipped() is None and IndexReader.shipped() is None
        assert tileness.shipped_tileness() is None
    finally:
        for loader in cached:
            loader.cache_clear()


def test_a_weights_folder_given_by_the_environment_wins_for_the_files_it_holds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    candidate = tmp_path / "review.json"
    candidate.write_bytes(shipped("review").path.read_bytes())
    monkeypatch.setenv(registry.WEIGHTS_ENV, str(tmp_path))
    assert require("review") == candidate
    assert registry.optional("review") == candidate
    # a file the folder does not hold is the shipped one
    assert require("detector") == shipped("detector").path
    monkeypatch.setenv(registry.WEIGHTS_ENV, str(tmp_path / "nowhere"))
    assert require("review") == shipped("review").path
