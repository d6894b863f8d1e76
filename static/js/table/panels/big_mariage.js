// Big Mariage's controls: the bidding box, the declarer's kitty and gives, the contract, how to
// lead a card that may call trumps, and the last trump call; kitty cards and a card the declarer
// gave marked in the hand.
import { t, el, cardText, cardsText, SUIT_SYMBOL, suitName, spoken } from "../../common.js";
import { table, relationOf, firstDeal } from "../state.js";
import { announce } from "../notices.js";

export function cardMarks(deal, me) {
  const marks = new Map();
  // (a card may have two: a king of the kitty that makes a marriage)
  const mark = (card, className, sign, label) => {
    const had = marks.get(card);
    marks.set(card, had ? { className: `${had.className} ${className}`, label: `${had.label}, ${label}`, title: `${had.title} · ${sign} ${label}` }
      : { className, label, title: `${sign} ${label}` });
  };
  // the declarer knows the kitty all deal (the rules' convention): its cards stay marked
  if (me === deal.declarer) for (const card of deal.kitty || []) mark(card, "kitty", "★", t("card.kitty_mark"));
  // the card given one (from the declarer), through the first trick: a short phone says it by
  // this mark alone (its line about it left out for room)
  const firstTrick = deal.phase === "play" && deal.tricks_won.every((n) => n === 0);
  if (deal.phase === "kitty" || deal.phase === "contract" || firstTrick) {
    for (const g of deal.gives || []) if (g.card && g.to === me) mark(g.card, "received", "★", t("card.received_mark"));
  }
  // the declarer's marriages while it gives (a king given away had broken one, unmarked) and
  // fixes the contract
  for (const m of deal.marriages_held || []) {
    for (const card of ["K" + m.suit, "Q" + m.suit]) mark(card, "marriage", "♛", t("card.marriage_mark", { points: m.points }));
  }
  return marks;
}

// A value among `values` (the legal bids or contracts, in fives), typed or moved by −5, +5 and
// +20, and the button that sends it; `key`: the value's place in `table.chosen` ("bid",
// "contract"; what is typed is kept beside it, through a redraw), `what`: its name. 340 from 60
// had taken 14 taps. Heard alone, "−5" had said nothing: each button says what it does, the value
// is read as it changes, and an end is marked (not disabled: the focus stays on it). A value typed
// that is not one of `values` is marked, with the range, and not sent.
function valueBox(values, key, testid, what, label, send) {
  const { chosen } = table;
  const typedKey = key + "Typed";
  let i = Math.max(0, values.indexOf(chosen[key]));
  const hint = el("span", { class: "note value-range", id: testid + "-range", hidden: true },
    t("bm.value_range", { low: values[0], high: values[values.length - 1] }));
  const input = el("input", { type: "text", inputmode: "numeric", autocomplete: "off", enterkeyhint: "send", class: "bidvalue",
    id: testid, "data-testid": testid, "aria-label": t("bm.value_label", { what: t("bm." + what + "_name") }), "aria-describedby": hint.id });
  // (not sendable, it says so and stays in the focus order: disabled, Tab had gone past it to
  // "Pass", which Enter then said)
  let valid = true;
  const sendButton = el("button", { type: "button", class: "button primary", "data-testid": testid.replace("-value", "-button"),
    "aria-describedby": testid, onclick: () => { if (valid) send(values[i]); } }, label);
  const step = (by, suffix) => el("button", { type: "button", class: "button", "data-testid": testid + suffix,
    "aria-label": t(by < 0 ? "bm.step_down" : "bm.step_up", { what: t("bm." + what + "_name"), n: Math.abs(by) * 5 }),
    onclick: () => { set(i + by); announce(String(values[i])); } }, (by < 0 ? "−" : "+") + Math.abs(by) * 5);
  const buttons = [step(-1, "-down"), step(1, "-up"), step(4, "-up20")];
  const show = (typed) => {
    const n = /^\s*\d+\s*$/.test(typed) ? values.indexOf(Number(typed)) : -1;
    if (n >= 0) i = n;
    valid = n >= 0;
    chosen[key] = values[i];
    chosen[typedKey] = valid ? null : typed;
    input.setAttribute("aria-invalid", String(!valid));
    hint.hidden = valid;
    sendButton.setAttribute("aria-disabled", String(!valid));
    buttons.forEach((b, k) => b.setAttribute("aria-disabled", String(k ? i === values.length - 1 : i === 0)));
  };
  const set = (j) => {
    i = Math.max(0, Math.min(values.length - 1, j));
    input.value = String(values[i]);
    show(input.value);
  };
  input.addEventListener("input", () => show(input.value));
  input.addEventListener("keydown", (e) => { if (e.key === "Enter" && valid) send(values[i]); });
  input.value = chosen[typedKey] ?? String(values[i]);
  show(input.value);
  return { stepper: el("span", { class: "stepper" }, buttons[0], input, buttons[1], buttons[2]), sendButton, hint };
}

const suitText = (suit) => SUIT_SYMBOL[suit] + " " + suitName(suit);

export function news({ deal, moves, me }) {
  return [
    ...(deal.kitty && me === deal.declarer && deal.phase === "kitty" ? [spoken([t("bm.kitty_cards"), " ", cardsText(deal.kitty)]) + "."] : []),
    ...(moves.give ? [t("bm.give_help")] : []),
    ...(moves.contract ? [t("bm.contract_news", { n: moves.contract[0] })] : []),
  ];  // (a card given is said by its event, to the one who got it)
}

export function drawControls({ state, deal, moves, me, names, line, act }) {
  const { chosen } = table;
  if (deal.bids.length && deal.phase === "bidding") {
    line(el("span", { class: "bids" }, t("bm.bids"), ...deal.bids.flatMap(([s, b]) => [" ", el("span", { class: "bidchip" }, `${names[s]}: ${b === "pass" ? t("bm.pass_said") : b}`)])));
  }
  if (moves.bid || (moves.pass && deal.phase === "bidding")) {
    const box = el("div", { class: "bidbox", "data-testid": "bidbox" });
    let bid = null;
    if (moves.bid && moves.bid.length) {
      // each time the bidding comes round, the stepper starts at the lowest bid allowed
      if (chosen.bidTurn !== deal.bids.length) Object.assign(chosen, { bid: moves.bid[0], bidTyped: null, bidTurn: deal.bids.length });
      bid = valueBox(moves.bid, "bid", "bid-value", "bid", t("bm.bid"), (value) => act({ type: "bid", value }));
      box.append(bid.stepper, bid.sendButton);
    }
    box.append(el("button", { type: "button", class: "button", "data-testid": "pass-button", onclick: () => act({ type: "pass" }) }, t("bm.pass")));
    if (bid) box.append(bid.hint);  // (after "Pass": shown, it moves nothing under the thumb)
    line(box);
    if (firstDeal(state)) line(el("span", { class: "note aim", "data-testid": "aim" }, t("bm.bid_help")));
  }
  if (deal.kitty && me === deal.declarer && deal.phase === "kitty") line(t("bm.kitty_cards"), " ", cardsText(deal.kitty));
  if (moves.give) {
    line(t("bm.give_help"));
    if (chosen.give && !moves.give.cards.includes(chosen.give)) chosen.give = null;
    const card = chosen.give;
    line(...moves.give.to.map((to) => el("button", { type: "button", class: "button give" + (card ? " primary" : ""), disabled: !card, "data-testid": "give-" + to,
      onclick: () => act({ type: "give", card: chosen.give, to }) },
      // (the card chosen beside the same words: a longer label had made three rows of the two)
      el("span", {}, t("bm.give_to", { name: names[to] }), card ? [" ", cardText(card)] : ""),
      el("small", { class: "relation" }, relationOf(state, to)))));
  }
  // the cards given, on one line for the declarer (a small phone's screen has no room for three)
  const given = (deal.gives || []).filter((g) => g.card && (me === deal.declarer || me === g.to));
  // (recalled through the first trick: a "recall", which a short phone leaves out, the hand
  // pushed under its bar by three lines of it)
  const tricksDone = deal.tricks_won.reduce((a, b) => a + b, 0);
  const firstTrick = deal.phase === "play" && tricksDone === 0;  // (as one who got a card is told)
  const recall = firstTrick ? " recall" : "";
  if (given.length && (deal.phase === "kitty" || deal.phase === "contract" || (firstTrick && me === deal.declarer))) {
    if (me === deal.declarer) {
      line(el("span", { class: "note" + recall, "data-testid": "given" }, t("bm.given_all"),
        ...given.map((g, i) => [i ? " · " : " ", el("span", { class: "given" }, cardText(g.card), " → ", names[g.to])])));
    } else line(el("span", { class: "note", "data-testid": "given" }, t("bm.you_got", { name: names[deal.declarer] }), " ", cardText(given[0].card)));
  }
  if (me !== null && firstTrick && me !== deal.declarer) {
    const g = (deal.gives || []).find((x) => x.to === me && x.card);
    if (g) line(el("span", { class: "note" + recall }, t("bm.you_got", { name: names[deal.declarer] }), " ", cardText(g.card)));
  }
  // the declarer's marriages, and when they count, as it fixes the contract (a newcomer with four
  // of them, 280 points, had fixed the contract at the bid, 60); not while it gives, where eleven
  // cards and the kitty's line leave a phone held sideways no room for it (there it is read, not
  // seen: cardroom.css)
  const held = deal.marriages_held || [];
  if (held.length && moves.contract) {
    line(el("span", { class: "note marriages-held", "data-testid": "marriages-held" }, t("bm.held"),
      ...held.flatMap((m, i) => [i ? ", " : " ", cardsText(["K" + m.suit, "Q" + m.suit]), `\u00a0${m.points}`]),
      " — ", t(deal.variant === "trump_only" ? "bm.held_trump_only" : "bm.held_declared")));
  }
  if (moves.contract) {
    if (!moves.contract.includes(chosen.contract)) Object.assign(chosen, { contract: moves.contract[0], contractTyped: null });
    const contract = valueBox(moves.contract, "contract", "contract-value", "contract", t("bm.contract_button"), (value) => act({ type: "contract", value }));
    line(el("div", { class: "bidbox" }, t("bm.fix_contract"), " ", contract.stepper, contract.sendButton, contract.hint));
    if (firstDeal(state)) line(el("span", { class: "note aim", "data-testid": "aim" }, t("bm.contract_help")));
  }
  if (moves.trump && moves.trump.length) {
    const card = chosen.call;
    if (card && moves.trump.includes(card)) {
      // (said short on a short phone, the two on one row: on two, the first in two lines, they
      // had put the partner's seat and the contract under the table's bar)
      line(el("button", { type: "button", class: "button primary", "data-testid": "call-trumps", onclick: () => act({ type: "play", card: chosen.call, trump: true }) },
        el("span", { class: "long" }, t("bm.lead_call", { suit: suitText(card[1]) })), el("span", { class: "short" }, t("bm.lead_call_short")), " ", cardText(card)),
      el("button", { type: "button", class: "button", "data-testid": "lead-plain", onclick: () => act({ type: "play", card: chosen.call }) },
        el("span", { class: "long" }, t("bm.lead_plain")), el("span", { class: "short" }, t("bm.lead_plain_short")), " ", cardText(card)));
    } else {
      line(el("span", { class: "note" }, t("bm.can_call")));
    }
  }
  // who called the trumps, through the trick it was called in (the felt says the trumps after;
  // said to the deal's end, it had stood under the next deal's countdown)
  const call = (deal.trump_calls || []).at(-1);
  if (call && deal.phase === "play" && call.trick === tricksDone) {
    line(el("span", { class: "note", "data-testid": "called" }, t("bm.called", { name: names[call.seat], suit: suitText(call.suit) })));
  }
}
