"""`mjlens import-labels FILE... --out DIR`: corrected labels back into a training set.

Each FILE is a COCO file (as `mjlens label` wrote it, corrected, or any COCO whose category
names are tile codes) or a Label Studio JSON export of a project labelled with our config.
DIR gets `annotations.coco.json` and `images/`, the layout the trainers and `mjlens train`
read. Nothing is written when any file or photo cannot be read.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from api.cli import CliError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="COCO or Label Studio JSON")
    parser.add_argument("--out", required=True, metavar="DIR", help="the training set's folder")
    parser.add_argument(
        "--images",
        metavar="PHOTOS",
        help="the folder the photos' paths are relative to (default: the folder a COCO file "
        "was labelled from or lies in; for a Label Studio export, the current folder or the "
        "export's own)",
    )
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")


def run(args: argparse.Namespace) -> int:
    from labels.imports import LabelFileError, import_labels
    from labels.paths import UnsafePath

    images = Path(args.images) if args.images else None
    if images is not None and not images.is_dir():
        raise CliError(f"--images {args.images}: no such folder")
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise CliError(f"--out {args.out}: not a folder")
    try:
        summary = import_labels([Path(f) for f in args.files], out, images)
    except (LabelFileError, UnsafePath) as exc:
        raise CliError(str(exc)) from None
    except OSError as exc:
        raise CliError(f"{exc.filename or args.out}: {exc.strerror or exc}") from None
    if args.json:
        json.dump(summary.to_json(), sys.stdout, indent=1)
        print()
    else:
        print(
            f"{summary.photos} photos, {summary.tiles} tiles from {summary.files} file(s) "
            f"-> {summary.coco}"
        )
    return 0
