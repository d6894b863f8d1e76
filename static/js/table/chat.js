// The table chat: the last lines (from each STATE's `chat` and from chat events), shown as plain
// text, the form for seated people (spectators read only), and the count of lines that came
// while the chat was out of sight (a phone shows it on the chat tab).
import { t, el } from "../common.js";
import { table } from "./state.js";

const $ = (id) => document.getElementById(id);

const chatInSight = () => $("chat").getClientRects().length > 0;

/** A chat event (docs/protocol.md `event`, kind "chat") numbered `seq`. */
export function addChatLine(seq, event) {
  table.chat.lines.set(seq, { seq, ...event });
  const mine = table.state && event.seat === table.state.you.seat;
  if (!mine && !chatInSight()) table.chat.unread += 1;
  drawUnread();
}

/** The chat came into sight: everything in it is read. */
export function chatSeen() {
  table.chat.unread = 0;
  drawUnread();
}

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
    li.append(who, text);
    list.append(li);
  }
  list.scrollTop = list.scrollHeight;
}

/** The chat form sends with `send` (the connection's) and is emptied once the line went out. */
export function listenToChatForm(send) {
  $("chat-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const input = $("chat-input");
    const text = input.value.trim();
    if (text && send({ type: "chat", text })) input.value = "";
  });
}
