// Marjolet's controls: the trick winner's window (declare, exchange the seven of trumps, draw),
// the strict rule of the end phase, and the combinations scored; declared cards marked in the hand.
import { t, el, cardText, cardsText, combinationName } from "../../common.js";
import { firstDeal } from "../state.js";

export function cardMarks(deal, me) {
  return new Map(((deal.declared && deal.declared[me]) || []).map((card) => [card, { className: "shown" }]));
}

const windowText = (moves) => {
  const declare = Boolean(moves.declare && moves.declare.length);  // (say only what can be done)
  return t(declare ? (moves.exchange ? "mj.window" : "mj.window_declare") : (moves.exchange ? "mj.window_exchange" : "mj.window_draw"));
};

export const news = ({ deal, moves }) => [
  ...(moves.draw ? [windowText(moves)] : []),
  ...(deal.end_phase && deal.phase !== "over" ? [{ once: t("mj.end_phase") + " " + t("mj.end_phase_more") }] : []),
];

export function drawControls({ state, deal, moves, names, line, act }) {
  if (firstDeal(state) && moves.play && deal.tricks_played < 3) line(el("span", { class: "note aim", "data-testid": "aim" }, t("mj.stock_rule")));
  if (moves.draw) {
    line(el("b", {}, windowText(moves)));
    // the window's buttons in one line, wrapping: room for the hand on a phone; what scores
    // stands out, the draw beside it (a newcomer had drawn past a marriage's 40 unawares)
    const scores = Boolean((moves.declare && moves.declare.length) || moves.exchange);
    const buttons = (moves.declare || []).map((cards) => {
      // what it scores, as the engine's view says it (deal.declarable, the same combinations)
      const offer = (deal.declarable || []).find((d) => d.cards.join() === cards.join());
      // (the combination's name seen beside the points but on a phone, and always heard: a
      // label of the button's own, "king of hearts" where "K♥" is seen, had not held the words
      // seen, which a voice control user says to press it)
      const name = offer ? " · " + combinationName(offer.name) : "";
      return el("button", { type: "button", class: "button primary declare", "data-testid": "declare", onclick: () => act({ type: "declare", cards }) },
        t("mj.declare"), " ", cardsText(cards, "object"),
        ...(offer ? [" ", el("b", {}, "+" + offer.points), el("span", { class: "combo-name", "aria-hidden": "true" }, name), el("span", { class: "sr-only" }, name)] : []));
    });
    if (moves.exchange) {
      buttons.push(el("button", { type: "button", class: "button primary", "data-testid": "exchange", onclick: () => act({ type: "exchange" }) },
        t("mj.exchange"), " ", cardText("7" + deal.trump), " ⇄ ", cardText(deal.turn_up)));
    }
    buttons.push(el("button", { type: "button", class: scores ? "button" : "button primary", "data-testid": "draw", onclick: () => act({ type: "draw" }) },
      deal.tricks_played >= 10 ? t("mj.draw_last") : t("mj.draw")));
    line(...buttons);
  }
  if (deal.end_phase && moves.play && deal.trick.length) line(el("span", { class: "note" }, t("mj.end_phase_rule")));
  const scored = (deal.scored_combinations || []).flatMap((list, s) => list.map((c) => el("span", { class: "note combo" }, t("mj.scored", { name: names[s], n: c.points }), " ", cardsText(c.cards, "object"))));
  if (scored.length && deal.phase !== "over") line(...scored);  // (then the result panel lists them)
}
