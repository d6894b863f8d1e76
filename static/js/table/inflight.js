// The action sent and not answered yet (table.inFlight): never sent twice, and after a moment
// without its answer shown as on its way (the cards it moves raised, their ring pulsing; the
// status "sending your move…"), so that on a slow or dying link the person sees that the tap was
// taken rather than tapping again and wondering why nothing happens.
import { table } from "./state.js";

// (a link that answers at once never shows it; the tests shorten it)
const SENDING_MS = window.CARDROOM_SENDING_MS ?? 600;

let timer = null;
let redraw = () => {};

/** `draw`: redraws the table when the mark comes. */
export function drawOnSending(draw) { redraw = draw; }

/** The action with this id was sent. */
export function sent(id, action) {
  table.inFlight = id;
  clearTimeout(timer);
  timer = setTimeout(() => {
    if (table.inFlight !== id) return;
    table.sending = action;
    redraw();
  }, SENDING_MS);
}

/** The action `id` has its answer (an event, an ack, an error), or a new welcome stands for the
 * one in flight. Returns whether its mark is to be taken off the screen: the caller draws, the
 * new STATE if the answer brought one (drawn from the old one first, the status would say "your
 * turn" for a moment, and a screen reader too). */
export function answered(id) {
  if (id === undefined || id !== table.inFlight) return false;
  table.inFlight = null;
  table.tried = null;
  clearTimeout(timer);
  const shown = table.sending !== null;
  table.sending = null;
  return shown;
}

/** The cards of the action on its way (a card played, given or called with; cards passed). */
export function cardsSending() {
  const action = table.sending;
  if (!action) return new Set();
  return new Set([action.card, ...(action.cards || [])].filter(Boolean));
}
