// Shared helpers: translations, card labels and card elements. No rule is decided here.
// The page's data comes in <script type="application/json"> blocks (nothing runs inline: the
// Content-Security-Policy forbids it); the language is the page's own.
export const LANG = document.documentElement.lang || "en";
const STRINGS = pageData("cardroom-strings") || {};

/** The JSON of the page's <script type="application/json" id=ID> block; null without one. */
export function pageData(id) {
  const block = document.getElementById(id);
  return block ? JSON.parse(block.textContent) : null;
}

export function t(key, vars = {}) {
  let text = STRINGS[key];
  if (text === undefined) text = key;
  if (text.includes(", plural,")) text = pluralForms(text, vars);
  for (const [name, value] of Object.entries(vars)) text = text.split("{" + name + "}").join(String(value));
  return text;
}

/** t() with the {name} in a span of its own (class "who"), which a narrow screen may cut short:
 * the rest of the sentence stays whole. An array of text and spans, for el(). */
export function tWho(key, vars) {
  const parts = t(key, { ...vars, name: "\u0000" }).split("\u0000");
  if (parts.length !== 2) return [t(key, vars)];  // (no name, or two: said as plain text)
  const [before, after] = parts;
  // what touches the name stays on its line ("(Boris)", "Boris:"): a line could break before a
  // span that can be cut, leaving "(" alone at the end of a line
  const lead = before.match(/\S*$/)[0], tail = after.match(/^\S*/)[0];
  return [before.slice(0, before.length - lead.length),
    el("span", { class: "named" }, lead, el("span", { class: "who" }, String(vars.name)), tail), after.slice(tail.length)];
}

// (letters as a reader sees them, "й" one; a browser without Intl.Segmenter, Firefox before 125,
// cuts by code points rather than lose the page)
const letters = (text) => (Intl.Segmenter
  ? [...new Intl.Segmenter(LANG, { granularity: "grapheme" }).segment(text)].map((s) => s.segment)
  : Array.from(text));
/** The names tWho put in `root` that its narrow screen cuts short, cut by whole letters with
 * "…" once laid out: CSS's own ellipsis left a letter's width blank before what follows
 * ("(Александра… )"). A screen reader reads the name whole. */
export function fitNames(root) {
  for (const who of root.querySelectorAll(".who")) {
    if (who.scrollWidth <= who.clientWidth) continue;
    const full = who.textContent, shownLetters = letters(full);
    const shown = el("span", { "aria-hidden": "true" });
    who.replaceChildren(shown, el("span", { class: "sr-only" }, full));
    const cut = (n) => { shown.textContent = shownLetters.slice(0, n).join("").trimEnd() + "…"; };
    let most = 1, least = shownLetters.length - 1;  // the most letters that fit beside "…"
    while (most < least) {
      const n = Math.ceil((most + least) / 2);
      cut(n);
      if (who.scrollWidth <= who.clientWidth) most = n; else least = n - 1;
    }
    cut(most);
  }
}

/** t() with nodes for some of its {names} (a card written with cardText, read by its name): an
 * array of text and nodes, for el(). */
export function tParts(key, vars) {
  const nodes = Object.entries(vars).filter(([, v]) => v instanceof Node);
  const marks = Object.fromEntries(nodes.map(([name], i) => [name, `\u0000${i}\u0000`]));
  return t(key, { ...vars, ...marks }).split("\u0000").map((part, i) => (i % 2 ? nodes[Number(part)][1] : part));
}

// Plural forms, ICU's way: "{n, plural, one {# free seat} other {# free seats}}" takes the form
// that the page's language uses for n (Intl.PluralRules: Russian has one, few and many — 1 место,
// 2 места, 5 мест — and "other" for fractions; "=0" would match 0 exactly); # is n. A form may
// hold other {names}. app/web/i18n.py reads the same strings for the server's pages.
const PLURAL = /\{(\w+), plural,((?:\s*(?:=\d+|zero|one|two|few|many|other)\s*\{(?:[^{}]|\{\w+\})*\})+)\s*\}/g;
const FORM = /(=\d+|zero|one|two|few|many|other)\s*\{((?:[^{}]|\{\w+\})*)\}/g;
const pluralRules = new Intl.PluralRules(LANG);

function pluralForms(text, vars) {
  return text.replace(PLURAL, (whole, name, body) => {
    const n = Number(vars[name]);
    const forms = Object.fromEntries([...body.matchAll(FORM)].map((f) => [f[1], f[2]]));
    const form = forms["=" + n] ?? forms[pluralRules.select(n)] ?? forms.other ?? whole;
    return form.split("#").join(typeof vars[name] === "number" ? signed(vars[name]) : String(vars[name]));  // ("−1600 очков")
  });
}

export const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
export const isRed = (card) => card[1] === "H" || card[1] === "D";
export const rankLabel = (rank) => (rank === "T" ? "10" : rank === "J" ? t("rank.J") : rank === "Q" ? t("rank.Q") : rank === "K" ? t("rank.K") : rank === "A" ? t("rank.A") : rank);
export const cardLabel = (card) => rankLabel(card[0]) + SUIT_SYMBOL[card[1]];
export const suitName = (suit) => t("suit." + suit);
/** The spoken name of a card: "10 of diamonds", "десятка бубён" (for aria-label); `as`
 * "object" where a verb acts on it, for Russian's accusative ("кладёт десятку бубён": the
 * nominative had been heard after every verb). */
export const cardName = (card, as = "") => t("card.name", { rank: t((as === "object" ? "rankname_acc." : "rankname.") + card[0]), suit: t("suit_of." + card[1]) });

/** A SEAT's name as shown: a bot's in the page's language (the server names it by its seat). */
export const seatName = (seat) => (seat.kind === "bot" ? t("bot.name", { n: seat.seat + 1 }) : seat.name);

/** A text span "10♦" in the card's colour (`as`: see cardName). */
export function cardText(card, as = "") {
  const span = document.createElement("span");
  span.className = "cardtext" + (isRed(card) ? " red" : "");
  span.dataset.card = card;  // (for spoken(): its name rather than "Q♠")
  span.dataset.as = as;
  span.textContent = cardLabel(card);
  // read by its name wherever it is ("Т♥" had been read as a letter and a symbol)
  span.setAttribute("role", "img");
  span.setAttribute("aria-label", cardName(card, as));
  return span;
}

/** What `parts` (text, and nodes made by cardText and cardsText) say when read aloud: the cards
 * by their names ("queen of spades"), for the live region. */
export function spoken(parts) {
  const say = (node) => {
    if (typeof node === "string") return node;
    if (node.nodeType === Node.TEXT_NODE) return node.textContent;
    if (node.dataset && node.dataset.card && node.classList.contains("cardtext")) return cardName(node.dataset.card, node.dataset.as);
    // (a list of cards said with a pause between them: "10 of hearts 8 of hearts" had run on)
    if (node.classList && node.classList.contains("cardlist")) return [...node.querySelectorAll(".cardtext")].map(say).join(", ");
    return [...node.childNodes].map(say).join("");
  };
  return [parts].flat().map(say).join("");
}

export function cardsText(cards, as = "") {
  const frag = document.createElement("span");
  frag.className = "cardlist";
  cards.forEach((c, i) => { if (i) frag.append(" "); frag.append(cardText(c, as)); });
  return frag;
}

/** A card drawn with CSS. `opts.button`: a focusable <button>; `opts.back`: face down. */
export function cardEl(card, opts = {}) {
  const el = document.createElement(opts.button ? "button" : "div");
  if (opts.button) el.type = "button";
  el.className = "card";
  if (!opts.button) el.setAttribute("role", "img"); // a picture named by its aria-label
  if (!card || opts.back) {
    el.classList.add("back");
    el.setAttribute("aria-label", t("card.back"));
    return el;
  }
  el.dataset.card = card;
  if (isRed(card)) el.classList.add("red");
  el.setAttribute("aria-label", cardName(card));
  const r = rankLabel(card[0]), s = SUIT_SYMBOL[card[1]];
  const corner = (cls) => { const c = document.createElement("span"); c.className = "corner " + cls; const a = document.createElement("b"); a.textContent = r; const b = document.createElement("i"); b.textContent = s; c.append(a, b); return c; };
  const pip = document.createElement("span"); pip.className = "pip"; pip.textContent = s;
  el.append(corner("tl"), pip, corner("br"));
  return el;
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(node.dataset, v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) node.append(c);
  return node;
}

/** A team's letter, in the page's alphabet (in Russian "А" and "Б": a Latin "B" beside the cards
 * had read as "В", the jack). */
export const teamLetter = (team) => t("team.letter_" + team);

/** What `seat` did (`action`, record.md's form), as a line of text and small cards: "Anna plays
 * 10♦". `names` by seat; `passTo`, the deal's `pass_to` (Black Maria), names whom cards passed
 * went to. */
export function actionText(seat, action, names, passTo = null) {
  const who = names[seat];
  switch (action.type) {
    // (what the verb acts on: "Клара кладёт семёрку треф"; after the call's colon, as named)
    case "play": return [t(action.trump ? "replay.play_call" : "replay.play", { name: who }), " ", cardText(action.card, action.trump ? "" : "object")];
    case "pass": return action.cards
      ? [passTo ? t("replay.pass_cards_to", { name: who, to: names[passTo[seat]] }) : t("replay.pass_cards", { name: who }), " ", cardsText(action.cards, "object")]
      : [t("replay.pass", { name: who })];
    case "bid": return [t("replay.bid", { name: who, n: action.value })];
    case "contract": return [t("replay.contract", { name: who, n: action.value })];
    case "give": return [t("replay.give", { name: who, to: names[action.to] }), ...(action.card ? [" ", cardText(action.card, "object")] : [])];  // (others see no card)
    case "declare": return [t("replay.declare", { name: who }), " ", cardsText(action.cards, "object")];
    case "exchange": return [t("replay.exchange", { name: who })];
    case "draw": return [t("replay.draw", { name: who })];
    default: return [who + ": " + action.type];
  }
}

/** What a Marjolet declaration scored, said after it (" — king and queen of trumps +40": "K♠ Q♠"
 * alone had not said whether it was the trumps' king and queen, 40, or a marriage, 20), as the
 * deal after it (``dealAfter``) lists it; nothing for another action. */
export function declaredText(seat, action, dealAfter) {
  if (action.type !== "declare" || !dealAfter) return [];
  const key = [...action.cards].sort().join();
  const scored = (dealAfter.scored_combinations || [])[seat] || [];
  const combination = scored.find((c) => [...c.cards].sort().join() === key);
  return combination ? [" — ", combinationName(combination.name), ` +${combination.points}`] : [];
}

/** Engine combination names ("marriage in spades") in the interface language. */
export function combinationName(name) {
  const suits = { spades: "S", hearts: "H", diamonds: "D", clubs: "C" };
  let m;
  if ((m = name.match(/^four (aces|tens|kings|queens)$/))) return t("combo.four_" + m[1]);
  if (name === "king and queen of trumps") return t("combo.kq_trumps");
  if (name === "marjolet and queen of trumps") return t("combo.marjolet_trumps");
  if ((m = name.match(/^marriage in (\w+)$/))) return t("combo.marriage", { suit: t("suit_of." + suits[m[1]]) });
  if ((m = name.match(/^marjolet and queen of (\w+)$/))) return t("combo.marjolet_queen", { suit: t("suit_of." + suits[m[1]]) });
  if ((m = name.match(/^jack and queen of (\w+)$/))) return t("combo.jack_queen", { suit: t("suit_of." + suits[m[1]]) });
  return name;
}

/** Seats around the table as the viewer sees them: own seat at the bottom, play clockwise. */
export function positions(nSeats, me) {
  const base = me === null || me === undefined ? 0 : me;
  const layouts = { 2: ["bottom", "top"], 3: ["bottom", "left", "right"], 4: ["bottom", "left", "top", "right"] };
  const out = {};
  layouts[nSeats].forEach((pos, i) => { out[(base + i) % nSeats] = pos; });
  return out;
}

/** Milliseconds a page waits before its next attempt to reconnect: the ceiling doubles from half a
 * second to eight, and each wait is drawn between half the ceiling and all of it, so that the
 * pages a server dropped together (it restarted, or its process died) do not all come back to
 * the other processes in the same instant, again and again. */
export function reconnectDelay(attempt) {
  const ceiling = Math.min(500 * 2 ** (attempt - 1), 8000);
  return ceiling / 2 + (Math.random() * ceiling) / 2;
}

// -- refusals in the interface language ------------------------------------------------------------
// Every refusal of the server (an error frame, a REST error body) carries a reason id and its
// params (app/protocol.py): the page says it with the text of "reason.<id>" from its language's
// catalogue, cards and suits as players write them and seats counted from 1.
const PARAM = {
  card: (v) => (/^[2-9TJQKA][SHDC]$/.test(v) ? cardLabel(v) : v),
  suit: (v) => (SUIT_SYMBOL[v] ? suitName(v) : v),
  seat: (v) => (typeof v === "number" ? v + 1 : v),
  named_seat: (v) => (typeof v === "number" ? v + 1 : v),
  game: (v) => { const name = t("game." + v); return name === "game." + v ? v : name; },
  option: (v) => { const name = t("optname." + v); return name === "optname." + v ? v : name; },
};

/** What a refusal says, in the page's language (its English message if the reason is unknown). */
export function refusalText(refusal) {
  const key = "reason." + (refusal && refusal.reason);
  if (!refusal || STRINGS[key] === undefined) {
    const said = refusal && (refusal.message || refusal.detail);
    return typeof said === "string" ? said : t("error.generic");
  }
  const params = {};
  for (const [name, value] of Object.entries(refusal.params || {})) params[name] = PARAM[name] ? PARAM[name](value) : value;
  return t(key, params);
}

const LIST = new Intl.ListFormat(LANG === "en" ? "en-GB" : LANG, { type: "conjunction" });  // (no comma before "and")
/** Names as the page's language lists them: "Anna, Boris and Vera", "Анна, Борис и Вера". */
export const listText = (items) => LIST.format(items.map(String));

/** A clause said alone, as a sentence: "A name has at most 32 characters." (refusals' reasons
 * are written to follow a colon or a dash, in lower case and without a full stop). */
export function sentence(text) {
  return fullStop(text.charAt(0).toLocaleUpperCase(LANG) + text.slice(1));
}

/** The text ending as a sentence does: a full stop unless it has its own. */
export const fullStop = (text) => (/[.!?…]$/.test(text) ? text : text + ".");

/** A score as the sheet and the result write it: a minus sign (not a hyphen: "−75", as on the
 *  bid buttons), and with ``plus`` a "+" before a gain. */
export const signed = (n, plus = false) => (n < 0 ? "\u2212" + String(-n) : (plus && n > 0 ? "+" : "") + String(n));

/** "Not allowed — you must follow suit (hearts)": the error code's label, then the reason. */
export function errorText(refusal) {
  const label = t("error." + refusal.code);
  const detail = refusalText(refusal);
  if (label === "error." + refusal.code) return detail;
  if (label.replace(/[.!…]$/, "").toLowerCase() === detail.toLowerCase()) return label;
  return label.replace(/[.!]$/, "") + " — " + detail;
}

/** Whether this is a touch screen with a share sheet. */
export const canShare = () => Boolean(navigator.share) && matchMedia("(hover: none)").matches;

/** A table's invite through the device's share sheet (a messenger, a text) on a touch screen that
 * has one: whether it was shared or the sheet closed; false leaves the clipboard to the caller
 * (a phone's friends had been asked to copy and paste the link). */
export async function shareInvite(link, game) {
  if (!canShare()) return false;
  try {
    await navigator.share({ text: t("invite.text", { game: t("game." + game) }), url: link });
    return true;
  } catch (error) {
    return Boolean(error && error.name === "AbortError");
  }
}
