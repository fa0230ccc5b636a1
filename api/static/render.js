// Drawing the page from the state: the hand's groups, the score, the referee sheet (the photo's
// boxes: photo.js).
"use strict";

// ---- rendering ---------------------------------------------------------------------------

function render() {
  renderBoxes();
  renderHand();
  renderSheet();
}

function groupBlock(title, tiles, meld) {
  const div = document.createElement("div");
  div.className = "group";
  const head = document.createElement("div");
  head.className = "group-head";
  head.textContent = title;
  if (meld && tiles.length === 4) {
    const toggle = document.createElement("button");
    toggle.type = "button";
    toggle.className = "chip";
    toggle.textContent = meld.concealed ? t("concealed_meld") : t("exposed");
    toggle.addEventListener("click", () => { meld.concealed = !meld.concealed; changed(); });
    head.appendChild(toggle);
  }
  div.appendChild(head);
  const row = document.createElement("div");
  row.className = "tiles";
  for (const tile of tiles) {
    const extra = [tile.group === "winning" ? "winning" : "", tile.detected && tile.code !== tile.detected ? "corrected" : "",
      state.badIds && state.badIds.has(tile.id) ? "bad" : ""].join(" ").trim();
    const b = tileButton(tile.code, extra);
    b.dataset.id = tile.id;
    b.addEventListener("click", () => openPicker({ mode: "edit", id: tile.id }));
    row.appendChild(b);
  }
  div.appendChild(row);
  return div;
}

function renderHand() {
  const box = $("hand");
  box.textContent = "";
  state.melds = state.melds.filter((m) => tilesOf("meld", m.key).length);
  state.melds.forEach((m, i) => {
    const tiles = tilesOf("meld", m.key);
    const kind = t(meldType(tiles.map((x) => x.code)));
    const how = m.concealed ? t("concealed_meld") : t("exposed");
    box.appendChild(groupBlock(`${t("g_meld")} ${i + 1} · ${kind}${tiles.length === 4 ? "" : " · " + how}`, tiles, m));
  });
  for (const group of ["concealed", "winning", "flower", "loose"]) {
    const tiles = tilesOf(group);
    if (tiles.length || group === "concealed" || group === "winning") box.appendChild(groupBlock(t("g_" + group), tiles));
  }
  const flowerTiles = tilesOf("flower").length;
  $("flowers").disabled = flowerTiles > 0;
  if (flowerTiles) $("flowers").value = flowerTiles;
}

// Only MCR asks 8 points to declare a win; the other rule sets' scores say meets_minimum
// true for any legal win, and "meets the 8-point minimum" would be wrong for them.
function hasMinimum(score) {
  return typeof score.meets_minimum === "boolean" && String(score.ruleset || "mcr").startsWith("mcr");
}

function renderSticky(score) {
  const bar = $("sticky");
  bar.hidden = !score;
  document.body.classList.toggle("has-sticky", !!score);
  if (!score) return;
  const valid = !score.problem && score.valid;
  $("sticky-total").textContent = valid ? `${score.total} ${unitOf(score)}` : isWaiting(score) ? t("waits") : "✗";
  let note = isWaiting(score) ? waitCodes(score) || t("waits_none") : score.problem || scoreError(score);
  if (valid && hasMinimum(score)) note = score.meets_minimum ? "✓ ≥ 8" : "✗ < 8";
  $("sticky-min").textContent = note.length > 40 ? note.slice(0, 39) + "…" : note;
}

const isWaiting = (score) => !!score && !score.problem && Array.isArray(score.waits);
const waitCodes = (score) => score.waits.map((w) => w.tile).join(" ");

// A wait's points one way: the total, * under MCR's minimum, – where the rule set refuses it.
function waitPoints(score) {
  if (!score || !score.valid) return "–";
  return String(score.total) + (hasMinimum(score) && !score.meets_minimum ? "*" : "");
}

// The waits of a hand of 13 tiles: each row scores the win on its tile when tapped (the tile
// or its discard points: on a discard; its self-drawn points: self-drawn).
function renderWaits(score) {
  $("waits-back").hidden = !state.tiles.some((x) => x.assumed);
  const box = $("waits-box");
  box.hidden = !isWaiting(score);
  const tbody = $("waits").querySelector("tbody");
  tbody.textContent = "";
  if (box.hidden) return;
  const waits = score.waits;
  const unseen = waits.reduce((n, w) => n + w.unseen, 0);
  $("waits-note").textContent = waits.length ? t("waits_hint", { n: waits.length, unseen }) : score.error || t("waits_none");
  $("waits").hidden = !waits.length;
  let under = false;
  for (const w of waits) {
    const tr = document.createElement("tr");
    tr.dataset.tile = w.tile;
    const cell = () => tr.appendChild(document.createElement("td"));
    const tile = tileButton(w.tile, "wait");
    tile.addEventListener("click", () => winOn(w.tile, false));
    cell().appendChild(tile);
    const count = cell();
    count.className = "num";
    count.textContent = t("unseen_n", { n: w.unseen });
    for (const [way, selfDrawn] of [["discard", false], ["self_drawn", true]]) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "pts " + way;
      b.textContent = waitPoints(w[way]);
      b.disabled = !(w[way] && w[way].valid);
      b.addEventListener("click", () => winOn(w.tile, selfDrawn));
      const td = cell();
      td.className = "num";
      td.appendChild(b);
      under = under || b.textContent.endsWith("*");
    }
    tbody.appendChild(tr);
  }
  $("waits-under").hidden = !under;
}

function renderScore() {
  const score = state.score;
  renderSticky(score);
  renderWaits(score);
  const tbody = $("fans").querySelector("tbody");
  tbody.textContent = "";
  $("excluded").textContent = "";
  $("payments").textContent = "";
  $("minimum").textContent = "";
  const err = $("score-error");
  err.hidden = true;
  $("total-unit").textContent = unitOf(score && !score.problem ? score : null);
  $("score-source").hidden = !(score && score.on_device);
  if (!score) { $("total-points").textContent = "—"; return; }
  if (score.pending) { // the offline scorer is starting
    $("total-points").textContent = "…";
    err.hidden = false;
    err.textContent = score.pending;
    return;
  }
  if (isWaiting(score)) { $("total-points").textContent = "—"; return; }
  if (score.problem || !score.valid) {
    $("total-points").textContent = "✗";
    err.hidden = false;
    err.textContent = score.problem || scoreError(score);
    return;
  }
  $("total-points").textContent = score.total;
  if (hasMinimum(score)) {
    const n = score.total - (score.flower_points || 0);
    $("minimum").textContent = t(score.meets_minimum ? "meets_min" : "under_min", { n });
    $("minimum").className = score.meets_minimum ? "ok" : "error";
  }
  for (const fan of score.fans || []) {
    const tr = document.createElement("tr");
    const count = fan.count || 1;
    tr.innerHTML = `<td class="fan-name"><span class="first"></span> <span class="second"></span></td><td class="num"></td><td class="num"></td><td class="num"></td>`;
    const [first, second] = state.lang === "zh" ? [fan.name_zh, fan.name_en] : [fan.name_en, fan.name_zh];
    tr.querySelector(".first").textContent = first;
    tr.querySelector(".second").textContent = second;
    tr.dataset.fan = fan.id;
    const cells = tr.querySelectorAll(".num");
    cells[0].textContent = fan.points;
    cells[1].textContent = count;
    cells[2].textContent = fan.points * count;
    tbody.appendChild(tr);
  }
  for (const ex of score.excluded || []) {
    const li = document.createElement("li");
    const by = ex.because_of ? ` — ${t("excluded_by")} ${fanName(ex.because_of)}` : "";
    const rule = typeof ex.rule === "string" ? (STRINGS.en["rule_" + ex.rule] ? t("rule_" + ex.rule) : ex.rule) : "";
    li.textContent = `${fanName(ex.id, ex)}${by}${rule ? " (" + rule + ")" : ""}`;
    $("excluded").appendChild(li);
  }
  $("excluded-box").hidden = !(score.excluded || []).length;
  // A self-drawn win has no discarder: a payment that is not a number is not one to show.
  const payments = Object.entries(score.payments || {}).filter(([, amount]) => Number.isFinite(amount));
  for (const [who, amount] of payments) {
    const li = document.createElement("li");
    li.textContent = `${STRINGS.en[who] ? t(who) : who}: ${amount > 0 ? "+" : ""}${amount}`;
    $("payments").appendChild(li);
  }
  $("payments-box").hidden = !payments.length;
}

// Why a hand is not a valid win, in the page's language where the page has the words.
function scoreError(score) {
  const said = withoutPointer(score.error);
  if (!said) return t("invalid");
  return state.lang === "en" ? said : `${t("invalid")}: ${said}`;
}

// A fan's names, from the entry itself where it has them, else from the rule set's table.
function fanName(id, entry) {
  const row = entry && entry.name_en ? entry : state.fans.get(id);
  if (!row) return "#" + id;
  if (state.lang === "zh") return `${row.name_zh} ${row.name_en}`;
  return state.noCjkFont ? row.name_en : `${row.name_en} ${row.name_zh}`;
}

function corrections() {
  const out = [];
  for (const tile of state.tiles) {
    if (tile.assumed) out.push(t("assumed", { to: tile.code }));
    else if (tile.detected && tile.code !== tile.detected) out.push(t("corrected", { i: tile.index, from: tile.detected, to: tile.code }));
    else if (state.photo && !tile.detected && state.rec) out.push(t("added", { to: tile.code }));
  }
  for (const code of state.removed) out.push(t("removed", { from: code }));
  return out;
}

function handText() {
  const parts = state.melds.map((m) => {
    const codes = sortCodes(tilesOf("meld", m.key).map((x) => x.code));
    return (m.concealed ? "[" + codes.join(" ") + "]*" : "[" + codes.join(" ") + "]");
  });
  parts.push(sortCodes(tilesOf("concealed").map((x) => x.code)).join(" "));
  const w = tilesOf("winning")[0];
  if (w) parts.push("+ " + w.code);
  const fl = tilesOf("flower").map((x) => x.code);
  if (fl.length) parts.push("· " + fl.join(" "));
  return parts.join("  ");
}

function renderSheet() {
  const meta = $("sheet-meta");
  meta.textContent = "";
  const rec = state.rec || {};
  const card = (v) => (typeof v === "string" ? v : v && v.file ? `${v.file}${v.sha256 ? " sha256:" + v.sha256 : ""}` : t("none"));
  const models = rec.models ? Object.entries(rec.models).map(([k, v]) => `${k}: ${card(v)}`).join("; ") : t("manual_entry");
  const context = [`${t("seat_wind")} ${$("seat_wind").value}`, `${t("prevalent_wind")} ${$("prevalent_wind").value}`]
    .concat(CONTEXT_FLAGS.filter((f) => $(f).checked).map((f) => t(f))).join(", ");
  const rows = [[t("date"), new Date().toISOString().replace("T", " ").slice(0, 16) + " UTC"], [t("rule_set"), $("ruleset").value],
    [t("context"), context], [t("photo_hash"), (state.photo && state.photo.sha256) || t("none")], [t("models"), models],
    [t("tile_set"), rec.set || t("none")]];
  for (const [k, v] of rows) {
    const dt = document.createElement("dt"); dt.textContent = k;
    const dd = document.createElement("dd"); dd.textContent = v;
    meta.append(dt, dd);
  }
  $("sheet-hand").textContent = handText();
  const body = $("sheet-fans").querySelector("tbody");
  body.textContent = "";
  const score = state.score;
  for (const fan of (score && score.valid && score.fans) || []) {
    const tr = document.createElement("tr");
    tr.innerHTML = "<td></td><td></td><td class='num'></td>";
    tr.children[0].textContent = fan.name_zh;
    tr.children[1].textContent = fan.name_en + ((fan.count || 1) > 1 ? ` ×${fan.count}` : "");
    tr.children[2].textContent = fan.points * (fan.count || 1);
    body.appendChild(tr);
  }
  $("sheet-total").textContent = score && score.valid ? `${t("total")}: ${score.total} ${unitOf(score)}`
    : isWaiting(score) ? `${t("waits")}: ${waitCodes(score) || t("none")}` : t("invalid");
  const list = $("sheet-corrections");
  list.textContent = "";
  const fixes = corrections();
  for (const line of fixes.length ? fixes : [t("none")]) {
    const li = document.createElement("li"); li.textContent = line; list.appendChild(li);
  }
}
