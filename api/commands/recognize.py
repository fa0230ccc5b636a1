"""`mjlens recognize PHOTO...`: read photos of declared wins, print their tiles, melds and score;
a photo of 13 tiles, a hand waiting to win, prints what it waits on and each win's points.

One photo prints as the contract says (docs/DESIGN.md). Several, as a labeler or a referee
going through a night's wins runs it, share one loading of the models; with `--json` each
is one line of JSON Lines, its path under "photo"; a photo that cannot be read gives its
own line with an "error" and the others go on, and the exit is then 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from api.cli import CliError
from api.fixes import given_model, missing_models, unknown_set
from api.progress import Progress, add_progress_flag, wanted
from scoring import RULESETS
from scoring.fan_tables import UNIT_WORDS, fan_table
from scoring.rulesets import Unit

WINDS = ("E", "S", "W", "N")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "photos", nargs="+", metavar="photo", help="JPEG, PNG or WebP photo of the declared win"
    )
    parser.add_argument(
        "--json", action="store_true", help="print the result as JSON (JSON Lines for several)"
    )
    parser.add_argument("--seat", choices=WINDS, type=str.upper, help="seat wind (default E)")
    parser.add_argument(
        "--prevalent", choices=WINDS, type=str.upper, help="prevalent wind (default E)"
    )
    parser.add_argument("--self-drawn", action="store_true", help="won on a self-drawn tile")
    parser.add_argument(
        "--flowers", type=int, metavar="N", help="flower count, when flowers are not in the photo"
    )
    parser.add_argument("--last-tile", action="store_true", help="last tile of its kind (和绝张)")
    parser.add_argument("--last-of-wall", action="store_true", help="last tile of the wall")
    parser.add_argument(
        "--kong-replacement", action="store_true", help="won on a kong's supplement"
    )
    parser.add_argument("--robbing-kong", action="store_true", help="won by robbing a kong")
    parser.add_argument(
        "--concealed-kong",
        action="append",
        metavar="TILE",
        help="tile of a concealed kong shown all face-down (repeat for several), e.g. 5p",
    )
    parser.add_argument(
        "--ruleset", default="mcr", choices=RULESETS, help="rule set to score with (default mcr)"
    )
    parser.add_argument(
        "--annotate",
        metavar="OUT.png",
        help="write the photo with what was read (for several photos: a folder, PHOTO.png in it)",
    )
    parser.add_argument("--detector", metavar="ONNX", help="detector model (default: shipped)")
    parser.add_argument("--classifier", metavar="ONNX", help="classifier model (default: shipped)")
    parser.add_argument(
        "--set", metavar="NAME", help="read with this taught tile set (mjlens sets enroll/add)"
    )
    parser.add_argument(
        "--learn",
        action="store_true",
        help="with --set: each photo whose reading is not flagged for review teaches the set "
        "its hand's faces, for the photos after it (a new NAME starts a set)",
    )
    add_progress_flag(parser)


def context_from(args: argparse.Namespace) -> dict[str, Any]:
    context: dict[str, Any] = {
        "self_drawn": args.self_drawn,
        "last_tile": args.last_tile,
        "last_of_wall": args.last_of_wall,
        "kong_replacement": args.kong_replacement,
        "robbing_kong": args.robbing_kong,
    }
    if args.seat:
        context["seat_wind"] = args.seat
    if args.prevalent:
        context["prevalent_wind"] = args.prevalent
    if args.flowers is not None:
        context["flowers"] = args.flowers
    if args.concealed_kong:
        context["concealed_kongs"] = args.concealed_kong
    return context


def run(args: argparse.Namespace) -> int:
    from api.tilesets import SetNotFound
    from vision.pipeline import ContextError, Recognizer, check_context
    from vision.registry import ModelMissingError
    from vision.tileset import TileSetError

    context = context_from(args)
    if args.learn and args.set is None:
        raise CliError("--learn teaches a taught set: give it with --set NAME")
    given_model("--detector", "detector", args.detector)
    given_model("--classifier", "classifier", args.classifier)
    try:
        check_context(context)  # the same for every photo: before any is read
        recognizer = Recognizer(args.detector, args.classifier)
        tileset = _set_to_read_with(args, recognizer)
    except ModelMissingError as exc:
        raise CliError(missing_models()) from exc
    except SetNotFound as exc:
        raise CliError(unknown_set(str(exc))) from exc
    except (ContextError, TileSetError) as exc:
        raise CliError(str(exc)) from exc
    learner = _Learner(args.set, recognizer) if args.learn else None
    if len(args.photos) == 1:
        data = _recognized(
            recognizer, args.photos[0], context, args.ruleset, args.annotate, tileset, learner
        )
        if args.json:
            json.dump(data, sys.stdout, ensure_ascii=False, indent=1)
            print()
        else:
            print(describe(data))
        return 0
    outs = _annotation_paths(args.annotate, args.photos) if args.annotate else {}
    failed = 0
    with Progress(len(args.photos), "recognize", "photo", wanted(args.progress)) as bar:
        for i, photo in enumerate(args.photos):
            out = outs.get(i)
            try:
                data = _recognized(recognizer, photo, context, args.ruleset, out, tileset, learner)
                if learner is not None and learner.tileset is not None:
                    tileset = learner.tileset  # later photos read with what it learned
            except CliError as exc:
                failed += 1
                bar.clear()
                print(f"mjlens: error: {exc}", file=sys.stderr)
                if args.json:
                    record = {"photo": photo, "error": str(exc)}
                    print(json.dumps(record, ensure_ascii=False), flush=True)
                bar.update(failed=True)
                continue
            bar.clear()
            if args.json:
                print(json.dumps({"photo": photo, **data}, ensure_ascii=False), flush=True)
            else:
                print(("\n" if i else "") + f"== {photo}\n{describe(data)}", flush=True)
            bar.update()
    return 1 if failed else 0


def _annotation_paths(folder: str, photos: list[str]) -> dict[int, str]:
    """Per photo, FOLDER/STEM.png; STEM-2.png and on where two photos share a stem."""
    where = Path(folder)
    if where.suffix.lower() in (".png", ".jpg", ".jpeg", ".webp"):
        raise CliError(f"--annotate {folder}: with several photos it names a folder")
    try:
        where.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CliError(f"--annotate {folder}: {exc.strerror}") from exc
    paths: dict[int, str] = {}
    taken: set[str] = set()
    for i, photo in enumerate(photos):
        stem, n = Path(photo).stem, 1
        name = stem
        while name in taken:
            n += 1
            name = f"{stem}-{n}"
        taken.add(name)
        paths[i] = str(where / f"{name}.png")
    return paths


def _set_to_read_with(args: argparse.Namespace, recognizer: Any) -> Any:
    """The set `--set` names; with `--learn`, a name no set has yet starts one, empty until
    a reading teaches it."""
    from api.teach import asked_set
    from api.tilesets import SetNotFound, SetStore

    try:
        return asked_set(args.set, recognizer.classifier)
    except SetNotFound:
        if not args.learn:
            raise
    SetStore().path(args.set)  # a bad name is refused before any photo is read
    print(f"mjlens: set {args.set} is new: the readings not flagged teach it", file=sys.stderr)
    return None


class _Learner:
    """`--learn`: teaches the set each reading left unflagged, and keeps the set so taught."""

    def __init__(self, name: str, recognizer: Any) -> None:
        from api.tilesets import SetStore

        self.name, self.recognizer, self.store = name, recognizer, SetStore()
        self.tileset: Any = None

    def taught_by(self, result: Any, photo: str) -> None:
        from api.teach import learn

        added, after = learn(self.store, self.name, self.recognizer, result, Path(photo).name)
        result.learned = added
        if after is not None:
            self.tileset = after
            told = (
                f"{added} looks from {photo} ({len(after.faces)} faces, {len(after)} looks in all)"
            )
            print(f"mjlens: set {self.name} learned {told}", file=sys.stderr)


def _recognized(
    recognizer: Any,
    photo: str,
    context: dict[str, Any],
    ruleset: str,
    annotate: str | None,
    tileset: Any = None,
    learner: _Learner | None = None,
) -> dict[str, Any]:
    """One photo's recognition as JSON (teaching `learner`'s set where given); a photo that
    cannot be read is a CliError."""
    from vision.load import PhotoError

    try:
        result = recognizer.recognize(Path(photo), context, ruleset, tileset)
    except PhotoError as exc:
        raise CliError(f"{photo}: {exc.message}") from exc
    if annotate:
        _write_annotation(result, annotate)
    if learner is not None:
        learner.taught_by(result, photo)
    data: dict[str, Any] = result.to_json()
    return data


def _write_annotation(result: Any, out: str) -> None:
    import cv2

    from vision.annotate import annotate

    if result.photo is None:
        raise CliError("no photo to annotate")
    drawn = annotate(result.photo.image, result, result.photo.scale)
    if not cv2.imwrite(out, drawn):
        raise CliError(f"cannot write {out}")


def describe(data: dict[str, Any]) -> str:
    """The recognition as text for a person: tiles, melds, hand, score, warnings."""
    tiles = data["tiles"]
    lines = [f"Tiles seen ({len(tiles)}): " + " ".join(t["code"] for t in tiles)]
    for meld in data["melds"]:
        how = "concealed" if meld.get("concealed") else f"from {meld.get('claimed_from')}"
        lines.append(f"  {meld['type']:<5} {' '.join(meld['tiles'])}  ({how})")
    hand = data["hand"]
    if hand is None:
        lines.append("Hand: not read (see warnings)")
    else:
        won = hand.get("winning_tile")
        lines.append(
            f"Hand: concealed {' '.join(hand['concealed'])}"
            f" | {f'winning {won}' if won else 'waiting to win (13 tiles)'}"
            f" | flowers {hand['flowers'] if hand['flowers'] else 'none'}"
            f" | confidence {data['confidence']:.2f}"
        )
    for change in data["changes"]:
        lines.append(
            f"  rules changed tile #{change['tile']}: {change['read']} ({change['p_read']:.2f})"
            f" -> {change['chosen']} ({change['p_chosen']:.2f})"
        )
    if data.get("waits") is not None:
        lines += _waits_lines(hand, data["score"])
    else:
        lines += _score_lines(data["score"])
    for warning in data["warnings"]:
        lines.append(f"warning: {warning}")
    review = "; ".join(data["review_reasons"])
    if data["review"] and not data.get("score_review", True):
        review += " (the score stands)"
    lines.append(f"Review: {'YES: ' + review if data['review'] else 'no'}")
    return "\n".join(lines)


def _waits_lines(hand: dict[str, Any], scored: dict[str, Any]) -> list[str]:
    """What a hand waiting to win waits on, as `mjlens score` prints it."""
    from api.commands.score import render_waits
    from scoring import score

    ruleset = scored.get("ruleset", "mcr")
    result = score(hand, ruleset)
    return ["Waits: " + render_waits(result.waits or (), ruleset, result.error)]


def _score_lines(score: dict[str, Any] | None) -> list[str]:
    if score is None:
        return []
    if not score.get("valid"):
        return [f"Score: invalid hand: {score.get('error')}"]
    ruleset = str(score.get("ruleset", "mcr"))
    unit = UNIT_WORDS[fan_table(ruleset).unit] if ruleset in RULESETS else UNIT_WORDS[Unit.POINTS]
    lines = [f"Score ({ruleset}): {score.get('total')} {unit[0]} ({unit[1]})"]
    for fan in score.get("fans", []):
        count = f" x{fan['count']}" if fan.get("count", 1) > 1 else ""
        lines.append(f"  {fan['points']:>3}  {fan['name_en']} {fan.get('name_zh', '')}{count}")
    if score.get("meets_minimum") is False:
        # Only MCR's profiles have a minimum (the other rule sets meet it with any legal
        # win). Under it the win is false, or misread, or its context (self-drawn, the
        # winds) was not given: a referee must know.
        lines.append(
            "  below the 8-point minimum (flowers not counted): not a legal win as read; "
            "check the tiles and the context (self-drawn, seat and prevalent wind)"
        )
    return lines
