// Tile codes, their names, and the MCR calculators' compact notation; the faces are drawn
// as SVG by faces.js. Pure functions: loaded before app.js, which holds the page's state.
"use strict";

// ---- tiles -------------------------------------------------------------------------------

const SUITS = { m: "萬", p: "筒", s: "條" };
const SUIT_EN = { m: "Characters", p: "Dots", s: "Bamboo" };
const CN_NUM = "一二三四五六七八九";
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

function tileName(code) {
  if (code === "back") return state.lang === "zh" ? "牌背" : "face-down";
  if (isSuited(code)) return state.lang === "zh" ? code[0] + SUITS[code[1]] : code[0] + " " + SUIT_EN[code[1]];
  if (HONORS[code]) return state.lang === "zh" ? HONORS[code] : HONOR_EN[code];
  if (FLOWERS[code]) {
    const n = Number(code[0]);
    if (state.lang === "zh") return FLOWERS[code];
    return n <= 4 ? `Flower ${n}` : `Season ${n - 4}`;
  }
  return code;
}

function drawTile(el, code, extraClass) {
  el.className = "tile" + (code === "back" ? " back" : "") + (extraClass ? " " + extraClass : "");
  el.title = tileName(code);
  el.setAttribute("aria-label", tileName(code));
  if (el.tagName !== "BUTTON") el.setAttribute("role", "img"); // a face to look at, named
  el.dataset.code = code;
  el.innerHTML = faceSvg(code) + '<span class="c" aria-hidden="true"></span>';
  el.lastChild.textContent = code === "back" ? "" : code;
  return el;
}

function tileButton(code, extraClass) {
  const b = document.createElement("button");
  b.type = "button";
  return drawTile(b, code, extraClass);
}

// A tile drawn for looking at only (the teaching guide).
const tileFace = (code, extraClass) => drawTile(document.createElement("span"), code, extraClass);

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
