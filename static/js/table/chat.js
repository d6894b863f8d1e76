// The table chat: the last lines (from each STATE's `chat` and from chat events), shown as plain
// text, the form for seated people (spectators read only), and the count of lines that came
// while the chat was out of sight (a phone shows it on the chat tab; the last line read is kept
// per table in localStorage, so that lines said while the page was closed or asleep are counted
// when it opens again). A line refused, or lost with a socket given up (a dead link), goes back
// into the box to be sent again.
import { t, el, LANG } from "../common.js";
import { table } from "./state.js";
import { toast, announce } from "./notices.js";

const $ = (id) => document.getElementById(id);

const chatInSight = () => $("chat").getClientRects().length > 0;

// a line's hour and minute (and its day, if not today's: the last 50 lines are kept), in the
// page's language as the reader's browser writes it
const LOCALE = navigator.languages.find((tag) => tag.split("-")[0] === LANG) || LANG;
const CLOCK = new Intl.DateTimeFormat(LOCALE, { hour: "2-digit", minute: "2-digit" });
const DAY_CLOCK = new Intl.DateTimeFormat(LOCALE, { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
const clock = (when) => (when.toDateString() === new Date().toDateString() ? CLOCK : DAY_CLOCK).format(when);

// The seq of the last line this browser has had in sight at this table.
const READ_KEY = `cardroom.chatRead.${table.code}`;
let read = Number(localStorage.getItem(READ_KEY)) || 0;
function readUpTo(seq) {
  if (seq <= read) return;
  read = seq;
  try { localStorage.setItem(READ_KEY, String(read)); } catch { /* a full storage: counted from now on */ }
}

// The others' lines past the last one read; in sight, every line is read. Counted afresh at
// each line and each STATE: a welcome after a phone slept brings the lines said meanwhile.
function countUnread() {
  const seqs = [...table.chat.lines.keys()];
  if (chatInSight() && seqs.length) readUpTo(Math.max(...seqs));
  const me = table.state ? table.state.you.seat : null;
  table.chat.unread = [...table.chat.lines.values()].filter((c) => c.seq > read && c.seat !== me).length;
  drawUnread();
}

/** A chat event (docs/protocol.md `event`, kind "chat") numbered `seq`; `ack`: the id of the
 * line this page sent, if it is that one. */
export function addChatLine(seq, event, ack) {
  table.chat.lines.set(seq, { seq, ...event });
  forget(ack);
  const mine = table.state && event.seat === table.state.you.seat;
  if (!mine && !chatInSight()) {
    // (a phone's chat lies closed over the table: a count on its tab alone had gone unseen;
    // a refusal shown is not covered)
    const box = $("toast");
    const long = event.text.length > 140 ? event.text.slice(0, 140) + "…" : event.text;
    if (box.hidden || box.classList.contains("info")) toast([el("b", {}, `${event.name || "?"}: `), long], "info chat", undefined, false);
  }
  // (a screen reader hears it where it is, as the chat's: "Boris: шестёрка треф" had been
  // heard alike from the chat and from a move, a line could pass for a card played)
  if (!mine) announce(t("chat.heard", { name: event.name || "?", text: event.text }));
  countUnread();
}

/** The chat came into sight: everything in it is read. */
export const chatSeen = () => countUnread();

// The count on the chat tab; a screen reader hears "Chat, unread: 2".
function drawUnread() {
  const badge = $("chat-unread");
  const n = table.chat.unread;
  badge.hidden = n === 0;
  badge.replaceChildren(el("span", { class: "sr-only" }, `, ${t("chat.unread")}: `), el("span", { "data-testid": "chat-unread-count" }, n > 99 ? "99+" : String(n)));
}

export function drawChat() {
  const { state, chat } = table;
  for (const c of state.chat || []) chat.lines.set(c.seq, c);
  countUnread();
  const lines = [...chat.lines.values()].sort((x, y) => x.seq - y.seq).slice(-50);
  const shown = lines.length + ":" + (lines.length ? lines[lines.length - 1].seq : "");
  $("chat-form").hidden = state.you.seat === null;
  $("chat-watching").hidden = state.you.seat !== null;
  if (shown === chat.shown) return;
  chat.shown = shown;
  const list = $("chat-lines");
  list.replaceChildren();
  for (const c of lines) {
    const li = document.createElement("li");
    const who = document.createElement("b");
    who.textContent = (c.name || "?") + ": ";
    const text = document.createElement("span");
    text.textContent = c.text; // never innerHTML: people typed this
    // when it was said, in the reader's time (friends who chat between moves across an evening)
    const said = c.time ? new Date(c.time) : null;
    if (said && !Number.isNaN(said.getTime())) {
      const at = el("time", { class: "chat-time", datetime: c.time }, clock(said));
      li.append(at, " ");
    }
    li.append(who, text);
    list.append(li);
  }
  list.scrollTop = list.scrollHeight;
}

// The lines sent and not seen back yet, in the order sent: {id, text, seq (the last event seen
// when it was sent)}; and what of them was put back at the start of the box, while it is there.
const unsent = [];
let sentLines = 0, restored = "";

/** The chat form sends with `send` (the connection's) and is emptied once the line went out. */
export function listenToChatForm(send) {
  $("chat-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const input = $("chat-input");
    const text = input.value.trim();
    const id = `chat-${++sentLines}`;
    if (!text || !send({ type: "chat", id, text }, true)) return;
    input.value = restored = "";
    unsent.push({ id, text, seq: table.seq });
  });
}

function forget(id) {
  const i = unsent.findIndex((line) => line.id === id);
  return i < 0 ? [] : unsent.splice(i, 1);
}

// Lines that did not go out back into the box: after those put back before them, before what
// the person has typed since.
function putBack(lines) {
  if (!lines.length) return;
  const input = $("chat-input");
  const before = restored && input.value.startsWith(restored) ? restored : "";
  const typed = input.value.slice(before.length).trim();
  restored = [before, ...lines.map((line) => line.text)].filter(Boolean).join(" ");
  input.value = [restored, typed].filter(Boolean).join(" ");
}

/** The server refused the message `id` (too many lines, say): a line is back in the box. */
export function chatRefused(id) {
  putBack(forget(id));
}

/** A new socket's welcome: the lines sent on the one given up that it does not show from this
 * seat never arrived, and go back into the box. */
export function chatAfterWelcome(state) {
  if (!unsent.length) return;
  const said = (state.chat || []).filter((c) => c.seat === state.you.seat);
  const lost = unsent.splice(0).filter((line) => {
    const i = said.findIndex((c) => c.seq > line.seq && c.text === line.text.normalize("NFC"));
    if (i >= 0) said.splice(i, 1);
    return i < 0;
  });
  if (!lost.length || state.you.seat === null) return;
  putBack(lost);
  toast(t("chat.not_sent"), "info");
}
