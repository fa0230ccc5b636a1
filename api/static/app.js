// mjlens phone page: photograph a declared win, correct any tile, and score it live.
// Plain JS, no build step, nothing loaded from elsewhere. The page keeps its own model of
// the hand (tiles in groups) so a corrected tile rescores through /v1/score at once; the
// recognizer's answer only seeds that model.
"use strict";

// ---- tiles -------------------------------------------------------------------------------

const SUITS = { m: "萬", p: "筒", s: "條" };
const SUIT_EN = { m: "Characters", p: "Dots", s: "Bamboo" };
const CN_NUM = "一二三四五六七八九";
const CIRCLED = "①②③④⑤⑥⑦⑧⑨";
const HONORS = { E: "東", S: "南", W: "西", N: "北", C: "中", F: "發", P: "白" };
const HONOR_EN = { E: "East wind", S: "South wind", W: "West wind", N: "North wind", C: "Red dragon", F: "Green dragon", P: "White dragon" };
const FLOWERS = { "1h": "梅", "2h": "蘭", "3h": "菊", "4h": "竹", "5h": "春", "6h": "夏", "7h": "秋", "8h": "冬" };
const ROWS = [
  [1, 2, 3, 4, 5, 6, 7, 8, 9].map((r) => r + "m"),
  [1, 2, 3, 4, 5, 6, 7, 8, 9].map((r) => r + "p"),
  [1, 2, 3, 4, 5, 6, 7, 8, 9].map((r) => r + "s"),
  ["E", "S", "W", "N", "C", "F", "P"],
  ["1h", "2h", "3h", "4h", "5h", "6h", "7h", "8h", "back"],
];
const ALL_CODES = new Set(ROWS.flat());
const isFlower = (code) => /^[1-8]h$/.test(code);
const isSuited = (code) => /^[1-9][mps]$/.test(code);

function glyph(code) {
  if (code === "back") return { top: "", bottom: "", cls: "back" };
  if (isSuited(code)) {
    const rank = Number(code[0]);
    const suit = code[1];
    const top = suit === "m" ? CN_NUM[rank - 1] : suit === "p" ? CIRCLED[rank - 1] : String(rank);
    return { top, bottom: SUITS[suit], cls: "suit-" + suit };
  }
  if (HONORS[code]) return { top: HONORS[code], bottom: "", cls: "honor honor-" + code };
  if (FLOWERS[code]) return { top: FLOWERS[code], bottom: code[0], cls: "flower" };
  return { top: "?", bottom: "", cls: "unknown" };
}

function tileName(code) {
  if (code === "back") return state.lang === "zh" ? "牌背" : "face-down";
  if (isSuited(code)) return state.lang === "zh" ? code[0] + SUITS[code[1]] : code[0] + " " + SUIT_EN[code[1]];
  if (HONORS[code]) return state.lang === "zh" ? HONORS[code] : HONOR_EN[code];
  if (FLOWERS[code]) return FLOWERS[code] + " " + code;
  return code;
}

function tileButton(code, extraClass) {
  const g = glyph(code);
  const b = document.createElement("button");
  b.type = "button";
  b.className = "tile " + g.cls + (extraClass ? " " + extraClass : "");
  b.title = tileName(code);
  b.dataset.code = code;
  b.innerHTML = `<span class="g"></span><span class="s"></span><span class="c"></span>`;
  b.children[0].textContent = g.top;
  b.children[1].textContent = g.bottom;
  b.children[2].textContent = code === "back" ? "" : code;
  return b;
}

// ---- words -------------------------------------------------------------------------------

const STRINGS = {
  en: {
    tagline: "photo → hand → MCR score", take_photo: "Take a photo", try_sample: "Try the sample",
    manual: "Enter by hand", tap_hint: "Tap a tile to correct it.", hand: "Hand", add_tile: "+ Tile",
    clear: "Clear", notation: "Or type it", set: "Set", context: "Context", seat_wind: "Seat wind",
    notation_hint: "Brackets: an exposed meld (,N = which tile was claimed); four letters in brackets: a concealed kong. The last tile is the winning tile.",
    prevalent_wind: "Prevalent wind", flowers: "Flowers", ruleset: "Rules", self_drawn: "Self-drawn 自摸",
    last_tile: "Last tile of its kind 和绝张", last_of_wall: "Last of the wall 妙手回春 / 海底捞月",
    kong_replacement: "Kong replacement 杠上开花", robbing_kong: "Robbing the kong 抢杠和",
    points: "points", fan: "Fan", pts: "Pts", sum: "Sum", excluded: "Not counted (excluded)",
    payments: "Payments", print: "Print referee sheet", sheet_title: "Referee sheet", fans: "Fans",
    corrections: "Corrections made", sign_winner: "Winner", sign_referee: "Referee",
    pick: "Pick the tile", group: "Put in", mark_winning: "Winning tile", remove: "Remove",
    g_concealed: "Concealed", g_winning: "Winning tile", g_flower: "Flowers", g_loose: "Seen, not in the hand",
    g_meld: "Meld", g_new_exposed: "New exposed meld", g_new_kong: "New concealed kong",
    chow: "chow", pung: "pung", kong: "kong", exposed: "exposed", concealed_meld: "concealed",
    reading: "Reading the photo…", read_ok: "Read {n} tiles in {ms} ms.",
    review: "Some tiles are uncertain: check the highlighted ones.",
    not_ready: "The recognizer is not available ({detail}). Enter the hand by hand below.",
    failed: "Could not read the photo: {detail}", scoring: "Scoring…",
    need_tiles: "{n} of 14 tiles", need_winning: "Mark the winning tile (tap a tile → Winning tile).",
    invalid: "Not a valid hand", meets_min: "✓ {n} points without flowers: meets the 8-point minimum",
    under_min: "✗ {n} points without flowers: under the 8-point minimum, not a legal win",
    excluded_by: "implied by", winner: "Winner", discarder: "Discarder", others: "Each other player",
    each: "Each other player", adding: "Add tiles: {n} of 14", none: "none", date: "Date",
    photo_hash: "Photo SHA-256", models: "Models", rule_set: "Rules", manual_entry: "entered by hand",
    wind_E: "East 東", wind_S: "South 南", wind_W: "West 西", wind_N: "North 北",
    corrected: "tile {i}: {from} → {to}", added: "added {to}", removed: "removed {from}",
    bad_notation: "Cannot read that notation at “{at}”.", total: "Total", suggested: "Likely",
  },
  zh: {
    tagline: "拍照 → 牌型 → 国标计分", take_photo: "拍照", try_sample: "试用示例", manual: "手动输入",
    tap_hint: "点一张牌即可更正。", hand: "牌型", add_tile: "+ 牌", clear: "清空", notation: "或直接输入",
    set: "确定", context: "和牌条件", seat_wind: "门风", prevalent_wind: "圈风", flowers: "花牌",
    notation_hint: "方括号：明副露（,N 表示吃碰的是第几张）；方括号内四张相同字母：暗杠。最后一张为和牌张。",
    ruleset: "规则", self_drawn: "自摸", last_tile: "和绝张", last_of_wall: "妙手回春 / 海底捞月",
    kong_replacement: "杠上开花", robbing_kong: "抢杠和", points: "番", fan: "番种", pts: "番数",
    sum: "小计", excluded: "不计（被包含）", payments: "结算", print: "打印裁判单", sheet_title: "裁判记录单",
    fans: "番种", corrections: "更正记录", sign_winner: "和牌者", sign_referee: "裁判",
    pick: "选择牌", group: "放入", mark_winning: "设为和牌张", remove: "删除", g_concealed: "手牌",
    g_winning: "和牌张", g_flower: "花牌", g_loose: "看到但不在牌型中", g_meld: "副露",
    g_new_exposed: "新的明副露", g_new_kong: "新的暗杠", chow: "吃", pung: "碰", kong: "杠",
    exposed: "明", concealed_meld: "暗", reading: "正在识别照片…", read_ok: "识别了 {n} 张牌，用时 {ms} 毫秒。",
    review: "部分牌不确定，请检查高亮的牌。",
    not_ready: "识别模型暂不可用（{detail}）。请在下方手动输入。", failed: "无法读取照片：{detail}",
    scoring: "计分中…", need_tiles: "已有 {n} / 14 张", need_winning: "请标出和牌张（点一张牌 → 设为和牌张）。",
    invalid: "不是有效的和牌", meets_min: "✓ 不计花牌 {n} 番：达到 8 番起和",
    under_min: "✗ 不计花牌 {n} 番：不足 8 番，不能和牌", excluded_by: "已包含于",
    winner: "和牌者", discarder: "点炮者", others: "其他每家", each: "其他每家", adding: "添加牌：{n} / 14",
    none: "无", date: "日期", photo_hash: "照片 SHA-256", models: "模型", rule_set: "规则",
    manual_entry: "手动输入", wind_E: "东", wind_S: "南", wind_W: "西", wind_N: "北",
    corrected: "第 {i} 张：{from} → {to}", added: "添加 {to}", removed: "删除 {from}",
    bad_notation: "无法解析 “{at}” 处的写法。", total: "合计", suggested: "可能是",
  },
};

function t(key, args) {
  let s = (STRINGS[state.lang] && STRINGS[state.lang][key]) || STRINGS.en[key] || key;
  for (const [k, v] of Object.entries(args || {})) s = s.replaceAll("{" + k + "}", String(v));
  return s;
}

// ---- state -------------------------------------------------------------------------------

// tile: {id, code, group: concealed|winning|flower|meld|loose, meld: key|null,
//        box: [x1,y1,x2,y2]|null, confidence, detected: original code|null, index: detection #}
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
  for (const flag of CONTEXT_FLAGS) hand[flag] = $(flag).checked;
  state.pointerIds = pointers;
  return hand;
}

// ---- notation (the MCR calculators' compact form, e.g. [567m,2][999s,3][SSSS]123pCC) -------

function parseNotation(text) {
  const groups = [];
  let rest = text.replace(/\s+/g, "");
  const token = /^(\[([^\]]*)\])|^([1-9]+[mpsh])|^([ESWNCFP])/;
  while (rest) {
    const m = token.exec(rest);
    if (!m) throw new Error(t("bad_notation", { at: rest.slice(0, 8) }));
    if (m[1]) {
      const [body, claimed] = m[2].split(",");
      const codes = expand(body);
      if (!codes.length) throw new Error(t("bad_notation", { at: m[1] }));
      groups.push({ meld: true, codes, concealed: claimed === undefined && codes.length === 4 });
    } else groups.push({ meld: false, codes: expand(m[3] || m[4]) });
    rest = rest.slice(m[0].length);
  }
  return groups;
}

function expand(text) {
  const codes = [];
  let digits = "";
  for (const ch of text) {
    if (/[1-9]/.test(ch)) digits += ch;
    else if ("mpsh".includes(ch) && digits) {
      for (const d of digits) codes.push(d + ch);
      digits = "";
    } else if ("ESWNCFP".includes(ch) && !digits) codes.push(ch);
    else throw new Error(t("bad_notation", { at: text }));
  }
  if (digits) throw new Error(t("bad_notation", { at: text }));
  return codes;
}

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
  let last = -1;
  loose.forEach((c, i) => { if (!isFlower(c)) last = i; });
  loose.forEach((c, i) => {
    const group = isFlower(c) ? "flower" : i === last ? "winning" : "concealed";
    state.tiles.push(newTile(c, group));
  });
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
    // No legal hand was read: offer every face-up tile as concealed for the user to fix.
    dets.forEach((d) => { if (d.code !== "back") d.group = isFlower(d.code) ? "flower" : "concealed"; });
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

// ---- rendering ---------------------------------------------------------------------------

function render() {
  renderBoxes();
  renderHand();
  renderSheet();
}

function renderBoxes() {
  const layer = $("boxes");
  layer.textContent = "";
  const img = $("photo");
  const w = img.naturalWidth, h = img.naturalHeight;
  if (!state.photo || !w || !h) return;
  for (const tile of state.tiles) {
    if (!tile.box) continue;
    const [x1, y1, x2, y2] = tile.box;
    const b = document.createElement("button");
    b.type = "button";
    b.className = "box";
    if (tile.code !== tile.detected) b.classList.add("corrected");
    else if (tile.confidence !== null && tile.confidence < 0.75) b.classList.add("uncertain");
    if (tile.group === "winning") b.classList.add("winning");
    if (tile.group === "loose") b.classList.add("loose");
    Object.assign(b.style, {
      left: (100 * x1) / w + "%", top: (100 * y1) / h + "%",
      width: (100 * (x2 - x1)) / w + "%", height: (100 * (y2 - y1)) / h + "%",
    });
    b.dataset.id = tile.id;
    b.title = tileName(tile.code);
    const label = document.createElement("span");
    label.textContent = tile.code === "back" ? "▮" : tile.code;
    b.appendChild(label);
    b.addEventListener("click", () => openPicker({ mode: "edit", id: tile.id }));
    layer.appendChild(b);
  }
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

function renderSticky(score) {
  const bar = $("sticky");
  bar.hidden = !score;
  document.body.classList.toggle("has-sticky", !!score);
  if (!score) return;
  const valid = !score.problem && score.valid;
  $("sticky-total").textContent = valid ? `${score.total} ${t("points")}` : "✗";
  let note = score.problem || score.error || "";
  if (valid && typeof score.meets_minimum === "boolean") note = score.meets_minimum ? "✓ ≥ 8" : "✗ < 8";
  $("sticky-min").textContent = note.length > 40 ? note.slice(0, 39) + "…" : note;
}

function renderScore() {
  const score = state.score;
  renderSticky(score);
  const tbody = $("fans").querySelector("tbody");
  tbody.textContent = "";
  $("excluded").textContent = "";
  $("payments").textContent = "";
  $("minimum").textContent = "";
  const err = $("score-error");
  err.hidden = true;
  if (!score) { $("total-points").textContent = "—"; return; }
  if (score.problem || !score.valid) {
    $("total-points").textContent = "✗";
    err.hidden = false;
    err.textContent = score.problem || score.error || t("invalid");
    return;
  }
  $("total-points").textContent = score.total;
  if (typeof score.meets_minimum === "boolean") {
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
    li.textContent = `${fanName(ex.id)}${by}${ex.rule ? " (" + ex.rule + ")" : ""}`;
    $("excluded").appendChild(li);
  }
  $("excluded-box").hidden = !(score.excluded || []).length;
  for (const [who, amount] of Object.entries(score.payments || {})) {
    const li = document.createElement("li");
    li.textContent = `${t(who)}: ${amount > 0 ? "+" : ""}${amount}`;
    $("payments").appendChild(li);
  }
}

function fanName(id) {
  const row = state.fans.get(id);
  if (!row) return "#" + id;
  return state.lang === "zh" ? `${row.name_zh} ${row.name_en}` : `${row.name_en} ${row.name_zh}`;
}

function corrections() {
  const out = [];
  for (const tile of state.tiles) {
    if (tile.detected && tile.code !== tile.detected) out.push(t("corrected", { i: tile.index, from: tile.detected, to: tile.code }));
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
  const card = (v) => (typeof v === "string" ? v : v && v.file ? `${v.file}${v.sha256 ? " sha256:" + v.sha256 : ""}` : JSON.stringify(v));
  const models = rec.models ? Object.entries(rec.models).map(([k, v]) => `${k}: ${card(v)}`).join("; ") : t("manual_entry");
  const context = [`${t("seat_wind")} ${$("seat_wind").value}`, `${t("prevalent_wind")} ${$("prevalent_wind").value}`]
    .concat(CONTEXT_FLAGS.filter((f) => $(f).checked).map((f) => t(f))).join(", ");
  const rows = [[t("date"), new Date().toISOString().replace("T", " ").slice(0, 16) + " UTC"], [t("rule_set"), $("ruleset").value],
    [t("context"), context], [t("photo_hash"), (state.photo && state.photo.sha256) || t("none")], [t("models"), models]];
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
  $("sheet-total").textContent = score && score.valid ? `${t("total")}: ${score.total} ${t("points")}` : t("invalid");
  const list = $("sheet-corrections");
  list.textContent = "";
  const fixes = corrections();
  for (const line of fixes.length ? fixes : [t("none")]) {
    const li = document.createElement("li"); li.textContent = line; list.appendChild(li);
  }
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
  if (count < 14 || !hand.winning_tile) {
    state.score = { problem: count < 14 ? t("need_tiles", { n: count }) : t("need_winning") };
    renderScore(); renderSheet();
    return;
  }
  try {
    const res = await fetch("v1/score?ruleset=" + encodeURIComponent($("ruleset").value), {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(hand),
    });
    const body = await res.json();
    if (seq !== state.seq) return; // a newer edit is already being scored
    if (res.ok) state.score = body;
    else {
      state.score = { problem: body.detail || body.title || res.statusText };
      const ids = [...state.pointerIds].filter(([p]) => body.pointer && (p === body.pointer || p.startsWith(body.pointer + "/")));
      state.badIds = new Set(ids.map(([, id]) => id));
    }
  } catch (e) {
    if (seq !== state.seq) return;
    state.score = { problem: String(e) };
  }
  renderScore();
  renderHand();
  renderSheet();
}

// ---- tile picker -------------------------------------------------------------------------

function buildPicker() {
  const faces = $("picker-faces");
  for (const row of ROWS) {
    const div = document.createElement("div");
    div.className = "pick-row";
    for (const code of row) {
      const b = tileButton(code, "pick");
      b.addEventListener("click", () => picked(code));
      div.appendChild(b);
    }
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

// ---- photo -------------------------------------------------------------------------------

function setStatus(text, cls) {
  $("status").textContent = text || "";
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

async function handlePhoto(blob, name) {
  if (state.photo && state.photo.url) URL.revokeObjectURL(state.photo.url);
  state.photo = { url: URL.createObjectURL(blob), sha256: null };
  state.rec = null;
  const img = $("photo");
  img.onload = () => renderBoxes();
  img.src = state.photo.url;
  showCards(true);
  setStatus(t("reading"), "busy");
  const form = new FormData();
  form.append("photo", blob, name);
  form.append("seat_wind", $("seat_wind").value);
  form.append("prevalent_wind", $("prevalent_wind").value);
  for (const flag of CONTEXT_FLAGS) form.append(flag, $(flag).checked ? "true" : "false");
  form.append("ruleset", $("ruleset").value);
  let res, body;
  try {
    res = await fetch("v1/recognize", { method: "POST", body: form });
    body = await res.json();
  } catch (e) {
    res = { ok: false, status: 0 };
    body = { detail: String(e) };
  }
  const warnings = $("warnings");
  warnings.textContent = "";
  if (!res.ok) {
    state.photo.sha256 = await sha256Hex(blob);
    setStatus(res.status === 503 ? t("not_ready", { detail: body.detail }) : t("failed", { detail: body.detail || res.status }), "error");
    changed();
    return;
  }
  state.photo.sha256 = body.sha256 || (await sha256Hex(blob));
  fromRecognition(body);
  const total = body.timings_ms && (body.timings_ms.api_total || body.timings_ms.total);
  setStatus(t("read_ok", { n: (body.tiles || []).length, ms: Math.round(total || 0) }) + (body.review ? " " + t("review") : ""), body.review ? "warn" : "ok");
  for (const w of [...(body.review_reasons || []), ...(body.warnings || [])]) {
    const li = document.createElement("li");
    li.textContent = typeof w === "string" ? w : w.message || JSON.stringify(w);
    warnings.appendChild(li);
  }
  changed();
}

// ---- language, setup ---------------------------------------------------------------------

function applyLang() {
  document.documentElement.lang = state.lang === "zh" ? "zh-Hans" : "en";
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  $("lang").textContent = state.lang === "zh" ? "English" : "中文";
  for (const w of ["seat_wind", "prevalent_wind"]) {
    for (const opt of $(w).options) opt.textContent = t("wind_" + opt.value);
  }
  render();
  renderScore();
}

function setup() {
  const saved = localStorage.getItem("mjlens.lang");
  state.lang = saved || ((navigator.language || "").toLowerCase().startsWith("zh") ? "zh" : "en");
  for (const w of ["seat_wind", "prevalent_wind"]) {
    for (const code of ["E", "S", "W", "N"]) $(w).add(new Option(code, code));
  }
  const rules = $("ruleset");
  rules.textContent = "";
  for (const [v, label] of [["mcr", "MCR 国标"], ["mcr-mil", "MCR MIL"], ["sichuan", "四川"], ["shanghai", "上海"], ["beijing", "北京"]]) rules.add(new Option(label, v));
  buildPicker();
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
  fetch("v1/fans").then((r) => (r.ok ? r.json() : { fans: [] })).then((body) => {
    for (const row of body.fans || []) state.fans.set(row.id, row);
    renderScore();
  }).catch(() => {});
  applyLang();
}

document.addEventListener("DOMContentLoaded", setup);
