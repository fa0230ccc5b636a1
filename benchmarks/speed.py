"""Photo to score on 12 MP JPEGs, against the peer `mahjong-detector`'s detection, in one run.

    python -m benchmarks.speed --synthetic runs/val_kde --peer-python /tmp/peer/bin/python \
        [--photos 5] [--rounds 3] [--repeats 3] [--processes 3] [--out speed.json]

The photos: the first `--photos` declared wins of a `mjlens synth` folder framed 4:3, each
upscaled to 4000 x 3000 (12 MP) and written as a quality-92 JPEG; every other one is
stored turned a quarter with EXIF orientation 6, as a phone held upright writes it, so the
orientation is read and applied inside the timed span. Two figures, each a ratio to the
peer's:

- in process: `Recognizer.recognize` on the JPEG's bytes (decode, detect, classify, layout,
  decode, score, review: everything `mjlens recognize` does after loading the models),
  against the peer's detection alone on the same file (its decode, preprocessing and
  network) in its own interpreter kept running; each photo read by the peer, then by us,
  `--rounds` x `--repeats` times, so both sides see the same load; median over all reads,
  each side's first call untimed. Target: at most 0.5. The CPU seconds of each read (the
  process's, the models' threads included) are given beside: on a machine shared with
  other work they move less with the load than wall time does.
- whole process: one `mjlens recognize PHOTO --json` process per photo (interpreter start,
  imports, model loading, the photo), against one `python -m mahjong_detector PHOTO` process
  of the peer (its own command line: the same steps), side by side; wall time from spawn
  to exit, median. Target: at most 1.0.

Python's bytecode of the project is compiled first (`compileall`), as a regular install
does and as the peer's install did; where `PYTHONDONTWRITEBYTECODE` is set, a process would
otherwise compile every module of ours from source on each start while the peer's are read
from its cache. Compare ratios only within one run. The peer runs only in its own
interpreter (a throwaway venv: its weights are AGPL), never imported here.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

PEER_SERVER = r"""
import json, sys, time
from PIL import Image
from mahjong_detector.preprocess import preprocess_image
from mahjong_detector.predict import predict
for line in sys.stdin:
    path = line.strip()
    wall, cpu = time.perf_counter(), time.process_time()
    img = Image.open(path)
    img.load()
    pre, pad = preprocess_image(img)
    dets = predict(pre, pad)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(json.dumps({"seconds": wall, "cpu_seconds": cpu, "tiles": len(dets)}), flush=True)
"""

SIZE_12MP = (4000, 3000)
QUALITY = 92
ORIENTATION_TAG = 6  # stored turned a quarter counter-clockwise; shown turned back clockwise
TARGET_IN_PROCESS = 0.5
TARGET_PROCESS = 1.0


def exif_orientation_segment(orientation: int) -> bytes:
    """A JPEG APP1 segment holding one EXIF IFD0 entry: Orientation (0x0112) = `orientation`."""
    entry = (0x0112).to_bytes(2, "big") + (3).to_bytes(2, "big") + (1).to_bytes(4, "big")
    entry += orientation.to_bytes(2, "big") + b"\x00\x00"
    tiff = b"MM\x00\x2a" + (8).to_bytes(4, "big") + (1).to_bytes(2, "big") + entry + bytes(4)
    body = b"Exif\x00\x00" + tiff
    return b"\xff\xe1" + (len(body) + 2).to_bytes(2, "big") + body


def write_12mp(image: np.ndarray, out: Path, turned: bool) -> Path:
    """`image` (4:3 or 3:4) upscaled to 12 MP, 4000 x 3000 or 3000 x 4000, as a JPEG;
    `turned`: the pixels stored a quarter turn counter-clockwise with EXIF orientation 6,
    which shows them as `image` again."""
    h, w = image.shape[:2]
    if 3 * max(h, w) != 4 * min(h, w):
        raise ValueError(f"{out.name}: a {w}x{h} photo is not 4:3; it would be stretched")
    size = SIZE_12MP if w >= h else SIZE_12MP[::-1]
    big = cv2.resize(image, size, interpolation=cv2.INTER_CUBIC)
    if turned:
        big = cv2.rotate(big, cv2.ROTATE_90_COUNTERCLOCKWISE)
    ok, encoded = cv2.imencode(".jpg", big, [cv2.IMWRITE_JPEG_QUALITY, QUALITY])
    if not ok:
        raise RuntimeError(f"cannot encode {out}")
    data = encoded.tobytes()
    if turned:  # right after SOI, before the JFIF segment: where cameras put it
        data = data[:2] + exif_orientation_segment(ORIENTATION_TAG) + data[2:]
    out.write_bytes(data)
    return out


def make_photos(synthetic: Path, n: int, folder: Path) -> list[Path]:
    """The first `n` declared wins of `synthetic` framed 4:3 as 12 MP JPEGs in `folder`,
    every other one stored turned with its EXIF orientation."""
    coco = json.loads((synthetic / "annotations.coco.json").read_text(encoding="utf-8"))
    wins = [
        synthetic / img["file_name"]
        for img in coco["images"]
        if (img.get("scene") or {}).get("kind", "declared_win") in ("declared_win", "cluttered_win")
        and 3 * max(img["width"], img["height"]) == 4 * min(img["width"], img["height"])
    ]
    if not wins:
        raise SystemExit(f"{synthetic}: no photos")
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for k, path in enumerate(wins[:n]):
        image = cv2.imread(str(path))
        if image is None:
            raise FileNotFoundError(path)
        out.append(write_12mp(image, folder / f"win_{k:02d}_12mp.jpg", turned=k % 2 == 1))
    return out


class Peer:
    """The peer's detection in its own interpreter, kept running: a photo's path in, its
    wall and CPU seconds out (decode, preprocessing, network), one line each."""

    def __init__(self, python: str) -> None:
        self.process = subprocess.Popen(
            [python, "-c", PEER_SERVER],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def read(self, photo: Path) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(f"{photo}\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError("the peer stopped: is mahjong-detector installed in its venv?")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=60)


def photo_to_score(recognizer: Any, data: bytes) -> dict[str, Any]:
    """One read of a photo from its bytes: wall and CPU seconds (this process's, the
    models' threads included) and stage times."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = recognizer.recognize(data)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return {
        "seconds": wall,
        "cpu_seconds": cpu,
        "stages_ms": dict(result.timings_ms),
        "tiles": len(result.tiles),
    }


def share_of_photo(recognizer: Any, data: list[bytes]) -> dict[str, float]:
    """Each model file's share of the wall time of reading the photos once more, and the
    decoder's search's (its `decode` stage): where a photo's time goes. Every session's
    `run` is timed for the pass, whatever module holds the session."""
    import onnxruntime as ort

    from vision.sessions import source_of

    spent: dict[str, float] = {}
    plain_run = ort.InferenceSession.run

    def timed_run(session: Any, *args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return plain_run(session, *args, **kwargs)
        finally:
            name = source_of(session).name
            spent[name] = spent.get(name, 0.0) + time.perf_counter() - start

    ort.InferenceSession.run = timed_run  # type: ignore[method-assign]
    try:
        start = time.perf_counter()
        decode_ms = sum(recognizer.recognize(d).timings_ms.get("decode", 0.0) for d in data)
        total = time.perf_counter() - start
    finally:
        ort.InferenceSession.run = plain_run  # type: ignore[method-assign]
    shares = {name: seconds / total for name, seconds in sorted(spent.items())}
    shares["decode (search)"] = decode_ms / 1000 / total
    return shares


def our_command(photo: Path) -> list[str]:
    """`mjlens recognize PHOTO --json` as installed beside this interpreter, else the module."""
    script = Path(sys.executable).parent / "mjlens"
    head = [str(script)] if script.is_file() else [sys.executable, "-m", "api.cli"]
    return [*head, "recognize", str(photo), "--json"]


def peer_command(peer_python: str, photo: Path) -> list[str]:
    return [peer_python, "-m", "mahjong_detector", str(photo)]


def process_seconds(command: list[str]) -> float:
    """Wall time of one process from spawn to exit; a failed process is an error."""
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, timeout=600, check=False)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        tail = done.stderr.decode(errors="replace").strip().splitlines()[-1:]
        raise RuntimeError(f"{' '.join(command)} exited {done.returncode}: {tail}")
    return seconds


PACKAGES = ("api", "vision", "scoring", "datasets", "labels")
ROOT = Path(__file__).resolve().parents[1]


def compile_bytecode() -> None:
    """The project's bytecode written beside its sources, as a regular install writes it."""
    paths = [str(ROOT / name) for name in PACKAGES if (ROOT / name).is_dir()]
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", *paths], check=True, stdout=subprocess.DEVNULL
    )


def measure(
    photos: list[Path],
    peer_python: str | None,
    rounds: int,
    repeats: int,
    processes: int,
    **models: Any,
) -> dict[str, Any]:
    """Both figures; `models`: `vision.pipeline.Recognizer`'s arguments (other model files)
    for the in-process reads."""
    from vision.pipeline import Recognizer

    recognizer = Recognizer(**models)
    peer = Peer(peer_python) if peer_python else None
    data = {photo: photo.read_bytes() for photo in photos}
    recognizer.recognize(data[photos[0]])  # first calls untimed: sessions warm up
    if peer is not None:
        peer.read(photos[0])
    ours: list[dict[str, Any]] = []
    theirs: list[dict[str, Any]] = []
    for _ in range(rounds * repeats):
        for photo in photos:  # one read each, side by side, so both see the same load
            if peer is not None:
                theirs.append(peer.read(photo))
            ours.append(photo_to_score(recognizer, data[photo]))
    if peer is not None:
        peer.close()
    shares = share_of_photo(recognizer, list(data.values()))
    our_procs: list[float] = []
    peer_procs: list[float] = []
    if processes:
        compile_bytecode()
    for _ in range(processes):
        for photo in photos:
            if peer_python:
                peer_procs.append(process_seconds(peer_command(peer_python, photo)))
            our_procs.append(process_seconds(our_command(photo)))
    return {**summary(ours, theirs, our_procs, peer_procs), "share_of_photo": shares}


def summary(
    ours: list[dict[str, Any]],
    peer: list[dict[str, Any]],
    our_procs: list[float],
    peer_procs: list[float],
) -> dict[str, Any]:
    stages = sorted({s for r in ours for s in r["stages_ms"]})
    median = statistics.median
    out: dict[str, Any] = {
        "photos_read": len(ours),
        "tiles_median": median(r["tiles"] for r in ours),
        "photo_to_score_median_s": median(r["seconds"] for r in ours),
        "photo_to_score_cpu_median_s": median(r["cpu_seconds"] for r in ours),
        "stages_median_ms": {s: median(r["stages_ms"].get(s, 0.0) for r in ours) for s in stages},
    }
    if peer:
        out["peer_detect_median_s"] = median(r["seconds"] for r in peer)
        out["peer_detect_cpu_median_s"] = median(r["cpu_seconds"] for r in peer)
        ratio = out["photo_to_score_median_s"] / out["peer_detect_median_s"]
        out["photo_to_score_over_peer_detect"] = ratio
        out["cpu_photo_to_score_over_peer_detect"] = (
            out["photo_to_score_cpu_median_s"] / out["peer_detect_cpu_median_s"]
        )
        out["in_process_target_met"] = ratio <= TARGET_IN_PROCESS
    if our_procs:
        out["process_median_s"] = median(our_procs)
    if peer_procs and our_procs:
        out["peer_process_median_s"] = median(peer_procs)
        out["process_over_peer_process"] = out["process_median_s"] / out["peer_process_median_s"]
        out["process_target_met"] = out["process_over_peer_process"] <= TARGET_PROCESS
    return out


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--synthetic", type=Path, required=True, help="mjlens synth folder")
    p.add_argument("--peer-python", help="python of a venv with mahjong-detector installed")
    p.add_argument("--photos", type=int, default=5, help="12 MP photos made")
    p.add_argument("--rounds", type=int, default=3, help="passes over the photos")
    p.add_argument("--repeats", type=int, default=3, help="reads of each photo a pass")
    p.add_argument("--processes", type=int, default=3, help="processes per photo and side")
    p.add_argument("--keep", type=Path, help="write the 12 MP photos here (else a temp folder)")
    p.add_argument("--out", type=Path, help="write the results as JSON here too")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp)
        photos = make_photos(args.synthetic, args.photos, folder)
        result = measure(photos, args.peer_python, args.rounds, args.repeats, args.processes)
    text = json.dumps(result, indent=2)
    print(text)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
