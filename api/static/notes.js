// What the server says, in the page's language: a recognition's notes (each once, by its code
// when it has one), a problem's detail without its JSON pointer, and a score's unit.
"use strict";

// The recognition's notes: `notes` ({code, tiles, message}) where the server gives them, and
// the review reasons and warnings that no note already says; each message once.
function notesOf(rec) {
  const out = [];
  const seen = new Set();
  const add = (note) => {
    const key = note.message || note.code;
    if (!key || seen.has(key)) return;
    seen.add(key);
    out.push(note);
  };
  for (const n of Array.isArray(rec.notes) ? rec.notes : []) {
    if (n && typeof n === "object") add({ code: n.code || null, tiles: Array.isArray(n.tiles) ? n.tiles : [], message: n.message || "" });
  }
  for (const w of [...(rec.review_reasons || []), ...(rec.warnings || [])]) {
    if (typeof w === "string") add({ code: null, tiles: [], message: w });
    else if (w && typeof w === "object") add({ code: w.code || null, tiles: Array.isArray(w.tiles) ? w.tiles : [], message: w.message || "" });
  }
  return out;
}

// A note in the page's language: its code picks the words; a code the page does not know
// yet, or a note without one, shows the server's own message.
function noteText(note) {
  const key = note.code ? "note_" + note.code : null;
  if (key && (STRINGS[state.lang][key] || STRINGS.en[key])) return t(key, { n: note.tiles.length || 1 });
  return withoutPointer(note.message);
}

// The photo's tiles a note is about, as the page's tiles (detections are numbered from 0).
const notedTiles = (note) => note.tiles.map((i) => state.tiles.find((x) => x.index === i + 1)).filter(Boolean);

function renderNotes() {
  const list = $("warnings");
  list.textContent = "";
  state.noted = new Set();
  if (!state.rec) return;
  for (const note of notesOf(state.rec)) {
    const li = document.createElement("li");
    const text = document.createElement("span");
    text.textContent = noteText(note);
    // Untranslated words are marked as English, so a screen reader reads them as such.
    if (state.lang !== "en" && text.textContent === withoutPointer(note.message)) text.lang = "en";
    li.appendChild(text);
    const tiles = notedTiles(note);
    tiles.forEach((x) => state.noted.add(x.id));
    if (tiles.length) {
      const show = document.createElement("button");
      show.type = "button";
      show.className = "show-tile";
      show.textContent = t("show_tile");
      show.addEventListener("click", () => openPicker({ mode: "edit", id: tiles[0].id }));
      li.appendChild(show);
    }
    list.appendChild(li);
  }
}

// ---- problems ----------------------------------------------------------------------------

// "5 copies of 1m: a set has only 4 (at /concealed)": the pointer is for programs; the page
// marks the tiles it points at instead.
const withoutPointer = (text) => String(text || "").replace(/\s*\(at \/[^)]*\)/g, "").replace(/\s+at \/[\w/~.-]+/g, "").trim();

// A problem+json answer as words: its type translated where the page knows it, its detail
// (the server's English) after it; never the raw body, never null.
function problemText(body, res) {
  const text = (v) => (typeof v === "string" ? withoutPointer(v) : "");
  const slug = typeof body.type === "string" ? body.type.split("/").pop() : "";
  const detail = text(body.detail);
  const kind = slug && STRINGS.en["problem_" + slug] ? t("problem_" + slug) : "";
  if (kind && detail) return state.lang === "en" ? detail : `${kind}: ${detail}`;
  return kind || detail || text(body.title) || t("http_status", { status: res.status || "?" });
}

// ---- units -------------------------------------------------------------------------------

const UNITS = ["points", "fan", "lezi"];

// The unit a score counts in (the Score's `unit`; points where it has none).
function unitOf(score) {
  const unit = score && typeof score.unit === "string" ? score.unit : "points";
  return t("unit_" + (UNITS.includes(unit) ? unit : "points"));
}
