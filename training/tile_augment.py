"""Turn a clean upright face into the crop a camera and an imprecise detector would give.

Training-time only (numpy + opencv). The face is laid on a tile body (ivory border, a
coloured backing for thickness) on a random background, posed by a small homography, then cut
out along jittered corners exactly as `vision.classify` rectifies detector corners, and
degraded photometrically. A fraction of crops take the whole tile plus background, like the
real single-tile photos the classifier is judged on.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.classify import INPUT_H, INPUT_W, rectify  # the very warp the pipeline cuts faces with

Rng = np.random.Generator

IVORY = [
    (236, 240, 244),
    (222, 236, 244),
    (210, 228, 240),
    (245, 245, 245),
    (200, 220, 235),
    (222, 200, 165),  # tan and cream faces (RGB), as on older bone-and-bamboo style sets
    (235, 222, 190),
]
BACKING = [
    (60, 140, 40),
    (160, 90, 30),
    (40, 160, 220),
    (30, 30, 160),
    (40, 40, 40),
    (220, 200, 60),
]


def _colour(rng: Rng, palette: list[tuple[int, int, int]], jitter: int = 18) -> np.ndarray:
    base = np.array(palette[rng.integers(len(palette))], dtype=np.float32)
    return np.clip(base + rng.normal(0, jitter, 3), 0, 255)


def recolour_ink(face: np.ndarray, rng: Rng) -> np.ndarray:
    """Change ink colours the way sets differ: a channel permutation or a hue turn of the ink."""
    out = face.copy()
    ink = out.astype(np.int16).min(axis=2) < 170
    if not ink.any():
        return out
    if rng.random() < 0.5:
        perm = rng.permutation(3)
        out[ink] = out[ink][:, perm]
    else:
        hsv = cv2.cvtColor(out, cv2.COLOR_RGB2HSV)
        hsv[..., 0] = np.where(
            ink, (hsv[..., 0].astype(np.int16) + rng.integers(0, 180)) % 180, hsv[..., 0]
        )
        out = cv2.cvtColor(hsv, cv2.COLOR_HSV2RGB)
    if rng.random() < 0.25:  # all ink one colour (black sets, single-colour prints)
        tone = rng.uniform(0, 120, 3)
        darkness = 1.0 - out.min(axis=2, keepdims=True).astype(np.float32) / 255.0
        out = np.where(ink[..., None], 255 - darkness * (255 - tone), out).astype(np.uint8)
    return out


def _background(rng: Rng, h: int, w: int) -> np.ndarray:
    colour = rng.uniform(0, 255, 3)
    bg = np.empty((h, w, 3), np.float32)
    bg[:] = colour
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    bg += (rng.normal(0, 40, 3) * (xx / w - 0.5)[..., None]).astype(np.float32)
    bg += (rng.normal(0, 40, 3) * (yy / h - 0.5)[..., None]).astype(np.float32)
    noise = rng.normal(0, rng.uniform(2, 25), (h // 4 + 1, w // 4 + 1, 3)).astype(np.float32)
    bg += cv2.resize(noise, (w, h), interpolation=cv2.INTER_LINEAR)
    return np.clip(bg, 0, 255)


def compose_tile(face: np.ndarray, rng: Rng) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A posed tile photo around `face` (RGB float32) with its face quad and whole-tile quad.

    Quads are TL, TR, BR, BL of the upright face, float32 (4, 2).
    """
    fh = int(rng.integers(96, 136))
    fw = int(fh * rng.uniform(0.68, 0.82))
    face_img = cv2.resize(face, (fw, fh), interpolation=cv2.INTER_AREA).astype(np.float32)
    body = _colour(rng, IVORY)
    # The printed face sits on the body colour: multiply so white paper becomes ivory.
    face_img = face_img * (body / 255.0)
    margin = int(fw * rng.uniform(0.02, 0.14))
    side = int(fw * rng.uniform(0.0, 0.25))  # visible thickness (body side + backing)
    ch, cw = fh + 2 * margin + side + 80, fw + 2 * margin + side + 80
    canvas = _background(rng, ch, cw)
    x0, y0 = 40, 40
    # Tile thickness: a backing slab shifted down/right (or up/left), then the ivory body.
    dx, dy = (side, side) if rng.random() < 0.5 else (int(side * rng.uniform(-1, 1)), side)
    backing = _colour(rng, BACKING, 30)
    bx0, by0 = x0 + max(dx, 0), y0 + max(dy, 0)
    cv2.rectangle(
        canvas, (bx0, by0), (bx0 + fw + 2 * margin, by0 + fh + 2 * margin), backing.tolist(), -1
    )
    body_x0, body_y0 = x0 + max(-dx, 0), y0
    cv2.rectangle(
        canvas,
        (body_x0, body_y0),
        (body_x0 + fw + 2 * margin, body_y0 + fh + 2 * margin),
        (body * rng.uniform(0.85, 1.0)).tolist(),
        -1,
    )
    fx, fy = body_x0 + margin, body_y0 + margin
    canvas[fy : fy + fh, fx : fx + fw] = face_img
    face_quad = np.array([[fx, fy], [fx + fw, fy], [fx + fw, fy + fh], [fx, fy + fh]], np.float32)
    tile_quad = np.array(
        [
            [body_x0, body_y0],
            [body_x0 + fw + 2 * margin + max(dx, 0), body_y0],
            [body_x0 + fw + 2 * margin + max(dx, 0), body_y0 + fh + 2 * margin + max(dy, 0)],
            [body_x0, body_y0 + fh + 2 * margin + max(dy, 0)],
        ],
        np.float32,
    )
    return canvas, face_quad, tile_quad


def jitter_quad(quad: np.ndarray, rng: Rng, full_tile: bool) -> np.ndarray:
    """Imprecise corners: scale 0.8-1.2, shift, per-corner noise, a small turn."""
    centre = quad.mean(axis=0)
    size = float(np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[3] - quad[0])) / 2
    scale = rng.uniform(1.0, 1.2) if full_tile else rng.uniform(0.92, 1.2)
    out = (quad - centre) * np.array([scale * rng.uniform(0.95, 1.05), scale])
    angle = np.deg2rad(rng.normal(0, 4))
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    out = out @ rot.T + centre + rng.normal(0, 0.05 * size, 2)
    out += rng.normal(0, 0.03 * size, (4, 2))
    return out.astype(np.float32)


def _pose(canvas: np.ndarray, quads: list[np.ndarray], rng: Rng) -> list[np.ndarray]:
    """A small camera tilt: move the quads by a random homography (the canvas is warped lazily
    by the final rectification, so only the quads' relation to the pixels matters)."""
    h, w = canvas.shape[:2]
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    dst = src + rng.normal(0, 0.06 * min(h, w), (4, 2)).astype(np.float32)
    matrix = cv2.getPerspectiveTransform(src, dst)
    return [cv2.perspectiveTransform(q[None], matrix)[0] for q in quads] + [matrix]


def photometric(crop: np.ndarray, rng: Rng) -> np.ndarray:
    """Lighting, white balance, highlights, blur, noise, occlusion on a float RGB crop."""
    img = crop.astype(np.float32)
    h, w = img.shape[:2]
    img = img * rng.uniform(0.87, 1.13, 3)  # white balance
    img = (img - 128) * rng.uniform(0.7, 1.25) + 128 + rng.normal(0, 15)
    if rng.random() < 0.5:  # lighting gradient
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        direction = rng.normal(0, 1, 2)
        ramp = (xx / w - 0.5) * direction[0] + (yy / h - 0.5) * direction[1]
        img *= (1 + 0.4 * ramp * rng.uniform(0.3, 1.0))[..., None]
    if rng.random() < 0.3:  # specular highlight
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        sigma = rng.uniform(3, 15)
        blob = np.exp(-((xx - cx) ** 2 + ((yy - cy) * rng.uniform(0.3, 3)) ** 2) / (2 * sigma**2))
        img += (rng.uniform(60, 200) * blob)[..., None]
    if rng.random() < 0.2:  # partial occlusion from an edge (a finger, the next tile)
        colour = rng.uniform(0, 255, 3)
        edge = rng.integers(4)
        depth = rng.uniform(0.05, 0.25)
        if edge == 0:
            img[: int(h * depth)] = colour
        elif edge == 1:
            img[h - int(h * depth) :] = colour
        elif edge == 2:
            img[:, : int(w * depth)] = colour
        else:
            img[:, w - int(w * depth) :] = colour
    img = np.clip(img, 0, 255)
    if rng.random() < 0.4:
        k = rng.uniform(0.3, 1.3)
        img = cv2.GaussianBlur(img, (0, 0), k)
    if rng.random() < 0.15:  # motion blur
        length = int(rng.integers(2, 5))
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2] = 1.0 / length
        rot = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), rng.uniform(0, 180), 1)
        kernel = cv2.warpAffine(kernel, rot, (length, length))
        img = cv2.filter2D(img, -1, kernel / max(kernel.sum(), 1e-6))
    img += rng.normal(0, rng.uniform(0, 8), img.shape)
    img = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < 0.1:
        grey = cv2.cvtColor(img, cv2.COLOR_RGB2GRAY)
        img = np.repeat(grey[..., None], 3, axis=2)
    if rng.random() < 0.5:
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 95))])
        if ok:
            img = cv2.imdecode(buf, cv2.IMREAD_UNCHANGED)
            img = img.reshape(h, w, 3)
    return img


def stroke_weight(face: np.ndarray, rng: Rng) -> np.ndarray:
    """Thicker or thinner ink, as sets print the same design bolder or finer: a grey-level
    erosion (dark ink spreads) or dilation (it shrinks) of the clean face."""
    size = int(rng.integers(2, 4)) * max(1, face.shape[0] // 160)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    return cv2.erode(face, kernel) if rng.random() < 0.6 else cv2.dilate(face, kernel)


def art_warp(face: np.ndarray, rng: Rng) -> np.ndarray:
    """The same design drawn by another hand: the face's art squashed or stretched along one
    axis and bent by a smooth random field, its layout and count kept.

    Sets differ less in what they draw than in how: canes short and fat or long and thin,
    coins crowded or spread, strokes curving their own way. A model that has seen a few
    hundred designs learns their exact shapes; this teaches it that shapes vary.
    """
    h, w = face.shape[:2]
    sx, sy = np.exp(rng.normal(0.0, 0.06, size=2))  # about +-6 % each way, one sigma
    # Offsets on a coarse 4 x 3 grid, smoothly interpolated: a bend, not a ripple.
    grid = rng.normal(0.0, 0.03, size=(4, 3, 2)).astype(np.float32)
    field = cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    cx, cy = (w - 1) / 2, (h - 1) / 2
    map_x = cx + (xs - cx) / sx + field[..., 0] * w
    map_y = cy + (ys - cy) / sy + field[..., 1] * h
    # The face's own ground fills what the warp pulls in from outside.
    map_x, map_y = map_x.astype(np.float32), map_y.astype(np.float32)
    return cv2.remap(face, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def ink_restyle(face: np.ndarray, rng: Rng) -> np.ndarray:
    """The same design printed in another graphic style: its ink drawn as outlines only, or
    filled with hatching, or cut into dashes across the strokes.

    Sets that draw the same canes, coins and characters differ in how the ink is laid:
    solid, outlined, engraved in lines, printed in segments. The face's ink is what lies
    far from its paper colour (the median of its border); the style keeps where the ink is,
    and so the count and the layout, while changing what a stroke looks like inside.
    """
    h, w = face.shape[:2]
    img = face.astype(np.float32)
    border = np.concatenate([img[0], img[-1], img[:, 0], img[:, -1]])
    paper = np.median(border, axis=0)
    ink = np.linalg.norm(img - paper, axis=2) > 60.0
    if ink.mean() < 0.01:
        return face
    kind = int(rng.integers(3))
    scale = max(1, h // 160)
    if kind == 0:  # outlines: the ink's edge, a line 1-2 px thick
        size = (int(rng.integers(1, 3)) * scale) * 2 + 1
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
        inner = cv2.erode(ink.astype(np.uint8), kernel).astype(bool)
        keep = ink & ~inner
    else:  # hatching (fine) or dashes (coarse), stripes at a random angle
        period = float(rng.uniform(3.0, 6.0) if kind == 1 else rng.uniform(7.0, 14.0)) * scale
        angle = rng.uniform(0.0, np.pi)
        ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
        phase = (xs * np.cos(angle) + ys * np.sin(angle)) / period
        keep = ink & ((phase - np.floor(phase)) < rng.uniform(0.45, 0.7))
    out = face.copy()
    out[ink & ~keep] = paper.astype(np.uint8)
    return out


def augment(
    face: np.ndarray,
    rng: Rng,
    warp_share: float = 0.0,
    size: tuple[int, int] = (INPUT_W, INPUT_H),
    restyle_share: float = 0.0,
    lowres_share: float = 0.0,
) -> np.ndarray:
    """One training crop (RGB uint8, `size` (w, h), by default the classifier's) from one
    clean upright RGB face; `warp_share` of the faces first drawn by another hand
    (`art_warp`), `restyle_share` printed in another style (`ink_restyle`), `lowres_share`
    seen as a small tile is (`low_resolution`)."""
    if warp_share and rng.random() < warp_share:
        face = art_warp(face, rng)
    if restyle_share and rng.random() < restyle_share:
        face = ink_restyle(face, rng)
    if rng.random() < 0.25:
        face = stroke_weight(face, rng)
    if rng.random() < 0.3:
        face = recolour_ink(face, rng)
    canvas, face_quad, tile_quad = compose_tile(face, rng)
    full_tile = rng.random() < 0.25
    *quads, matrix = _pose(canvas, [face_quad, tile_quad], rng)
    canvas = cv2.warpPerspective(
        canvas, matrix, (canvas.shape[1], canvas.shape[0]), borderMode=cv2.BORDER_REFLECT
    )
    quad = jitter_quad(quads[1] if full_tile else quads[0], rng, full_tile)
    if rng.random() < 0.5:  # corners may come upside down: the classifier must not care
        quad = np.roll(quad, 2, axis=0)
    crop = rectify(canvas, quad, size)
    if lowres_share and rng.random() < lowres_share:
        crop = low_resolution(crop, rng)
    return photometric(crop, rng)


# Face widths in pixels of a tile in a working photo: a hand of 14 to 18 tiles across a
# 1024 px photo gives faces of 40-60 px, a small mark in the corner a few pixels.
LOWRES_WIDTHS = (24.0, 64.0)


def low_resolution(crop: np.ndarray, rng: Rng) -> np.ndarray:
    """`crop` as it comes out when cut from a face a few dozen pixels wide and stretched to
    the network's size: the index reader reads real flowers' small numerals (1 as 4) worse
    than its sharp training crops'."""
    h, w = crop.shape[:2]
    small_w = float(rng.uniform(*LOWRES_WIDTHS))
    small = (max(8, round(small_w)), max(8, round(small_w * h / w)))
    down = cv2.resize(crop, small, interpolation=cv2.INTER_AREA)
    return cv2.resize(down, (w, h), interpolation=cv2.INTER_LINEAR)
