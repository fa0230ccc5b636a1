"""`mjlens recognize PHOTO`: read a photo of a declared win, print its tiles, melds and score."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from api.cli import CliError

WINDS = ("E", "S", "W", "N")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("photo", help="JPEG, PNG or WebP photo of the declared win")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
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
    parser.add_argument("--ruleset", default="mcr", help="rule set to score with (default mcr)")
    parser.add_argument("--annotate", metavar="OUT.png", help="write the photo with what was read")
    parser.add_argument("--detector", metavar="ONNX", help="detector model (default models/)")
    parser.add_argument("--classifier", metavar="ONNX", help="classifier model (default models/)")


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
    from vision.load import PhotoError
    from vision.pipeline import ContextError, ModelMissingError, Recognizer

    try:
        recognizer = Recognizer(args.detector, args.classifier)
        result = recognizer.recognize(Path(args.photo), context_from(args), args.ruleset)
    except PhotoError as exc:
        raise CliError(f"{args.photo}: {exc.message}") from exc
    except (ContextError, ModelMissingError) as exc:
        raise CliError(str(exc)) from exc
    if args.annotate:
        _write_annotation(result, args.annotate)
    if args.json:
        json.dump(result.to_json(), sys.stdout, ensure_ascii=False, indent=1)
        print()
    else:
        print(describe(result.to_json()))
    return 0


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
        lines.append(
            f"Hand: concealed {' '.join(hand['concealed'])} | winning {hand['winning_tile']}"
            f" | flowers {hand['flowers'] if hand['flowers'] else 'none'}"
            f" | confidence {data['confidence']:.2f}"
        )
    for change in data["changes"]:
        lines.append(
            f"  rules changed tile #{change['tile']}: {change['read']} ({change['p_read']:.2f})"
            f" -> {change['chosen']} ({change['p_chosen']:.2f})"
        )
    lines += _score_lines(data["score"])
    for warning in data["warnings"]:
        lines.append(f"warning: {warning}")
    review = "; ".join(data["review_reasons"])
    if data["review"] and not data.get("score_review", True):
        review += " (the score stands)"
    lines.append(f"Review: {'YES: ' + review if data['review'] else 'no'}")
    return "\n".join(lines)


def _score_lines(score: dict[str, Any] | None) -> list[str]:
    if score is None:
        return []
    if not score.get("valid"):
        return [f"Score: invalid hand: {score.get('error')}"]
    lines = [f"Score ({score.get('ruleset', 'mcr')}): {score.get('total')} points"]
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
