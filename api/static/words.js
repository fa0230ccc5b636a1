// The page's words in English and Chinese; t(key, args) picks the current language.
"use strict";

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
    review_flowers: "Which flower a flower tile is may be wrong; the score stands.",
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
    review_flowers: "花牌的具体名称可能有误；番数不受影响。",
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
