"""`mjlens sets ...`: teach mjlens a tile set once; `--set NAME` reads later photos with it.

mjlens sets enroll NAME PHOTO...            # one of each face laid in the standard order
mjlens sets add NAME --coco FILE            # photos with tiles labelled in a COCO file
mjlens sets add NAME --labelstudio FILE     # ...or in a Label Studio JSON export
mjlens sets list                            # the sets under $MJLENS_HOME
mjlens sets show NAME --out SHEET.png       # what a set knows, as a contact sheet
mjlens sets remove NAME
mjlens sets export NAME OUT                 # one file a person can copy
mjlens sets import FILE [--name NAME]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from api.cli import CliError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    sub = parser.add_subparsers(dest="action", metavar="ACTION")
    sub.required = True
    enroll = sub.add_parser(
        "enroll",
        help="teach a set from photos of one face of each in the standard order",
        description="Rows top to bottom: characters 1-9, circles 1-9, bamboos 1-9, "
        "E S W N C F P, then the flowers and seasons the set has.",
    )
    enroll.add_argument("name")
    enroll.add_argument("photos", nargs="+", metavar="PHOTO")
    add = sub.add_parser("add", help="teach a set from photos with labelled tiles")
    add.add_argument("name")
    source = add.add_mutually_exclusive_group(required=True)
    source.add_argument(
        "--coco",
        metavar="FILE",
        help="COCO JSON: images[].file_name beside FILE, annotations[].bbox [x, y, w, h], "
        "categories[].name a tile code",
    )
    source.add_argument(
        "--labelstudio",
        metavar="FILE",
        help="Label Studio JSON export of a project labelled with the config `mjlens label` "
        "writes (each task's latest annotation)",
    )
    add.add_argument(
        "--images",
        metavar="PHOTOS",
        help="the folder the photos are in: with --labelstudio, the tasks' (default: here); "
        "with --coco, where images[].file_name is found (default: FILE's folder, then its "
        "images/ and ../images/ as labelling tools export them)",
    )
    sub.add_parser("list", help="the taught sets")
    show = sub.add_parser("show", help="what a set knows")
    show.add_argument("name")
    show.add_argument("--out", metavar="SHEET.png", help="write a contact sheet of its looks")
    remove = sub.add_parser("remove", help="forget a set")
    remove.add_argument("name")
    export = sub.add_parser("export", help="write a set to one file")
    export.add_argument("name")
    export.add_argument("out", metavar="OUT")
    imported = sub.add_parser("import", help="add a set from an exported file")
    imported.add_argument("file", metavar="FILE")
    imported.add_argument("--name", help="store it under this name instead of its own")
    imported.add_argument("--replace", action="store_true", help="replace a set of that name")
    for p in (enroll, add):
        p.add_argument("--detector", metavar="ONNX", help="detector model (default: shipped)")
        p.add_argument("--classifier", metavar="ONNX", help="classifier model (default: shipped)")
    for p in sub.choices.values():  # `--json` before or after the action; SUPPRESS keeps
        # the subparser's default from overwriting a `--json` given before it
        p.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="as JSON")


def run(args: argparse.Namespace) -> int:
    from api.teach import TeachError
    from api.tilesets import SetStore
    from vision.load import PhotoError
    from vision.tileset import TileSetError

    store = SetStore()
    try:
        out = _ACTIONS[args.action](store, args)
    except (TeachError, TileSetError) as exc:
        raise CliError(str(exc)) from exc
    except PhotoError as exc:
        raise CliError(exc.message) from exc
    except OSError as exc:
        raise CliError(
            f"{getattr(exc, 'filename', '') or ''} {exc.strerror or exc}".strip()
        ) from exc
    if args.json:
        json.dump(out, sys.stdout, ensure_ascii=False, indent=1)
        print()
    else:
        print(_text(args.action, out))
    return 0


def _recognizer(args: argparse.Namespace) -> Any:
    from vision.pipeline import Recognizer
    from vision.registry import ModelMissingError

    try:
        return Recognizer(args.detector, args.classifier)
    except ModelMissingError as exc:
        raise CliError(str(exc)) from exc


def _enroll(store: Any, args: argparse.Namespace) -> dict[str, Any]:
    from api.teach import enroll

    store.path(args.name)
    photos = []
    for name in args.photos:
        path = Path(name)
        if not path.is_file():
            raise CliError(f"{name}: no such file")
        photos.append((path.name, path))
    report = enroll(store, args.name, _recognizer(args), photos)
    result: dict[str, Any] = report.to_json()
    return result


def _add(store: Any, args: argparse.Namespace) -> dict[str, Any]:
    from api.teach import add_labels, read_coco

    store.path(args.name)
    if args.labelstudio:
        photos = _labelstudio_photos(Path(args.labelstudio), args.images)
    else:
        if args.images is not None and not Path(args.images).is_dir():
            raise CliError(f"--images {args.images}: no such folder")
        photos = read_coco(Path(args.coco), Path(args.images) if args.images else None)
    report = add_labels(store, args.name, _recognizer(args), photos)
    result: dict[str, Any] = report.to_json()
    return result


def _labelstudio_photos(path: Path, images: str | None) -> list[Any]:
    """A Label Studio export's photos and their boxes, as `api.teach.read_coco` gives them."""
    from api.teach import LabelledPhoto, TeachError
    from labels.imports import LabelFileError, read_label_file
    from labels.paths import UnsafePath
    from vision.teaching import Label

    if images is not None and not Path(images).is_dir():
        raise CliError(f"--images {images}: no such folder")
    try:
        read = read_label_file(path, Path(images) if images else None)
    except (LabelFileError, UnsafePath) as exc:
        raise TeachError(str(exc)) from None
    photos = []
    for photo in read:
        if not photo.tiles:
            continue
        if not photo.source.is_file():
            raise TeachError(f"{path}: photo {photo.rel!r} not found (give --images)")
        labels = [Label(t.code, t.box) for t in photo.tiles]
        photos.append(LabelledPhoto(photo.rel, photo.source, labels, (photo.width, photo.height)))
    if not photos:
        raise TeachError(f"{path}: no labelled tile in it")
    return photos


def _list(store: Any, args: argparse.Namespace) -> dict[str, Any]:
    from vision.tileset import TileSetError

    sets = []
    for name in store.names():
        try:
            sets.append(store.load(name).describe())
        except TileSetError as exc:  # one damaged file does not hide the others
            sets.append({"name": name, "error": str(exc)})
    return {"home": str(store.root.parent), "sets": sets}


def _show(store: Any, args: argparse.Namespace) -> dict[str, Any]:
    tileset = store.load(args.name)
    out: dict[str, Any] = tileset.describe()
    if args.out:
        import cv2

        from vision.tileset_sheet import contact_sheet

        if not cv2.imwrite(args.out, contact_sheet(tileset)):
            raise CliError(f"cannot write {args.out}")
        out["sheet"] = args.out
    return out


def _remove(store: Any, args: argparse.Namespace) -> dict[str, Any]:
    store.remove(args.name)
    return {"removed": args.name}


def _export(store: Any, args: argparse.Namespace) -> dict[str, Any]:
    store.export(args.name, Path(args.out))
    return {"exported": args.name, "file": args.out}


def _import(store: Any, args: argparse.Namespace) -> dict[str, Any]:
    from api.tilesets import MAX_SET_BYTES

    path = Path(args.file)
    if not path.is_file():
        raise CliError(f"{args.file}: no such file")
    if path.stat().st_size > MAX_SET_BYTES:
        raise CliError(f"{args.file}: a tile set file is at most {MAX_SET_BYTES} bytes")
    tileset = store.import_file(path.read_bytes(), args.name, args.replace)
    result: dict[str, Any] = tileset.describe()
    return result


_ACTIONS = {
    "enroll": _enroll,
    "add": _add,
    "list": _list,
    "show": _show,
    "remove": _remove,
    "export": _export,
    "import": _import,
}


def _text(action: str, out: dict[str, Any]) -> str:
    """The result for a person."""
    if action in ("enroll", "add"):
        lines = [
            f"{out['set']}: {out['looks_added']} looks added from {out['photos']} photo(s); "
            f"it knows {out['faces']} faces from {out['looks']} looks"
        ]
        if action == "add":
            lines.append(
                f"  {out['labels_matched_to_a_tile']} labels matched a found tile, "
                f"{out['labels_read_inside_their_box']} read inside their box"
            )
        lines += [f"warning: {w}" for w in out["warnings"]]
        return "\n".join(lines)
    if action == "list":
        if not out["sets"]:
            return f"no tile sets under {out['home']}"
        return "\n".join(
            f"{s['name']}\t" + (f"error: {s['error']}" if "error" in s else _summary(s))
            for s in out["sets"]
        )
    if action == "show":
        lines = [f"{out['name']}: {_summary(out)}"]
        lines.append("  " + " ".join(f"{c}x{n}" for c, n in out["counts"].items()))
        if out["untaught"]:
            lines.append("  never shown: " + " ".join(out["untaught"]))
        if "sheet" in out:
            lines.append(f"  contact sheet: {out['sheet']}")
        return "\n".join(lines)
    if action == "remove":
        return f"removed {out['removed']}"
    if action == "export":
        return f"wrote {out['exported']} to {out['file']}"
    return f"imported {out['name']}: {_summary(out)}"


def _summary(described: dict[str, Any]) -> str:
    return f"{described['faces']} faces, {described['looks']} looks, updated {described['updated']}"
