// Tile faces drawn as SVG: circles and bamboo sticks laid out as on real tiles, and the
// Chinese characters from glyphs.js (font outlines), so a device without any CJK font still
// shows every face. faceSvg(code) returns the markup of one face in a 60 x 80 box.
"use strict";

const INK = { red: "#c0281f", green: "#15803d", blue: "#1d4ed8", black: "#1c1917", purple: "#7e22ce" };

// A character from glyphs.js fitted into the box (x, y, w, h), centred.
function glyphPath(char, x, y, w, h, fill) {
  const side = Math.min(w, h);
  const s = side / 1000;
  const tx = x + (w - side) / 2, ty = y + (h - side) / 2;
  return `<path fill="${fill}" transform="translate(${tx} ${ty}) scale(${s})" d="${GLYPHS[char]}"/>`;
}

// Circles: where each sits for ranks 1-9 ([x, y] in the 60 x 80 box), its radius, its colour.
const DOT_LAYOUT = {
  2: [[30, 22], [30, 58]],
  3: [[15, 16], [30, 40], [45, 64]],
  4: [[18, 22], [42, 22], [18, 58], [42, 58]],
  5: [[17, 17], [43, 17], [30, 40], [17, 63], [43, 63]],
  6: [[18, 15], [42, 15], [18, 45], [42, 45], [18, 66], [42, 66]],
  7: [[13, 11], [30, 20], [47, 29], [18, 50], [42, 50], [18, 68], [42, 68]],
  8: [[18, 11], [42, 11], [18, 30], [42, 30], [18, 50], [42, 50], [18, 69], [42, 69]],
  9: [[13, 15], [30, 15], [47, 15], [13, 40], [30, 40], [47, 40], [13, 65], [30, 65], [47, 65]],
};
const DOT_RADIUS = { 2: 11, 3: 9, 4: 10, 5: 9, 6: 8, 7: 7.5, 8: 7.5, 9: 7.5 };

function dotColour(rank, i) {
  if (rank === 5 && i === 2) return INK.red;
  if (rank === 7 && i < 3) return INK.green;
  if (rank === 9 && i >= 3 && i < 6) return INK.red;
  if (rank === 6 && i >= 2) return INK.red;
  if (rank === 3 && i === 1) return INK.red;
  return i % 2 ? INK.green : INK.blue;
}

function circle(x, y, r, colour) {
  return `<circle cx="${x}" cy="${y}" r="${r - 1}" fill="none" stroke="${colour}" stroke-width="${r / 3.5}"/>`
    + `<circle cx="${x}" cy="${y}" r="${r / 3}" fill="${colour}"/>`;
}

function dots(rank) {
  if (rank === 1) {
    return circle(30, 40, 22, INK.blue) + `<circle cx="30" cy="40" r="12" fill="none" stroke="${INK.red}" stroke-width="3"/>`;
  }
  return DOT_LAYOUT[rank].map(([x, y], i) => circle(x, y, DOT_RADIUS[rank], dotColour(rank, i))).join("");
}

// Bamboo: sticks (centre x, centre y) of one height per rank; a red stick where tiles have one.
const STICK_LAYOUT = {
  2: [[30, 22], [30, 58]],
  3: [[30, 22], [18, 58], [42, 58]],
  4: [[18, 22], [42, 22], [18, 58], [42, 58]],
  5: [[16, 22], [44, 22], [30, 40], [16, 58], [44, 58]],
  6: [[14, 22], [30, 22], [46, 22], [14, 58], [30, 58], [46, 58]],
  7: [[30, 14], [14, 40], [30, 40], [46, 40], [14, 66], [30, 66], [46, 66]],
  8: [[12, 22], [24, 22], [36, 22], [48, 22], [12, 58], [24, 58], [36, 58], [48, 58]],
  9: [[14, 14], [30, 14], [46, 14], [14, 40], [30, 40], [46, 40], [14, 66], [30, 66], [46, 66]],
};
const STICK_HEIGHT = { 2: 30, 3: 30, 4: 30, 5: 28, 6: 30, 7: 22, 8: 30, 9: 22 };

function stickColour(rank, i) {
  if ((rank === 5 && i === 2) || (rank === 7 && i === 0) || (rank === 9 && (i === 1 || i === 4 || i === 7))) return INK.red;
  return INK.green;
}

function stick(x, y, h, colour) {
  const w = 7;
  return `<rect x="${x - w / 2}" y="${y - h / 2}" width="${w}" height="${h}" rx="3" fill="${colour}"/>`
    + `<path d="M${x - w / 2} ${y}h${w}M${x} ${y - h / 2 + 3}v${h - 6}" stroke="#fff" stroke-width="1.2" opacity="0.8"/>`;
}

// The one of bamboo shows a bird: a body, a head with an eye and beak, a fanned tail.
function bird() {
  return `<path d="M22 58 L8 74 M24 60 L18 77 M27 61 L30 78" stroke="${INK.green}" stroke-width="4" stroke-linecap="round"/>`
    + `<ellipse cx="30" cy="44" rx="14" ry="18" fill="${INK.green}"/>`
    + `<path d="M24 40 Q32 30 40 46" stroke="${INK.blue}" stroke-width="3" fill="none"/>`
    + `<circle cx="38" cy="20" r="9" fill="${INK.red}"/><circle cx="40" cy="18" r="2" fill="#fff"/>`
    + `<path d="M46 19 L55 22 L46 24Z" fill="${INK.black}"/>`;
}

function bamboo(rank) {
  if (rank === 1) return bird();
  const h = STICK_HEIGHT[rank];
  return STICK_LAYOUT[rank].map(([x, y], i) => stick(x, y, h, stickColour(rank, i))).join("");
}

function characters(rank) {
  return glyphPath(CN_NUM[rank - 1], 10, 3, 40, 36, INK.black) + glyphPath("萬", 6, 37, 48, 42, INK.red);
}

const HONOR_INK = { E: INK.black, S: INK.black, W: INK.black, N: INK.black, C: INK.red, F: INK.green };

// The white dragon: an empty blue frame.
const WHITE_DRAGON = `<rect x="9" y="10" width="42" height="60" rx="3" fill="none" stroke="${INK.blue}" stroke-width="4"/>`
  + `<rect x="16" y="17" width="28" height="46" fill="none" stroke="${INK.blue}" stroke-width="1.5"/>`;

function flower(code) {
  const n = code[0];
  const colour = Number(n) <= 4 ? INK.purple : INK.green;
  return glyphPath(FLOWERS[code], 8, 14, 44, 52, colour)
    + `<text x="6" y="14" font-size="13" font-weight="700" font-family="sans-serif" fill="${INK.red}">${n}</text>`;
}

function faceMarkup(code) {
  if (code === "back") return "";
  if (isSuited(code)) {
    const rank = Number(code[0]);
    return { m: characters, p: dots, s: bamboo }[code[1]](rank);
  }
  if (code === "P") return WHITE_DRAGON;
  if (HONORS[code]) return glyphPath(HONORS[code], 6, 12, 48, 56, HONOR_INK[code]);
  if (FLOWERS[code]) return flower(code);
  return "";
}

const faceCache = new Map();

function faceSvg(code) {
  if (!faceCache.has(code)) {
    faceCache.set(code, `<svg class="face" viewBox="0 0 60 80" aria-hidden="true" focusable="false">${faceMarkup(code)}</svg>`);
  }
  return faceCache.get(code);
}

// A word of glyphs.js characters (the language button's 中文), drawn, with its text for
// screen readers; one em of height per character.
function glyphWord(word, colour) {
  const chars = [...word];
  const paths = chars.map((c, i) => glyphPath(c, i * 1000, 0, 1000, 1000, colour || "currentColor")).join("");
  return `<svg class="word" viewBox="0 0 ${chars.length * 1000} 1000" role="img" aria-label="${word}">${paths}</svg>`;
}
