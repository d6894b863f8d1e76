// The actions box under the felt: whose turn it is (or who took the trick held in the middle),
// the stand-in offers, then the game's own controls (its panel, table/panels/). The end of a
// deal and of the match are told by the result panel (result.js).
import { t, el, listText } from "../common.js";
import { table, relationOf, GRACE_MS } from "./state.js";
import { announce } from "./notices.js";

/** `moves`: what the person may do now (none while a finished trick is held); `names` by seat
 * (state.js); `send` and `act` are the connection's. */
export function drawActions({ panel, moves, names, send, act, redraw }) {
  const box = document.getElementById("actions");
  box.replaceChildren();
  const { state, said } = table;
  const m = state.match;
  const me = state.you.seat;
  // ("Your moves" to the seated: a spectator has none)
  if (me === null) box.removeAttribute("aria-label");
  else box.setAttribute("aria-label", t("table.actions"));
  const line = (...content) => box.append(el("div", { class: "action-line" }, ...content));
  if (m && m.finished) {
    said.status = "";
    // someone left without asking for the rematch: their seat is free, and the rematch waits
    // for a friend or a bot to take it (the server opened it: docs/protocol.md)
    const free = state.room.seats.filter((s) => s.kind === "open").length;
    if (free && me !== null) {
      const status = t("table.rematch_free", { n: free });
      box.append(el("p", { class: "status", "data-testid": "status" }, status));
      if (status !== said.rematch) announce(status);
      said.rematch = status;
      // (bots for the free seats only: one for someone away would be thrown away, their seat
      // opened as the rematch begins)
      drawStandins(state, line, send, redraw, false, true);
    }
    return;
  }
  const mine = me !== null && Object.keys(moves).length > 0;
  const status = table.stale ? t("table.stale") : table.sending ? t("table.sending") : mine ? t("table.your_turn") : waitingText(state, names);
  const look = table.stale ? " stale" : table.sending ? " sending" : mine ? " yours" : "";
  const statusLine = el("p", { class: "status" + look, "data-testid": "status" }, status);
  box.append(statusLine);
  // said again when what the turn asks changes, though the words stay ("your turn" to pass,
  // then to lead), and when a trick closed since (one's card won it, one leads: it had not been
  // said; a give, which closes none, is not followed by it)
  const closed = m && m.deal ? JSON.stringify(m.deal.last_trick || null) : "";
  const asked = [status, Object.keys(moves).sort().join(), closed].join("|");
  if (asked !== said.status) {
    said.status = asked;
    if (mine || !m) announce(status);
  }
  drawStandins(state, line, send, redraw, mine);
  if (!m || !m.deal) return;
  panel.drawControls({ state, deal: m.deal, moves, me, names, line, act });
  foldAim(box, statusLine);
  if (me !== null && panel.news) tellNews(panel.news({ state, deal: m.deal, moves, me, names }), m);
}

// The first deal's word on the game (a panel's `.aim`): on a short phone, folded behind a "?"
// at the right of the status (its three lines had pushed the seats at the top of the felt
// under the table's bar); unfolded, it stays so from one drawing to the next.
let aimOpen = false;

function foldAim(box, statusLine) {
  const aim = box.querySelector(".aim");
  if (!aim) return;
  aim.id = "aim";
  aim.classList.toggle("open", aimOpen);
  const button = el("button", { type: "button", class: "aim-toggle", "aria-controls": "aim", "aria-expanded": String(aimOpen), "data-testid": "aim-toggle" },
    el("span", { "aria-hidden": "true" }, "?"), el("span", { class: "sr-only" }, t("table.aim_toggle")));
  button.addEventListener("click", () => {
    aimOpen = !aimOpen;
    aim.classList.toggle("open", aimOpen);
    button.setAttribute("aria-expanded", String(aimOpen));
  });
  box.insertBefore(button, statusLine);
}

// What the game's panel has to tell the person in this deal (the cards received, what a
// Marjolet window asks after each trick), each said once a trick ({once: text}: once a deal).
function tellNews(sentences, m) {
  const said = table.said;
  const deal = [(table.state.room.match || {}).id, m.deals.length].join(":");
  if (said.newsDeal !== deal) Object.assign(said, { newsDeal: deal, news: new Set() });
  for (const sentence of sentences) {
    const text = sentence.once ?? sentence;
    const key = (sentence.once ? "" : m.deal.tricks_played ?? "") + "|" + text;
    if (said.news.has(key)) continue;
    said.news.add(key);
    announce(text);
  }
}

function waitingText(state, names) {
  const m = state.match;
  const open = state.room.seats.filter((s) => s.kind === "open").length;
  // (all seated: the match is on its way; the link to share said to those seated, not to a
  // visitor still choosing a seat)
  if (!m) return open ? t(state.you.seat === null ? "info.waiting_free" : "info.waiting_open", { n: open }) : t("info.waiting_players");
  // while a finished trick is held in the middle, the seat to act next is its winner: say so
  // rather than "waiting for" the person who reads it
  const held = table.holding && table.holding.trick;
  if (held) return held.winner === state.you.seat ? t("trick.you_won") : t("trick.won_by", { name: names[held.winner] });
  const who = m.to_act.map((s) => names[s]);
  if (!who.length) return t("info.next_deal");
  return t("table.waiting_for", { names: who.join(", ") });
}

// Stand-ins (docs/protocol.md `standin`): a seated person may hand a free seat, or the seat of
// someone who has been away a while (the server's standin_grace), to a bot; the person who comes
// back takes it back (the server does that). While one's own move is asked for, the offer for
// someone away waits (on a phone it had pushed the table out of sight as a trump was called).
let graceTimer = null;

// Whether the bots for the free seats are unfolded (kept from one drawing to the next).
let freeSeatsOpen = false;

function drawStandins(state, line, send, redraw, mine, freeOnly = false) {
  const me = state.you.seat;
  drawStandinsPlaying(state, line);
  const free = [];  // (the free seats' offers, folded: see below)
  let soonest = Infinity;  // (ms until an away seat's offer comes)
  for (const info of state.room.seats) {
    const s = info.seat;
    if (s === me || (info.kind === "human" && info.standin)) continue;
    const name = info.name || t("lobby.seat_n", { n: s + 1 });
    if (me === null) continue;
    const away = info.kind === "human" && !info.connected;
    if (info.kind !== "open" && (!away || freeOnly)) continue;
    // (a phone's blip is not leaving: the offer comes once they have been away a while)
    const wait = away ? GRACE_MS - (performance.now() - (table.awaySince[s] ?? -Infinity)) : 0;
    if (wait > 0) {
      line(el("span", { class: "note away-note", "data-testid": "away-note-" + s }, t("standin.just_gone", { name })));
      soonest = Math.min(soonest, wait);
      continue;
    }
    if (away && mine) continue;
    const ask = (bot) => () => send({ type: "standin", seat: s, bot });
    const who = relationOf(state, s);
    // (the bots said short under one line that names the seat, in one row on a phone;
    // three lines a seat that each named it had pushed the table off its screen: nine before
    // the first deal of Big Mariage with friends still to come)
    const why = away ? t("standin.away", { name, who }) : t("standin.free", { n: s + 1, who });
    const box = el("div", { class: "standin-box", role: "group", "aria-label": why, "data-testid": "standin-box-" + s },
      el("span", { class: "note" }, why),
      // (someone away is played for in earnest: the random bot's gift would be the opponents')
      (away ? ["rules", "strong"] : ["rules", "random", "strong"]).map((bot) => el("button", {
        type: "button", class: "button small", "data-testid": `standin-${s}-${bot}`, onclick: ask(bot) }, t(`standin.${bot}`))));
    if (away) line(box); else free.push(box);
  }
  // A free seat is a friend's to come, most often: its bots folded under one line, so that a
  // stray tap of anyone seated does not give it away (three rows of bots had lain open).
  if (free.length) {
    const fold = el("details", { class: "standin-free", "data-testid": "standin-free" },
      el("summary", { "data-testid": "standin-free-open" }, t("standin.free_fold")), free);
    fold.open = freeSeatsOpen;
    fold.addEventListener("toggle", () => { freeSeatsOpen = fold.open; });
    line(fold);
  }
  clearTimeout(graceTimer);
  if (soonest < Infinity) graceTimer = setTimeout(redraw, soonest + 50);
}

// The seats bots play for until their people come back, in one line (three had taken six lines
// of a phone's screen, and pushed the seats out of it).
function drawStandinsPlaying(state, line) {
  const seats = state.room.seats.filter((info) => info.kind === "human" && info.standin && info.seat !== state.you.seat);
  if (!seats.length) return;
  const names = listText(seats.map((info) => info.name));
  const testid = "standin-note-" + seats.map((info) => info.seat).join("-");
  line(el("span", { class: "note standin-note", "data-testid": testid },
    t(seats.length > 1 ? "standin.playing_many" : "standin.playing", { names })));
}
