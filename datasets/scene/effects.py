"""What the room and the phone do to a picture: uneven light, glare on glossy faces, a finger in
the frame, white balance and exposure, defocus and hand shake, sensor noise, JPEG.

Full-frame fields are computed at low resolution and upscaled: they are smooth anyway, and this
keeps a 1280 px picture well under the frame budget.
"""

from __future__ import annotations

import cv2
import numpy as np

LOW = 64  # side of the low-resolution light fields


def _upscale(field: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    return cv2.resize(field, (shape[1], shape[0]), interpolation=cv2.INTER_LINEAR)


def light_field(rng: np.random.Generator, shape: tuple[int, int]) -> np.ndarray:
    """Gain per pixel (float32, ~0.5-1.2): a lamp's falloff and the lens's vignetting."""
    h, w = shape
    lh, lw = max(2, LOW * h // max(h, w)), max(2, LOW * w // max(h, w))
    y, x = np.mgrid[0:lh, 0:lw].astype(np.float32)
    x, y = x / lw - 0.5, y / lh - 0.5
    angle = rng.uniform(0, 2 * np.pi)
    gradient = (x * np.cos(angle) + y * np.sin(angle)) * rng.uniform(0.0, 0.6)
    lamp = rng.uniform(-0.5, 0.5, 2)
    spot = np.exp(-((x - lamp[0]) ** 2 + (y - lamp[1]) ** 2) / rng.uniform(0.05, 0.5))
    gain = 1.0 - gradient + 0.25 * rng.uniform(0, 1) * spot
    vignette = 1.0 - rng.uniform(0.0, 0.5) * (x**2 + y**2) * 2
    if rng.random() < 0.2:  # the photographer's own shadow (phone and hand) under a top light
        gain = gain * _hand_shadow(rng, x, y)
    return _upscale((gain * vignette).astype(np.float32), shape)


def _hand_shadow(rng: np.random.Generator, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """A soft dark blob reaching in from one edge of the frame, as a gain (0.55..1)."""
    angle = rng.uniform(0, 2 * np.pi)
    inward = np.array([np.cos(angle), np.sin(angle)])
    start = -0.7 * inward  # beyond the frame edge the shadow comes from
    reach = rng.uniform(0.3, 0.8)
    along = (x - start[0]) * inward[0] + (y - start[1]) * inward[1]
    across = -(x - start[0]) * inward[1] + (y - start[1]) * inward[0]
    width = rng.uniform(0.15, 0.35)
    inside = np.clip(1 - np.maximum(along - reach, 0) / 0.15, 0, 1) * np.exp(
        -((across / width) ** 2)
    )
    return 1.0 - rng.uniform(0.2, 0.45) * inside


def glare(rng: np.random.Generator, shape: tuple[int, int]) -> np.ndarray:
    """Specular highlight strength per pixel (float32 0..1): the lamp mirrored in glossy faces."""
    h, w = shape
    lh, lw = max(2, LOW * h // max(h, w)), max(2, LOW * w // max(h, w))
    y, x = np.mgrid[0:lh, 0:lw].astype(np.float32)
    cx, cy = rng.uniform(0.1, 0.9) * lw, rng.uniform(0.1, 0.9) * lh
    rx, ry = rng.uniform(0.05, 0.3) * lw, rng.uniform(0.05, 0.3) * lh
    blob = np.exp(-(((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2))
    return _upscale(blob.astype(np.float32), shape)


def _flash(rng: np.random.Generator, shape: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """The phone's own flash: bright middle, dark corners, a hot spot of glare near the centre."""
    h, w = shape
    lh, lw = max(2, LOW * h // max(h, w)), max(2, LOW * w // max(h, w))
    y, x = np.mgrid[0:lh, 0:lw].astype(np.float32)
    x, y = x / lw - 0.5, y / lh - 0.5
    c = rng.normal(0, 0.05, 2)
    r2 = (x - c[0]) ** 2 + (y - c[1]) ** 2
    field = 0.45 + 0.8 * np.exp(-r2 / rng.uniform(0.08, 0.25))
    hot = np.exp(-r2 / rng.uniform(0.002, 0.01)) * rng.uniform(150, 255)
    return _upscale(hot.astype(np.float32), shape), _upscale(field.astype(np.float32), shape)


def apply_light(
    rng: np.random.Generator, canvas: np.ndarray, gloss: np.ndarray, white_balance: np.ndarray
) -> np.ndarray:
    """Glare on glossy faces, then the room's light and the camera's white balance, in uint8."""
    h, w = canvas.shape[:2]
    if rng.random() < 0.08:
        shine, field = _flash(rng, (h, w))
    else:
        shine = glare(rng, (h, w)) * (rng.uniform(0.2, 0.9) * 255)
        field = light_field(rng, (h, w))
    shine_u8 = cv2.multiply(gloss, shine.astype(np.uint8), scale=1 / 255)
    lit = cv2.add(canvas, cv2.merge([shine_u8, shine_u8, shine_u8]))
    # Gains up to ~1.5 ride in uint8 as gain * 170, so one saturating multiply applies them.
    gains = cv2.merge([np.clip(field * g * 170, 0, 255).astype(np.uint8) for g in white_balance])
    return cv2.multiply(lit, gains, scale=1 / 170)


def finger(rng: np.random.Generator, canvas: np.ndarray, ids: np.ndarray) -> None:
    """A fingertip entering from the frame edge, close to the lens: tapered, round-shaded with a
    redder rim, knuckle creases, maybe its nail, out of focus. Drawn in its own box only; what it
    covers stops counting as visible."""
    h, w = canvas.shape[:2]
    side = int(rng.integers(4))
    t = rng.uniform(0.1, 0.9)
    base = np.array({0: (t * w, 0), 1: (w, t * h), 2: (t * w, h), 3: (0, t * h)}[side])
    inward = np.radians({0: 90, 1: 180, 2: 270, 3: 0}[side] + rng.uniform(-35, 35))
    length = rng.uniform(0.12, 0.35) * max(h, w)
    width = rng.uniform(0.06, 0.11) * max(h, w)
    axis = np.array([np.cos(inward), np.sin(inward)])
    across = np.array([-axis[1], axis[0]])
    base = base - axis * width  # start beyond the edge so the finger runs out of the frame
    tip = base + (length + width) * axis
    pad = int(width)
    x0 = int(max(min(base[0], tip[0]) - pad, 0))
    y0 = int(max(min(base[1], tip[1]) - pad, 0))
    x1 = int(min(max(base[0], tip[0]) + pad, w))
    y1 = int(min(max(base[1], tip[1]) + pad, h))
    if x1 - x0 < 4 or y1 - y0 < 4:
        return
    off = np.array([x0, y0])
    # Tapered outline: wider at the hand, rounded at the tip.
    outline = (
        np.array(
            [
                base + across * width * 0.58,
                tip + across * width * 0.5,
                tip - across * width * 0.5,
                base - across * width * 0.58,
            ]
        )
        - off
    )
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(mask, np.round(outline).astype(np.int32), 255, cv2.LINE_AA)
    end = tip - off
    cv2.circle(mask, (int(end[0]), int(end[1])), int(width * 0.5), 255, -1, cv2.LINE_AA)
    ids[y0:y1, x0:x1][mask > 127] = 0  # whatever the finger covers is no longer visible
    skin = np.array(
        [rng.uniform(90, 170), rng.uniform(120, 190), rng.uniform(170, 240)], np.float32
    )
    rim = skin * np.array([0.55, 0.6, 0.85], np.float32)  # edges: darker and redder
    # Round across its width: the distance to the outline, square-rooted, lights the middle.
    depth = cv2.distanceTransform(mask, cv2.DIST_L2, 3) / (width * 0.5)
    bulge = np.sqrt(np.clip(depth, 0, 1))[..., None]
    colour = rim * (1 - bulge) + skin * (0.75 + 0.35 * bulge) * bulge
    for share in (0.45, 0.75):  # knuckle creases, faint
        crease = tip - axis * length * share - off
        a, b = crease + across * width * 0.4, crease - across * width * 0.4
        lines = np.zeros_like(mask)
        cv2.line(
            lines, (int(a[0]), int(a[1])), (int(b[0]), int(b[1])), 255, max(1, int(width * 0.03))
        )
        colour *= 1 - 0.15 * (cv2.GaussianBlur(lines, (0, 0), 2) / 255)[..., None]
    if rng.random() < 0.6:  # nail side up
        nail = np.zeros_like(mask)
        centre = tip - axis * width * 0.3 - off
        box = (
            (float(centre[0]), float(centre[1])),
            (width * 0.45, width * 0.6),
            float(np.degrees(inward)),
        )
        cv2.ellipse(nail, box, 255, -1, cv2.LINE_AA)
        nail_f = cv2.GaussianBlur(nail, (0, 0), 2).astype(np.float32)[..., None] / 255
        colour = colour * (1 - 0.5 * nail_f) + (skin * 0.5 + 120) * 0.5 * nail_f
    blur = width * rng.uniform(0.04, 0.15) + 1  # close to the lens: out of focus
    soft = cv2.GaussianBlur(mask, (0, 0), blur).astype(np.float32)[..., None] / 255
    colour = cv2.GaussianBlur(colour, (0, 0), blur * 0.7)
    roi = canvas[y0:y1, x0:x1]
    roi[:] = np.clip(roi * (1 - soft) + colour * soft, 0, 255).astype(np.uint8)


def white_balance(rng: np.random.Generator) -> np.ndarray:
    """Per-channel gains (B, G, R) of a phone's auto white balance and exposure, slightly off."""
    warm = rng.normal(0, 0.08)  # tungsten-ish rooms push red up and blue down
    gains = np.array([1 - warm, 1.0, 1 + warm]) + rng.normal(0, 0.03, 3)
    return (gains * rng.uniform(0.75, 1.25)).astype(np.float32)


def camera_effects(rng: np.random.Generator, img: np.ndarray) -> np.ndarray:
    """Tone curve, blur, sensor noise and JPEG, each drawn at random strength (all uint8 ops)."""
    gamma = rng.uniform(0.8, 1.25)
    lut = np.clip(255.0 * (np.arange(256) / 255.0) ** gamma, 0, 255).astype(np.uint8)
    out = cv2.LUT(img, lut)
    scale = max(img.shape[:2]) / 1280  # blur is a share of the frame, not a pixel count
    if rng.random() < 0.35:  # defocus: phones mostly focus well, sometimes on the table
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.3, 1.3) * scale)
    elif rng.random() < 0.3:  # shallow depth of field: sharp on one band, softer away from it
        out = _depth_of_field(rng, out, scale)
    if rng.random() < 0.08:  # hand shake: a few pixels; more and nobody would keep the photo
        n = max(2, round(rng.uniform(2, 6) * scale))
        kernel = np.zeros((n, n), np.float32)
        cv2.line(kernel, (0, n // 2), (n - 1, n // 2), 1.0, 1)
        rot = cv2.getRotationMatrix2D((n / 2 - 0.5, n / 2 - 0.5), rng.uniform(0, 180), 1.0)
        kernel = cv2.warpAffine(kernel, rot, (n, n))
        out = cv2.filter2D(out, -1, kernel / max(kernel.sum(), 1e-6))
    out = _sensor_noise(rng, out, rng.uniform(0.5, 6.0))
    if rng.random() < 0.4:  # phones sharpen what they denoise: haloes on every edge
        soft = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.8, 2.0) * scale)
        amount = rng.uniform(0.3, 1.0)
        out = cv2.addWeighted(out, 1 + amount, soft, -amount, 0)
    if rng.random() < 0.7:
        quality = int(rng.integers(35, 95))
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
        decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
        if decoded is not None:
            out = decoded
    return out


def _depth_of_field(rng: np.random.Generator, img: np.ndarray, scale: float) -> np.ndarray:
    """Blend towards a blurred copy with the distance from a focus line across the frame."""
    h, w = img.shape[:2]
    blurred = cv2.GaussianBlur(img, (0, 0), rng.uniform(1.5, 4.0) * scale)
    angle = rng.normal(np.pi / 2, 0.3)  # the focus band runs roughly across the picture
    y, x = np.mgrid[0:LOW, 0:LOW].astype(np.float32) / LOW - 0.5
    distance = np.abs(x * np.cos(angle) + y * np.sin(angle) - rng.uniform(-0.2, 0.2))
    weight = np.clip((distance - 0.1) * rng.uniform(1.5, 4.0), 0, 1)
    alpha = (_upscale(weight, (h, w)) * 255).astype(np.uint8)
    alpha3 = cv2.merge([alpha, alpha, alpha])
    sharp = cv2.multiply(img, 255 - alpha3, scale=1 / 255)
    return cv2.add(sharp, cv2.multiply(blurred, alpha3, scale=1 / 255))


def _sensor_noise(rng: np.random.Generator, img: np.ndarray, sigma: float) -> np.ndarray:
    """Fine luminance grain plus blotchy chroma noise, as a phone's denoiser leaves them."""
    h, w = img.shape[:2]
    # OpenCV's generator is much faster than numpy's at this size; seeding it from ours keeps
    # the picture a pure function of the scene's seed.
    cv2.setRNGSeed(int(rng.integers(2**31)))
    luma = np.empty((h, w), np.int16)
    cv2.randn(luma, 0, sigma)
    chroma = np.empty((max(h // 4, 1), max(w // 4, 1), 3), np.int16)
    cv2.randn(chroma, (0, 0, 0), (sigma * 0.5,) * 3)
    noisy = img.astype(np.int16)
    noisy += luma[..., None]
    noisy += cv2.resize(chroma, (w, h), interpolation=cv2.INTER_NEAREST)
    return np.clip(noisy, 0, 255).astype(np.uint8)
