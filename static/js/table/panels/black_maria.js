// Black Maria's controls: choosing the cards to pass (kept across a reload), what was passed
// and the cards received (through the first trick); the hand marks the cards passed until the play starts, and the cards
// received until the first trick is won.
import { t, tParts, el, cardText, cardsText, spoken } from "../../common.js";
import { table, keepPassChoice, forgetPassChoice, firstDeal } from "../state.js";

const beforeFirstTrick = (deal) => deal.phase === "play" && (deal.tricks_won || []).every((n) => n === 0);
const received = (deal, me) => (deal.received && deal.received[me] && beforeFirstTrick(deal) ? deal.received[me] : []);
const passed = (deal, me) => (deal.phase === "pass" && deal.pass && deal.pass[me]) || [];

export function cardMarks(deal, me) {
  return new Map([
    ...passed(deal, me).map((card) => [card, { className: "passed", label: t("card.passed_mark") }]),
    ...received(deal, me).map((card) => [card, { className: "received", label: t("card.received_mark") }]),
  ]);
}

// whom the cards go to, and whom they come from, as the engine says (deal.pass_to)
const neighbourNames = (deal, me, names) => ({ right: names[deal.pass_to[me]], left: names[deal.pass_to.indexOf(me)] });

export function news({ deal, moves, me, names }) {
  const { right, left } = neighbourNames(deal, me, names);
  return [
    ...(moves.pass ? [t("bmaria.choose_pass", { n: moves.pass.choose, name: right })] : []),
    ...(received(deal, me).length ? [spoken([t("bmaria.received", { name: left }), " ", cardsText(deal.received[me])]) + "."] : []),
  ];
}

export function drawControls({ state, deal, moves, me, names, line, act }) {
  if (me === null) return;
  const { chosen } = table;
  const { right, left } = neighbourNames(deal, me, names);
  if (moves.pass) {
    keepPassChoice();
    chosen.pass = new Set([...chosen.pass].filter((c) => moves.pass.from.includes(c)));
    // (the cards chosen beside the button: after the words they had made the moves a line
    // taller as the third was chosen, and a phone held sideways scroll; see .pass-chosen)
    line(t("bmaria.choose_pass", { n: moves.pass.choose, name: right }));
    if (firstDeal(state)) line(el("span", { class: "note aim", "data-testid": "aim" }, tParts("bmaria.aim", { queen: cardText("QS"), king: cardText("KS"), ace: cardText("AS") })));
    line(el("button", { type: "button", class: "button primary", "data-testid": "pass-button", disabled: chosen.pass.size !== moves.pass.choose,
      onclick: () => act({ type: "pass", cards: [...chosen.pass] }) }, t("bmaria.pass_button", { n: chosen.pass.size, k: moves.pass.choose })), " ", el("span", { class: "pass-chosen" }, cardsText([...chosen.pass])));
  } else if (chosen.pass.size) {  // (passed: a choice lives while the pass is to be made)
    forgetPassChoice();
    chosen.pass = new Set();
  }
  // what one passed, said through the first trick as what one received is (the bots pass at
  // once: the last to pass, one had gone straight to the play, the cards passed said nowhere);
  // both on one line, said short on a short phone ("→ Bot 3:", "← Bot 2:"), where two lines
  // had put the top of the felt under the table's bar
  const gave = deal.pass && deal.pass[me];
  const said = [];
  if (!moves.pass && gave && (deal.phase === "pass" || beforeFirstTrick(deal))) {
    said.push(el("span", { "data-testid": "passed" }, shortened(t("bmaria.you_passed", { name: right }), `→ ${right}:`), " ", cardsText(gave)));
  }
  if (received(deal, me).length) {
    said.push(el("span", { "data-testid": "received" }, shortened(t("bmaria.received", { name: left }), `← ${left}:`), " ", cardsText(deal.received[me])));
  }
  if (said.length) line(el("span", { class: "exchange" }, ...said.flatMap((s, i) => (i ? [" · ", s] : [s]))));
}

// Words a short phone shows short (`short`, not read: the words are, there too).
const shortened = (words, short) => [el("span", { class: "long" }, words), el("span", { class: "short", "aria-hidden": "true" }, short)];
