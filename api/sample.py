"""Make the page's bundled sample photo with our synthetic engine (never a real user's photo).

    python -m api.sample --seed 7      # writes api/static/sample.jpg and sample.json

sample.json keeps the scene's true hand, so tests can check what the recognizer reads on it.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np

STATIC = Path(__file__).parent / "static"
MAX_BYTES = 250 * 1024  # the page loads it on a phone, often over mobile data


def make_sample(seed: int, size: int = 1280, out: Path = STATIC) -> tuple[Path, int]:
    """Render one declared win and save it as JPEG under MAX_BYTES; returns (path, bytes)."""
    from datasets.scene import render_scene

    scene = render_scene(np.random.default_rng(seed), ("procedural",), "declared_win", size)
    for quality in (88, 82, 76, 70, 62, 55):
        ok, encoded = cv2.imencode(".jpg", scene.image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        if ok and len(encoded) <= MAX_BYTES:
            break
    else:
        raise RuntimeError(f"seed {seed}: the photo stays over {MAX_BYTES} bytes")
    photo = out / "sample.jpg"
    photo.write_bytes(encoded.tobytes())
    truth = {
        "seed": seed,
        "size": size,
        "hand": scene.hand,
        "tiles": [
            {k: a.get(k) for k in ("code", "bbox", "sideways", "face_down", "role", "meld_id")}
            for a in scene.annotations
        ],
    }
    (out / "sample.json").write_text(json.dumps(truth, indent=1, ensure_ascii=False) + "\n")
    return photo, len(encoded)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--size", type=int, default=1280)
    parser.add_argument("--out", type=Path, default=STATIC)
    args = parser.parse_args()
    path, size = make_sample(args.seed, args.size, args.out)
    print(f"{path}: {size} bytes")


if __name__ == "__main__":
    main()
