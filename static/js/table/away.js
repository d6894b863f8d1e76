// What a stand-in bot played for the person while they were away (docs/protocol.md `standin`):
// the page keeps the hand it last showed them (localStorage, per table), and a welcome that
// finds their seat still played by the stand-in says which of those cards are gone. Their own
// cards only: nothing the seat may not see.
import { t, cardsText, spoken } from "../common.js";
import { table, seatNames, GRACE_MS } from "./state.js";
import { toast, announce } from "./notices.js";

const KEY = "cardroom.hand." + table.code;

/** With each drawing: the hand shown to its person, while no stand-in plays for them. */
export function keepHand(state) {
  const me = state.you.seat, m = state.match;
  if (me === null || !m || !m.deal || !m.deal.hands || state.room.seats[me].standin) return;
  localStorage.setItem(KEY, JSON.stringify({ match: (state.room.match || {}).id, deal: m.deals.length, hand: m.deal.hands[me] }));
}

/** A welcome's STATE: if a stand-in played for this person, say what it played. */
export function tellPlayedWhileAway(state) {
  const me = state.you.seat, m = state.match;
  if (me === null || !m || !m.deal || !state.room.seats[me].standin) return;
  let kept = null;
  try { kept = JSON.parse(localStorage.getItem(KEY)); } catch { /* nothing kept */ }
  if (!kept || kept.match !== (state.room.match || {}).id) return;
  const now = new Set(m.deal.hands[me] || []);
  const gone = kept.deal === m.deals.length ? kept.hand.filter((card) => !now.has(card)) : null;
  // (no card gone: the bot may have bid or passed for them, which had gone unsaid)
  const said = gone && gone.length ? [t("away.played"), " ", cardsText(gone)] : [t(gone ? "away.sat_in" : "away.deals")];
  toast(said, "info", 12000, false);  // (a list of cards to read, on coming back: longer than a hint)
  announce(spoken(said) + (gone && gone.length ? "." : ""));
}

/** A presence: someone away a while (longer than a blip) and back is shown to the others (only
 * their dot had turned green; a screen reader had heard it only of a seat a bot stood in for,
 * from its seat event). Before the presence is applied. */
export function tellBack(msg) {
  const state = table.state, since = table.awaySince[msg.seat];
  if (!msg.connected || !state || msg.seat === state.you.seat || since === undefined) return;
  const seat = state.room.seats[msg.seat];
  if (performance.now() - since < GRACE_MS || seat.kind !== "human") return;
  const said = t("announce.back", { name: seatNames(state)[msg.seat] });
  toast(said, "info", undefined, false);  // (heard once: announced here, or from the seat's event when a bot stood in)
  if (!seat.standin) announce(said);
}
