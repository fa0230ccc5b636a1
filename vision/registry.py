"""The shipped model files: which ones inference loads, what each is for, and where it lies.

Every file is package data of `vision` (`vision/weights/`), its model card beside it
(`<name>.md`). Each loader in vision/ takes its default file from here; a path a caller
passes wins. A recognition reports each file it used by `model_card`: name, SHA-256 prefix
and size.

    from vision import registry
    registry.require("detector")  # the shipped file, else ModelMissingError
    registry.optional("refiner")  # the shipped file, else None: the detector's corners stand
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vision.sessions import digest

WEIGHTS_DIR = Path(__file__).resolve().parent / "weights"
WEIGHTS_ENV = "MJLENS_WEIGHTS"


class ModelMissingError(FileNotFoundError):
    """A model file is not where the recognizer looks for it."""


@dataclass(frozen=True)
class ShippedModel:
    """One shipped file. `name` keys a recognition's `models` JSON and the registry;
    `trainer` is the `mjlens train` model that writes it, or `fitted_by` the command that
    does; `required`: recognition cannot run
    without it (an optional file's stage is skipped where the file is absent)."""

    name: str
    file: str
    purpose: str
    required: bool
    trainer: str
    fitted_by: str = ""

    @property
    def path(self) -> Path:
        """Where the shipped file lies, whether or not it is there."""
        return WEIGHTS_DIR / self.file

    @property
    def card_path(self) -> Path:
        """The model card: what the model is, its data, training command and figures."""
        return self.path.with_suffix(".md")


MODELS: tuple[ShippedModel, ...] = (
    ShippedModel(
        "detector",
        "detector.onnx",
        "finds every tile, face up or down: its box and its face's four corners",
        required=True,
        trainer="detector",
    ),
    ShippedModel(
        "refiner",
        "refiner.onnx",
        "sets each detected face's corners on the face's own edges, from a close look",
        required=False,
        trainer="refiner",
    ),
    ShippedModel(
        "classifier",
        "classifier.onnx",
        "names each face (42 faces and the back) and embeds it for taught tile sets",
        required=True,
        trainer="classifier",
    ),
    ShippedModel(
        "flower_reader",
        "flower_reader.onnx",
        "a second look at the faces read as flowers: which of the eight",
        required=False,
        trainer="flower_reader",
    ),
    ShippedModel(
        "index_reader",
        "index_reader.onnx",
        "reads the rank or letter printed in a face's corner",
        required=False,
        trainer="index_reader",
    ),
    ShippedModel(
        "sideways",
        "sideways.json",
        "the logistic weights that flag tiles laid crosswise (claimed tiles of melds)",
        required=True,
        trainer="sideways",
    ),
    ShippedModel(
        "sideways_look",
        "sideways_look.onnx",
        "the sideways flag's look at a tile and its neighbours, a term of sideways.json",
        required=True,
        trainer="sideways",
    ),
    ShippedModel(
        "tileness",
        "tileness.onnx",
        "tells a detected tile from a look-alike beside it (keys, dominoes, cards) by its pixels",
        required=False,
        trainer="",
        fitted_by="python -m training.train_tileness",
    ),
    ShippedModel(
        "review",
        "review.json",
        "the logistic models of how likely a reading is right (with no set, with a taught set), "
        "and their review thresholds",
        required=False,
        trainer="",
        fitted_by="python benchmarks/review.py fit, then fit-set",
    ),
    ShippedModel(
        "objectness",
        "objectness.json",
        "the logistic model that tells a detected tile from a detected thing that is no tile",
        required=False,
        trainer="",
        fitted_by="python benchmarks/objectness.py fit",
    ),
    ShippedModel(
        "layout_priors",
        "layout_priors.json",
        "the layout search's priors: whether a detection is the win's, face down, crosswise",
        required=False,
        trainer="",
        fitted_by="python benchmarks/priors.py fit",
    ),
)
_BY_NAME = {model.name: model for model in MODELS}


def shipped(name: str) -> ShippedModel:
    """The registry's row for `name`; a KeyError names the models there are."""
    try:
        return _BY_NAME[name]
    except KeyError:
        raise KeyError(f"no shipped model {name!r}: one of {', '.join(_BY_NAME)}") from None


def located(name: str) -> Path:
    """Where the recognizer looks for `name`'s file: in the folder `$MJLENS_WEIGHTS` names,
    where a file of that name lies there (a candidate model and the models fitted on its
    outputs, measured through every benchmark as if shipped), else the shipped file."""
    model = shipped(name)
    folder = os.environ.get(WEIGHTS_ENV)
    candidate = Path(folder) / model.file if folder else None
    return candidate if candidate is not None and candidate.is_file() else model.path


def require(name: str, path: str | Path | None = None) -> Path:
    """`path` where given, else `name`'s file (`located`); ModelMissingError where the file
    is not there."""
    file = Path(path) if path is not None else located(name)
    if not file.is_file():
        model = shipped(name)
        how = model.fitted_by or f"mjlens train {model.trainer}"
        raise ModelMissingError(
            f"{name} model not found at {file}: train it ({how}) or pass its path"
        )
    return file


def optional(name: str) -> Path | None:
    """`name`'s file (`located`), or None where it is not there."""
    file = located(name)
    return file if file.is_file() else None


def model_card(path: Path) -> dict[str, Any]:
    """What a recognition reports of a model file: its name, SHA-256 prefix and size."""
    return {"file": path.name, "sha256": digest(path)[:16], "bytes": path.stat().st_size}
