// The room's WebSocket (docs/protocol.md): `hello` with the seat token and the last event seen,
// a ping every 25 s, a new attempt after each drop (common.js reconnectDelay: a growing wait
// drawn at random), actions sent with ids of their own, and its status in the #conn chip.
// A link that dies without a word (a phone that changed networks or slept, a laptop lid
// closed) closes no socket for minutes: a socket that brings nothing within ANSWER_MS of its
// opening, a ping, an action or a chat line is given up as a dropped one, so is the socket
// when the browser goes offline, and coming back online or to the page tries at once rather
// than after the wait.
import { identity } from "../identity.js";
import { t, reconnectDelay } from "../common.js";
import { table } from "./state.js";
import { toast, dismissToast } from "./notices.js";
import { sent } from "./inflight.js";

// (the tests change these)
const PING_MS = window.CARDROOM_PING_MS ?? 25000;
const ANSWER_MS = window.CARDROOM_ANSWER_MS ?? 10000;  // for any answer at all
const STALE_MS = window.CARDROOM_STALE_MS ?? 1500;  // offline this long: the table shown as stale

let staleTimer = null;
function showStatus(status, redraw) {
  const chip = document.getElementById("conn");
  chip.textContent = t("conn." + status);
  chip.className = "conn " + status;
  chip.dataset.status = status;
  const online = status === "online";
  if (online === table.online) return;
  table.online = online;
  clearTimeout(staleTimer);
  if (online) {
    // (the welcome redraws the table; "no connection" said to a tap meanwhile goes with it)
    table.stale = false;
    dismissToast(t("conn.not_connected"));
    return;
  }
  redraw();  // (one's own seat's dot: drawn grey now; green by the welcome's drawing)
  // Offline longer than a blip, the table says that what it shows may be old and takes no move
  // (a phone offline had shown the last picture as live, and its buttons as working).
  staleTimer = setTimeout(() => { table.stale = true; redraw(); }, STALE_MS);
}

/** The connection: `connect()` once, then `send`, `act` and `reconnectNow` (after the seat
 * changed); `onMessage(msg, hello)` gets every message of the server (`hello`: the welcome
 * that answers this socket's hello); `redraw()` when the page goes on or off line. */
export function connection(onMessage, redraw) {
  let socket = null, attempt = 0, pinger = null, probe = null, retry = null, actions = 0;
  let welcomed = false;  // the socket has its welcome: what is sent on it is after the STATE shown
  let unanswered = null;  // {id, action, seq}: the last action sent, and the event number then

  function stopTimers() {
    clearInterval(pinger);
    clearTimeout(probe);
    clearTimeout(retry);
    pinger = probe = retry = null;
  }

  /** The socket is gone, or as good as gone: another after a growing wait. */
  function giveUp(ws) {
    if (socket !== ws) return;  // (closed by reconnectNow, which opened another)
    socket = null;
    stopTimers();
    ws.close();
    showStatus("reconnecting", redraw);
    attempt = Math.min(attempt + 1, 6);
    retry = setTimeout(() => { retry = null; connect(); }, reconnectDelay(attempt));
  }

  /** Give the socket up if nothing at all comes from it in time. */
  function expectAnswer() {
    const ws = socket;
    if (probe) return;
    probe = setTimeout(() => { probe = null; giveUp(ws); }, ANSWER_MS);
  }

  function check() {
    if (!socket || socket.readyState !== 1 || probe) return;
    socket.send('{"type":"ping"}');
    expectAnswer();
  }

  /** Back online or back to the page: a dropped socket tries again now, an open one is checked. */
  function wake() {
    if (document.visibilityState === "hidden") return;
    if (retry) { clearTimeout(retry); retry = null; connect(); } else check();
  }
  window.addEventListener("online", wake);
  document.addEventListener("visibilitychange", wake);
  // The browser knows the network is gone: the socket is as good as dropped (it would take
  // ANSWER_MS to say so), and no "connected" stays on the screen meanwhile.
  window.addEventListener("offline", () => { if (socket) giveUp(socket); });

  function connect() {
    showStatus(table.seq === null ? "connecting" : "reconnecting", redraw);
    const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws/" + table.code);
    socket = ws;
    welcomed = false;
    expectAnswer();  // (its opening and its welcome)
    ws.onopen = () => {
      attempt = 0;
      const hello = { type: "hello" };
      if (table.seat && table.seat.token) hello.token = table.seat.token;
      const me = identity();
      if (me && me.key) hello.player = me.key;  // the player's seats, on any device
      if (table.seq !== null) hello.since = table.seq;
      ws.send(JSON.stringify(hello));
      clearInterval(pinger);
      pinger = setInterval(check, PING_MS);
    };
    let greeted = false;
    ws.onmessage = (ev) => {
      if (socket !== ws) return;  // given up: the new socket's welcome brings it all
      clearTimeout(probe);  // anything at all says the link is alive
      probe = null;
      const msg = JSON.parse(ev.data);
      const hello = msg.type === "welcome" && !greeted;  // a later welcome answers a sync
      if (hello) { greeted = welcomed = true; showStatus("online", redraw); }
      // An action the socket given up never answered, when the table has not moved since it
      // was sent (so it did not arrive): sent again, with its id, which the server applies once.
      const again = hello && unanswered && unanswered.id === table.inFlight
        && unanswered.seq === msg.seq && msg.state.you.seat !== null ? unanswered : null;
      onMessage(msg, hello);
      if (again && !table.inFlight) {
        ws.send(JSON.stringify({ type: "action", id: again.id, action: again.action }));
        sent(again.id, again.action);
        expectAnswer();
      }
    };
    ws.onclose = () => giveUp(ws);
  }

  function reconnectNow() {
    const old = socket;
    socket = null;
    unanswered = null;  // (the seat changed: its actions are not to be sent again)
    stopTimers();
    if (old) old.close();
    connect();
  }

  /** Returns whether it was sent; `answerDue`: the server answers it (a chat line comes back as
   * an event), so a link that brings nothing back in time is given up. */
  function send(message, answerDue = false) {
    if (!socket || socket.readyState !== 1 || !welcomed) { toast(t("conn.not_connected")); return false; }
    socket.send(JSON.stringify(message));
    if (answerDue) expectAnswer();
    return true;
  }

  // One action at a time: until the server answers (table.js calls inflight.js `answered` on
  // the event that acks it, an error for it or a new welcome, after which it may be sent again),
  // another click sends nothing, so a double click never reaches the server twice.
  // Returns whether it was sent.
  function act(action) {
    if (table.inFlight) return false;
    actions += 1;
    const id = `${Date.now().toString(36)}-${actions}`;
    // (its answer is due: a click on a dead link is not left waiting for the next ping)
    if (!send({ type: "action", id, action }, true)) return false;
    sent(id, action);
    unanswered = { id, action, seq: table.seq };
    return true;
  }

  return { connect, reconnectNow, send, act };
}
