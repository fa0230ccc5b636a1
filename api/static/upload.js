// Sending a photo and taking its answer: the status line, the photo shown as sent (redrawn
// as a JPEG where the server would refuse it), each photo a new win, and the recognition
// read into the page's model of the hand. Loaded before app.js, which calls in.
"use strict";

function setStatus(text, cls) {
  sayStatus(() => text, cls);
}

// A status in words of the page's language: said again when the language changes.
function sayStatus(words, cls) {
  state.status = { words, cls };
  $("status").textContent = words() || "";
  $("status").className = cls || "";
}

function showCards(photo) {
  $("photo-card").hidden = !photo;
  for (const id of ["hand-card", "context-card", "score-card"]) $(id).hidden = false;
}

async function sha256Hex(blob) {
  if (!(window.crypto && crypto.subtle)) return null; // only in secure contexts (https, localhost)
  const digest = await crypto.subtle.digest("SHA-256", await blob.arrayBuffer());
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

// The server reads JPEG, PNG and WebP within its size cap. A phone may hand the page HEIC or
// AVIF, or a photo over the cap: where this browser can decode it, it sends a JPEG drawn
// from it instead (upright: createImageBitmap applies the EXIF orientation).
const SENT_AS_IS = ["image/jpeg", "image/png", "image/webp"];
const REDRAWN_SIDE = 4096; // the recognizer works at 2048 px: twice that loses nothing

async function redrawnAsJpeg(blob) {
  let bitmap;
  try {
    bitmap = await createImageBitmap(blob);
  } catch (e) {
    return null; // this browser cannot decode it either: the server's answer stands
  }
  const scale = Math.min(1, REDRAWN_SIDE / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement("canvas");
  canvas.width = Math.max(1, Math.round(bitmap.width * scale));
  canvas.height = Math.max(1, Math.round(bitmap.height * scale));
  canvas.getContext("2d").drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  return new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.92));
}

const asJpegName = (name) => name.replace(/\.[^./]*$/, "") + ".jpg";

// Shows the photo the server is sent: the boxes it answers are in that photo's pixels.
function showPhoto(blob, name) {
  if (state.photo && state.photo.url) URL.revokeObjectURL(state.photo.url);
  // The blob is kept: corrections the person makes are taught from the photo as sent.
  state.photo = { url: URL.createObjectURL(blob), type: blob.type, sha256: null, blob, name };
  const img = $("photo");
  img.onload = () => renderBoxes();
  img.onerror = () => { $("photo-card").hidden = true; }; // a photo this browser cannot show
  img.src = state.photo.url;
}

async function postPhoto(blob, name) {
  const form = new FormData();
  form.append("photo", blob, name);
  form.append("seat_wind", $("seat_wind").value);
  form.append("prevalent_wind", $("prevalent_wind").value);
  for (const flag of CONTEXT_FLAGS) form.append(flag, $(flag).checked ? "true" : "false");
  form.append("ruleset", $("ruleset").value);
  if (chosenSet()) form.append("set", chosenSet());
  let res;
  try {
    res = await fetch("v1/recognize", { method: "POST", body: form });
  } catch (e) {
    return { res: { ok: false, status: 0 }, body: {} };
  }
  try {
    return { res, body: await res.json() };
  } catch (e) { // not our JSON: a proxy in front may answer 413 in HTML
    return { res, body: { detail: `${res.status} ${res.statusText}`.trim() } };
  }
}

// A new photo is a new win: nothing of the last one (its tiles, flowers, win flags, score,
// notes) may count in it. The winds and the rule set are the table's and stay.
function resetForPhoto() {
  Object.assign(state, { rec: null, tiles: [], melds: [], removed: [], score: null, badIds: null });
  $("flowers").value = 0;
  for (const flag of CONTEXT_FLAGS) $(flag).checked = false;
  $("warnings").textContent = "";
  render();
  renderScore();
}

async function handlePhoto(blob, name) {
  rememberPending();
  resetForPhoto();
  // A photo picked while another is read replaces it: the older answer is dropped.
  const seq = state.photoSeq = (state.photoSeq || 0) + 1;
  const current = () => seq === state.photoSeq;
  sayStatus(() => t("reading"), "busy");
  let redrawn = false;
  if (blob.type && !SENT_AS_IS.includes(blob.type)) {
    const jpeg = await redrawnAsJpeg(blob);
    if (jpeg) [blob, name, redrawn] = [jpeg, asJpegName(name), true];
  }
  if (!current()) return;
  showPhoto(blob, name);
  showCards(true);
  let { res, body } = await postPhoto(blob, name);
  if (!current()) return;
  if ((res.status === 413 || res.status === 415) && !redrawn) {
    const jpeg = await redrawnAsJpeg(blob);
    if (jpeg && current()) {
      [blob, name] = [jpeg, asJpegName(name)];
      showPhoto(blob, name);
      ({ res, body } = await postPhoto(blob, name));
    }
  }
  if (!current()) return;
  if (!res.ok) {
    const sha256 = await sha256Hex(blob);
    if (!current()) return;
    state.photo.sha256 = sha256;
    sayStatus(() => {
      const detail = problemText(body, res);
      return res.status === 0 ? t("reading_needs_server") : res.status === 503 ? t("not_ready", { detail }) : t("failed", { detail });
    }, "error");
    if (body.pointer === "/set") refreshSets(); // the set went away: offer the ones there are
    changed();
    return;
  }
  const sha256 = body.sha256 || (await sha256Hex(blob));
  if (!current()) return;
  state.photo.sha256 = sha256;
  fromRecognition(body);
  const total = body.timings_ms && (body.timings_ms.api_total || body.timings_ms.total);
  // A doubt only over which flower a flower is changes no score: say so, not "check".
  const scoreStands = body.review && body.score_review === false;
  sayStatus(() => t("read_ok", { n: (body.tiles || []).length, ms: Math.round(total || 0) })
    + (body.set ? " " + t("read_with", { set: body.set }) : "") + (!body.review ? "" : " " + t(scoreStands ? "review_flowers" : "review")),
  body.review && !scoreStands ? "warn" : "ok");
  renderNotes();
  changed();
}

// ---- recognition -> model ----------------------------------------------------------------

function fromRecognition(rec) {
  state.rec = rec;
  state.tiles = [];
  state.melds = [];
  state.removed = [];
  const dets = (rec.tiles || []).map((d, index) => newTile(d.code, "loose", {
    box: d.box, confidence: d.confidence, detected: d.code, index: index + 1, role: d.role,
  }));
  const hand = rec.hand;
  if (!hand) {
    // No legal hand was read: seed the hand from each tile's role in the layout (the hand's
    // row, the winning tile set apart, flowers); strays stay aside for the user to move in.
    const role = { concealed: "concealed", meld: "concealed", winning: "winning", flower: "flower" };
    dets.forEach((d) => {
      if (d.code !== "back") d.group = isFlower(d.code) ? "flower" : role[d.role] || "loose";
    });
    const winning = dets.filter((d) => d.group === "winning");
    winning.slice(1).forEach((d) => { d.group = "concealed"; });
    state.tiles = dets;
    return;
  }
  setContext(hand);
  const free = new Set(dets);
  // Melds: the recognizer names the detections of each (tile_indices); the codes are the
  // decoded ones, so a face-down tile of a concealed kong takes the kong's tile.
  const melds = Array.isArray(rec.melds) && rec.melds.length ? rec.melds : hand.melds || [];
  for (const m of melds) {
    const meld = newMeld(!!m.concealed);
    meld.claimed_from = m.claimed_from || null;
    const indices = Array.isArray(m.tile_indices) ? m.tile_indices : [];
    const codes = m.tiles.slice();
    for (const k of indices) {
      const det = dets[k];
      if (!det || !free.has(det)) continue;
      const at = codes.indexOf(det.code) >= 0 ? codes.indexOf(det.code) : codes.length - 1;
      det.code = codes.splice(at, 1)[0];
      det.detected = det.detected === "back" ? det.code : det.detected;
      Object.assign(det, { group: "meld", meld: meld.key });
      free.delete(det);
      state.tiles.push(det);
    }
    codes.forEach((c) => state.tiles.push(newTile(c, "meld", { meld: meld.key })));
  }
  // The rest of the hand takes detections of the same code, preferring the same role.
  const slots = (hand.concealed || []).map((c) => ({ code: c, group: "concealed" }));
  if (hand.winning_tile) slots.push({ code: hand.winning_tile, group: "winning" });
  if (Array.isArray(hand.flowers)) hand.flowers.forEach((c) => slots.push({ code: c, group: "flower" }));
  const pick = (pred) => { for (const d of free) if (pred(d)) { free.delete(d); return d; } return null; };
  const winning = slots.filter((s) => s.group === "winning");
  for (const s of [...winning, ...slots.filter((x) => x.group !== "winning")]) {
    const det = pick((d) => d.code === s.code && d.role === s.group) || pick((d) => d.code === s.code);
    state.tiles.push(Object.assign(det || newTile(s.code, s.group), { group: s.group, meld: null }));
  }
  for (const d of free) state.tiles.push(d); // seen but not part of the hand
}

function setContext(hand) {
  for (const w of ["seat_wind", "prevalent_wind"]) if (hand[w]) $(w).value = hand[w];
  for (const flag of CONTEXT_FLAGS) if (typeof hand[flag] === "boolean") $(flag).checked = hand[flag];
  if (typeof hand.flowers === "number") $("flowers").value = hand.flowers;
}
