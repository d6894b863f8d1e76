// What the table tells the person besides the felt: a toast for a moment (refusals, hints), and
// short sentences for screen readers in the polite live region #announce.
import { t, cardName, seatName, suitName, actionText, declaredText, spoken } from "../common.js";
import { table } from "./state.js";

const $ = (id) => document.getElementById(id);

// How long a toast stays (a test may shorten it before the page loads).
const TOAST_MS = window.CARDROOM_TOAST_MS ?? 4000;

/** Shows `content` (text or nodes, never HTML) for a moment (`ms`); `kind`: "error" or "info". */
export function toast(content, kind = "error", ms = TOAST_MS, heard = true) {
  const box = $("toast");
  // (said otherwise already: not read twice; an empty aria-hidden is no hiding)
  if (heard) box.removeAttribute("aria-hidden"); else box.setAttribute("aria-hidden", "true");
  box.replaceChildren(...[content].flat());
  box.className = "toast " + kind;
  box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { box.hidden = true; }, ms);
}

/** Takes away the toast saying `text`, if it is still shown: what it said is over. */
export function dismissToast(text) {
  const box = $("toast");
  if (box.hidden || box.textContent !== text) return;
  clearTimeout(toast.timer);
  box.hidden = true;
}

/** Takes away a hint ("info", or a chat line's "chat") still shown: the person has moved on
 * (a refusal stays). */
export function dismissHint(kind = "info") {
  const box = $("toast");
  if (box.hidden || !box.classList.contains(kind)) return;
  clearTimeout(toast.timer);
  box.hidden = true;
}

// Several sentences said in one moment (a trick won, then whose turn) are read together.
let waiting = [];
export function announce(text) {
  if (!text) return;
  waiting.push(text);
  if (waiting.length > 1) return;
  setTimeout(() => {
    // (each sentence ended: "Your turn Choose 3 cards" had run on)
    $("announce").textContent = waiting.map((x) => (/[.!?…:]$/.test(x) ? x : x + ".")).join(" ");
    waiting = [];
  }, 0);
}

/** Says an event of the room (docs/protocol.md `event`): who played what, who joined, left a
 * seat to a bot or came back, a new deal or match. `state`: the STATE before the event,
 * `after` the one after it (if followed). */
export function announceEvent(ev, state, after = null) {
  const seats = state.room.seats;
  const nameOf = (s) => (seats[s] && seatName(seats[s])) || t("lobby.seat_n", { n: s + 1 });
  const dealAfter = after && after.match && after.match.deal;
  // (one's own declaration too: what it scored, as the others hear it)
  if (ev.kind === "action" && ev.action && (ev.seat !== state.you.seat || ev.action.type === "declare")) {
    const said = othersAction(ev.action, state.room.game);
    const names = seats.map((s, i) => nameOf(i));
    if (said === "play") announce(t("announce.played", { name: nameOf(ev.seat), card: cardName(ev.action.card) }));
    else if (said) announce(spoken([...actionText(ev.seat, ev.action, names), ...declaredText(ev.seat, ev.action, dealAfter)]) + ".");
  } else if (ev.kind === "seat") {
    const before = seats[ev.seat] || {};
    if (ev.standin) announce(t("announce.standin", { name: ev.name || nameOf(ev.seat) }));
    else if (ev.seat_kind === "bot") announce(t("announce.bot_seat", { n: ev.seat + 1 }));
    else if (before.standin && ev.name !== before.name) announce(t("announce.took_over", { name: ev.name, n: ev.seat + 1 }));
    else if (before.standin) announce(t("announce.back", { name: ev.name || nameOf(ev.seat) }));
    // (not to the one who sat, whose seat's event may come before the answer to their request:
    // Boris had heard "Boris took seat 2" of himself; another seat taken in that moment is not
    // said either, its name shown)
    else if (before.kind === "open" && !table.joining && !(table.seat && table.seat.seat === ev.seat)) announce(t("announce.joined", { name: ev.name, n: ev.seat + 1 }));
  } else if (ev.kind === "deal") {
    announce(t("announce.new_deal"));
    // Marjolet's trumps, by the card turned up, and the dealer's 10 for the dix turned up (on
    // the felt alone, they had not been heard)
    if (dealAfter && dealAfter.turn_up) {
      announce(t("announce.trumps", { suit: suitName(dealAfter.trump), card: cardName(dealAfter.turn_up) }));
      const turned = (dealAfter.dix || []).find((e) => e.how === "turn-up");
      if (turned) announce(t("mj.dix_turned", { name: nameOf(turned.seat), points: turned.points }));
    }
  }
  else if (ev.kind === "match" && ev.number > 1) announce(t("announce.new_match"));
}

// How another seat's move is said: "play" (who played which card), "whole" (as the replay says
// it: bids, contracts, gives, declarations, a lead that calls trumps), or not at all: a draw
// from the stock (the stock's count shows it), a Black Maria pass (whose cards nobody else sees).
function othersAction(action, game) {
  if (action.type === "play") return action.trump ? "whole" : "play";
  if (action.type === "draw" || (action.type === "pass" && game === "black_maria")) return "";
  return "whole";
}
