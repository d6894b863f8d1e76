// The table page's one state: what the server said last (STATE, seq), this browser's seat, what
// the person has chosen and not sent yet, and a finished trick held in the middle for a moment.
// Game facts (seats, teams) are read from STATE (docs/protocol.md ROOM and SEAT), never assumed.
import { t, seatName } from "../common.js";

const app = document.getElementById("table-app");
const SEAT_KEY = "cardroom.seat." + app.dataset.code;

export const table = {
  code: app.dataset.code,
  seat: loadSeat(), // {token, seat, name}: this browser's seat, kept in localStorage per room
  seq: null, // the last event seen: hello's `since` after a reconnection
  state: null, // the STATE on the screen
  queue: [], // STATEs waiting while a finished trick is held
  holding: null, // {trick, timer} while a finished trick stays in the middle
  tricks: null, // {deal, won} of the STATE on the screen: a trick closed when `won` grows
  showLast: false, // the last-trick button is pressed
  chosen: { pass: new Set(), give: null, call: null, bid: null, contract: null },
  chat: { lines: new Map(), shown: "" }, // seq -> line, from STATEs and chat events
  turnDeadline: null, // performance.now() when the turn timer runs out, null: no timer runs
  said: { status: "", over: "" }, // the last status and match end told to screen readers
};

function loadSeat() {
  try { return JSON.parse(localStorage.getItem(SEAT_KEY)) || null; } catch { return null; }
}

export function saveSeat(seat) {
  table.seat = seat;
  if (seat) localStorage.setItem(SEAT_KEY, JSON.stringify(seat));
  else localStorage.removeItem(SEAT_KEY);
}

/** The names by seat ("empty seat" for a free one). */
/** Each seat's name as shown: a person's, a bot's in the page's language, or "free seat". */
export function seatNames(state) {
  return state.room.seats.map((s) => seatName(s) || t("seat.empty"));
}

/** The partnerships from each SEAT's `team` ([[0, 2], [1, 3]]), or null: everyone plays alone. */
export function teamsOf(seats) {
  const teams = [];
  for (const s of seats) if (Number.isInteger(s.team)) (teams[s.team] ||= []).push(s.seat);
  return teams.length ? teams : null;
}

function trickCount(state) {
  const m = state && state.match;
  if (!m || !m.deal) return null;
  return { deal: m.deals.length, won: (m.deal.tricks_won || []).reduce((a, b) => a + b, 0) };
}

/** receive(STATE, reset) puts each STATE on the screen as it comes (`show()`), except that a
 * trick just closed stays in the middle for `holdMs` before the STATEs after it are shown
 * (`trickWon(seat)` is told first). `reset` (a welcome) drops what waits and any hold. */
export function stateQueue({ holdMs, show, trickWon }) {
  function pump() {
    while (table.queue.length) {
      const { state, reset } = table.queue.shift();
      const before = table.tricks;
      table.tricks = trickCount(state);
      table.state = state;
      const after = table.tricks;
      const closed = !reset && before && after && before.deal === after.deal && after.won > before.won && state.match.deal.last_trick;
      if (!closed) continue;
      if (closed.winner !== undefined) trickWon(closed.winner);
      if (holdMs > 0) {
        table.holding = { trick: closed };
        show();
        table.holding.timer = setTimeout(() => { table.holding = null; pump(); }, holdMs);
        return;
      }
    }
    show();
  }
  return function receive(state, reset) {
    if (reset) {
      table.queue = [];
      clearTimeout(table.holding && table.holding.timer);
      table.holding = null;
    }
    table.queue.push({ state, reset });
    if (!table.holding) pump();
  };
}
