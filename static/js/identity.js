// This browser's identity: a player key (kept here; the server stores only its hash) and the
// name it holds. The key goes to the server in the X-Player-Key header and the WebSocket's
// hello only: never in a URL.
const KEY = "cardroom.player";

/** {key, name} of this browser's player, or null. */
export function identity() {
  try { return JSON.parse(localStorage.getItem(KEY)) || null; } catch { return null; }
}

export function keepIdentity(value) {
  if (value) localStorage.setItem(KEY, JSON.stringify(value));
  else localStorage.removeItem(KEY);
}

/** The headers that say who this browser is (none for a guest). */
export function playerHeaders() {
  const me = identity();
  return me && me.key ? { "X-Player-Key": me.key } : {};
}
