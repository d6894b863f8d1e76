// The table chat: the last lines (from each STATE's `chat` and from chat events), shown as plain
// text, and the form for seated people.
import { table } from "./state.js";

const $ = (id) => document.getElementById(id);

/** A chat event (docs/protocol.md `event`, kind "chat") numbered `seq`. */
export function addChatLine(seq, event) {
  table.chat.lines.set(seq, { seq, ...event });
}

export function drawChat() {
  const { state, chat } = table;
  for (const c of state.chat || []) chat.lines.set(c.seq, c);
  const lines = [...chat.lines.values()].sort((x, y) => x.seq - y.seq).slice(-50);
  const shown = lines.length + ":" + (lines.length ? lines[lines.length - 1].seq : "");
  $("chat-form").hidden = state.you.seat === null;
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
