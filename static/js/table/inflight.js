// The action sent and not answered yet (table.inFlight): never sent twice, and after a moment
// without its answer shown as on its way (the card tapped raised and pulsing, the status "sending
// your move…"), so that on a slow or dying link the person sees that the tap was taken rather
// than tapping again and wondering why nothing happens.
import { table } from "./state.js";

// (a link that answers at once never shows it; the tests shorten it)
const SENDING_MS = window.CARDROOM_SENDING_MS ?? 600;

let timer = null;
let redraw = () => {};

/** `draw`: redraws the table when the mark comes or goes. */
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

/** The action sent has its answer (an event, an ack, an error), or a new welcome stands for it. */
export function answered() {
  table.inFlight = null;
  clearTimeout(timer);
  if (!table.sending) return;
  table.sending = null;
  redraw();
}
