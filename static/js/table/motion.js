// Motion (the Web Animations API): a played card travels from its player to the trick, a closed
// trick sweeps to its winner, a new deal's cards come from the dealer. The state is the truth:
// the table is drawn as it is first, and only then does the animation play, from where things
// were to where they now are; nothing waits for it, every card can be clicked at once. No motion
// with prefers-reduced-motion, nor with window.CARDROOM_ANIM_MS = 0 (the tests).
import { table } from "./state.js";

/** How long a finished trick is held in the middle (state.js): long enough to see who took it
 * and with what before the next lead comes (1.1 s had been too short to read). */
export const ANIM_MS = window.CARDROOM_ANIM_MS ?? 1600;
const FLIGHT_MS = 320, SWEEP_MS = 420, DEAL_MS = 300, DEAL_STEP_MS = 35;
const reduced = matchMedia("(prefers-reduced-motion: reduce)");
const moving = () => ANIM_MS > 0 && !reduced.matches && !document.hidden;

let drawn = false; // the page has drawn a table: the first one does not move
let drawnDeal = null; // the deal on the screen (table.dealKey): a new one is dealt visibly

/** Before the table is drawn again: where the cards are now. */
export function beforeDraw() {
  if (!drawn || !moving()) return null;
  const hand = new Map([...document.querySelectorAll("#hand .card[data-card]")].map((c) => [c.dataset.card, c.getBoundingClientRect()]));
  const trick = new Set([...document.querySelectorAll("#trick .card[data-card]")].map((c) => c.dataset.card));
  const held = document.querySelector("#trick.done .card.winner");
  const sweep = held ? { winner: held.dataset.seat, cards: [...document.querySelectorAll("#trick.done .card")].map((c) => [c.cloneNode(true), c.getBoundingClientRect()]) } : null;
  return { hand, trick, sweep };
}

/** After the table was drawn: animate from the places `beforeDraw` saw. */
export function afterDraw(seen) {
  const dealt = drawnDeal !== table.dealKey;
  drawnDeal = table.dealKey;
  drawn = true;
  if (!seen) return;
  if (seen.sweep && !document.querySelector("#trick.done")) sweep(seen.sweep);
  for (const card of document.querySelectorAll("#trick .card[data-card]")) {
    if (seen.trick.has(card.dataset.card)) continue;
    const from = seen.hand.get(card.dataset.card) || seatBox(card.dataset.seat);
    if (from) fly(card, from, FLIGHT_MS);
  }
  if (dealt) deal();
}

const seatBox = (seat) => {
  const seatEl = document.querySelector(`#felt .seat[data-seat="${seat}"]`);
  return seatEl && (seatEl.querySelector(".seat-cards") || seatEl).getBoundingClientRect();
};
const centre = (r) => [r.left + r.width / 2, r.top + r.height / 2];

// `card` is in its place; it starts from `from` (a box on the screen) and arrives there.
function fly(card, from, duration, delay = 0) {
  const to = card.getBoundingClientRect();
  const [fx, fy] = centre(from), [tx, ty] = centre(to);
  const scale = Math.min(1, Math.max(0.4, from.width / Math.max(1, to.width)));
  card.animate([{ transform: `translate(${fx - tx}px, ${fy - ty}px) scale(${scale})`, opacity: 0.4 }, { transform: "none", opacity: 1 }],
    { duration, delay, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" });
}

// The cards of the trick just closed (copies: the table has moved on) go to the winner's seat.
function sweep({ winner, cards }) {
  const target = seatBox(winner);
  if (!target) return;
  const [tx, ty] = centre(target);
  for (const [copy, rect] of cards) {
    Object.assign(copy.style, { position: "fixed", left: rect.left + "px", top: rect.top + "px", margin: 0, pointerEvents: "none", zIndex: 1 });
    copy.classList.remove("winner");
    copy.setAttribute("aria-hidden", "true");
    document.body.append(copy);
    const [x, y] = centre(rect);
    copy.animate([{ transform: "none", opacity: 1 }, { transform: `translate(${tx - x}px, ${ty - y}px) scale(.35)`, opacity: 0 }],
      { duration: SWEEP_MS, easing: "ease-in" }).finished.finally(() => copy.remove());
  }
}

// Every hand's cards come from the dealer's place, one round after another.
function deal() {
  const m = table.state.match;
  const from = m && m.deal && seatBox(m.deal.dealer);
  if (!from) return;
  const hands = [document.querySelectorAll("#hand .card"), ...[...document.querySelectorAll("#felt .seat-cards")].map((s) => s.querySelectorAll(".card"))];
  for (const cards of hands) cards.forEach((card, i) => fly(card, from, DEAL_MS, i * DEAL_STEP_MS));
}
