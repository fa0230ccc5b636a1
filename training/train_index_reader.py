"""Train the index reader: the numeral or letter in a face's top corner, or none; export ONNX.

    python -m training.train_index_reader --minutes 45 --out runs/index_reader \
        --init runs/recovered/member0/last.pt

Faces from `training.index_art` (procedural faces whose index was drawn at random, and
fixed-art faces that print none), posed and degraded by `training.tile_augment` at the
reader's size, half of them turned half round as the classifier's are. The net is the
classifier's (`training/classifier_net.py`) with a head of len(INDEX_SYMBOLS) answers, its
features from a trained classifier (`--init`), as the flower reader's. The held-out KDE
themes' faces are evaluated against the index each prints (read off the contact sheet,
`docs/sources/kde.png`), never trained on.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import torch
from torch.utils.data import DataLoader, IterableDataset

from scoring.tiles import FLOWERS, PLAYING
from training.index_art import index_face
from training.tile_augment import augment
from training.train_classifier import (
    add_run_args,
    fit,
    to_tensor,
)
from training.train_flower_reader import calibrate_and_export, evaluate, load_reader, start_net
from vision.indices import INDEX_SYMBOLS, READER_H, READER_W
from vision.registry import shipped

SIZE = (READER_W, READER_H)
RASTERS = Path(__file__).resolve().parents[1] / ".cache" / "art" / "raster"
FIXED_SOURCES = ("fluffystuff", "pixel")  # sets that print no index


def kde_index(theme: str, code: str) -> str:
    """The index a held-out KDE theme prints on `code`'s face (from its contact sheet):
    default and traditional a rank on every suit tile, classic on its characters and 1s;
    all three the winds' letters; traditional C and F, classic C, F and P."""
    if code[0].isdigit():
        unmarked = theme == "classic" and code[1] in "ps" and code != "1s"
        return "none" if unmarked else code[0]
    if code in "ESWN":
        return code
    dragons = {"default": "", "traditional": "CF", "classic": "CFP"}[theme]
    return code if code in dragons else "none"


def heldout_set(per_code: int, seed: int) -> dict[str, tuple[torch.Tensor, torch.Tensor]]:
    """Augmented crops of each KDE theme's suit and honour faces, labelled with their index."""
    rng = np.random.default_rng(seed)
    sets = {}
    for theme in ("default", "traditional", "classic"):
        crops, labels = [], []
        for code in PLAYING:
            png = RASTERS / "kde" / theme / f"{code}.png"
            if not png.is_file():
                continue
            face = cv2.cvtColor(cv2.imread(str(png)), cv2.COLOR_BGR2RGB)
            face = cv2.resize(face, (120, 160), interpolation=cv2.INTER_AREA)
            for _ in range(per_code):
                crops.append(augment(face, rng, size=SIZE))
                labels.append(INDEX_SYMBOLS.index(kde_index(theme, code)))
        if crops:
            sets[f"kde_{theme}"] = (to_tensor(crops), torch.tensor(labels))
    return sets


class IndexFaces(IterableDataset[tuple[torch.Tensor, torch.Tensor]]):
    """Endless batches of augmented index-reader crops; a share `fixed_share` of fixed-art
    faces labelled none."""

    def __init__(self, batch: int, seed: int, fixed_share: float, lowres_share: float) -> None:
        self.batch, self.seed, self.fixed_share = batch, seed, fixed_share
        self.lowres_share = lowres_share

    def __iter__(self) -> Iterator[tuple[torch.Tensor, torch.Tensor]]:
        info = torch.utils.data.get_worker_info()
        cv2.setNumThreads(1)
        rng = np.random.default_rng(self.seed + (info.id if info else 0) * 7919)
        fixed = fixed_faces()
        while True:
            crops, labels = [], []
            for _ in range(self.batch):
                face, label = draw(rng, fixed, self.fixed_share)
                crops.append(
                    augment(face, rng, warp_share=0.2, size=SIZE, lowres_share=self.lowres_share)
                )
                labels.append(label)
            yield to_tensor(crops), torch.tensor(labels)


def fixed_faces() -> list[np.ndarray]:
    """Every face of the fixed-art training sources without an index, upright at 160 x 120."""
    from datasets.faces import get_source

    faces = []
    for name in FIXED_SOURCES:
        try:
            source = get_source(name)
        except Exception as exc:  # art not fetched on this machine: procedural faces only
            print(f"no {name} faces: {exc}")
            continue
        rng = np.random.default_rng(0)
        for code in sorted(source.codes - set(FLOWERS)):
            for _ in range(2):
                face = source.face(code, rng)
                faces.append(cv2.resize(face, (120, 160), interpolation=cv2.INTER_AREA))
    return faces


def draw(
    rng: np.random.Generator, fixed: list[np.ndarray], fixed_share: float
) -> tuple[np.ndarray, int]:
    if fixed and rng.random() < fixed_share:
        return fixed[int(rng.integers(len(fixed)))], 0
    face, label = index_face(rng)
    return cv2.resize(face, (120, 160), interpolation=cv2.INTER_AREA), label


def fixed_set(n: int, seed: int, fixed_share: float) -> tuple[torch.Tensor, torch.Tensor]:
    rng = np.random.default_rng(seed)
    fixed = fixed_faces()
    crops, labels = [], []
    for _ in range(n):
        face, label = draw(rng, fixed, fixed_share)
        crops.append(augment(face, rng, size=SIZE))
        labels.append(label)
    return to_tensor(crops), torch.tensor(labels)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--minutes", type=float, default=45.0, help="wall-clock training budget")
    p.add_argument("--out", default="runs/index_reader", help="checkpoints, log, metrics")
    p.add_argument(
        "--export", default=str(shipped("index_reader").path), help="ONNX written at the end"
    )
    p.add_argument(
        "--init",
        default=None,
        help="classifier checkpoint to take features from (--export-only: the reader's own)",
    )
    p.add_argument("--fixed-share", type=float, default=0.1, help="fixed-art faces, as none")
    p.add_argument("--randconv-share", type=float, default=0.2)
    p.add_argument("--lowres-share", type=float, default=0.0, help="crops seen as a small tile is")
    add_run_args(p, batch=64, lr=2e-3)
    p.add_argument("--resume", default=None, help="reader checkpoint to train on from")
    p.add_argument("--export-only", action="store_true", help="calibrate + export --init's net")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    cv2.setNumThreads(1)  # no OpenCV thread pool may exist when the data worker forks
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    classes = len(INDEX_SYMBOLS)
    sets = {"synthetic": fixed_set(600, args.seed + 1, args.fixed_share)}
    sets.update(heldout_set(4, args.seed + 2))
    with open(out / "log.jsonl", "a") as f:
        f.write(json.dumps({"args": vars(args)}) + "\n")
    if args.export_only:
        net = load_reader(args.init, args.width, classes)
    else:
        net = (
            load_reader(args.resume, args.width, classes)
            if args.resume
            else start_net(args.init, args.width, classes)
        )
        data = IndexFaces(args.batch, args.seed, args.fixed_share, args.lowres_share)
        loader = DataLoader(
            data,
            batch_size=None,
            num_workers=args.workers,
            prefetch_factor=4,
            persistent_workers=True,
        )
        report = lambda trained: evaluate(trained, sets)  # noqa: E731
        fit(net, loader, args, report, out / "log.jsonl", out, "index reader")
    calib = fixed_set(1200, args.seed + 3, args.fixed_share)
    calibrate_and_export([net], calib, sets, t0, out, Path(args.export), (READER_H, READER_W))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
