// The page's copy of the server's STATE (docs/protocol.md#state-changes): the welcome's, then
// each event's changes applied, checked against the event numbers and the hash the server
// sent. What it gives is never changed afterwards (a change copies the objects along its path),
// so the STATEs waiting in the queue while a trick is held stay as they were.

/** STATE after `changes` (docs/protocol.md#state-changes): an object shaped like the STATE,
 * with the keys set under "=", the lists grown under "+", the keys gone under "-", and the
 * changes inside an object (or a list, by index) under its key. */
export function applyChanges(node, changes) {
  const copy = Array.isArray(node) ? node.slice() : { ...node };
  for (const [key, inner] of Object.entries(changes)) {
    if (key === "=") Object.assign(copy, inner);
    else if (key === "+") for (const [k, items] of Object.entries(inner)) copy[k] = copy[k].concat(items);
    else if (key === "-") for (const k of inner) delete copy[k];
    else copy[key] = applyChanges(copy[key], inner);
  }
  return copy;
}

/** JSON with every object's keys sorted and no spaces: the text the server's hash is of. */
export function canonical(value) {
  if (Array.isArray(value)) return "[" + value.map(canonical).join(",") + "]";
  if (value !== null && typeof value === "object") {
    return "{" + Object.keys(value).sort().map((k) => JSON.stringify(k) + ":" + canonical(value[k])).join(",") + "}";
  }
  return JSON.stringify(value);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** CRC-32 of the text's UTF-8 bytes, as zlib computes it. */
export function crc32(text) {
  let crc = 0xffffffff;
  for (const byte of new TextEncoder().encode(text)) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

export const stateHash = (state) => crc32(canonical(state));

/** Follows the server's STATE. `follow(message)` returns the new STATE a welcome, an event or a
 * presence brings (null when it brings none); when the page's STATE no longer follows (an event
 * number skipped, a hash that does not match) it calls `outOfStep()` and ignores events until
 * the next welcome, calling it again while events come and no welcome has for `retryMs` (the
 * `sync` may have been refused: too many messages). */
export function follower(outOfStep, retryMs = 2000) {
  let state = null, seq = null, lost = false, checked = true, asked = 0;

  function ask() {
    asked = Date.now();
    outOfStep();
  }

  function lose(why) {
    lost = true;
    console.error(`cardroom: ${why}; asking for the whole state`);
    ask();
  }

  return function follow(msg) {
    if (msg.type === "welcome") {
      lost = false;
      state = msg.state;
      seq = msg.seq;
      // A welcome whose hash this page cannot work out (a text it writes otherwise than the
      // server, which a browser test would show): its events' hashes could not match either,
      // so they are not checked until the next welcome; the event numbers still are.
      checked = stateHash(state) === msg.hash;
      if (!checked) console.error("cardroom: the welcome's state does not have its hash");
      return state;
    }
    if (msg.type === "presence" && state && state.room.seats[msg.seat]) {
      state = applyChanges(state, { room: { seats: { [msg.seat]: { "=": { connected: msg.connected } } } } });
      return state;
    }
    if (msg.type !== "event" || seq === null) return null;
    if (lost) {
      if (Date.now() - asked >= retryMs) ask();
      return null;
    }
    if (msg.seq !== seq + 1) { lose(`event ${msg.seq} after ${seq}`); return null; }
    seq = msg.seq;
    if (!msg.changes) return null;
    const next = { ...applyChanges(state, msg.changes), seq };  // the changes leave out the event number
    if (checked && stateHash(next) !== msg.hash) { lose(`not the state of event ${seq}'s hash`); return null; }
    state = next;
    return state;
  };
}
