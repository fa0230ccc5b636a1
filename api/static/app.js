// mjlens phone page: photograph a declared win, correct any tile, and score it live. A hand of
// 13 tiles waiting to win shows its waits, each tappable to score the win on it.
// Plain JS, no build step, nothing loaded from elsewhere. The page keeps its own model of
// the hand (tiles in groups) so a corrected tile rescores through /v1/score at once; the
// recognizer's answer only seeds that model. Tile sets (picker, teaching): sets.js; sending a
// photo: upload.js.
"use strict";

// ---- state -------------------------------------------------------------------------------

// tile: {id, code, group: concealed|winning|flower|meld|loose, meld: key|null,
//        box: [x1,y1,x2,y2]|null, confidence, detected: original code|null, index: detection #,
//        assumed: true for a winning tile added from a waiting hand's waits}
const state = {
  lang: "en", fans: new Map(), photo: null, rec: null, tiles: [], melds: [], removed: [],
  score: null, pointerIds: new Map(), picker: null, nextId: 1, seq: 0,
};
const $ = (id) => document.getElementById(id);
const CONTEXT_FLAGS = ["self_drawn", "last_tile", "last_of_wall", "kong_replacement", "robbing_kong"];

function newTile(code, group, extra) {
  return Object.assign({ id: state.nextId++, code, group, meld: null, box: null, confidence: null, detected: null, index: null }, extra || {});
}
function newMeld(concealed) {
  const meld = { key: state.nextId++, concealed: !!concealed, claimed_from: null };
  state.melds.push(meld);
  return meld;
}
const tilesOf = (group, meldKey) => state.tiles.filter((x) => x.group === group && (meldKey === undefined || x.meld === meldKey));
const handCount = () => state.tiles.filter((x) => x.group !== "flower" && x.group !== "loose").length;

function meldType(codes) {
  if (codes.length === 4) return "kong";
  return codes.every((c) => c === codes[0]) ? "pung" : "chow";
}

function sortCodes(codes) {
  const order = ROWS.flat();
  return codes.slice().sort((a, b) => order.indexOf(a) - order.indexOf(b));
}

// ---- hand JSON -----------------------------------------------------------------------------

function buildHand() {
  const pointers = new Map();
  const hand = { melds: [], concealed: [], winning_tile: null };
  const melds = state.melds.filter((m) => tilesOf("meld", m.key).length);
  melds.forEach((m, i) => {
    const tiles = tilesOf("meld", m.key).slice();
    const order = ROWS.flat();
    tiles.sort((a, b) => order.indexOf(a.code) - order.indexOf(b.code));
    const codes = tiles.map((x) => x.code);
    const meld = { type: meldType(codes), tiles: codes };
    if (m.concealed) meld.concealed = true;
    else if (m.claimed_from) meld.claimed_from = m.claimed_from;
    hand.melds.push(meld);
    tiles.forEach((x, j) => pointers.set(`/melds/${i}/tiles/${j}`, x.id));
  });
  tilesOf("concealed").forEach((x, k) => {
    hand.concealed.push(x.code);
    pointers.set(`/concealed/${k}`, x.id);
  });
  const winning = tilesOf("winning")[0];
  if (winning) {
    hand.winning_tile = winning.code;
    pointers.set("/winning_tile", winning.id);
  }
  const flowerTiles = tilesOf("flower");
  hand.flowers = flowerTiles.length ? flowerTiles.map((x) => x.code) : Math.max(0, Math.min(8, Number($("flowers").value) || 0));
  flowerTiles.forEach((x, k) => pointers.set(`/flowers/${k}`, x.id));
  hand.seat_wind = $("seat_wind").value;
  hand.prevalent_wind = $("prevalent_wind").value;
  // A hand waiting to win takes only the flags that hold for any win: each wait is scored
  // on a discard and self-drawn.
  for (const flag of CONTEXT_FLAGS) if (winning || flag === "last_of_wall") hand[flag] = $(flag).checked;
  state.pointerIds = pointers;
  return hand;
}

// ---- notation into the model ------------------------------------------------------------

function setFromNotation(text) {
  const groups = parseNotation(text);
  state.tiles = state.tiles.filter((x) => x.box); // keep photo boxes, drop hand-entered tiles
  state.tiles.forEach((x) => { x.group = "loose"; x.meld = null; });
  state.melds = [];
  const loose = [];
  for (const g of groups) {
    if (g.meld) {
      const meld = newMeld(g.concealed);
      g.codes.forEach((c) => state.tiles.push(newTile(c, "meld", { meld: meld.key })));
    } else g.codes.forEach((c) => loose.push(c));
  }
  // The last tile is the winning tile, unless the hand counts 13: a hand waiting to win.
  const count = groups.filter((g) => g.meld).length * 3 + loose.filter((c) => !isFlower(c)).length;
  let last = -1;
  if (count !== 13) loose.forEach((c, i) => { if (!isFlower(c)) last = i; });
  loose.forEach((c, i) => {
    const group = isFlower(c) ? "flower" : i === last ? "winning" : "concealed";
    state.tiles.push(newTile(c, group));
  });
}
// ---- scoring -----------------------------------------------------------------------------

let rescoreTimer = null;
function changed() {
  render();
  clearTimeout(rescoreTimer);
  rescoreTimer = setTimeout(rescore, 120);
}

async function rescore() {
  const seq = ++state.seq;
  const hand = buildHand();
  state.badIds = null;
  const count = handCount();
  const waiting = count === 13 && !hand.winning_tile; // scored for its waits
  if (!waiting && (count < 14 || !hand.winning_tile)) {
    state.score = { problem: count < 14 ? t("need_tiles", { n: count }) : t("need_winning") };
    renderScore(); renderSheet();
    return;
  }
  const ruleset = $("ruleset").value;
  let answered = false;
  try {
    const res = await fetch("v1/score?ruleset=" + encodeURIComponent(ruleset), {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(hand),
    });
    const body = await res.json();
    if (seq !== state.seq) return; // a newer edit is already being scored
    takeAnswer(body, res.status);
    answered = true;
  } catch (e) {
    if (seq !== state.seq) return;
  }
  if (!answered) await scoreHere(seq, hand, ruleset);
  if (seq !== state.seq) return;
  renderScore();
  renderHand();
  renderSheet();
}

// The scorer's answer (the server's or the offline scorer's, the same JSON): a Score, or a
// problem whose pointer marks the tiles it is about.
function takeAnswer(body, status) {
  if (status >= 200 && status < 300) { state.score = body; return; }
  state.score = { problem: problemText(body, { status }) };
  const ids = [...state.pointerIds].filter(([p]) => body.pointer && (p === body.pointer || p.startsWith(body.pointer + "/")));
  state.badIds = new Set(ids.map(([, id]) => id));
}

// No answer at all: offline, or the server is down. The hand stays as it is and is scored
// on this device by the offline scorer where it is kept; else the page says scoring waits.
async function scoreHere(seq, hand, ruleset) {
  state.score = { pending: t("scoring_on_device"), offline: true };
  renderScore();
  const local = await scoreOnDevice(hand, ruleset);
  if (seq !== state.seq) return;
  if (local.unavailable) {
    state.score = { problem: `${t("scoring_needs_server")} ${t("offline_unavailable")}`, offline: true };
    return;
  }
  takeAnswer(local.body, local.status);
  state.score.offline = true; // scored again through the server when the connection returns
  state.score.on_device = true;
}

// ---- tile picker -------------------------------------------------------------------------

function buildPicker() {
  const faces = $("picker-faces");
  for (const row of ROWS) {
    const div = document.createElement("div");
    div.className = "pick-row";
    row.forEach((code, i) => {
      // Where a narrow screen breaks the row: ranks 1-5 | 6-9, winds | dragons, flowers | seasons.
      const b = tileButton(code, i === (row.length === 9 && isSuited(code) ? 5 : 4) ? "pick split" : "pick");
      b.addEventListener("click", () => picked(code));
      div.appendChild(b);
    });
    faces.appendChild(div);
  }
  $("picker-group").addEventListener("change", (e) => moveTile(e.target.value));
  $("picker-winning").addEventListener("click", () => { moveTile("winning"); closePicker(); });
  $("picker-remove").addEventListener("click", () => {
    const tile = pickerTile();
    if (tile) {
      if (tile.detected) state.removed.push(tile.detected);
      state.tiles = state.tiles.filter((x) => x !== tile);
    }
    closePicker();
    changed();
  });
}

const pickerTile = () => state.picker && state.picker.mode === "edit" ? state.tiles.find((x) => x.id === state.picker.id) : null;

function openPicker(target) {
  state.picker = target;
  const tile = pickerTile();
  $("picker-tools").hidden = !tile;
  $("picker-title").textContent = tile ? `${t("pick")}: ${tileName(tile.code)}` : t("adding", { n: handCount() });
  for (const b of $("picker-faces").querySelectorAll(".tile")) b.classList.toggle("current", !!tile && b.dataset.code === tile.code);
  drawCrop(tile);
  // The classifier's next guesses for this tile come first: usually the fix is one of them.
  const det = tile && tile.index && state.rec && state.rec.tiles ? state.rec.tiles[tile.index - 1] : null;
  const guesses = det ? [det.code, ...(det.alternatives || []).map((a) => a.code || a)].filter((c, i, all) => ALL_CODES.has(c) && c !== tile.code && all.indexOf(c) === i) : [];
  const suggest = $("picker-suggest");
  suggest.hidden = !guesses.length;
  const row = suggest.querySelector(".tiles");
  row.textContent = "";
  for (const code of guesses) {
    const b = tileButton(code, "pick");
    b.addEventListener("click", () => picked(code));
    row.appendChild(b);
  }
  if (tile) {
    const sel = $("picker-group");
    sel.textContent = "";
    const options = [["concealed", t("g_concealed")], ["winning", t("g_winning")], ["flower", t("g_flower")]];
    state.melds.forEach((m, i) => options.push(["meld:" + m.key, `${t("g_meld")} ${i + 1}`]));
    options.push(["new-exposed", t("g_new_exposed")], ["new-kong", t("g_new_kong")], ["loose", t("g_loose")]);
    for (const [value, label] of options) sel.add(new Option(label, value));
    sel.value = tile.group === "meld" ? "meld:" + tile.meld : tile.group;
  }
  const dialog = $("picker");
  if (dialog.open) return; // stepping from tile to tile in the zoom
  if (typeof dialog.showModal === "function") dialog.showModal(); else dialog.setAttribute("open", "");
}

function closePicker() {
  const dialog = $("picker");
  if (typeof dialog.close === "function") dialog.close(); else dialog.removeAttribute("open");
  state.picker = null;
}

function picked(code) {
  const tile = pickerTile();
  if (tile) {
    tile.code = code;
    if (isFlower(code) && tile.group !== "flower" && tile.group !== "loose") { tile.group = "flower"; tile.meld = null; }
    else if (!isFlower(code) && tile.group === "flower") tile.group = "concealed";
    closePicker();
    rememberSoon();
  } else {
    let group = "concealed";
    if (isFlower(code)) group = "flower";
    else if (!tilesOf("winning").length && handCount() === 13) group = "winning";
    state.tiles.push(newTile(code, group));
    $("picker-title").textContent = t("adding", { n: handCount() });
    if (handCount() >= 14 && tilesOf("winning").length) closePicker();
  }
  changed();
}

// A wait tapped: score the hand as if won on that tile, on a discard or self-drawn.
function winOn(code, selfDrawn) {
  state.tiles = state.tiles.filter((x) => !x.assumed);
  for (const other of tilesOf("winning")) other.group = "concealed";
  state.tiles.push(newTile(code, "winning", { assumed: true }));
  $("self_drawn").checked = !!selfDrawn;
  changed();
}

function backToWaits() {
  state.tiles = state.tiles.filter((x) => !x.assumed);
  $("self_drawn").checked = false;
  changed();
}

function moveTile(where) {
  const tile = pickerTile();
  if (!tile) return;
  if (where === "winning") for (const other of tilesOf("winning")) other.group = "concealed";
  tile.meld = null;
  if (where.startsWith("meld:")) { tile.group = "meld"; tile.meld = Number(where.slice(5)); }
  else if (where === "new-exposed" || where === "new-kong") { tile.group = "meld"; tile.meld = newMeld(where === "new-kong").key; }
  else tile.group = where;
  changed();
}

// ---- language, setup ---------------------------------------------------------------------

function applyLang() {
  document.documentElement.lang = state.lang === "zh" ? "zh-Hans" : "en";
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of document.querySelectorAll("[data-i18n-label]")) el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  // 中文 drawn from glyphs.js: legible where the device has no Chinese font.
  $("lang").innerHTML = state.lang === "zh" ? "English" : glyphWord("中文");
  $("lang").lang = state.lang === "zh" ? "en" : "zh-Hans";
  $("lang").setAttribute("aria-label", state.lang === "zh" ? "English" : "中文 (Chinese)");
  labelRemember();
  labelSets();
  if (state.status) sayStatus(state.status.words, state.status.cls);
  renderNotes();
  for (const w of ["seat_wind", "prevalent_wind"]) {
    for (const opt of $(w).options) opt.textContent = t("wind_" + opt.value);
  }
  for (const opt of $("ruleset").options) opt.textContent = t("rules_" + opt.value);
  render();
  renderScore();
}

const RULESETS = ["mcr", "mcr-mil", "sichuan", "sichuan-ordinary", "shanghai", "beijing"];

function setup() {
  state.noCjkFont = !hasCjkFont();
  document.documentElement.classList.toggle("no-cjk-font", state.noCjkFont);
  const saved = localStorage.getItem("mjlens.lang");
  state.lang = saved || ((navigator.language || "").toLowerCase().startsWith("zh") ? "zh" : "en");
  for (const w of ["seat_wind", "prevalent_wind"]) {
    for (const code of ["E", "S", "W", "N"]) $(w).add(new Option(code, code));
  }
  const rules = $("ruleset");
  rules.textContent = "";
  for (const v of RULESETS) rules.add(new Option(t("rules_" + v), v));
  buildPicker();
  setupSets();
  $("lang").addEventListener("click", () => {
    state.lang = state.lang === "zh" ? "en" : "zh";
    localStorage.setItem("mjlens.lang", state.lang);
    applyLang();
  });
  $("photo-input").addEventListener("change", (e) => {
    const file = e.target.files && e.target.files[0];
    if (file) handlePhoto(file, file.name || "photo.jpg");
    e.target.value = "";
  });
  $("sample").addEventListener("click", async () => {
    const res = await fetch("static/sample.jpg");
    if (!res.ok) { setStatus(t("failed", { detail: res.status }), "error"); return; }
    handlePhoto(await res.blob(), "sample.jpg");
  });
  $("manual").addEventListener("click", () => {
    showCards(!!state.photo);
    openPicker({ mode: "add" });
    changed();
  });
  $("add-tile").addEventListener("click", () => openPicker({ mode: "add" }));
  $("clear").addEventListener("click", () => {
    state.tiles = state.tiles.filter((x) => x.box);
    state.tiles.forEach((x) => { x.group = "loose"; x.meld = null; });
    state.melds = [];
    changed();
  });
  $("notation-form").addEventListener("submit", (e) => {
    e.preventDefault();
    try {
      setFromNotation($("notation").value);
      setStatus("");
    } catch (err) {
      setStatus(err.message, "error");
    }
    showCards(!!state.photo);
    changed();
  });
  for (const id of ["seat_wind", "prevalent_wind", "flowers", "ruleset", ...CONTEXT_FLAGS]) $(id).addEventListener("change", changed);
  $("print").addEventListener("click", () => { renderSheet(); window.print(); });
  $("waits-back").addEventListener("click", backToWaits);
  window.addEventListener("online", () => { if (state.score && state.score.offline) rescore(); });
  $("photo-wrap").addEventListener("click", tapPhoto);
  // Boxes and labels are placed in the photo's shown pixels: again whenever its size changes.
  if (window.ResizeObserver) new ResizeObserver(() => renderBoxes()).observe($("photo"));
  $("zoom-prev").addEventListener("click", () => stepPicker(-1));
  $("zoom-next").addEventListener("click", () => stepPicker(1));
  $("picker").addEventListener("keydown", (e) => {
    const step = { ArrowLeft: -1, ArrowRight: 1 }[e.key];
    if (!step || $("zoom").hidden || e.target.closest("select, input")) return;
    e.preventDefault();
    stepPicker(step);
  });
  if ("serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.register("sw.js").catch(() => {});
    // The worker keeps what passes through it: the server's current scorer, for offline use.
    navigator.serviceWorker.ready.then(() => fetch("offline/scoring.zip")).catch(() => {});
  }
  $("ruleset").addEventListener("change", loadFans);
  loadFans();
  applyLang();
}

// The rule set's own fan table: the names of the fans a score leaves out.
function loadFans() {
  const ruleset = $("ruleset").value;
  fetch("v1/fans?ruleset=" + encodeURIComponent(ruleset)).then((r) => (r.ok ? r.json() : { fans: [] })).then((body) => {
    if ($("ruleset").value !== ruleset) return;
    state.fans = new Map((body.fans || []).map((row) => [row.id, row]));
    renderScore();
  }).catch(() => {});
}

document.addEventListener("DOMContentLoaded", setup);
