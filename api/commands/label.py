"""`mjlens label DIR --out OUT`: pre-label every photo under DIR for a labeling tool.

Writes OUT/annotations.coco.json (the master), OUT/yolo/ and OUT/labelstudio/ (see
labels.writers), OUT/labels.jsonl (each photo's labels as it was read: what a stopped run
resumes from) and OUT/summary.json. Photos already labelled are skipped; a photo that cannot
be read is reported, counted and tried again by the next run. The exit is 0 once the files
are written, with the failures counted in the summary.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any
from urllib.parse import quote

from api.cli import CliError
from api.progress import Progress, add_progress_flag, wanted

ENGINES = ("local", "ray")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("folder", metavar="DIR", help="folder of photos (searched recursively)")
    parser.add_argument("--out", required=True, metavar="OUT", help="output folder")
    parser.add_argument(
        "--format",
        default="coco,yolo,labelstudio",
        help="comma-separated: coco, yolo, labelstudio (default all three)",
    )
    parser.add_argument(
        "--set", metavar="NAME", help="read with this taught tile set (mjlens sets enroll/add)"
    )
    parser.add_argument(
        "--workers", type=int, default=1, metavar="N", help="processes reading photos (default 1)"
    )
    parser.add_argument(
        "--engine",
        choices=ENGINES,
        default="local",
        help="local processes, or Ray Data (pip install 'mjlens[ray]')",
    )
    parser.add_argument(
        "--ray-address",
        metavar="ADDRESS",
        help="a Ray cluster to run on (ray://HOST:10001, or auto); default: Ray on this machine",
    )
    parser.add_argument(
        "--image-url",
        default=None,
        metavar="PREFIX",
        help="Label Studio tasks' image URL: PREFIX + the photo's path in DIR (default "
        "/data/local-files/?d=DIRNAME/: Label Studio's local files, its document root DIR's "
        "parent)",
    )
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    add_progress_flag(parser)
    parser.add_argument("--detector", metavar="ONNX", help="detector model (default: shipped)")
    parser.add_argument("--classifier", metavar="ONNX", help="classifier model (default: shipped)")


def run(args: argparse.Namespace) -> int:
    from labels.batch import LabelerSettings, run_batch
    from labels.paths import UnsafePath
    from labels.writers import LOCAL_FILES, parse_formats, write_all

    root, out = Path(args.folder), Path(args.out)
    if not root.is_dir():
        raise CliError(f"{args.folder}: no such folder")
    if args.workers < 1:
        raise CliError(f"--workers must be at least 1, not {args.workers}")
    try:
        formats = parse_formats(args.format)
    except ValueError as exc:
        raise CliError(f"--format: {exc}") from None
    if out.exists() and not out.is_dir():
        raise CliError(f"--out {args.out}: not a folder")
    recognizer, tileset = _models(args)
    settings = LabelerSettings(args.detector, args.classifier, tileset)
    engine = _engine(args, settings, recognizer)
    bar = _ProgressBar(wanted(args.progress))
    try:
        summary, labels = run_batch(root, out, engine, bar)
        image_url = args.image_url or f"{LOCAL_FILES}{quote(root.resolve().name)}/"
        written = write_all(labels, root, out, formats, image_url)
    except UnsafePath as exc:
        raise CliError(str(exc)) from None
    except OSError as exc:
        raise CliError(f"{exc.filename or args.out}: {exc.strerror or exc}") from None
    finally:
        bar.close()
    report: dict[str, Any] = {**summary.to_json(), "files": [str(p) for p in written]}
    (out / "summary.json").write_text(json.dumps(report, indent=1), encoding="utf-8")
    for failure in summary.failures:
        print(f"mjlens: skipped {failure['photo']}: {failure['error']}", file=sys.stderr)
    if args.json:
        json.dump(report, sys.stdout, ensure_ascii=False, indent=1)
        print()
    else:
        print(_text(report, root))
    return 0


def _models(args: argparse.Namespace) -> tuple[Any, Any]:
    """The recognizer (for one local worker; others load their own) and the taught set."""
    from api.teach import asked_set
    from vision.pipeline import Recognizer
    from vision.registry import ModelMissingError, require
    from vision.tileset import TileSetError

    one_here = args.engine == "local" and args.workers == 1
    if not one_here and args.set is None:
        try:  # checked here: a worker that cannot load them would be started again and again
            for name in ("detector", "classifier", "sideways", "sideways_look"):
                require(name, {"detector": args.detector, "classifier": args.classifier}.get(name))
        except ModelMissingError as exc:
            raise CliError(str(exc)) from exc
        return None, None
    try:
        recognizer = Recognizer(args.detector, args.classifier)
        tileset = asked_set(args.set, recognizer.classifier) if args.set else None
        return (recognizer if one_here else None), tileset
    except (ModelMissingError, TileSetError) as exc:
        raise CliError(str(exc)) from exc


def _engine(args: argparse.Namespace, settings: Any, recognizer: Any) -> Any:
    from labels.batch import Labeler, local_engine

    if args.engine == "ray":
        from labels.ray_engine import RayUnavailable, ray_engine

        engine = ray_engine(settings, max(args.workers, 1), args.ray_address)

        def checked(root: Path, photos: list[Any]) -> Any:
            try:
                yield from engine(root, photos)
            except RayUnavailable as exc:
                raise CliError(str(exc)) from None

        return checked
    labeler = Labeler(settings, recognizer) if recognizer is not None else None
    return local_engine(settings, args.workers, labeler)


class _ProgressBar:
    """The command line's bar (api.progress) over the photos still to read."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.bar: Progress | None = None
        self.failed = 0

    def __call__(self, done: int, todo: int, failed: int) -> None:
        if self.bar is None:
            self.bar = Progress(todo, "label", "photo", self.enabled)
            return
        self.bar.update(failed=failed > self.failed)
        self.failed = failed

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _text(report: dict[str, Any], root: Path) -> str:
    lines = [
        f"{report['photos']} photos under {root}: {report['labelled']} labelled now, "
        f"{report['skipped_as_done']} done before, {report['failed']} failed; "
        f"{report['tiles']} tiles, {report['flagged_for_review']} photos flagged for review"
    ]
    lines += [f"  wrote {p}" for p in report["files"]]
    return "\n".join(lines)
