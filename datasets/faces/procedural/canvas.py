"""A supersampled drawing surface for one face: draw at 2x, hand back a smooth 120x160 array."""

from __future__ import annotations

import math

import cv2
import numpy as np
from PIL import Image, ImageDraw

from datasets.faces.base import FACE_HEIGHT, FACE_WIDTH
from datasets.faces.fonts import FontFace, cjk_fonts, has_glyph, load_font

RGB = tuple[int, int, int]
SUPERSAMPLE = 2  # Pillow draws without anti-aliasing; drawing at 2x and shrinking smooths edges


class Canvas:
    """Face drawing in pixel units of the supersampled image (W x H, origin top-left)."""

    def __init__(self, background: RGB) -> None:
        self.W = FACE_WIDTH * SUPERSAMPLE
        self.H = FACE_HEIGHT * SUPERSAMPLE
        self.image = Image.new("RGB", (self.W, self.H), background)
        self.draw = ImageDraw.Draw(self.image)

    def to_array(self) -> np.ndarray:
        small = self.image.resize((FACE_WIDTH, FACE_HEIGHT), Image.Resampling.BOX)
        return np.asarray(small, dtype=np.uint8).copy()

    def wear(self, background: RGB, fade: float, blur: float) -> None:
        """Print quality: ink faded towards the face colour and softened (old or cheap sets)."""
        out = np.asarray(self.image).astype(np.float32)
        if fade > 0:
            out = out * (1 - fade) + np.asarray(background, np.float32) * fade
        if blur > 0:
            out = np.asarray(cv2.GaussianBlur(out, (0, 0), blur), np.float32)
        self.image = Image.fromarray(np.clip(out, 0, 255).astype(np.uint8))
        self.draw = ImageDraw.Draw(self.image)

    def stylize_ink(
        self, background: RGB, outline: int, shadow: int, gradient: float, dark: RGB
    ) -> None:
        """Digital and cartoon art looks: every shape outlined in a dark line (`outline` px),
        casting a soft drop shadow (`shadow` px down-right), its ink shaded from light at
        the top to dark at the bottom (`gradient`, a fraction of the brightness)."""
        rgb = np.asarray(self.image).astype(np.float32)
        bg = np.asarray(background, np.float32)
        ink = np.abs(rgb - bg).max(axis=2) > 20
        out = rgb.copy()
        if gradient > 0:
            ramp = np.linspace(1 + gradient, 1 - gradient, self.H, dtype=np.float32)[:, None]
            shaded = out * ramp[..., None]
            out[ink] = shaded[ink]
        if shadow > 0:
            cast = np.zeros_like(ink)
            cast[shadow:, shadow:] = ink[:-shadow, :-shadow]
            cast &= ~ink
            out[cast] = out[cast] * 0.78
        if outline > 0:
            grown = cv2.dilate(ink.astype(np.uint8), np.ones((2 * outline + 1,) * 2, np.uint8))
            rim = grown.astype(bool) & ~ink
            out[rim] = np.asarray(dark, np.float32)
        self.image = Image.fromarray(np.clip(out, 0, 255).astype(np.uint8))
        self.draw = ImageDraw.Draw(self.image)

    def engrave(self, background: RGB, depth: float, offset: int = 2) -> None:
        """Carved-and-painted look: each stroke casts a thin shadow inside its groove.

        Real tiles are engraved, then the grooves are filled with paint; under light the
        groove's upper-left wall shows as a dark rim just below-right of every stroke.
        """
        rgb = np.asarray(self.image)
        bg = np.full_like(rgb, background)
        ink = cv2.cvtColor(cv2.absdiff(rgb, bg), cv2.COLOR_RGB2GRAY) > 20
        rim = np.zeros_like(ink)
        rim[offset:, offset:] = ink[:-offset, :-offset]
        rim &= ~ink
        out = rgb.copy()
        out[rim] = (out[rim] * (1.0 - depth)).astype(np.uint8)
        self.image = Image.fromarray(out)
        self.draw = ImageDraw.Draw(self.image)

    def circle(
        self,
        cx: float,
        cy: float,
        r: float,
        fill: RGB | None = None,
        outline: RGB | None = None,
        width: float = 1.0,
    ) -> None:
        if r <= 0:  # a coin's inner ring on a face squeezed small (a big index beside it)
            return
        self.draw.ellipse(
            (cx - r, cy - r, cx + r, cy + r),
            fill=fill,
            outline=outline,
            width=max(1, round(width)),
        )

    def ellipse(
        self,
        cx: float,
        cy: float,
        rx: float,
        ry: float,
        angle: float,
        fill: RGB,
    ) -> None:
        """A filled ellipse turned by `angle` degrees, as a polygon (Pillow cannot rotate one)."""
        a = math.radians(angle)
        ca, sa = math.cos(a), math.sin(a)
        pts = []
        for k in range(24):
            t = 2 * math.pi * k / 24
            x, y = rx * math.cos(t), ry * math.sin(t)
            pts.append((cx + x * ca - y * sa, cy + x * sa + y * ca))
        self.draw.polygon(pts, fill=fill)

    def line(self, pts: list[tuple[float, float]], fill: RGB, width: float) -> None:
        w = max(1, round(width))
        self.draw.line(pts, fill=fill, width=w, joint="curve")
        if w > 3:  # round caps, so thick strokes do not end in hard squares
            for x, y in (pts[0], pts[-1]):
                self.circle(x, y, w / 2 - 0.5, fill=fill)

    def curve(
        self,
        p0: tuple[float, float],
        p1: tuple[float, float],
        p2: tuple[float, float],
        p3: tuple[float, float],
        fill: RGB,
        width: float,
        taper: float = 1.0,
    ) -> list[tuple[float, float]]:
        """A cubic Bezier stroke; `taper` < 1 thins it towards the end like a brush.

        Returns the sampled points so callers can hang leaves and flowers on the stroke.
        """
        pts = bezier(p0, p1, p2, p3, 14)
        if taper >= 0.99:
            self.line(pts, fill, width)
        else:
            for k in range(len(pts) - 1):
                w = width * (1 - (1 - taper) * k / (len(pts) - 1))
                self.line(pts[k : k + 2], fill, w)
        return pts

    def leaf(
        self,
        x: float,
        y: float,
        length: float,
        width: float,
        angle: float,
        fill: RGB,
        outline_only: bool = False,
        line_width: float = 2.0,
    ) -> None:
        """A pointed leaf from its base (x, y) along `angle` degrees."""
        a = math.radians(angle)
        ca, sa = math.cos(a), math.sin(a)
        upper, lower = [], []
        for k in range(9):
            t = k / 8
            half = width * math.sin(math.pi * t) * (1 - 0.3 * t)
            along = length * t
            upper.append((x + along * ca - half * sa, y + along * sa + half * ca))
            lower.append((x + along * ca + half * sa, y + along * sa - half * ca))
        outline = upper + lower[::-1]
        if outline_only:
            self.line([*outline, outline[0]], fill, line_width)
        else:
            self.draw.polygon(outline, fill=fill)

    def rounded_rect(
        self,
        box: tuple[float, float, float, float],
        radius: float,
        fill: RGB | None = None,
        outline: RGB | None = None,
        width: float = 1.0,
    ) -> None:
        self.draw.rounded_rectangle(
            box,
            radius=max(0, round(radius)),
            fill=fill,
            outline=outline,
            width=max(1, round(width)),
        )

    def glyph(
        self,
        text: str,
        font: FontFace,
        box: tuple[float, float, float, float],
        fill: RGB,
        stroke: int = 0,
        keep_aspect: bool = True,
        anchor: str = "c",
        slant: float = 0.0,
        wobble: np.random.Generator | None = None,
    ) -> tuple[float, float, float, float]:
        """Draw `text` so its ink fills `box` (x0, y0, x1, y1); returns the ink box drawn.

        Fitting the ink, not the font's line box, keeps layouts the same across fonts whose
        glyphs sit differently in the em square. `slant` shears the glyph (x += slant * y), a
        cheap stand-in for the running hand-written script some sets print names in; `wobble`
        (a generator) bends the strokes with a smooth random warp, as a brush would.
        """
        x0, y0, x1, y1 = box
        bw, bh = max(1.0, x1 - x0), max(1.0, y1 - y0)
        size = max(8, round(bh * 1.15 / 8) * 8)  # quantized: the font cache stays small
        if not all(has_glyph(font, ch) for ch in text):
            font = cjk_fonts()[0][0]  # this font lacks the glyph (e.g. 兰): the brush default
        mask = _glyph_mask(text, font, size, stroke)
        if mask is None:
            return box
        if slant:
            extra = abs(slant) * mask.height
            mask = mask.transform(
                (round(mask.width + extra), mask.height),
                Image.Transform.AFFINE,
                (1, slant, -extra if slant > 0 else 0, 0, 1, 0),
                resample=Image.Resampling.BILINEAR,
            )
        if wobble is not None:
            mask = _wobble(mask, wobble)
        if keep_aspect:
            scale = min(bw / mask.width, bh / mask.height)
            tw, th = mask.width * scale, mask.height * scale
        else:
            tw, th = bw, bh
        tw_i, th_i = max(1, round(tw)), max(1, round(th))
        mask = mask.resize((tw_i, th_i), Image.Resampling.BILINEAR)
        if anchor == "c":
            px, py = x0 + (bw - tw_i) / 2, y0 + (bh - th_i) / 2
        else:  # "tl": corner indices hug their corner
            px, py = x0, y0
        self.image.paste(Image.new("RGB", mask.size, fill), (round(px), round(py)), mask)
        return px, py, px + tw_i, py + th_i


def _wobble(mask: Image.Image, rng: np.random.Generator, amount: float = 0.06) -> Image.Image:
    """Bend a glyph mask with a smooth random displacement (a few coarse sine waves)."""
    w, h = mask.size
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    dx = np.zeros_like(xx)
    dy = np.zeros_like(yy)
    for _ in range(2):
        fx, fy, phase = rng.uniform(0.5, 2.0), rng.uniform(0.5, 2.0), rng.uniform(0, 2 * np.pi, 2)
        dx += np.sin(2 * np.pi * fy * yy / h + phase[0]).astype(np.float32) * amount * w / 2
        dy += np.sin(2 * np.pi * fx * xx / w + phase[1]).astype(np.float32) * amount * h / 2
    warped = cv2.remap(np.asarray(mask), xx + dx, yy + dy, cv2.INTER_LINEAR, borderValue=0)
    return Image.fromarray(warped)


def bezier(
    p0: tuple[float, float],
    p1: tuple[float, float],
    p2: tuple[float, float],
    p3: tuple[float, float],
    n: int,
) -> list[tuple[float, float]]:
    pts = []
    for k in range(n + 1):
        t = k / n
        a, b, c, d = (1 - t) ** 3, 3 * t * (1 - t) ** 2, 3 * t * t * (1 - t), t**3
        pts.append(
            (
                a * p0[0] + b * p1[0] + c * p2[0] + d * p3[0],
                a * p0[1] + b * p1[1] + c * p2[1] + d * p3[1],
            )
        )
    return pts


def _glyph_mask(text: str, font: FontFace, size: int, stroke: int) -> Image.Image | None:
    pil_font = load_font(font, size)
    left, top, right, bottom = pil_font.getbbox(text, stroke_width=stroke)
    pad = 4 + stroke
    img = Image.new("L", (int(right - left) + 2 * pad, int(bottom - top) + 2 * pad), 0)
    ImageDraw.Draw(img).text(
        (pad - left, pad - top),
        text,
        font=pil_font,
        fill=255,
        stroke_width=stroke,
        stroke_fill=255,
    )
    bbox = img.getbbox()
    return img.crop(bbox) if bbox else None
