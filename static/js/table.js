// The live table (/r/CODE): wires the connection, the page's state, the felt, the hand, the
// actions box, the result panel, the score sheet and the chat, and holds the page's own
// controls. Everything shown comes from the server's STATE (docs/protocol.md); each game's
// controls are in table/panels/.
import { t, tWho, fitNames, listText, tParts, el, cardText, cardsText, cardName, errorText, refusalText, actionText, spoken, teamLetter, shareInvite } from "./common.js";
import { renderSeats, renderInfo, renderTrick, marriageName } from "./render.js";
import { renderSheet } from "./sheet.js";
import { table, saveSeat, seatNames, teamsOf, stateQueue } from "./table/state.js";
import { follower } from "./table/sync.js";
import { connection } from "./table/connection.js";
import { drawOnSending, answered } from "./table/inflight.js";
import { toast, dismissHint, announce, announceEvent } from "./table/notices.js";
import { drawHand, rememberFocus, restoreFocus, focusNext, focusTurn, handInSight, keepHandInSight } from "./table/hand.js";
import { drawActions } from "./table/actions.js";
import { drawResult, drawDealCountdown, resultDue, resultNew } from "./table/result.js";
import { addChatLine, chatSeen, drawChat, listenToChatForm, chatAfterWelcome, chatRefused } from "./table/chat.js";
import { noticeTurn, listenToSettings, keysOn } from "./table/attention.js";
import { beforeDraw, afterDraw, ANIM_MS } from "./table/motion.js";
import { keepHand, tellPlayedWhileAway, tellBack } from "./table/away.js";
import { PANELS } from "./table/panels/index.js";
import { ensureIdentity, keepName, nameField, playerHeaders } from "./identity.js";

const app = document.getElementById("table-app");
const $ = (id) => document.getElementById(id);

const server = connection(onMessage, () => draw());
const { connect, reconnectNow, send } = server;
// A move sent takes away a hint shown before it ("exactly three cards" had outlived the pass,
// over one's own seat on a phone).
const act = (action) => { const sentNow = server.act(action); if (sentNow) dismissHint(); return sentNow; };
const follow = follower(() => send({ type: "sync" }));
drawOnSending(() => draw());
const receive = stateQueue({
  holdMs: ANIM_MS,
  paceMs: ANIM_MS && 450,
  show: draw,
  trickWon: (seat) => announce(seat === table.state.you.seat ? t("trick.you_won") + "." : t("announce.trick", { name: seatNames(table.state)[seat] })),
});

let followed = null;  // the last STATE the events made (the screen's may be held behind it)

function onMessage(msg, hello) {
  switch (msg.type) {
    case "welcome":
      table.seq = msg.seq;
      // A new connection's state is the truth now: an action unanswered may be sent again (on
      // the same socket, after a sync, its answer is still to come)
      if (hello) { answered(table.inFlight); chatAfterWelcome(msg.state); tellPlayedWhileAway(msg.state); }
      if (hello) {  // (a token refused just before it: bad_token)
        const lost = lostSeat || table.seat;
        if (lost && msg.state.you.seat === null) { toast(seatLost(msg.state, lost), "info", 8000); saveSeat(null); }
        else if (table.seat && msg.state.you.seat !== null) saveSeat(table.seat);  // (come back to)
        lostSeat = null;
      } else if (table.seat && msg.state.you.seat === null) saveSeat(null);  // (left the table: watching now)
      followed = follow(msg);
      receive(followed, true);
      break;
    case "event": {
      table.seq = msg.seq;
      const before = followed;
      const state = follow(msg);
      if (state) followed = state;
      const unmark = answered(msg.ack);
      // (someone else in the seat: whoever was away there is not "back" when they connect)
      if (msg.event && msg.event.kind === "seat" && before && before.room.seats[msg.event.seat].name !== msg.event.name) delete table.awaySince[msg.event.seat];
      if (msg.event && msg.event.kind === "chat") { addChatLine(msg.seq, msg.event, msg.ack); if (table.state && !state) drawChat(); }
      if (msg.event && table.state) {
        announceEvent(msg.event, table.state, state);
        tellTimerPlayed(msg.event);
        if (state && before) { tellDrawn(msg.event, before, state); tellMarriages(msg.event, before, state); }
      }
      if (state) receive(state, false);
      else if (unmark) draw();
      break;
    }
    case "ack": // a retry of an action already applied
      if (answered(msg.id)) draw();
      break;
    case "presence":
      follow(msg);
      tellBack(msg);
      if (msg.connected) delete table.awaySince[msg.seat];
      else table.awaySince[msg.seat] = performance.now();
      if (table.state) {
        const seat = table.state.room.seats[msg.seat];
        if (seat) seat.connected = msg.connected;
        if (!table.holding) draw();
      }
      break;
    case "error": {
      // (the refusal of the card tried, not of another action: answered() forgets the card)
      const tried = msg.id !== undefined && msg.id === table.inFlight ? table.tried : null;
      if (answered(msg.id)) draw();
      chatRefused(msg.id);
      if (msg.code === "bad_token") { lostSeat = table.seat; saveSeat(null); break; }  // (its welcome says why: seatLost)
      if (tried && msg.code === "illegal") toast(tParts("table.not_playable", { card: cardText(tried, "object"), reason: refusalText(msg) }), "info");
      else toast(errorText(msg));
      break;
    }
    default:
      break;
  }
}

/** What a welcome that no longer seats this page (`lost`: the seat it had) says: someone else
 * took the seat (a stand-in's, while they were away), or its token was not recognised. */
let lostSeat = null;  // the seat whose token the server has just refused (bad_token)
function seatLost(state, lost) {
  const now = state.room.seats[lost.seat];
  const other = now && now.kind === "human" && now.name !== lost.name;
  return other ? t("table.seat_taken_over", { name: now.name }) : t("table.token_lost");
}

// Marjolet: the card a draw brings into one's hand is said (the hand grows by it, unmarked).
function tellDrawn(ev, before, after) {
  const me = before.you.seat, hands = (s) => (s.match && s.match.deal && s.match.deal.hands && s.match.deal.hands[me]) || [];
  if (ev.kind !== "action" || ev.action.type !== "draw" || me === null) return;
  const had = new Set(hands(before)), drawn = hands(after).filter((card) => !had.has(card));
  if (drawn.length) announce(spoken([t("announce.you_drew"), " ", cardsText(drawn, "object")]) + ".");
}

// Big Mariage: the marriages declared once the contract is fixed (or none), and a marriage that
// scores as it calls trumps, are said: a screen reader had heard none of them, shown on the
// seats alone.
function tellMarriages(ev, before, after) {
  const deal = after.match && after.match.deal, had = before.match && before.match.deal;
  if (ev.kind !== "action" || !deal || !had || !deal.marriages || !had.marriages) return;
  // (events come in a batch, a new deal's among them: its marriages are not the last one's)
  const matchOf = (s) => s.room.match && s.room.match.id;
  if (deal.dealer !== had.dealer || matchOf(after) !== matchOf(before)) return;
  const names = seatNames(after);
  const declared = deal.marriages.slice(had.marriages.length);
  if (declared.length) {
    const list = declared.map((m) => `${names[m.seat]} — ${marriageName(m)}`).join("; ");
    // (one to four: a deal has four suits)
    announce(t(declared.length === 1 ? "announce.marriage" : "announce.marriages", { list }));
  } else if (ev.action.type === "contract" && deal.variant === "declared") announce(t("announce.no_marriages"));
}

// The turn timer ran out and the rules bot moved for someone (docs/protocol.md `timer`): told
// to them, and to the others (a partner had seen "Vera: pass" with no sign that a bot said it).
function tellTimerPlayed(ev) {
  if (ev.kind !== "action" || !ev.timer) return;
  const deal = (table.state.match && table.state.match.deal) || {};
  const names = seatNames(table.state);
  const mine = ev.seat === table.state.you.seat;
  // (the bot named as the one who moves, not the person: "Vera passes" told to Vera herself)
  if (mine) names[ev.seat] = t("table.timer_bot");
  const whose = mine ? t("table.timer_played") : t("table.timer_played_other", { name: names[ev.seat] });
  const said = [whose, " ", ...actionText(ev.seat, ev.action, names, deal.pass_to)];
  toast(said, "info", undefined, false);  // (heard from the announcement, its cards by name)
  // (the others hear the move itself as any other: announceEvent)
  announce(mine ? spoken(said) : whose);
}

// -- drawing -------------------------------------------------------------------------------------

function draw() {
  const { state, holding } = table;
  if (!state) return;
  keepHand(state);
  const focus = rememberFocus();
  const handAt = handInSight();
  const seen = beforeDraw();
  const m = state.match;
  const panel = PANELS[state.room.game];
  const names = seatNames(state);
  const teams = teamsOf(state.room.seats);
  const moves = holding || !m ? {} : m.moves || {};
  const felt = {
    game: state.room.game, nSeats: state.room.seats.length, teams, me: state.you.seat, names,
    seatInfo: seatsAsSeen(state), deal: m ? m.deal : null, toAct: m && !holding ? m.to_act : [],
    totals: m ? m.totals : null, target: (state.room.options || {}).target,
  };
  const lastTrick = felt.deal && felt.deal.last_trick;
  const resultAppears = resultDue() && resultNew();
  // released when the result appears (pressed, it would hide it), when there is no last
  // trick to show (a new deal) and when a card is played (it had hidden the trick in play,
  // one's own turn come, for as long as one did not think to press it again)
  if (resultAppears || !lastTrick || tricksSeen(felt.deal) !== table.lastPressedAt) pressLast(false);
  drawClocks(true);
  // for CSS: no room for a trick while there is none; two players leave the sides empty
  Object.assign($("felt").dataset, { phase: felt.deal ? felt.deal.phase : "", seats: String(felt.nSeats) });
  renderSeats($("felt"), felt);
  renderInfo($("info"), felt);
  renderTrick($("trick"), felt, holding ? holding.trick : (table.showLast && lastTrick) || null);
  $("toggle-last").disabled = !lastTrick;
  drawJoin(state, names);
  drawHand({ moves, cardMarks: panel.cardMarks, act, redraw: draw });
  drawActions({ panel, moves, names, send, act, redraw: draw });
  drawResult({ names, teams, send });
  // (offline a while: the moves, the hand and the result's buttons greyed and out of reach until
  // the table is back; the status saying so stays readable, and a panel over the table keeps its
  // own inert)
  $("table-app").classList.toggle("stale", table.stale);
  for (const part of document.querySelectorAll("#actions > :not(.status), #hand > *, #result .result-next")) part.inert = table.stale;
  drawSheet(m, names, teams);
  drawChat();
  const mine = state.you.seat !== null && Object.keys(moves).length > 0;
  noticeTurn(mine, `${t("game." + state.room.game)} · ${table.code}`);
  $("back-to-play").hidden = !mine;  // (shown over the sheet or the chat on a phone: the CSS)
  restoreFocus(focus);
  // (a turn begins when the page is asked for another kind of move: Marjolet's draw after the
  // card that won the trick too)
  const asked = Object.keys(moves).sort().join(" ");
  const turnBegins = asked !== "" && asked !== table.asked;
  keepHandInSight(handAt, turnBegins);
  if (turnBegins && !table.stale) focusTurn();
  table.asked = asked;
  if (resultAppears) $("result").scrollIntoView({ block: "nearest" });  // its top, on a short screen
  afterDraw(seen);
}

/** The room's SEATs, one's own as connected as this page is: off line, the server's last word
 * had kept its dot green. */
function seatsAsSeen(state) {
  const me = state.you.seat;
  if (me === null || table.online) return state.room.seats;
  return state.room.seats.map((seat) => (seat.seat === me ? { ...seat, connected: false } : seat));
}

// The clocks: the server says how many seconds are left (ROOM.turn_left, ROOM.deal_left) when it
// sends a state; the page counts down from there. A drawing of the same state (someone came or
// went, the last trick shown) keeps the count: it had gone back up to the state's seconds.
setInterval(() => { if (table.state) drawClocks(false); }, 1000);
let clocksFrom = null;  // the STATE (its seq) the clocks count from

function drawClocks(fresh) {
  const room = table.state.room;
  const deadline = (left) => (left == null ? null : performance.now() + left * 1000);
  if (fresh && table.state.seq !== clocksFrom) {
    clocksFrom = table.state.seq;
    table.turnDeadline = deadline(room.turn_left);
    table.dealDeadline = deadline(room.deal_left);
  }
  if (!fresh) drawDealCountdown(); // a fresh state draws the result panel, and its countdown
  const timer = $("turn-timer");
  timer.hidden = !room.turn_timer;
  timer.classList.remove("low", "mine");  // (no turn running: the last one's red had stayed)
  if (!room.turn_timer) { timer.textContent = ""; return; }
  if (table.turnDeadline === null) { timer.textContent = t("table.turn_timer", { n: room.turn_timer }); return; }
  const left = Math.max(0, Math.ceil((table.turnDeadline - performance.now()) / 1000));
  // the name in a span of its own, which a phone cuts short: the seconds left stay in sight
  timer.replaceChildren(...tWho("table.turn_left", { name: seatNames(table.state)[room.turn_seat] || "", n: left }));
  fitNames(timer);
  const mine = room.turn_seat === table.state.you.seat;
  timer.classList.toggle("low", left <= LOW_SECONDS);
  timer.classList.toggle("mine", mine);
  // (said once a turn, to the one whose it is)
  if (mine && left <= LOW_SECONDS && left > 0 && table.warnedAt !== clocksFrom) {
    table.warnedAt = clocksFrom;
    announce(t("table.time_low", { n: left }));
  }
}

const LOW_SECONDS = 10;  // the turn timer's last seconds, said and shown red

// The seats to take: with partnerships, each says whose partner it makes you.
function drawJoin(state, names) {
  const panel = $("join-panel");
  const seats = state.room.seats;
  // (and, while no deal is in play, a seat a bot plays for someone away: the table played on
  // without them, and someone watching, a grandmother say, may play it; the match stays theirs)
  const deal = state.match && state.match.deal;
  const later = deal && deal.phase !== "over";
  const standins = seats.filter((s) => s.kind === "human" && s.standin);
  const open = seats.filter((s) => s.kind === "open").concat(later ? [] : standins);
  panel.hidden = state.you.seat !== null || !(open.length || standins.length);
  if (panel.hidden) return;
  const about = (s) => {
    if (!Number.isInteger(s.team)) return "";
    const partner = seats.find((p) => p.team === s.team && p.seat !== s.seat && p.kind !== "open");
    return " · " + t("seat.team", { n: teamLetter(s.team) }) + (partner ? " · " + t("rel.partner_of", { name: names[partner.seat] }) : "");
  };
  $("seat-choices").replaceChildren(...open.map((s) => el("button", { class: "button primary", type: "submit", "data-seat": String(s.seat), "data-testid": "take-seat-" + s.seat },
    (s.kind === "open" ? t("table.take_seat", { n: s.seat + 1 }) : t("table.take_standin_seat", { n: s.seat + 1, name: names[s.seat] })) + about(s))),
    ...(later && standins.length ? [takeLater(standins, names)] : []));
}

// The seats bots play for people away, to be taken once the deal ends: one line (one each had
// pushed a spectator's table a screen down).
function takeLater(standins, names) {
  const testid = "take-later-" + standins.map((s) => s.seat).join("-");
  const [one] = standins;
  return el("p", { class: "note", "data-testid": testid }, standins.length === 1
    ? t("table.take_standin_later", { n: one.seat + 1, name: names[one.seat] })
    : t("table.take_standin_later_many", { seats: listText(standins.map((s) => String(s.seat + 1))) }));
}

let sheetDeals = "";  // (the match and the count of deals the sheet was drawn with)

/** The sheet scrolled to its end, its newest deal above the totals: the sheet scrolls beside the
 * table; on a phone, the panel it lies in over the table (hidden, nothing: see showPanel). */
function sheetToItsEnd() {
  for (const box of [$("sheet"), $("sheet").closest(".side")]) box.scrollTop = box.scrollHeight;
}
function drawSheet(m, names, teams) {
  const box = $("sheet");
  if (!m) { box.replaceChildren(el("p", { class: "muted" }, t("sheet.empty"))); return; }
  // (the match's target said at its totals: nothing at the table had said it)
  renderSheet(box, { game: m.game, deals: m.deals, names, teams, winners: m.winners, finished: m.finished, target: table.state.room.options.target });
  // a deal come in is brought into sight: the sheet scrolls, and the newest had been under its
  // totals when a match's deals outgrew it
  // (deals finished: a deal's row is drawn once it is over, in the same count of deals)
  const deals = `${(table.state.room.match || {}).id}:${m.deals.filter((d) => d.over).length}`;
  if (deals !== sheetDeals) sheetToItsEnd();
  sheetDeals = deals;
}

// -- page controls -------------------------------------------------------------------------------

$("seat-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const name = $("seat-name").value.trim();
  const wanted = ev.submitter ? Number(ev.submitter.dataset.seat) : null;
  if (!name) { $("join-error").textContent = t("lobby.need_name"); $("seat-name").focus(); return; }
  const guest = $("seat-guest").checked;
  let mine;
  try {
    mine = await ensureIdentity(name, guest);  // the first time: this browser's name
  } catch (error) {
    $("join-error").textContent = t("join.refused") + ": " + error.message;
    return;
  }
  keepName(mine, guest);
  table.joining = true;
  try {
    const r = await fetch(`/api/rooms/${table.code}/join`, { method: "POST", headers: { "Content-Type": "application/json", ...playerHeaders(guest) }, body: JSON.stringify({ name: mine, seat: Number.isInteger(wanted) ? wanted : null }) });
    const body = await r.json().catch(() => ({}));
    if (!r.ok) { $("join-error").textContent = t("join.refused") + ": " + refusalText(body); return; }
    saveSeat({ token: body.token, seat: body.seat, name: mine });
  } finally {
    table.joining = false;
  }
  reconnectNow();
});
nameField($("seat-name"), $("seat-guest"));

listenToChatForm(send);
listenToSettings();

function pressLast(on) {
  table.showLast = on;
  table.lastPressedAt = on ? tricksSeen(table.state.match.deal) : null;
  $("toggle-last").setAttribute("aria-pressed", String(on));
}

/** The cards of the deal's trick in play and its last trick: what "Last trick" was pressed over. */
function tricksSeen(deal) {
  return deal ? JSON.stringify([deal.trick, deal.last_trick]) : null;
}

$("toggle-last").addEventListener("click", () => {
  pressLast(!table.showLast);
  // (on a phone, the sheet or the chat over the table gives way: the trick is on the felt)
  if (table.showLast && app.dataset.panel) showPanel(app.dataset.panel);
  draw();
  if (table.showLast) tellLastTrick();
});

// The last trick shown is said: who played which card, who took it (shown on the felt only, it
// had said nothing to a screen reader, the L key's focus staying in the hand).
function tellLastTrick() {
  const last = table.state.match.deal.last_trick, names = seatNames(table.state);
  const played = last.cards.map(([seat, card]) => `${names[seat]} — ${cardName(card)}`).join(", ");
  announce(t("announce.last_trick", { cards: played, name: names[last.winner] }));
}

// The score sheet and the chat: beside the table on a wide screen; on a phone, one of them at a
// time over the table, opened and closed by its tab in the bottom bar.
function showPanel(name, byKeyboard = false) {
  const was = app.dataset.panel;
  const open = was === name ? "" : name;
  app.dataset.panel = open;
  $("toggle-sheet").setAttribute("aria-expanded", String(open === "sheet"));
  $("toggle-chat").setAttribute("aria-expanded", String(open === "chat"));
  // (the chat open, a line shown over the table is in it: over the bar's "back to the table"
  // for 4 s, it had hidden its words)
  if (open === "chat") { chatSeen(); dismissHint("chat"); }
  if (open === "sheet") sheetToItsEnd();
  coverTable(was, byKeyboard);
}

// (cardroom.css's query for the panels over the table)
const PANELS_OVER = matchMedia("(max-width: 900px), (max-height: 500px) and (orientation: landscape)");
// What a panel lies over is out of the keyboard's and the screen reader's reach while it is open:
// Tab had gone on into the hidden hand, and Enter chosen a card nobody saw.
const COVERED = ".topbar, .tablebar > :not(.tools), #join-panel, .table-layout > :not(.side)";
let uncovered = null;  // what had the focus when a panel came over it: it has it back after
function coverTable(closed = "", byKeyboard = false) {
  const covered = Boolean(app.dataset.panel) && PANELS_OVER.matches;
  const active = document.activeElement;
  for (const part of document.querySelectorAll(COVERED)) part.inert = covered;
  // (opened by its tab from a keyboard, the focus goes into it too: a line typed had gone
  // nowhere; not by a tap, which would bring up a phone's keyboard over the chat to read)
  if (covered && (active.closest(COVERED) || (byKeyboard && active.id === "toggle-" + app.dataset.panel))) {
    uncovered = active;
    $(app.dataset.panel === "chat" && !$("chat-form").hidden ? "chat-input" : "sheet").focus();
  } else if (!covered && PANELS_OVER.matches && (active === document.body || active.closest(".side"))) {
    // (the panel closed under the focus: it had fallen to the page's body)
    if (uncovered && uncovered.isConnected) uncovered.focus();
    else if (closed) $("toggle-" + closed).focus();
  }
  if (!covered) uncovered = null;
}
PANELS_OVER.addEventListener("change", () => coverTable());
$("back-to-play").addEventListener("click", () => { showPanel(app.dataset.panel); focusNext(); });
// (a click with no pointer's count is a keyboard's Enter or Space)
$("toggle-sheet").addEventListener("click", (ev) => showPanel("sheet", ev.detail === 0));
$("toggle-chat").addEventListener("click", (ev) => showPanel("chat", ev.detail === 0));

$("copy-invite").addEventListener("click", async () => {
  const link = app.dataset.invite || location.origin + "/r/" + table.code;
  if (await shareInvite(link, app.dataset.game)) return;
  const copied = t("lobby.copied") + (app.dataset.loopback ? " " + t("table.invite_local") : "");
  try { await navigator.clipboard.writeText(link); toast(copied, "info"); } catch { toast(link, "info"); }
});
// A touch screen shows no title on hover: a tap on a seat's badge ("D", "A", "strong bot") or its
// presence dot says what it means, and whose it is.
$("felt").addEventListener("click", (ev) => {
  const badge = ev.target.closest(".seat :is(.badge, .dot)[title]");
  if (!badge || !matchMedia("(hover: none)").matches) return;
  const seat = badge.closest(".seat");
  toast(`${seat.querySelector(".name").textContent}: ${badge.title}`, "info");
});

// The skip link: past the bar and its tools to the play: the seat's form, else what the deal
// asks or the hand, else (watching) the felt.
$("skip-link").addEventListener("click", (ev) => {
  ev.preventDefault();
  if (app.dataset.panel) showPanel(app.dataset.panel);  // (a phone's sheet or chat over the table: closed)
  if (!$("join-panel").hidden) { $("seat-name").focus(); return; }
  if (focusNext()) return;
  // (seated, the match waiting for its seats: the bots offered for them, else the invitation;
  // it had gone to the felt, which says nothing to do)
  const st = table.state, seated = Boolean(st) && st.you.seat !== null;
  const free = seated && st.room.seats.some((seat) => seat.kind === "open");
  const waiting = seated && (document.querySelector("#actions :is(button, summary)") || (free && $("copy-invite")));
  if (waiting) waiting.focus();
  else { $("felt").tabIndex = -1; $("felt").focus(); }
});

document.addEventListener("keydown", (ev) => {
  // (from the chat's line too: Esc had closed a phone's chat only once the focus was out of it)
  if (ev.key === "Escape" && app.dataset.panel && ev.target.id === "chat-input") showPanel(app.dataset.panel);
  if (ev.target.matches("input, textarea")) return;
  if (ev.key === "Escape" && app.dataset.panel) showPanel(app.dataset.panel);
  if (ev.key === "Escape" && table.showLast) { pressLast(false); draw(); }
  if (!keysOn() || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (ev.key === "l" || ev.key === "L") $("toggle-last").click();
  if (ev.key !== "s" && ev.key !== "S") return;
  // (a wide screen has the sheet beside the table, its tab hidden: S had done nothing to notice)
  if ($("toggle-sheet").getClientRects().length) $("toggle-sheet").click();
  else $("sheet").focus();
});

// (for the browser tests: what is on the screen, and whether an action sent is still unanswered)
window.cardroomTable = { get state() { return table.state; }, get seq() { return table.seq; }, get inFlight() { return table.inFlight; }, reconnectNow, send };
connect();
