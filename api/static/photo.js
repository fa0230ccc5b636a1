// The photo with its tiles: boxes clamped to the photo, labels placed where they collide with
// no other label, a tap anywhere on the photo opening the tile nearest to it, and the zoom in
// the tile picker that steps to the previous or next tile of the photo.
"use strict";

const LABEL_H = 14; // px; the label's font is 10 px monospace, about 6.1 px a character
const labelWidth = (text) => Math.ceil(text.length * 6.2) + 6;

// A box in the photo's pixels, cut to the photo; null when nothing of it is inside.
function clampBox(box, w, h) {
  if (!Array.isArray(box) || box.length !== 4 || !box.every(Number.isFinite)) return null;
  const x1 = Math.max(0, Math.min(w, box[0])), x2 = Math.max(0, Math.min(w, box[2]));
  const y1 = Math.max(0, Math.min(h, box[1])), y2 = Math.max(0, Math.min(h, box[3]));
  return x2 - x1 >= 1 && y2 - y1 >= 1 ? [x1, y1, x2, y2] : null;
}

const photoTiles = () => state.tiles.filter((x) => x.box).sort((a, b) => (a.index || 0) - (b.index || 0));

const overlaps = (a, b) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];

// Where each label goes (layer pixels): the first of the places around its box that lies in
// the photo and touches no label placed before it, covering no other tile if it can; a label
// with no such place is left out (the zoom names every tile).
function placeLabels(items, width, height) {
  const placed = [];
  const boxes = items.map((it) => it.rect);
  for (const it of items) {
    const [x1, y1, x2, y2] = it.rect;
    const w = labelWidth(it.text);
    const spots = [[x1, y1 - LABEL_H], [x1, y2], [x2 - w, y1 - LABEL_H], [x2 - w, y2], [x1, y1], [x2, y1], [x1 - w, y1]]
      .map(([x, y]) => {
        const cx = Math.max(0, Math.min(width - w, x)), cy = Math.max(0, Math.min(height - LABEL_H, y));
        return [cx, cy, cx + w, cy + LABEL_H];
      });
    const free = (r) => !placed.some((p) => overlaps(p, r));
    const clear = (r) => !boxes.some((b) => b !== it.rect && overlaps(b, r));
    it.label = spots.find((r) => free(r) && clear(r)) || spots.find(free) || null;
    if (it.label) placed.push(it.label);
  }
}

function renderBoxes() {
  const layer = $("boxes");
  layer.textContent = "";
  const img = $("photo");
  const w = img.naturalWidth, h = img.naturalHeight;
  const W = img.clientWidth, H = img.clientHeight;
  if (!state.photo || !w || !h || !W || !H) return;
  const items = [];
  for (const tile of photoTiles()) {
    const box = clampBox(tile.box, w, h);
    if (!box) continue;
    const rect = [(box[0] * W) / w, (box[1] * H) / h, (box[2] * W) / w, (box[3] * H) / h];
    items.push({ tile, rect, text: tile.code === "back" ? "▮" : tile.code });
  }
  placeLabels(items, W, H);
  for (const { tile, rect, text, label } of items) {
    const b = document.createElement("span");
    b.className = "box";
    if (tile.code !== tile.detected) b.classList.add("corrected");
    else if (tile.confidence !== null && tile.confidence < 0.75) b.classList.add("uncertain");
    if (tile.group === "winning") b.classList.add("winning");
    if (tile.group === "loose") b.classList.add("loose");
    if (state.noted && state.noted.has(tile.id)) b.classList.add("noted");
    Object.assign(b.style, { left: rect[0] + "px", top: rect[1] + "px", width: rect[2] - rect[0] + "px", height: rect[3] - rect[1] + "px" });
    b.dataset.id = tile.id;
    if (label) {
      const span = document.createElement("span");
      span.className = "label";
      span.textContent = text;
      // The label is the box's child (it moves with it), placed in the layer's pixels.
      Object.assign(span.style, { left: label[0] - rect[0] + "px", top: label[1] - rect[1] + "px", width: label[2] - label[0] + "px" });
      b.appendChild(span);
    }
    layer.appendChild(b);
  }
}

// A tap on the photo: the tile under it, else the one whose box is nearest.
function tapPhoto(event) {
  const tiles = photoTiles();
  if (!tiles.length) return;
  const hit = event.target.closest && event.target.closest(".box");
  let tile = hit ? tiles.find((x) => String(x.id) === hit.dataset.id) : null;
  const img = $("photo");
  if (!tile && event.detail > 0 && img.clientWidth) {
    const r = img.getBoundingClientRect();
    const px = ((event.clientX - r.left) * img.naturalWidth) / r.width;
    const py = ((event.clientY - r.top) * img.naturalHeight) / r.height;
    const gap = (b) => Math.hypot(Math.max(b[0] - px, 0, px - b[2]), Math.max(b[1] - py, 0, py - b[3]));
    tile = tiles.reduce((best, x) => (gap(x.box) < gap(best.box) ? x : best));
  }
  openPicker({ mode: "edit", id: (tile || tiles[0]).id });
}

// ---- the zoom in the picker --------------------------------------------------------------

// The tile as the camera saw it, with a little of what lies around it, beside the faces.
function drawCrop(tile) {
  const canvas = $("picker-crop");
  const img = $("photo");
  const shown = !!(tile && tile.box && state.photo && img.naturalWidth);
  $("zoom").hidden = !shown;
  if (!shown) return;
  const tiles = photoTiles();
  const at = tiles.indexOf(tile);
  $("zoom-count").textContent = t("tile_of", { i: at + 1, n: tiles.length });
  $("zoom-prev").disabled = tiles.length < 2;
  $("zoom-next").disabled = tiles.length < 2;
  const box = clampBox(tile.box, img.naturalWidth, img.naturalHeight) || tile.box;
  const [x1, y1, x2, y2] = box;
  const side = Math.max(x2 - x1, y2 - y1) * 1.6;
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#fff";
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  const sx = (x1 + x2) / 2 - side / 2, sy = (y1 + y2) / 2 - side / 2, k = canvas.width / side;
  ctx.drawImage(img, sx, sy, side, side, 0, 0, canvas.width, canvas.height);
  ctx.strokeStyle = "#f2b705";
  ctx.lineWidth = 4;
  ctx.strokeRect((x1 - sx) * k, (y1 - sy) * k, (x2 - x1) * k, (y2 - y1) * k);
  canvas.setAttribute("aria-label", tileName(tile.code));
}

// The previous or next tile of the photo, in the order they were found.
function stepPicker(by) {
  const tile = pickerTile();
  const tiles = photoTiles();
  if (!tile || !tiles.length) return;
  const at = tiles.indexOf(tile);
  openPicker({ mode: "edit", id: tiles[(at + by + tiles.length) % tiles.length].id });
}
