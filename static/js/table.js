// The live table (/r/CODE): wires the connection, the page's state, the felt, the hand, the
// actions box, the score sheet and the chat, and holds the page's own controls. Everything shown
// comes from the server's STATE (docs/protocol.md); each game's controls are in table/panels/.
import { t, el, errorText, refusalText } from "./common.js";
import { renderSeats, renderInfo, renderTrick, teamLetter } from "./render.js";
import { renderSheet } from "./sheet.js";
import { table, saveSeat, seatNames, teamsOf, stateQueue } from "./table/state.js";
import { connection } from "./table/connection.js";
import { toast, announce, announceEvent } from "./table/notices.js";
import { drawHand, rememberFocus, restoreFocus } from "./table/hand.js";
import { drawActions } from "./table/actions.js";
import { addChatLine, drawChat, listenToChatForm } from "./table/chat.js";
import { PANELS } from "./table/panels/index.js";

const app = document.getElementById("table-app");
const $ = (id) => document.getElementById(id);

const { connect, reconnectNow, send, act } = connection(onMessage);
const receive = stateQueue({
  holdMs: window.CARDROOM_ANIM_MS ?? 1100,
  show: draw,
  trickWon: (seat) => announce(t("announce.trick", { name: seatNames(table.state)[seat] })),
});

function onMessage(msg) {
  switch (msg.type) {
    case "welcome":
      table.seq = msg.seq;
      if (table.seat && msg.state.you.seat === null) { saveSeat(null); toast(t("table.token_lost")); }
      receive(msg.state, true);
      break;
    case "event":
      table.seq = msg.seq;
      if (msg.event && msg.event.kind === "chat") { addChatLine(msg.seq, msg.event); if (table.state && !msg.state) drawChat(); }
      if (msg.event && table.state) announceEvent(msg.event, table.state);
      if (msg.state) receive(msg.state, false);
      break;
    case "presence":
      if (table.state) {
        const seat = table.state.room.seats[msg.seat];
        if (seat) seat.connected = msg.connected;
        if (!table.holding) draw();
      }
      break;
    case "error":
      if (msg.code === "bad_token") saveSeat(null);
      toast(errorText(msg));
      break;
    default:
      break;
  }
}

// -- drawing -------------------------------------------------------------------------------------

function draw() {
  const { state, holding } = table;
  if (!state) return;
  const focus = rememberFocus();
  const m = state.match;
  const panel = PANELS[state.room.game];
  const names = seatNames(state);
  const teams = teamsOf(state.room.seats);
  const moves = holding || !m ? {} : m.moves || {};
  const felt = {
    game: state.room.game, nSeats: state.room.seats.length, teams, me: state.you.seat, names,
    seatInfo: state.room.seats, deal: m ? m.deal : null, toAct: m && !holding ? m.to_act : [],
  };
  const lastTrick = felt.deal && felt.deal.last_trick;
  drawTurnClock();
  renderSeats($("felt"), felt);
  renderInfo($("info"), felt);
  renderTrick($("trick"), felt, holding ? holding.trick : (table.showLast && lastTrick) || null);
  $("toggle-last").disabled = !lastTrick;
  drawJoin(state);
  drawHand({ moves, cardMarks: panel.cardMarks, act, redraw: draw });
  drawActions({ panel, moves, names, teams, send, act });
  drawSheet(m, names, teams);
  drawChat();
  restoreFocus(focus);
}

// The turn timer: the server says how many seconds are left (ROOM.turn_left); count down here.
setInterval(() => { if (table.turnDeadline !== null) drawTurnClock(false); }, 1000);

function drawTurnClock(fresh = true) {
  const room = table.state.room;
  const timer = $("turn-timer");
  if (fresh) table.turnDeadline = room.turn_left == null ? null : performance.now() + room.turn_left * 1000;
  timer.hidden = !room.turn_timer;
  if (!room.turn_timer) { timer.textContent = ""; return; }
  if (table.turnDeadline === null) { timer.textContent = t("table.turn_timer", { n: room.turn_timer }); return; }
  const left = Math.max(0, Math.ceil((table.turnDeadline - performance.now()) / 1000));
  timer.textContent = t("table.turn_left", { name: room.seats[room.turn_seat].name || "", n: left });
}

function drawJoin(state) {
  const panel = $("join-panel");
  const open = state.room.seats.filter((s) => s.kind === "open");
  panel.hidden = state.you.seat !== null || !open.length;
  if (panel.hidden) return;
  $("seat-choices").replaceChildren(...open.map((s) => el("button", { class: "button primary", type: "submit", "data-seat": String(s.seat), "data-testid": "take-seat-" + s.seat },
    t("table.take_seat", { n: s.seat + 1 }) + (Number.isInteger(s.team) ? " · " + t("seat.team", { n: teamLetter(s.team) }) : ""))));
}

function drawSheet(m, names, teams) {
  const box = $("sheet");
  if (!m) { box.replaceChildren(el("p", { class: "muted" }, t("sheet.empty"))); return; }
  renderSheet(box, { game: m.game, deals: m.deals, names, teams, winners: m.winners, finished: m.finished });
  if (m.finished) app.classList.add("show-side");
}

// -- page controls -------------------------------------------------------------------------------

$("seat-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const name = $("seat-name").value.trim();
  const wanted = ev.submitter ? Number(ev.submitter.dataset.seat) : null;
  if (!name) { $("join-error").textContent = t("lobby.need_name"); $("seat-name").focus(); return; }
  localStorage.setItem("cardroom.name", name);
  const r = await fetch(`/api/rooms/${table.code}/join`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name, seat: Number.isInteger(wanted) ? wanted : null }) });
  const body = await r.json().catch(() => ({}));
  if (!r.ok) { $("join-error").textContent = t("join.refused") + ": " + refusalText(body); return; }
  saveSeat({ token: body.token, seat: body.seat, name });
  reconnectNow();
});
$("seat-name").value = localStorage.getItem("cardroom.name") || "";

listenToChatForm(send);

$("toggle-last").addEventListener("click", () => {
  table.showLast = !table.showLast;
  $("toggle-last").setAttribute("aria-pressed", String(table.showLast));
  draw();
});
$("toggle-sheet").addEventListener("click", () => {
  const on = app.classList.toggle("show-side");
  $("toggle-sheet").setAttribute("aria-expanded", String(on));
});
$("copy-invite").addEventListener("click", async () => {
  const link = app.dataset.invite || location.origin + "/r/" + table.code;
  const copied = t("lobby.copied") + (app.dataset.loopback ? " " + t("lobby.invite_local") : "");
  try { await navigator.clipboard.writeText(link); toast(copied, "info"); } catch { toast(link, "info"); }
});
document.addEventListener("keydown", (ev) => {
  if (ev.target.matches("input, textarea")) return;
  if (ev.key === "l" || ev.key === "L") $("toggle-last").click();
  if (ev.key === "s" || ev.key === "S") $("toggle-sheet").click();
});

window.cardroomTable = { get state() { return table.state; }, get seq() { return table.seq; }, reconnectNow, send };
connect();
