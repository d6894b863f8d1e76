// This browser's identity: a player key (kept here; the server stores only its hash) and the
// name it holds. The key goes to the server in the X-Player-Key header and the WebSocket's
// hello only: never in a URL.
import { refusalText, t } from "./common.js";

/** Where this browser keeps its player: {key, name}. */
export const PLAYER_KEY = "cardroom.player";

/** Where this browser keeps its seat at a table, per room code: {token, seat, name, at}. */
export const SEAT_KEY = "cardroom.seat.";

/** This browser's seat at the table `code`, or null. */
export function keptSeat(code) {
  try { return JSON.parse(localStorage.getItem(SEAT_KEY + code)) || null; } catch { return null; }
}

/** Keeps `seat` ({token, seat, name}) as this browser's at the table `code`; null forgets it.
 * (`at`: when it was last taken or come back to; the lobby lists one's newest tables.) */
export function keepSeat(code, seat) {
  if (seat) localStorage.setItem(SEAT_KEY + code, JSON.stringify({ ...seat, at: Date.now() }));
  else localStorage.removeItem(SEAT_KEY + code);
}

/** {key, name} of this browser's player, or null. */
export function identity() {
  try { return JSON.parse(localStorage.getItem(PLAYER_KEY)) || null; } catch { return null; }
}

/** Keep (or forget) this browser's identity; the page's parts that show it hear of it. */
export function keepIdentity(value) {
  if (value) localStorage.setItem(PLAYER_KEY, JSON.stringify(value));
  else localStorage.removeItem(PLAYER_KEY);
  window.dispatchEvent(new Event("cardroom-identity"));
}

// The name this browser last sat under, and whether as a guest.
const NAME_KEY = "cardroom.name";
const GUEST_KEY = "cardroom.guest";

/** Keeps the name this browser sat under, and whether as a guest (`asGuest`). */
export function keepName(name, asGuest) {
  localStorage.setItem(NAME_KEY, name);
  if (asGuest) localStorage.setItem(GUEST_KEY, "1");
  else localStorage.removeItem(GUEST_KEY);
}

/** Fills `input`, a field for the name to play under, with this browser's player's name (else
 * the name last typed), and keeps it so through a rename in the menu: still saying the old name,
 * the lobby's "Create the table" had been refused ("you play here as …"). `guestBox`, its "play
 * as a guest" box, is ticked when this browser last sat as a guest (unticked, the next table's
 * one tap had claimed the name). */
export function nameField(input, guestBox) {
  let shown = (identity() || {}).name || localStorage.getItem(NAME_KEY) || "";
  input.value = shown;
  if (!identity() && localStorage.getItem(GUEST_KEY)) guestBox.checked = true;
  window.addEventListener("cardroom-identity", () => {
    const now = (identity() || {}).name;
    if (now && input.value.trim() === shown) input.value = now;  // (not over a name typed since)
    if (now) shown = now;
  });
}

/** The headers that say who this browser is (none for a guest: ``asGuest``, or no player). */
export function playerHeaders(asGuest = false) {
  const me = identity();
  return me && me.key && !asGuest ? { "X-Player-Key": me.key } : {};
}

/** The name this browser plays under: its player's, or (the first time) ``name`` claimed for
 * it, unless ``asGuest``. Throws an Error saying why when the name is someone else's, or when
 * this browser's player has another name (it would have sat under its own, whatever was typed). */
export async function ensureIdentity(name, asGuest = false) {
  const me = identity();
  if (asGuest) return name;
  if (me && me.key) {
    if (name.normalize("NFC") !== me.name) throw new Error(t("me.other_name", { name: me.name }));  // (the server keeps names NFC)
    return me.name;
  }
  const r = await fetch("/api/me", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name }) });
  const body = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(refusalText(body));
  keepIdentity({ key: body.key, name: body.name });
  return body.name;
}
