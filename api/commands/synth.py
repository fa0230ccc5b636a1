"""`mjlens synth`: render a labelled synthetic set; `mjlens synth preview DIR` draws its labels.

mjlens synth --n 1000 --out data/synth --seed 1 --sources procedural,unicode --workers 2
mjlens synth preview data/synth --out sheet.png
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from api.cli import CliError
from api.fixes import fetch_art_command, synth_setup
from api.progress import Progress, add_progress_flag, wanted


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--n", type=int, help="number of images to render")
    parser.add_argument("--out", dest="out", help="output folder (images/ + annotations.coco.json)")
    parser.add_argument("--seed", type=int, default=0, help="set seed; image i uses (seed, i)")
    parser.add_argument("--start", type=int, default=0, help="index of the first image")
    parser.add_argument(
        "--sources", default="procedural", help="comma-separated face sources, one drawn per image"
    )
    parser.add_argument(
        "--kinds",
        default="declared_win",
        help="comma-separated: declared_win, waiting_hand (the win before its last tile),"
        " rows, scattered, pile, enrollment, no_tiles (a table with things on it and no"
        " tiles), cluttered_win (a declared win on such a table); each may carry a weight,"
        " e.g. declared_win:0.7,rows:0.3",
    )
    parser.add_argument("--size", type=int, default=1280, help="long side in pixels")
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--yolo", action="store_true", help="also write labels/*.txt + data.yaml")
    parser.add_argument(
        "--yolo-pose", action="store_true", help="as --yolo, with the face corners as keypoints"
    )
    add_progress_flag(parser)
    sub = parser.add_subparsers(dest="synth_action", metavar="[preview DIR]", required=False)
    preview = sub.add_parser("preview", help="contact sheet of a set with labels overlaid")
    preview.add_argument("dir", help="a folder written by mjlens synth")
    preview.add_argument("--out", dest="sheet", default="sheet.png", help="PNG to write")
    preview.add_argument("--count", type=int, default=12, help="images on the sheet")
    preview.add_argument("--columns", type=int, default=4)
    preview.add_argument("--thumb", type=int, default=400, help="width of one cell in pixels")
    preview.add_argument("--no-labels", action="store_true", help="the photos alone")
    preview.add_argument(
        "--crops", action="store_true", help="the labelled faces cut out along their corners"
    )
    preview.add_argument(
        "--colors", type=int, default=0, help="palette PNG with this many colours (small files)"
    )


def _csv(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def _check_sources(sources: list[str]) -> None:
    """Every named face source is known and has its art on disk; else one line that says
    which, why, and what to run."""
    from datasets.scene.art import usable_sources

    if not sources:
        raise CliError("--sources names none")
    try:
        import datasets.faces  # noqa: F401  (pillow draws the faces: the train extra)
    except ModuleNotFoundError as exc:
        # Without it the renderer would draw every face as a text card, which nobody asked for.
        raise CliError(synth_setup(exc)) from exc
    usable = usable_sources(sources)
    missing = [name for name in sources if name not in usable]
    if not missing:
        return
    from datasets.faces import SOURCES, get_source
    from datasets.faces.paths import FETCH_HINT

    unknown, unfetched = [], []
    for name in missing:
        try:
            get_source(name)
        except KeyError:
            unknown.append(name)
        except (ImportError, RuntimeError) as exc:
            reason = str(exc).removesuffix(FETCH_HINT).rstrip(" :")
            unfetched.append(f"{name} ({reason})")
    if unknown:
        raise CliError(f"unknown face source(s) {', '.join(unknown)}: one of {', '.join(SOURCES)}")
    raise CliError(
        f"no tile art on disk for face source(s) {'; '.join(unfetched)}:"
        f" run {fetch_art_command()} to fetch it from Debian, npm and PyPI"
    )


def run(args: argparse.Namespace) -> int:
    import cv2

    from datasets import synth

    if getattr(args, "synth_action", None) == "preview":
        root = Path(args.dir)
        if not (root / "annotations.coco.json").is_file():
            raise CliError(f"{root}: no annotations.coco.json (not a synth folder)")
        if args.crops:
            sheet = synth.crop_sheet(root, args.count, args.columns)
        else:
            labels = not args.no_labels
            sheet = synth.contact_sheet(root, args.count, args.columns, args.thumb, labels)
        if args.colors:
            synth.save_palette_png(sheet, args.sheet, args.colors)
        elif not cv2.imwrite(args.sheet, sheet):
            raise CliError(f"cannot write {args.sheet}")
        print(f"wrote {args.sheet} ({sheet.shape[1]}x{sheet.shape[0]})")
        return 0
    if args.n is None or args.out is None:
        raise CliError("synth needs --n N and --out DIR (or: synth preview DIR)")
    if args.n < 1 or args.size < 64 or args.workers < 1:
        raise CliError("--n and --workers must be positive, --size at least 64")
    sources, kinds = _csv(args.sources), _csv(args.kinds)
    if not kinds:
        raise CliError("--kinds names none")
    try:
        for kind in kinds:
            synth.parse_kind(kind)
    except ValueError as exc:
        raise CliError(str(exc)) from exc
    _check_sources(sources)
    with Progress(args.n, "synth", "image", wanted(args.progress)) as bar:
        try:
            coco = synth.generate(
                args.n,
                args.out,
                args.seed,
                sources,
                kinds,
                args.size,
                args.workers,
                args.start,
                bar.update,
            )
        except (ValueError, RuntimeError) as exc:
            raise CliError(str(exc)) from exc
    if args.yolo or args.yolo_pose:
        from datasets.yolo import export_yolo

        export_yolo(coco, args.out, corners=args.yolo_pose)
    print(f"{args.out}: {synth.describe(coco)}")
    failed = coco["info"]["failed"]
    for item in failed[:5]:
        print(f"mjlens: image {item['index']} failed: {item['error']}", file=sys.stderr)
    if failed:
        print(f"mjlens: {len(failed)} image(s) failed and were left out", file=sys.stderr)
    return 1 if failed else 0
