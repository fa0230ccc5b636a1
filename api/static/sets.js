// Taught tile sets on the page: the set picker (sent as `set` with each photo), teaching a
// set from a photo of one tile of each face in the standard order, and remembering the tiles
// a person corrects as more looks of the picked set. Loaded before app.js, which calls in.
"use strict";

// The standard order of an enrollment photo (vision/enroll.py): flowers last, no back.
const GUIDE_ROWS = [...ROWS.slice(0, 4), ROWS[4].filter(isFlower)];
// Corrections come in bursts (a misread face is usually misread in every copy): one upload
// of the photo for the burst, not one per tap.
const REMEMBER_AFTER_MS = 2500;
const remembering = { timer: null };

const chosenSet = () => $("set-picker").value;

// ---- the picker --------------------------------------------------------------------------

async function refreshSets(select) {
  let sets = [];
  try {
    const res = await fetch("v1/sets");
    if (res.ok) sets = (await res.json()).sets || [];
  } catch (e) { /* no server: the page still scores by hand */ }
  const picker = $("set-picker");
  const want = select !== undefined ? select : localStorage.getItem("mjlens.set") || "";
  while (picker.options.length > 1) picker.remove(1);
  for (const s of sets) {
    const option = new Option(s.name, s.name);
    option.disabled = !!s.error;
    option.title = s.error || "";
    option.dataset.faces = s.error ? "" : String(s.faces);
    picker.add(option);
  }
  labelSets();
  picker.value = [...picker.options].some((o) => o.value === want && !o.disabled) ? want : "";
  showRemember();
}

// In the page's language (again when it changes).
function labelSets() {
  for (const option of [...$("set-picker").options].slice(1)) {
    const name = option.value;
    option.textContent = option.disabled ? `${name} (${t("set_damaged")})` : t("set_option", { name, n: option.dataset.faces });
  }
}

function setChosen(name) {
  if (name) localStorage.setItem("mjlens.set", name);
  else localStorage.removeItem("mjlens.set");
  showRemember();
}

// "Remember corrections" is offered only with a set picked, and is on unless turned off.
function showRemember() {
  const name = chosenSet();
  $("remember-wrap").hidden = !name;
  $("remember").checked = !!name && localStorage.getItem("mjlens.remember") !== "0";
  labelRemember();
}

const labelRemember = () => { $("remember-label").textContent = t("remember", { set: chosenSet() }); };

// ---- teaching ----------------------------------------------------------------------------

function buildGuide() {
  const guide = $("teach-guide");
  guide.textContent = "";
  GUIDE_ROWS.forEach((row, r) => {
    const line = document.createElement("div");
    line.className = "guide-row";
    const number = document.createElement("span");
    number.className = "guide-n";
    number.textContent = String(r + 1);
    line.appendChild(number);
    for (const code of row) line.appendChild(tileFace(code));
    guide.appendChild(line);
  });
}

function openTeach() {
  const card = $("teach-card");
  card.hidden = false;
  if (!$("teach-name").value) $("teach-name").value = chosenSet();
  card.scrollIntoView({ block: "start" });
}

const setNameOf = (text) => text.trim().toLowerCase().replace(/\s+/g, "-");

async function teachFrom(files) {
  const status = $("teach-status");
  const warnings = $("teach-warnings");
  warnings.textContent = "";
  const name = setNameOf($("teach-name").value);
  if (!name) {
    [status.className, status.textContent] = ["error", t("teach_need_name")];
    return;
  }
  [status.className, status.textContent] = ["busy", t("teaching")];
  const form = new FormData();
  form.append("name", name);
  for (const file of files) {
    let [blob, fileName] = [file, file.name || "enroll.jpg"];
    if (blob.type && !SENT_AS_IS.includes(blob.type)) {
      const jpeg = await redrawnAsJpeg(blob);
      if (jpeg) [blob, fileName] = [jpeg, asJpegName(fileName)];
    }
    form.append("photo", blob, fileName);
  }
  const { ok, body } = await postForm("v1/sets", form);
  if (!ok) {
    [status.className, status.textContent] = ["error", t("teach_failed", { detail: body.detail })];
    return;
  }
  [status.className, status.textContent] = ["ok", t("taught", { set: body.set, faces: body.faces, looks: body.looks })];
  for (const w of body.warnings || []) {
    const li = document.createElement("li");
    li.textContent = w;
    warnings.appendChild(li);
  }
  await refreshSets(body.set);
  setChosen(body.set);
}

async function postForm(url, form) {
  try {
    const res = await fetch(url, { method: "POST", body: form });
    const body = await res.json().catch(() => ({ detail: `${res.status} ${res.statusText}`.trim() }));
    return { ok: res.ok, body: res.ok ? body : { detail: body.detail || body.title || String(res.status) } };
  } catch (e) {
    return { ok: false, body: { detail: String(e) } };
  }
}

// ---- remembering corrections -------------------------------------------------------------

function rememberSoon() {
  if (!$("remember").checked || !chosenSet() || !state.rec || !(state.photo && state.photo.blob)) return;
  clearTimeout(remembering.timer);
  remembering.timer = setTimeout(rememberNow, REMEMBER_AFTER_MS);
}

// The photo's tiles whose code the person changed, as labels in the photo's pixels: a
// face's corners where the recognition gave them, else its box.
function correctedLabels() {
  const found = (state.rec && state.rec.tiles) || [];
  const out = [];
  for (const tile of state.tiles) {
    if (!tile.box || !tile.detected || tile.code === tile.detected || tile.remembered === tile.code) continue;
    const det = found[tile.index - 1] || {};
    if (det.face_down && tile.code !== "back") continue; // its face is not in the photo
    const label = { code: tile.code };
    if (Array.isArray(det.corners) && det.corners.length === 4) label.corners = det.corners;
    else label.bbox = [tile.box[0], tile.box[1], tile.box[2] - tile.box[0], tile.box[3] - tile.box[1]];
    out.push([tile, label]);
  }
  return out;
}

// Builds the request before its first await: a new photo may replace state.photo meanwhile.
async function rememberNow() {
  clearTimeout(remembering.timer);
  remembering.timer = null;
  const name = chosenSet();
  const pairs = correctedLabels();
  if (!name || !pairs.length || !$("remember").checked || !(state.photo && state.photo.blob)) return;
  const form = new FormData();
  form.append("photo", state.photo.blob, state.photo.name || "photo.jpg");
  form.append("labels", JSON.stringify(pairs.map(([, label]) => label)));
  pairs.forEach(([tile]) => { tile.remembered = tile.code; });
  const note = $("remember-status");
  const { ok, body } = await postForm(`v1/sets/${encodeURIComponent(name)}/corrections`, form);
  if (ok) {
    [note.className, note.textContent] = ["hint ok", t("remembered", { n: pairs.length, set: name })];
    return;
  }
  pairs.forEach(([tile]) => { tile.remembered = null; });
  [note.className, note.textContent] = ["hint error", t("remember_failed", { detail: body.detail })];
}

// Before another photo replaces this one: what is waiting goes now.
function rememberPending() {
  if (remembering.timer) rememberNow();
  $("remember-status").textContent = "";
}

function setupSets() {
  buildGuide();
  $("set-picker").addEventListener("change", (e) => setChosen(e.target.value));
  $("remember").addEventListener("change", (e) => {
    localStorage.setItem("mjlens.remember", e.target.checked ? "1" : "0");
    if (e.target.checked) rememberSoon();
  });
  $("teach-open").addEventListener("click", openTeach);
  $("teach-close").addEventListener("click", () => { $("teach-card").hidden = true; });
  $("teach-input").addEventListener("change", (e) => {
    const files = [...(e.target.files || [])];
    if (files.length) teachFrom(files);
    e.target.value = "";
  });
  refreshSets();
}
