"""Train the flower reader: which of the eight flowers and seasons a flower tile is; export ONNX.

    python -m training.train_flower_reader --minutes 40 --out runs/flower_reader \
        --init runs/recovered/member0/last.pt --camerash ../shared/data/camerash-crops

The tile classifier names the exact flower worst of all on designs it never saw. The
reader, a second opinion on the faces the classifier takes for a flower (`vision.flowers`),
looks at them at 128 x 96 and only has to tell the eight apart. Its features start from a
trained classifier's (`--init`; the net is fully convolutional, so they apply at any size),
its head is new. Two readers from different classifier runs join into one graph with
`--export-only --init A --ensemble B` (`vision/weights/flower_reader.md`).

Faces: the training sources' flowers (`procedural`, `unicode`) and `datasets.faces.flower_art`,
posed and degraded by `training.tile_augment` at the reader's size; with `--detected-crops`,
also a share of flower faces cut from rendered photos of the training sources along the
detector's corners, as the pipeline cuts them (`python -m training.detected_crops ...
--flowers`), of which the last `training.flower_crops.DETECTED_EVAL` are kept apart to
evaluate on (`python -m training.flower_crops READER --packs ...` reads them with any reader).
The held-out KDE art and the real camerash crops are only evaluated, never trained on.
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
from tqdm import tqdm

from datasets.faces.camerash import read_camerash
from datasets.faces.flower_art import flower_face
from scoring.tiles import FLOWERS
from training.classifier_net import TileClassifier
from training.flower_crops import Crops, detected_flowers
from training.tile_augment import augment, photometric
from training.train_classifier import (
    add_run_args,
    calibrate,
    expected_calibration_error,
    export_onnx,
    fit,
    logits_of,
    probs_of,
    to_tensor,
)
from vision.flowers import READER_H, READER_W
from vision.registry import shipped

SIZE = (READER_W, READER_H)
Pool = dict[str, list[np.ndarray]]


def build_pool(per_code: int, fixed_per_code: int, seed: int) -> Pool:
    """Clean flower faces: `per_code` procedural designs and `fixed_per_code` draws of the
    fixed-art training source (`unicode`) per flower."""
    from datasets.faces import get_source

    rng = np.random.default_rng(seed)
    pool: Pool = {code: [] for code in FLOWERS}
    for name, n in (("procedural", per_code), ("unicode", fixed_per_code)):
        source = get_source(name)
        for code in tqdm(FLOWERS, desc=f"faces {name}", leave=False):
            if code in source.codes:
                pool[code].extend(_upright(source.face(code, rng)) for _ in range(n))
    return pool


def _upright(face: np.ndarray) -> np.ndarray:
    return cv2.resize(face, (120, 160), interpolation=cv2.INTER_AREA)


def draw_face(code: str, pool: Pool, rng: np.random.Generator, art_share: float) -> np.ndarray:
    if not pool[code] or rng.random() < art_share:
        return flower_face(code, rng)
    faces = pool[code]
    return faces[rng.integers(len(faces))]


class AugmentedFlowers(IterableDataset[tuple[torch.Tensor, torch.Tensor]]):
    """Endless batches of augmented flower crops at the reader's size, the eight alike;
    about one face in `1 / fresh_share` is a new procedural design put into the pool, and
    a `detected_share` of each batch are `detected` crops, relit (`photometric`)."""

    def __init__(
        self,
        pool: Pool,
        batch: int,
        seed: int,
        art_share: float,
        fresh_share: float,
        detected: Crops | None = None,
        detected_share: float = 0.0,
    ) -> None:
        self.pool, self.batch, self.seed = pool, batch, seed
        self.art_share, self.fresh_share = art_share, fresh_share
        self.detected = detected
        self.detected_share = detected_share if detected is not None else 0.0

    def __iter__(self) -> Iterator[tuple[torch.Tensor, torch.Tensor]]:
        from datasets.faces import get_source

        info = torch.utils.data.get_worker_info()
        cv2.setNumThreads(1)
        rng = np.random.default_rng(self.seed + (info.id if info else 0) * 7919)
        source = get_source("procedural")
        while True:
            n_detected = int(rng.binomial(self.batch, self.detected_share))
            labels = rng.integers(len(FLOWERS), size=self.batch - n_detected)
            crops = []
            for label in labels:
                code = FLOWERS[label]
                if self.fresh_share and rng.random() < self.fresh_share:
                    faces = self.pool[code]
                    faces[int(rng.integers(len(faces)))] = _upright(source.face(code, rng))
                face = draw_face(code, self.pool, rng, self.art_share)
                crops.append(augment(face, rng, warp_share=0.2, size=SIZE))
            if n_detected and self.detected is not None:
                picks = rng.integers(len(self.detected[1]), size=n_detected)
                for i in picks:
                    crop = self.detected[0][i]
                    if rng.random() < 0.5:
                        crop = crop[::-1, ::-1]  # the detector's corners may be half a turn round
                    crops.append(photometric(np.ascontiguousarray(crop), rng))
                labels = np.concatenate([labels, self.detected[1][picks]])
            yield to_tensor(crops), torch.from_numpy(labels)


def fixed_set(
    pool: Pool, per_code: int, seed: int, art_share: float
) -> tuple[torch.Tensor, torch.Tensor]:
    rng = np.random.default_rng(seed)
    crops, labels = [], []
    for label, code in enumerate(FLOWERS):
        for _ in range(per_code):
            crops.append(augment(draw_face(code, pool, rng, art_share), rng, size=SIZE))
            labels.append(label)
    return to_tensor(crops), torch.tensor(labels)


def heldout_set(per_code: int, seed: int) -> tuple[torch.Tensor, torch.Tensor] | None:
    """Augmented crops of the held-out KDE themes' flower faces, when their art is here."""
    from datasets.faces import get_source

    try:
        source = get_source("kde")
    except Exception as exc:  # the held-out art may be missing on this machine
        print(f"no held-out KDE flowers: {exc}")
        return None
    rng = np.random.default_rng(seed)
    crops, labels = [], []
    for label, code in enumerate(FLOWERS):
        for _ in range(per_code if code in source.codes else 0):
            crops.append(augment(_upright(source.face(code, rng)), rng, size=SIZE))
            labels.append(label)
    return (to_tensor(crops), torch.tensor(labels)) if crops else None


def camerash_flowers(root: str | None) -> tuple[torch.Tensor, torch.Tensor] | None:
    """The real flower and season crops, resized to the reader's input (evaluation only)."""
    if not root or not Path(root).is_dir():
        return None
    crops, labels = [], []
    for path, code in read_camerash(root):
        if code in FLOWERS:
            image = cv2.resize(cv2.imread(str(path)), SIZE, interpolation=cv2.INTER_AREA)
            crops.append(cv2.cvtColor(image, cv2.COLOR_BGR2RGB))
            labels.append(FLOWERS.index(code))
    return to_tensor(crops), torch.tensor(labels)


def start_net(init: str | None, width: int, classes: int = len(FLOWERS)) -> TileClassifier:
    """A reader of `classes` answers whose features are those of the classifier checkpoint
    `init`, if given (the flower reader's, and the index reader's)."""
    net = TileClassifier(num_classes=classes, width=width)
    if init:
        state = torch.load(init, map_location="cpu")["model"]
        features = {k: v for k, v in state.items() if not k.startswith("head.")}
        net.load_state_dict(features, strict=False)
    return net


def load_reader(path: str, width: int, classes: int = len(FLOWERS)) -> TileClassifier:
    net = TileClassifier(num_classes=classes, width=width)
    net.load_state_dict(torch.load(path, map_location="cpu")["model"])
    return net


def evaluate(net: torch.nn.Module, sets: dict[str, tuple[torch.Tensor, torch.Tensor]]) -> dict:
    return {
        name: round((logits_of(net, x).argmax(1) == y).float().mean().item(), 4)
        for name, (x, y) in sets.items()
    }


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--minutes", type=float, default=40.0, help="wall-clock training budget")
    p.add_argument("--out", default="runs/flower_reader", help="checkpoints, log, metrics")
    p.add_argument(
        "--export", default=str(shipped("flower_reader").path), help="ONNX written at the end"
    )
    p.add_argument(
        "--init",
        default=None,
        help="classifier checkpoint to take features from (--export-only: the reader's own)",
    )
    p.add_argument("--camerash", default=None, help="real crops folder (evaluation only)")
    p.add_argument("--per-code", type=int, default=200, help="procedural designs per flower")
    p.add_argument("--fixed-per-code", type=int, default=20, help="unicode draws per flower")
    p.add_argument(
        "--art-share", type=float, default=0.5, help="faces from datasets.faces.flower_art"
    )
    p.add_argument("--fresh-share", type=float, default=0.1, help="new procedural designs")
    p.add_argument("--randconv-share", type=float, default=0.2)
    p.add_argument(
        "--detected-crops",
        nargs="*",
        default=[],
        help=".npz packs of `training.detected_crops --flowers`, mixed into the batches",
    )
    p.add_argument(
        "--detected-share", type=float, default=0.4, help="share of detected crops per batch"
    )
    add_run_args(p, batch=64, lr=2e-3)
    p.add_argument("--resume", default=None, help="reader checkpoint to train on from")
    p.add_argument("--export-only", action="store_true", help="calibrate + export --init's net")
    p.add_argument(
        "--ensemble",
        nargs="*",
        default=[],
        help="reader checkpoints whose calibrated readings are averaged with the trained one",
    )
    return p.parse_args(argv)


def train(
    args: argparse.Namespace,
    net: TileClassifier,
    pool: Pool,
    sets: dict,
    out: Path,
    detected: Crops | None = None,
) -> None:
    data = AugmentedFlowers(
        pool,
        args.batch,
        args.seed,
        args.art_share,
        args.fresh_share,
        detected,
        args.detected_share,
    )
    loader = DataLoader(
        data, batch_size=None, num_workers=args.workers, prefetch_factor=4, persistent_workers=True
    )
    fit(
        net,
        loader,
        args,
        lambda trained: evaluate(trained, sets),
        out / "log.jsonl",
        out,
        "flower reader",
    )


def calibrate_and_export(
    nets: list[TileClassifier],
    calib: tuple[torch.Tensor, torch.Tensor],
    sets: dict[str, tuple[torch.Tensor, torch.Tensor]],
    t0: float,
    out: Path,
    export: Path,
    size: tuple[int, int],
) -> None:
    """A reader's end (the flower reader's and the index reader's): temperatures on the
    fresh crops `calib` (`calibrate`), the final figures on `sets` into the log and
    `out/metrics.json`, the graph for crops of `size` (h, w) exported to `export`."""
    calib_x, calib_y = calib
    shipped, temperatures, ece_before = calibrate(nets, calib_x, calib_y)
    probs = probs_of(shipped, calib_x)
    final = {
        "temperature": temperatures[0] if len(nets) == 1 else temperatures,
        "ece_before": ece_before[0] if len(nets) == 1 else ece_before,
        "ece_after": expected_calibration_error(probs, calib_y),
        "train_minutes": round((time.time() - t0) / 60, 1),
        **{
            name: round((probs_of(shipped, x).argmax(1) == y).float().mean().item(), 4)
            for name, (x, y) in sets.items()
        },
    }
    with open(out / "log.jsonl", "a") as f:
        f.write(json.dumps({"final": final}) + "\n")
    (out / "metrics.json").write_text(json.dumps(final, indent=2))
    export_onnx(shipped, export, shape=(1, 3, *size))
    print(json.dumps(final, indent=2))


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    cv2.setNumThreads(1)  # no OpenCV thread pool may exist when the data worker forks
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    pool = build_pool(args.per_code, args.fixed_per_code, args.seed)
    with open(out / "log.jsonl", "a") as f:
        f.write(json.dumps({"args": vars(args), "pool_s": round(time.time() - t0, 1)}) + "\n")
    sets = {"synthetic": fixed_set(pool, 60, args.seed + 1, args.art_share)}
    detected = detected_flowers(args.detected_crops)
    if detected is not None:
        sets["detected"] = (to_tensor(list(detected[1][0])), torch.from_numpy(detected[1][1]))
        with open(out / "log.jsonl", "a") as f:
            f.write(json.dumps({"detected_crops": [len(d[1]) for d in detected]}) + "\n")
    for name, found in (
        ("kde", heldout_set(24, args.seed + 2)),
        ("camerash", camerash_flowers(args.camerash)),
    ):
        if found is not None:
            sets[name] = found
    if args.export_only:
        net = load_reader(args.init, args.width)
    else:
        net = (
            load_reader(args.resume, args.width)
            if args.resume
            else start_net(args.init, args.width)
        )
        train(args, net, pool, sets, out, detected[0] if detected else None)
    # Temperature on fresh augmentations of the training sources' faces, for each reader
    # when several are joined (`--ensemble`), and for their mean.
    nets = [net, *(load_reader(path, args.width) for path in args.ensemble)]
    calib = fixed_set(pool, 60, args.seed + 3, args.art_share)
    calibrate_and_export(nets, calib, sets, t0, out, Path(args.export), (READER_H, READER_W))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
