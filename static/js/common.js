// Shared helpers: translations, card labels and card elements. No rule is decided here.
export const LANG = window.CARDROOM_LANG || "en";
const STRINGS = window.CARDROOM_STRINGS || {};

export function t(key, vars = {}) {
  let text = STRINGS[key];
  if (text === undefined) text = key;
  for (const [name, value] of Object.entries(vars)) text = text.split("{" + name + "}").join(String(value));
  return text;
}

export const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
export const isRed = (card) => card[1] === "H" || card[1] === "D";
export const rankLabel = (rank) => (rank === "T" ? "10" : rank === "J" ? t("rank.J") : rank === "Q" ? t("rank.Q") : rank === "K" ? t("rank.K") : rank === "A" ? t("rank.A") : rank);
export const cardLabel = (card) => rankLabel(card[0]) + SUIT_SYMBOL[card[1]];
export const suitName = (suit) => t("suit." + suit);
/** The spoken name of a card: "10 of diamonds", "десятка бубён" (for aria-label). */
export const cardName = (card) => t("card.name", { rank: t("rankname." + card[0]), suit: t("suit_of." + card[1]) });

/** A text span "10♦" in the card's colour. */
export function cardText(card) {
  const span = document.createElement("span");
  span.className = "cardtext" + (isRed(card) ? " red" : "");
  span.textContent = cardLabel(card);
  return span;
}

export function cardsText(cards) {
  const frag = document.createElement("span");
  frag.className = "cardlist";
  cards.forEach((c, i) => { if (i) frag.append(" "); frag.append(cardText(c)); });
  return frag;
}

/** A card drawn with CSS. `opts.button`: a focusable <button>; `opts.back`: face down. */
export function cardEl(card, opts = {}) {
  const el = document.createElement(opts.button ? "button" : "div");
  if (opts.button) el.type = "button";
  el.className = "card";
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

/** Engine combination names ("marriage in spades") in the interface language. */
export function combinationName(name) {
  const suits = { spades: "S", hearts: "H", diamonds: "D", clubs: "C" };
  let m;
  if ((m = name.match(/^four (aces|tens|kings|queens)$/))) return t("combo.four_" + m[1]);
  if (name === "king and queen of trumps") return t("combo.kq_trumps");
  if (name === "marjolet and queen of trumps") return t("combo.marjolet_trumps");
  if ((m = name.match(/^marriage in (\w+)$/))) return t("combo.marriage", { suit: t("suit_in." + suits[m[1]]) });
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

// -- the server's refusal reasons in the interface language ---------------------------------------
// The engine and the server explain a refusal in English (engine/*.py IllegalAction(...),
// app/rooms.py RoomError(...)). The known sentences are matched here and told again in the page's
// language with cards and suits as players write them; an unknown one is shown as it came.
const SUIT_CODE = { spades: "S", hearts: "H", diamonds: "D", clubs: "C" };
const suitVar = (m) => ({ suit: suitName(SUIT_CODE[m[1]] || "S") });
const cardVar = (m) => ({ card: /^[2-9TJQKA][SHDC]$/.test(m[1]) ? cardLabel(m[1]) : m[1] });
const numVar = (m) => ({ n: m[1] });
const seatVar = (m) => ({ n: Number(m[1]) + 1 });
const REASONS = [
  [/^you must follow suit \((\w+)\)$/, "reason.follow_suit", suitVar],
  [/^you must play a trump \((\w+)\)$/, "reason.must_play_trump", suitVar],
  [/^you must trump \((\w+)\)$/, "reason.must_trump", suitVar],
  [/^you must head the trick$/, "reason.head_trick"],
  [/^(\w+) is not in your hand$/, "reason.not_in_hand", cardVar],
  [/^a (bid|contract) must be a multiple of (\d+)$/, (m) => "reason.multiple." + m[1], (m) => ({ n: m[2] })],
  [/^a (bid|contract) cannot be higher than (\d+)$/, (m) => "reason.max." + m[1], (m) => ({ n: m[2] })],
  [/^it is time to play a card$/, "reason.time_play"],
  [/^it is time to bid or pass$/, "reason.time_bid"],
  [/^it is time to give one card to each other player$/, "reason.time_give"],
  [/^it is time to fix the contract$/, "reason.time_contract"],
  [/^the lowest bid is (\d+)$/, "reason.lowest_bid", numVar],
  [/^a bid must be higher than the current bid \((\d+)\)$/, "reason.bid_higher", numVar],
  [/^there is no seat (\d+)$/, "reason.no_seat", seatVar],
  [/^you give your cards to the other three players, not to yourself$/, "reason.give_self"],
  [/^you have already given a card to seat (\d+)$/, "reason.given_already", seatVar],
  [/^the contract cannot be lower than the winning bid \((\d+)\)$/, "reason.contract_low", numVar],
  [/^you can only call trumps when leading a king or queen of a marriage you hold$/, "reason.call_trumps"],
  [/^the passing is over$/, "reason.passing_over"],
  [/^you must pass exactly (\d+) cards$/, "reason.pass_exactly", numVar],
  [/^everyone must pass three cards first$/, "reason.pass_first"],
  [/^the deal is over$/, "reason.deal_over"],
  [/^it is not your turn$/, "reason.not_your_turn"],
  [/^the match is over$/, "reason.match_over"],
  [/^no deal in progress$/, "reason.no_deal"],
  [/^you cannot (declare|exchange) once the stock is exhausted$/, (m) => "reason.stock_out." + m[1]],
  [/^you can only (declare|exchange) just after winning a trick, before drawing$/, (m) => "reason.after_trick." + m[1]],
  [/^declare, exchange or draw: you must draw before the next trick$/, "reason.draw_first"],
  [/^four jacks score nothing$/, "reason.four_jacks"],
  [/^in this variant a jack pairs only with the queen of its suit$/, "reason.jack_same_suit"],
  [/^these cards form no combination$/, "reason.no_combination"],
  [/^that combination has already been scored$/, "reason.scored_already"],
  [/^the turn-up is no longer on the table$/, "reason.turnup_gone"],
  [/^you do not hold the 7 of trumps \((\w+)\)$/, "reason.no_dix", cardVar],
  [/^seat (\d+) is taken$/, "reason.seat_taken", seatVar],
  [/^every seat is taken$/, "reason.all_taken"],
  [/^a name is needed$/, "reason.need_name"],
  [/^the match is not over$/, "reason.not_over"],
  [/^seat (\d+) is played by someone who is here \(or a bot\)$/, "reason.seat_busy", seatVar],
  [/^spectators cannot act$/, "reason.spectators_act"],
  [/^spectators cannot chat$/, "reason.spectators_chat"],
  [/^only seated players may /, "reason.only_seated"],
  [/^the match has not started: seats are free$/, "reason.not_started"],
  [/^someone acted first; the table was refreshed, try again$/, "reason.acted_first"],
  [/^the database refused the change; nothing was applied, try again$/, "reason.db_refused"],
  [/^at most (\d+) characters$/, "reason.chat_long", numVar],
  [/^the message is empty$/, "reason.chat_empty"],
  [/^this seat token is not valid for this room/, "reason.bad_token"],
  [/^there is no room /, "reason.no_room"],
];

/** A refusal reason from the server in the page's language (unknown ones unchanged). */
export function reasonText(message) {
  const text = String(message ?? "").trim();
  for (const [pattern, key, vars] of REASONS) {
    const m = text.match(pattern);
    if (!m) continue;
    const k = typeof key === "function" ? key(m) : key;
    const out = t(k, vars ? vars(m) : {});
    return out === k ? text : out;
  }
  return text;
}

/** "Not allowed — you must follow suit (hearts)": the error code's label, then the reason. */
export function errorText(code, message) {
  const label = t("error." + code);
  const detail = message ? reasonText(message) : "";
  if (label === "error." + code) return detail || t("error.generic");
  if (!detail || label.replace(/[.!…]$/, "").toLowerCase() === detail.toLowerCase()) return label;
  return label.replace(/[.!]$/, "") + " — " + detail;
}
