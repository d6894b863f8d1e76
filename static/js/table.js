// The live table: WebSocket client (docs/protocol.md), seat token in localStorage, rendering
// from the server's STATE only, and the controls for whatever `moves` allows.
import { t, el, cardEl, cardText, cardsText, cardName, SUIT_SYMBOL, suitName, errorText, reasonText, reconnectDelay } from "./common.js";
import { renderSeats, renderInfo, renderTrick, teamLetter } from "./render.js";
import { renderSheet, columnLabels } from "./sheet.js";

const app = document.getElementById("table-app");
const code = app.dataset.code;
const GAME = app.dataset.game;
const HOLD = window.CARDROOM_ANIM_MS ?? 1100;
const KEY = "cardroom.seat." + code;
const $ = (id) => document.getElementById(id);

let seat = loadSeat();
let ws = null, seq = null, state = null, room = window.CARDROOM_ROOM;
let queue = [], holding = null, showLast = false, retry = 0, pingTimer = null;
let selected = new Set(), giveCard = null, callCard = null, bidValue = null, contractValue = null;
let lastKey = null;
let actionCounter = 0;

function loadSeat() { try { return JSON.parse(localStorage.getItem(KEY)) || null; } catch { return null; } }
function saveSeat(v) { seat = v; if (v) localStorage.setItem(KEY, JSON.stringify(v)); else localStorage.removeItem(KEY); }

function toast(text, kind = "error") {
  const box = $("toast");
  box.textContent = text;
  box.className = "toast " + kind;
  box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { box.hidden = true; }, 4000);
}

// Screen readers: one polite live region gets short sentences (whose turn, who played what, who
// won the trick, who left or came back); several in one moment are read together.
let pending = [], lastStatus = "";
function announce(text) {
  if (!text) return;
  pending.push(text);
  if (pending.length > 1) return;
  setTimeout(() => {
    const box = $("announce");
    box.textContent = pending.join(" ");
    pending = [];
  }, 0);
}

function setConn(status) {
  const c = $("conn");
  c.textContent = t("conn." + status);
  c.className = "conn " + status;
  c.dataset.status = status;
}

// -- connection ----------------------------------------------------------------------------------

function connect() {
  setConn(seq === null ? "connecting" : "reconnecting");
  const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws/" + code;
  const socket = new WebSocket(url);
  ws = socket;
  socket.onopen = () => {
    retry = 0;
    const hello = { type: "hello" };
    if (seat && seat.token) hello.token = seat.token;
    if (seq !== null) hello.since = seq;
    socket.send(JSON.stringify(hello));
    clearInterval(pingTimer);
    pingTimer = setInterval(() => { if (socket.readyState === 1) socket.send('{"type":"ping"}'); }, 25000);
  };
  socket.onmessage = (ev) => onMessage(JSON.parse(ev.data));
  socket.onclose = () => {
    if (ws !== socket) return;
    clearInterval(pingTimer);
    setConn("reconnecting");
    retry = Math.min(retry + 1, 6);
    setTimeout(connect, reconnectDelay(retry));
  };
}

function reconnectNow() { const old = ws; ws = null; if (old) old.close(); connect(); }

function send(message) {
  if (!ws || ws.readyState !== 1) { toast(t("conn.not_connected")); return false; }
  ws.send(JSON.stringify(message));
  return true;
}

function act(action) {
  actionCounter += 1;
  send({ type: "action", id: `${Date.now().toString(36)}-${actionCounter}`, action });
}

function onMessage(msg) {
  switch (msg.type) {
    case "welcome":
      seq = msg.seq;
      setConn("online");
      if (seat && msg.state.you.seat === null) { saveSeat(null); toast(t("table.token_lost")); }
      enqueue(msg.state, true);
      break;
    case "event":
      seq = msg.seq;
      if (msg.event && msg.event.kind === "chat") { chatLines.set(msg.seq, { seq: msg.seq, ...msg.event }); if (state && !msg.state) drawChat(); }
      if (msg.event && state) announceEvent(msg.event);
      if (msg.state) enqueue(msg.state, false);
      break;
    case "presence":
      if (state) {
        const s = state.room.seats[msg.seat];
        if (s) s.connected = msg.connected;
        if (!holding) draw();
      }
      break;
    case "error":
      if (msg.code === "bad_token") saveSeat(null);
      toast(errorText(msg.code, msg.message));
      break;
    default:
      break;
  }
}

function announceEvent(ev) {
  const seats = state.room.seats;
  const nameOf = (s) => (seats[s] && seats[s].name) || t("lobby.seat_n", { n: s + 1 });
  if (ev.kind === "action" && ev.action && ev.action.type === "play" && ev.action.card && ev.seat !== state.you.seat) {
    announce(t("announce.played", { name: nameOf(ev.seat), card: cardName(ev.action.card) }));
  } else if (ev.kind === "seat") {
    const before = seats[ev.seat] || {};
    if (ev.standin) announce(t("announce.standin", { name: ev.name || nameOf(ev.seat) }));
    else if (ev.seat_kind === "bot") announce(t("announce.bot_seat", { n: ev.seat + 1 }));
    else if (before.standin) announce(t("announce.back", { name: ev.name || nameOf(ev.seat) }));
    else if (before.kind === "open") announce(t("announce.joined", { name: ev.name, n: ev.seat + 1 }));
  } else if (ev.kind === "deal") announce(t("announce.new_deal"));
  else if (ev.kind === "match" && ev.number > 1) announce(t("announce.new_match"));
}

// -- state queue: a finished trick stays in the middle for a moment ------------------------------

function trickKey(s) {
  const m = s && s.match;
  if (!m || !m.deal) return null;
  const won = (m.deal.tricks_won || []).reduce((a, b) => a + b, 0);
  return `${m.deals.length}:${won}`;
}

function enqueue(newState, reset) {
  if (reset) { queue = []; clearTimeout(holding && holding.timer); holding = null; }
  queue.push({ state: newState, reset });
  if (!holding) pump();
}

function pump() {
  while (queue.length) {
    const { state: next, reset } = queue.shift();
    const key = trickKey(next);
    const prev = lastKey;
    lastKey = key;
    const [pd, pw] = (prev || "x:x").split(":");
    const [nd, nw] = (key || "y:y").split(":");
    state = next;
    const trickDone = !reset && prev && pd === nd && Number(nw) > Number(pw) && next.match.deal.last_trick;
    if (trickDone && next.match.deal.last_trick.winner !== undefined) announce(t("announce.trick", { name: names()[next.match.deal.last_trick.winner] }));
    if (trickDone && HOLD > 0) {
      holding = { trick: next.match.deal.last_trick };
      draw();
      holding.timer = setTimeout(() => { holding = null; pump(); draw(); }, HOLD);
      return;
    }
  }
  draw();
}

// -- rendering -----------------------------------------------------------------------------------

function names() { return state.room.seats.map((s) => s.name || t("seat.empty")); }

/** The partnerships from each SEAT's `team` ([[0, 2], [1, 3]]), or null: everyone plays alone. */
function teams() {
  const out = [];
  for (const s of state.room.seats) if (Number.isInteger(s.team)) (out[s.team] ||= []).push(s.seat);
  return out.length ? out : null;
}

function model() {
  const m = state.match;
  return {
    game: GAME, nSeats: state.room.seats.length, teams: teams(), me: state.you.seat, names: names(), seatInfo: state.room.seats,
    deal: m ? m.deal : null, toAct: m && !holding ? m.to_act : [],
  };
}

// The hand and the controls are rebuilt from each state: keep the keyboard focus where it was
// (the same card, else its neighbour; the same control), so a keyboard player never loses place.
function focusKey() {
  const a = document.activeElement;
  if (!a || !(a.closest("#hand") || a.closest("#actions"))) return null;
  if (a.dataset.card && a.closest("#hand")) return { card: a.dataset.card, index: [...a.parentNode.children].indexOf(a) };
  if (a.dataset.testid) return { testid: a.dataset.testid };
  return null;
}

function restoreFocus(key) {
  if (!key) return;
  let target = null;
  if (key.card) {
    target = document.querySelector(`#hand .card[data-card="${key.card}"]`);
    if (!target) { const cards = document.querySelectorAll("#hand .card"); target = cards[Math.min(key.index, cards.length - 1)] || null; }
  } else target = document.querySelector(`#actions [data-testid="${key.testid}"]`);
  if (target && document.activeElement !== target) target.focus({ preventScroll: true });
}

// The turn timer: the server says how many seconds are left (room.turn_left); count down here.
let turnDeadline = null;
setInterval(() => { if (turnDeadline !== null) drawTurnClock(false); }, 1000);

function drawTurnClock(fresh = true) {
  const timer = $("turn-timer");
  if (fresh) turnDeadline = room.turn_left == null ? null : performance.now() + room.turn_left * 1000;
  timer.hidden = !room.turn_timer;
  if (!room.turn_timer) { timer.textContent = ""; return; }
  if (turnDeadline === null) { timer.textContent = t("table.turn_timer", { n: room.turn_timer }); return; }
  const left = Math.max(0, Math.ceil((turnDeadline - performance.now()) / 1000));
  timer.textContent = t("table.turn_left", { name: room.seats[room.turn_seat].name || "", n: left });
}

function draw() {
  if (!state) return;
  const keep = focusKey();
  room = state.room;
  drawTurnClock();
  const m = model();
  const felt = $("felt");
  renderSeats(felt, m);
  renderInfo($("info"), m);
  let shown = null;
  if (holding) shown = holding.trick;
  else if (showLast && m.deal && m.deal.last_trick) shown = m.deal.last_trick;
  renderTrick($("trick"), m, shown);
  $("toggle-last").disabled = !(m.deal && m.deal.last_trick);
  drawJoin();
  drawHand();
  drawActions();
  drawSheet();
  drawChat();
  restoreFocus(keep);
}

function drawJoin() {
  const panel = $("join-panel");
  const open = state.room.seats.filter((s) => s.kind === "open");
  panel.hidden = !!(state.you.seat !== null || !open.length);
  if (panel.hidden) return;
  const choices = $("seat-choices");
  choices.replaceChildren();
  for (const s of open) {
    choices.append(el("button", { class: "button primary", type: "submit", "data-seat": String(s.seat), "data-testid": "take-seat-" + s.seat },
      t("table.take_seat", { n: s.seat + 1 }) + (Number.isInteger(s.team) ? " · " + t("seat.team", { n: teamLetter(s.team) }) : "")));
  }
}

function myDeal() { return state.match && state.match.deal; }

function drawHand() {
  const box = $("hand");
  box.replaceChildren();
  const me = state.you.seat;
  const d = myDeal();
  if (me === null) {
    box.append(el("p", { class: "muted watching" }, t("table.watching")));
    return;
  }
  if (!d || !d.hands || !d.hands[me]) return;
  const moves = holding ? {} : state.match.moves || {};
  const hand = d.hands[me];
  let playable = new Set(), selectable = new Set();
  if (moves.play) playable = new Set(moves.play);
  if (moves.pass) selectable = new Set(moves.pass.from);
  if (moves.give) selectable = new Set(moves.give.cards);
  const received = GAME === "black_maria" && d.received && d.received[me] ? new Set(d.received[me]) : new Set();
  const kitty = GAME === "big_mariage" && d.kitty && d.phase !== "play" && d.phase !== "over" ? new Set(d.kitty) : new Set();
  const declared = GAME === "marjolet" && d.declared ? new Set(d.declared[me]) : new Set();
  const showReceived = received.size && (d.tricks_won || []).every((n) => n === 0) && d.phase === "play";
  const row = el("div", { class: "hand-row", role: "group", "aria-label": t("table.your_hand") });
  hand.forEach((card) => {
    const c = cardEl(card, { button: true });
    const legal = playable.has(card) || selectable.has(card);
    const words = [cardName(card)];
    c.classList.add(legal ? "playable" : "unplayable");
    if (!legal) { c.setAttribute("aria-disabled", "true"); if (moves.play || moves.pass || moves.give) words.push(t("card.not_playable")); }
    const isSelected = selected.has(card) || giveCard === card || callCard === card;
    if (isSelected) c.classList.add("selected");
    if (selectable.size || (moves.trump && moves.trump.includes(card))) c.setAttribute("aria-pressed", String(isSelected));
    if (showReceived && received.has(card)) { c.classList.add("received"); words.push(t("card.received_mark")); }
    if (kitty.has(card)) { c.classList.add("kitty"); words.push(t("card.kitty_mark")); }
    c.setAttribute("aria-label", words.join(", "));
    if (declared.has(card)) c.classList.add("shown");
    if (moves.trump && moves.trump.includes(card)) { c.classList.add("can-call"); c.dataset.call = "1"; c.title = t("bm.can_call"); }
    c.addEventListener("click", () => onCard(card, moves));
    c.addEventListener("keydown", (ev) => {
      let target = null;
      if (ev.key === "ArrowRight") target = c.nextElementSibling;
      else if (ev.key === "ArrowLeft") target = c.previousElementSibling;
      else if (ev.key === "Home") target = row.firstElementChild;
      else if (ev.key === "End") target = row.lastElementChild;
      else return;
      if (target) target.focus();
      ev.preventDefault();
    });
    row.append(c);
  });
  box.append(row);
}

function onCard(card, moves) {
  if (moves.pass && moves.pass.from.includes(card)) {
    if (selected.has(card)) selected.delete(card);
    else if (selected.size < moves.pass.choose) selected.add(card);
    else toast(t("bmaria.three_only", { n: moves.pass.choose }), "info");
    draw();
    return;
  }
  if (moves.give && moves.give.cards.includes(card)) { giveCard = giveCard === card ? null : card; draw(); return; }
  if (moves.play && moves.play.includes(card)) {
    if (moves.trump && moves.trump.includes(card)) { callCard = callCard === card ? null : card; draw(); return; }
    act({ type: "play", card });
    return;
  }
  if (moves.play) toast(t("table.not_playable", { card: cardText(card).textContent }), "info");
}

function waitingText() {
  const m = state.match;
  if (!m) {
    const open = state.room.seats.filter((s) => s.kind === "open").length;
    return t("info.waiting_open", { n: open });
  }
  if (m.finished) return "";
  const who = m.to_act.map((s) => names()[s]);
  if (!who.length) return t("info.next_deal");
  return t("table.waiting_for", { names: who.join(", ") });
}

function stepper(values, current, onChange, testid) {
  let i = Math.max(0, values.indexOf(current));
  const out = el("output", { class: "bidvalue", "data-testid": testid }, String(values[i]));
  const set = (j) => { i = Math.max(0, Math.min(values.length - 1, j)); out.textContent = String(values[i]); onChange(values[i]); };
  return el("span", { class: "stepper" },
    el("button", { type: "button", class: "button", "aria-label": "−5", onclick: () => set(i - 1) }, "−5"),
    out,
    el("button", { type: "button", class: "button", "aria-label": "+5", onclick: () => set(i + 1) }, "+5"),
    el("button", { type: "button", class: "button", onclick: () => set(i + 4) }, "+20"));
}

let lastOver = "";

// Stand-ins (docs/protocol.md `standin`): a seated person may hand a free seat, or the seat of
// someone who is away, to a bot; the person who comes back takes it back (the server does that).
function drawStandins(line) {
  const me = state.you.seat;
  for (const info of state.room.seats) {
    const s = info.seat;
    if (s === me) continue;
    const name = info.name || t("lobby.seat_n", { n: s + 1 });
    if (info.kind === "human" && info.standin) {
      line(el("span", { class: "note standin-note", "data-testid": "standin-note-" + s }, t("standin.playing", { name })));
      continue;
    }
    if (me === null) continue;
    const away = info.kind === "human" && !info.connected;
    if (info.kind !== "open" && !away) continue;
    const ask = (bot) => () => send({ type: "standin", seat: s, bot });
    const label = (bot) => (away ? t(`standin.${bot}_for`, { name }) : t(`standin.seat_${bot}`, { n: s + 1 }));
    line(el("div", { class: "standin-box", role: "group", "aria-label": away ? t("standin.away", { name }) : t("standin.free", { n: s + 1 }), "data-testid": "standin-box-" + s },
      el("span", { class: "note" }, away ? t("standin.away", { name }) : t("standin.free", { n: s + 1 })),
      el("button", { type: "button", class: "button small", "data-testid": `standin-${s}-rules`, onclick: ask("rules") }, label("rules")),
      el("button", { type: "button", class: "button small", "data-testid": `standin-${s}-random`, onclick: ask("random") }, label("random"))));
  }
}

function drawActions() {
  const box = $("actions");
  box.replaceChildren();
  const m = state.match;
  const me = state.you.seat;
  const d = m && m.deal;
  const moves = holding || !m ? {} : m.moves || {};
  const nm = names();
  const line = (...c) => box.append(el("div", { class: "action-line" }, ...c));

  if (m && m.finished) {
    lastStatus = "";
    const labels = columnLabels(teams(), nm); // m.winners counts teams when there are teams
    const winners = m.winners.map((w) => labels[w]);
    const over = t("table.match_over", { names: winners.join(", ") });
    if (lastOver !== m.deals.length + ":" + over) { lastOver = m.deals.length + ":" + over; announce(over); }
    line(el("p", { class: "banner match-over", "data-testid": "match-over" }, over));
    if (me !== null) line(el("button", { type: "button", class: "button primary", "data-testid": "rematch", onclick: () => send({ type: "rematch" }) }, t("table.rematch")));
    return;
  }
  const mine = me !== null && Object.keys(moves).length > 0;
  const status = mine ? t("table.your_turn") : waitingText();
  box.append(el("p", { class: "status" + (mine ? " yours" : ""), "data-testid": "status" }, status));
  if (status !== lastStatus) { lastStatus = status; if (mine || !m) announce(status); }
  drawStandins(line);
  if (!d) return;

  // Black Maria: passing, and the three received.
  if (GAME === "black_maria" && me !== null) {
    const n = state.room.seats.length;
    const right = (me + n - 1) % n, left = (me + 1) % n;
    if (moves.pass) {
      selected = new Set([...selected].filter((c) => moves.pass.from.includes(c)));
      line(t("bmaria.choose_pass", { n: moves.pass.choose, name: nm[right] }), " ", cardsText([...selected]));
      line(el("button", { type: "button", class: "button primary", "data-testid": "pass-button", disabled: selected.size !== moves.pass.choose,
        onclick: () => { act({ type: "pass", cards: [...selected] }); selected = new Set(); } }, t("bmaria.pass_button", { n: selected.size, k: moves.pass.choose })));
    } else if (d.phase === "pass" && d.pass && d.pass[me]) {
      line(t("bmaria.you_passed", { name: nm[right] }), " ", cardsText(d.pass[me]));
    }
    if (d.phase === "play" && d.received && d.received[me] && (d.tricks_won || []).every((n) => n === 0)) {
      line(el("span", { "data-testid": "received" }, t("bmaria.received", { name: nm[left] }), " ", cardsText(d.received[me])));
    }
  }

  // Marjolet: the winner's window, the strict end phase.
  if (GAME === "marjolet") {
    if (moves.draw) {
      line(el("b", {}, t("mj.window")));
      for (const cards of moves.declare || []) {
        line(el("button", { type: "button", class: "button", "data-testid": "declare", onclick: () => act({ type: "declare", cards }) }, t("mj.declare"), " ", cardsText(cards)));
      }
      if (moves.exchange) {
        line(el("button", { type: "button", class: "button", "data-testid": "exchange", onclick: () => act({ type: "exchange" }) },
          t("mj.exchange"), " ", cardText("7" + d.trump), " ⇄ ", cardText(d.turn_up)));
      }
      line(el("button", { type: "button", class: "button primary", "data-testid": "draw", onclick: () => act({ type: "draw" }) },
        d.tricks_played >= 10 ? t("mj.draw_last") : t("mj.draw")));
    }
    if (d.end_phase && moves.play && d.trick.length) line(el("span", { class: "note" }, t("mj.end_phase_rule")));
    const combos = d.scored_combinations || [];
    combos.forEach((list, s) => list.forEach((c) => line(el("span", { class: "note combo" }, t("mj.scored", { name: nm[s], n: c.points }), " ", cardsText(c.cards)))));
  }

  // Big Mariage: bidding box, kitty and gives, contract, trump call.
  if (GAME === "big_mariage") {
    if (d.bids.length && (d.phase === "bidding" || d.phase === "kitty")) {
      line(el("span", { class: "bids" }, t("bm.bids"), " ", d.bids.map(([s, b]) => el("span", { class: "bidchip" }, `${nm[s]}: ${b === "pass" ? t("bm.pass") : b}`))));
    }
    if (moves.bid || (moves.pass && d.phase === "bidding")) {
      const box2 = el("div", { class: "bidbox", "data-testid": "bidbox" });
      if (moves.bid && moves.bid.length) {
        if (!moves.bid.includes(bidValue)) bidValue = moves.bid[0];
        box2.append(stepper(moves.bid, bidValue, (v) => { bidValue = v; }, "bid-value"),
          el("button", { type: "button", class: "button primary", "data-testid": "bid-button", onclick: () => act({ type: "bid", value: bidValue }) }, t("bm.bid")));
      }
      box2.append(el("button", { type: "button", class: "button", "data-testid": "pass-button", onclick: () => act({ type: "pass" }) }, t("bm.pass")));
      line(box2);
    }
    if (d.kitty && me === d.declarer && d.phase === "kitty") line(t("bm.kitty_cards"), " ", cardsText(d.kitty));
    if (moves.give) {
      line(t("bm.give_help"));
      if (giveCard && !moves.give.cards.includes(giveCard)) giveCard = null;
      line(...moves.give.to.map((to) => el("button", { type: "button", class: "button" + (giveCard ? " primary" : ""), disabled: !giveCard, "data-testid": "give-" + to,
        onclick: () => { act({ type: "give", card: giveCard, to }); giveCard = null; } }, giveCard ? t("bm.give_to_card", { name: nm[to] }) : t("bm.give_to", { name: nm[to] }), giveCard ? cardText(giveCard) : "")));
    }
    for (const g of d.gives || []) {
      if (g.card && (me === d.declarer || me === g.to) && d.phase !== "play") line(el("span", { class: "note" }, t("bm.given", { name: nm[g.to] }), " ", cardText(g.card)));
    }
    if (me !== null && d.phase === "play" && me !== d.declarer) {
      const g = (d.gives || []).find((x) => x.to === me && x.card);
      if (g && d.tricks_won.every((n) => n === 0)) line(el("span", { class: "note" }, t("bm.you_got", { name: nm[d.declarer] }), " ", cardText(g.card)));
    }
    if (moves.contract) {
      if (!moves.contract.includes(contractValue)) contractValue = moves.contract[0];
      line(el("div", { class: "bidbox" }, t("bm.fix_contract"), " ", stepper(moves.contract, contractValue, (v) => { contractValue = v; }, "contract-value"),
        el("button", { type: "button", class: "button primary", "data-testid": "contract-button", onclick: () => act({ type: "contract", value: contractValue }) }, t("bm.contract_button"))));
    }
    if (moves.trump && moves.trump.length) {
      if (callCard && moves.trump.includes(callCard)) {
        line(el("button", { type: "button", class: "button primary", "data-testid": "call-trumps", onclick: () => { act({ type: "play", card: callCard, trump: true }); callCard = null; } },
          t("bm.lead_call", { suit: SUIT_SYMBOL[callCard[1]] + " " + suitName(callCard[1]) }), " ", cardText(callCard)),
        el("button", { type: "button", class: "button", "data-testid": "lead-plain", onclick: () => { act({ type: "play", card: callCard }); callCard = null; } }, t("bm.lead_plain"), " ", cardText(callCard)));
      } else {
        line(el("span", { class: "note" }, t("bm.can_call")));
      }
    }
    if (d.trump_calls && d.trump_calls.length) {
      const c = d.trump_calls[d.trump_calls.length - 1];
      line(el("span", { class: "note" }, t("bm.called", { name: nm[c.seat], suit: SUIT_SYMBOL[c.suit] + " " + suitName(c.suit) })));
    }
  }
}

function drawSheet() {
  const m = state.match;
  const box = $("sheet");
  if (!m) { box.replaceChildren(el("p", { class: "muted" }, t("sheet.empty"))); return; }
  renderSheet(box, { game: GAME, deals: m.deals, names: names(), teams: teams(), winners: m.winners, finished: m.finished });
  if (m.finished) app.classList.add("show-side");
}

let chatSig = "";
const chatLines = new Map(); // seq -> line: from each state's `chat` and from chat events
function drawChat() {
  const list = $("chat-lines");
  for (const c of state.chat || []) chatLines.set(c.seq, c);
  const lines = [...chatLines.values()].sort((x, y) => x.seq - y.seq).slice(-50);
  const sig = lines.length + ":" + (lines.length ? lines[lines.length - 1].seq : "");
  $("chat-form").hidden = state.you.seat === null;
  if (sig === chatSig) return;
  chatSig = sig;
  list.replaceChildren();
  for (const c of lines) {
    const li = document.createElement("li");
    const who = document.createElement("b");
    who.textContent = (c.name || "?") + ": ";
    const text = document.createElement("span");
    text.textContent = c.text; // never innerHTML: people typed this
    li.append(who, text);
    list.append(li);
  }
  list.scrollTop = list.scrollHeight;
}

// -- page controls -------------------------------------------------------------------------------

$("seat-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const name = $("seat-name").value.trim();
  const wanted = ev.submitter ? Number(ev.submitter.dataset.seat) : null;
  if (!name) { $("join-error").textContent = t("lobby.need_name"); $("seat-name").focus(); return; }
  localStorage.setItem("cardroom.name", name);
  const r = await fetch(`/api/rooms/${code}/join`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name, seat: Number.isInteger(wanted) ? wanted : null }) });
  const body = await r.json().catch(() => ({}));
  if (!r.ok) { $("join-error").textContent = t("join.refused") + ": " + (typeof body.detail === "string" ? reasonText(body.detail) : t("error.generic")); return; }
  saveSeat({ token: body.token, seat: body.seat, name });
  reconnectNow();
});
$("seat-name").value = localStorage.getItem("cardroom.name") || "";

$("chat-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const input = $("chat-input");
  const text = input.value.trim();
  if (text && send({ type: "chat", text })) input.value = "";
});

$("toggle-last").addEventListener("click", () => {
  showLast = !showLast;
  $("toggle-last").setAttribute("aria-pressed", String(showLast));
  draw();
});
$("toggle-sheet").addEventListener("click", () => {
  const on = app.classList.toggle("show-side");
  $("toggle-sheet").setAttribute("aria-expanded", String(on));
});
$("copy-invite").addEventListener("click", async () => {
  const link = location.origin + "/r/" + code;
  try { await navigator.clipboard.writeText(link); toast(t("lobby.copied"), "info"); } catch { toast(link, "info"); }
});
document.addEventListener("keydown", (ev) => {
  if (ev.target.matches("input, textarea")) return;
  if (ev.key === "l" || ev.key === "L") $("toggle-last").click();
  if (ev.key === "s" || ev.key === "S") $("toggle-sheet").click();
});

window.cardroomTable = { get state() { return state; }, get seq() { return seq; }, reconnectNow, send };
connect();
