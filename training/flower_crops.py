"""Flower crops cut along the detector's corners: the split the reader trains on, and how
well readers name them.

    python -m training.flower_crops vision/weights/flower_reader.onnx \
        runs/fr_pair3/flower_reader.onnx --packs runs/flower_crops_a.npz runs/flower_crops_b.npz
    python -m training.flower_crops vision/weights/flower_reader.onnx \
        --packs runs/flower_crops_e.npz --all

The packs come from `python -m training.detected_crops ... --flowers`. By default only the
crops `training.train_flower_reader --detected-crops` keeps apart are read (the last
DETECTED_EVAL); `--all` reads every crop, for packs of photos never trained on. Needs only
onnxruntime, not torch.
"""

from __future__ import annotations

import argparse

import numpy as np

from scoring.tiles import CLASSES, FLOWERS
from training.crop_pack import load_crops
from vision.flowers import READER_H, READER_W, FlowerReader

DETECTED_EVAL = 400  # detected crops kept apart (the packs' last; photos render in order)
Crops = tuple[np.ndarray, np.ndarray]  # (n, h, w, 3) RGB uint8 and FLOWERS indices


def flower_crops(paths: list[str]) -> Crops:
    """Every flower crop of the packs, in order, labelled among FLOWERS."""
    packs = [load_crops(path) for path in paths]
    crops = np.concatenate([c for c, _ in packs])
    classes = np.concatenate([labels for _, labels in packs])
    keep = np.isin(classes, [CLASSES.index(code) for code in FLOWERS])
    crops, classes = crops[keep], classes[keep]
    labels = np.array([FLOWERS.index(CLASSES[k]) for k in classes], np.int64)
    if crops.shape[1:3] != (READER_H, READER_W):
        raise SystemExit(f"detected crops are {crops.shape[1:3]}, not the reader's size")
    return crops, labels


def detected_flowers(paths: list[str]) -> tuple[Crops, Crops] | None:
    """The flower crops of the packs: those to train on, and the last DETECTED_EVAL (at most
    a fifth) to evaluate on."""
    if not paths:
        return None
    crops, labels = flower_crops(paths)
    cut = len(labels) - min(DETECTED_EVAL, len(labels) // 5)
    return (crops[:cut], labels[:cut]), (crops[cut:], labels[cut:])


def named(predicted: np.ndarray, labels: np.ndarray) -> dict[str, float]:
    """Shares named exactly, with the right number (1-4), and in the right group (flower or
    season)."""
    return {
        "exact": float((predicted == labels).mean()),
        "number": float((predicted % 4 == labels % 4).mean()),
        "group": float(((predicted >= 4) == (labels >= 4)).mean()),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("readers", nargs="+", help="flower reader ONNX files")
    parser.add_argument("--packs", nargs="+", required=True, help="training.detected_crops packs")
    parser.add_argument("--all", action="store_true", help="every crop, not the kept-apart")
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args(argv)
    if args.all:
        crops, labels = flower_crops(args.packs)
    else:
        split = detected_flowers(args.packs)
        assert split is not None  # --packs is required
        crops, labels = split[1]
    for path in args.readers:
        predicted = FlowerReader(path, threads=args.threads).read(list(crops)).argmax(axis=1)
        shares = ", ".join(f"{k} {100 * v:.1f} %" for k, v in named(predicted, labels).items())
        print(f"{path}: {shares} of {len(labels)} crops")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
