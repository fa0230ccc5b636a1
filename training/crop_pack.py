"""Face crops stored small: each crop JPEG-encoded, for carrying to a training machine.

    python -m training.crop_pack runs/detected_crops_e.npz --scenes runs/det_train \
        --limit 16000 --out .gpu/crops.npz

The uncompressed crop files run to a gigabyte (`training.detected_crops`, `training.scene_crops`);
a lent GPU machine takes a working tree of at most 64 MiB. At quality 88 a crop is about
2 KB, and training degrades crops with JPEG 30-95 anyway (`training.tile_augment.photometric`).
"""

from __future__ import annotations

import argparse
import itertools
from pathlib import Path

import cv2
import numpy as np

from training.scene_crops import scene_crops

QUALITY = 88


def save_pack(path: Path, crops: np.ndarray, labels: np.ndarray, quality: int = QUALITY) -> None:
    """RGB uint8 crops (n, h, w, 3) and their class indices, each crop a JPEG."""
    encoded = [
        cv2.imencode(".jpg", crop[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, quality])[1]
        for crop in crops
    ]
    offsets = np.cumsum([0, *(len(e) for e in encoded)])
    np.savez(
        path,
        jpeg=np.concatenate(encoded) if encoded else np.zeros(0, np.uint8),
        offsets=offsets,
        labels=np.asarray(labels, np.int64),
    )


def load_crops(path: str | Path) -> tuple[np.ndarray, np.ndarray]:
    """Crops and labels from a pack or from a plain `crops` / `labels` .npz."""
    with np.load(path) as saved:
        if "jpeg" not in saved:
            return saved["crops"], saved["labels"]
        data, offsets, labels = saved["jpeg"], saved["offsets"], saved["labels"]
    crops = [
        cv2.cvtColor(cv2.imdecode(data[a:b], cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)
        for a, b in itertools.pairwise(offsets)
    ]
    return np.stack(crops), labels


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("crops", nargs="*", help=".npz files of training.detected_crops")
    p.add_argument("--scenes", nargs="*", default=[], help="mjlens synth folders to cut from")
    p.add_argument("--limit", type=int, default=16000, help="crops kept, drawn at random")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", required=True)
    args = p.parse_args(argv)
    parts = [load_crops(path) for path in args.crops]
    if args.scenes:
        parts.append(scene_crops(args.scenes, 1, args.seed))
    crops = np.concatenate([c for c, _ in parts])
    labels = np.concatenate([lab for _, lab in parts])
    keep = np.random.default_rng(args.seed).permutation(len(labels))[: args.limit]
    save_pack(Path(args.out), crops[keep], labels[keep])
    print(f"{len(keep)} of {len(labels)} crops -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
