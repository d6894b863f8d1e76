// The table page's one state: what the server said last (STATE, seq), this browser's seat, what
// the person has chosen in this deal and not sent yet, the action sent and not answered, the
// clocks, and a finished trick held in the middle for a moment.
// Game facts (seats, teams) are read from STATE (docs/protocol.md ROOM and SEAT), never assumed.
import { t, seatName, positions } from "../common.js";
import { keepSeat, keptSeat } from "../identity.js";

const app = document.getElementById("table-app");
const CODE = app.dataset.code;

/** The match's first deal is being played: the game's aim and its bids are said for a newcomer
 * there (panels/*.js), and not again once they have been read. */
export const firstDeal = (state) => Boolean(state.match && state.match.deals.length === 1);

/** How long someone may be away before their seat is offered to a bot (the server's
 * standin_grace): a shorter absence is a phone's blip, not leaving. */
export const GRACE_MS = Number(app.dataset.standinGrace || 0) * 1000;

export const table = {
  code: app.dataset.code,
  seat: keptSeat(CODE), // {token, seat, name}: this browser's seat, kept in localStorage per room
  seq: null, // the last event seen: hello's `since` after a reconnection
  state: null, // the STATE on the screen
  queue: [], // STATEs waiting while a finished trick is held
  holding: null, // {trick, timer} while a finished trick stays in the middle
  tricks: null, // {deal, won} of the STATE on the screen: a trick closed when `won` grows
  showLast: false, // the last-trick button is pressed
  lastPressedAt: null, // over which tricks (table.js: released once a card is played)
  chosen: noChoices(), // what the person chose in this deal and has not sent yet
  dealKey: null, // "match id:deal count" of the deal `chosen` belongs to
  inFlight: null, // the id of the action sent and not answered yet: it is not sent twice
  sending: null, // that action, once it has waited a moment: shown as on its way (inflight.js)
  tried: null, // a card not playable now, sent all the same so that the engine says why (hand.js)
  joining: false, // this page is taking a seat and the server has not answered yet
  chat: { lines: new Map(), shown: "", unread: 0 }, // seq -> line, from STATEs and chat events
  turnDeadline: null, // performance.now() when the turn timer runs out, null: no timer runs
  dealDeadline: null, // performance.now() when the next deal comes anyway, null: no countdown
  awaySince: {}, // seat -> performance.now() when its person was seen going (a presence)
  online: false, // this page's socket has its welcome: its own seat is as connected as it is
  stale: false, // offline longer than a blip: what the table shows may be old (connection.js)
  asked: "", // the kinds of move the table drawn last asked this page for ("play", "draw"...)
  said: { status: "", result: "", wait: "", rematch: "", newsDeal: "", news: new Set() }, // what screen readers were told: the last status and result, the rematch's wait for a free seat, the deal's news
};

function noChoices() {
  return { pass: new Set(), give: null, call: null, bid: null, bidTurn: null, contract: null };
}

export function saveSeat(seat) {
  table.seat = seat;
  keepSeat(CODE, seat);
}

/** Each seat's name as shown: a person's, a bot's in the page's language, or "Seat 2" when it is free
 * (its badge says "free"); a seat freed after the match (its person left before the rematch)
 * keeps, for that match's result, the name it was played under. */
export function seatNames(state) {
  const match = state.room.match && state.room.match.id;
  const kept = playedUnder.match === match ? playedUnder.names : [];
  const names = state.room.seats.map((s) => seatName(s) || kept[s.seat] || t("seat.empty", { n: s.seat + 1 }));
  if (match != null && state.room.seats.every((s) => seatName(s))) Object.assign(playedUnder, { match, names });
  return names;
}
const playedUnder = { match: null, names: [] };

/** The partnerships from each SEAT's `team` ([[0, 2], [1, 3]]), or null: everyone plays alone. */
export function teamsOf(seats) {
  const teams = [];
  for (const s of seats) if (Number.isInteger(s.team)) (teams[s.team] ||= []).push(s.seat);
  return teams.length ? teams : null;
}

/** How `seat` sits for the person at the table: "your partner", "opponent on your left", "on
 * your right"... ("" for a spectator or their own seat). Partners come from SEAT.team, sides
 * from the seats' places around the table (common.js positions). */
export function relationOf(state, seat) {
  const me = state.you.seat, seats = state.room.seats;
  if (me === null || seat === me) return "";
  if (seats.length === 2) return t("rel.opponent");
  const side = positions(seats.length, me)[seat];
  if (!Number.isInteger(seats[me].team)) return t("rel." + side);
  return seats[seat].team === seats[me].team ? t("rel.partner") : t("rel.opponent_" + side);
}

// The cards chosen to pass survive a reload of the page: sessionStorage, per room, match and deal.
const passKey = () => `cardroom.pass.${table.code}.${table.dealKey}`;

/** Call while the person chooses cards to pass: each choice is kept (a new deal's first state
 * brings back what an earlier page of this tab kept, before its hand is drawn). */
export function keepPassChoice() {
  sessionStorage.setItem(passKey(), JSON.stringify([...table.chosen.pass]));
}

function keptPassChoice() {
  try { return new Set(JSON.parse(sessionStorage.getItem(passKey())) || []); } catch { return new Set(); }
}

export function forgetPassChoice() {
  sessionStorage.removeItem(passKey());
}

// A new deal (or match) starts with nothing chosen: no stepper keeps the last deal's value.
function followDeal(state) {
  const m = state.match;
  const key = m && state.room.match ? `${state.room.match.id}:${m.deals.length}` : null;
  if (key !== table.dealKey) {
    table.dealKey = key;
    table.chosen = noChoices();
    // a choice kept from an earlier page of this tab, while it is still to be sent (a pass the
    // turn timer made leaves its choice behind)
    if (m && m.moves && m.moves.pass) table.chosen.pass = keptPassChoice();
  }
  // a card chosen lives while its move is asked (the turn timer's bot gave for her, and the card
  // she had chosen to give stayed raised into the play, as if chosen to be played)
  const moves = (m && m.moves) || {};
  if (!moves.give) table.chosen.give = null;
  if (!moves.trump) table.chosen.call = null;
}

function trickCount(state) {
  const m = state && state.match;
  if (!m || !m.deal) return null;
  return { deal: m.deals.length, won: (m.deal.tricks_won || []).reduce((a, b) => a + b, 0) };
}

// States waiting past which the queue catches up, neither holding tricks nor pacing cards: a
// spectator of bots faster than the holds had fallen 5 to 18 s behind the table, and further
// with every deal.
const CATCH_UP = 4;

/** A card chosen while a trick just won stays in the middle, and the state behind it asks this
 * seat to move: the hold ends at once (true), so that the card goes. Enter on a card had done
 * nothing, and said nothing, for the hold's 1.6 s after every trick its player won. */
export function releaseHold() {
  const m = table.state && table.state.match;
  if (!table.holding || !m || !m.moves || !Object.keys(m.moves).length) return false;
  table.holding.release();
  return true;
}

/** receive(STATE, reset) puts each STATE on the screen as it comes (`show()`), except that a
 * trick just closed stays in the middle for `holdMs` before the STATEs after it are shown
 * (`trickWon(seat)` is told first), `paceMs` apart: the others' cards played meanwhile come one
 * by one, as they were played (they had all come at once, and who led was hard to tell).
 * `reset` (a welcome) drops what waits, any hold and the pace. */
export function stateQueue({ holdMs, paceMs, show, trickWon }) {
  let pacing = null;
  function pump(paced = false) {
    pacing = null;
    while (table.queue.length) {
      if (table.queue.length > CATCH_UP) paced = false;
      const { state, reset } = table.queue.shift();
      const before = table.tricks;
      table.tricks = trickCount(state);
      table.state = state;
      const after = table.tricks;
      followDeal(state);
      const closed = !reset && before && after && before.deal === after.deal && after.won > before.won && state.match.deal.last_trick;
      if (!closed) {
        if (paced && paceMs > 0 && table.queue.length) {
          show();
          pacing = setTimeout(() => pump(true), paceMs);
          return;
        }
        continue;
      }
      if (closed.winner !== undefined) trickWon(closed.winner);
      if (holdMs > 0 && table.queue.length <= CATCH_UP) {
        const holding = table.holding = { trick: closed };
        holding.release = () => { clearTimeout(holding.timer); table.holding = null; pump(true); };
        show();
        holding.timer = setTimeout(holding.release, holdMs);
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
      clearTimeout(pacing);
      pacing = null;
    }
    table.queue.push({ state, reset });
    if (!table.holding && !pacing) pump();
  };
}
