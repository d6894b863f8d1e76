// The lobby: create a room (game, options explained, seats open/bot), share it, join by code.
import { t, el, refusalText, sentence, seatName, teamLetter, canShare, shareInvite } from "./common.js";
import { ensureIdentity, identity, keepName, nameField, keepSeat, playerHeaders, SEAT_KEY } from "./identity.js";

const $ = (id) => document.getElementById(id);
const CHOICES = { jack_queen: ["marjolet", "same_suit"], marriages: ["declared", "trump_only"] };
let games = [];

function currentGame() { return document.querySelector('input[name="game"]:checked').value; }

function drawGame() {
  const name = currentGame();
  const game = games.find((g) => g.name === name);
  const opts = $("option-fields"), seats = $("seat-fields");
  opts.replaceChildren();
  seats.replaceChildren();
  if (!game) return;
  for (const [key, opt] of Object.entries(game.options)) {
    const id = "opt-" + key;
    let input;
    if (CHOICES[key]) {
      input = el("select", { id, name: key }, CHOICES[key].map((v) => el("option", { value: v, selected: v === opt.default }, t(`optval.${key}.${v}`))));
    } else if (typeof opt.default === "number") {
      input = el("input", { id, name: key, type: "number", min: "1", step: "1", value: String(opt.default), ...(opt.max ? { max: String(opt.max) } : {}) });
    } else {
      input = el("input", { id, name: key, value: String(opt.default) });
    }
    input.setAttribute("aria-describedby", id + "-meaning");  // (what each choice means is said there)
    const meaningKey = `opt.${name}.${key}`;
    const meaning = t(meaningKey) === meaningKey ? opt.meaning : t(meaningKey);
    opts.append(el("div", { class: "option" }, el("label", { for: id }, t("optname." + key)), input, el("p", { class: "meaning", id: id + "-meaning" }, meaning)));
  }
  for (let s = 0; s < game.seats; s++) {
    const team = game.teams ? t("seat.team", { n: teamLetter(s % 2) }) : null;
    const label = t("lobby.seat_n", { n: s + 1 }) + (team ? " · " + team : "");
    // (the team under the seat's number in the form's narrow column: a seat and its choice on one line)
    const words = el("span", { class: "seat-label" }, t("lobby.seat_n", { n: s + 1 }), team ? el("small", {}, team) : null);
    if (s === 0) {  // the table's maker takes it (an open seat until then)
      seats.append(el("div", { class: "seat-choice row" }, words, el("span", { class: "seat-you" }, t("lobby.you_sit_here"))));
      continue;
    }
    const select = el("select", { name: "seat" + s, "data-seat": String(s), "aria-label": label, "aria-describedby": "seats-meaning" },
      el("option", { value: "open" }, t("lobby.seat_open")),
      el("option", { value: "bot:rules", selected: preset ? preset === "bot:rules" : name === "black_maria" && s === 2 }, t("lobby.seat_bot_rules")),
      el("option", { value: "bot:random" }, t("lobby.seat_bot_random")),
      el("option", { value: "bot:strong" }, t("lobby.seat_bot_strong")));
    select.addEventListener("change", () => { choosePreset(null); showThinkTime(); });  // (a seat of one's own choice)
    seats.append(el("div", { class: "seat-choice row" }, words, select));
  }
  restore(name);
  showThinkTime();
  sayTheSettings();
}

// The last table made is the form's next one (two couples who meet every week had found it back
// at Marjolet, target 500, no timer): its game, and each game's options; the seats, the turn
// timer and the thinking time as they were, when the page opens.
const LAST_TABLE = "cardroom.lastTable";
let opening = true;

function lastTables() {
  try { return { games: {}, ...JSON.parse(localStorage.getItem(LAST_TABLE)) }; } catch { return { games: {} }; }
}

function keep(game, options, seats) {
  const all = lastTables();
  all.last = game;
  all.games = { ...(all.games || {}), [game]: { options, seats, timer: $("turn-timer").value, think: $("think-time").value } };
  try { localStorage.setItem(LAST_TABLE, JSON.stringify(all)); } catch { /* full: the next form starts afresh */ }
}

// A value set only where the control offers it (a choice the site no longer has is left alone).
function setValue(control, value) {
  if (!control || value === undefined || value === null) return;
  if (control.tagName === "SELECT" && ![...control.options].some((o) => o.value === String(value))) return;
  control.value = String(value);
}

function restore(game) {
  const saved = (lastTables().games || {})[game], first = opening;
  opening = false;
  if (!saved) return;
  for (const [key, value] of Object.entries(saved.options || {})) setValue($("opt-" + key), value);
  if (!first) return;
  const selects = [...document.querySelectorAll("#seat-fields select")];
  selects.forEach((select, i) => setValue(select, (saved.seats || [])[i + 1]));
  setValue($("turn-timer"), saved.timer);
  setValue($("think-time"), saved.think);
  const values = new Set(selects.map((select) => select.value));
  choosePreset(values.size === 1 && presets.some((b) => b.dataset.preset === selects[0].value) ? selects[0].value : null);
}

// The settings (the game's options, the turn timer) folded under a line saying what they are, on
// a screen narrower than the form's two columns: "Create the table" had been two screens down
// a small phone. Open on a wide one.
const settings = $("create-settings"), wide = matchMedia("(min-width: 1100px)");
settings.open = wide.matches;
wide.addEventListener("change", () => { settings.open = wide.matches; });
settings.addEventListener("input", sayTheSettings);  // (as it is typed: "to 150" had waited for the field's blur)

function sayTheSettings() {
  // (each choice by its name: "объявляются · без ограничения" alone had not said what)
  const said = [...settings.querySelectorAll("select, input")].map((control) => {
    const name = settings.querySelector(`label[for="${control.id}"]`).textContent;
    if (control.tagName !== "SELECT") return `${name} ${control.value}`;  // ("Target 500")
    return `${name[0].toLowerCase()}${name.slice(1)}: ${control.selectedOptions[0].textContent}`;
  });
  $("settings-now").textContent = said.join(" · ");
}

// One tap for every other seat: bots to play at once, or free seats for friends with the link
// (kept when another game is chosen).
let preset = null;
const presets = [...document.querySelectorAll("[data-preset]")];
function choosePreset(value) {
  preset = value;
  presets.forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.preset === value)));
}
presets.forEach((button) => button.addEventListener("click", () => {
  choosePreset(button.dataset.preset);
  for (const select of document.querySelectorAll("#seat-fields select")) select.value = preset;
  showThinkTime();
}));

// The strong bot's thinking time is asked for only when a seat has one.
function strongSeats() { return [...document.querySelectorAll("#seat-fields select")].some((s) => s.value === "bot:strong"); }
function showThinkTime() { $("think-option").hidden = !strongSeats(); }

async function loadGames() {
  const r = await fetch("/api/games");
  games = (await r.json()).games;
  const last = document.querySelector(`input[name="game"][value="${lastTables().last}"]`);
  if (last) last.checked = true;
  drawGame();
  $("create-button").disabled = false;  // the page says disabled until the games are known
}

// Why the table was not made, under the button, brought into sight (on a phone the button is
// at the screen's foot, and a name someone holds had seemed to do nothing).
function refuse(text) {
  $("create-error").textContent = text;
  $("create-error").scrollIntoView({ block: "nearest" });
}

async function createRoom(ev) {
  ev.preventDefault();
  const game = games.find((g) => g.name === currentGame());
  const name = $("create-name").value.trim();
  if (!name) { refuse(t("lobby.need_name")); return; }
  const options = {};
  for (const key of Object.keys(game.options)) {
    const input = $("opt-" + key);
    if (input.type === "number" && input.value === "") {  // (it had been sent as 0)
      refuse(t("lobby.need_number", { option: t("optname." + key) }));
      settings.open = true;  // (folded, the field could not take the focus)
      input.focus();
      return;
    }
    options[key] = input.type === "number" ? Number(input.value) : input.value;
  }
  const seats = ["open", ...[...document.querySelectorAll("#seat-fields select")].map((s) => s.value)];
  $("create-button").disabled = true;
  try {
    const guest = $("create-guest").checked;
    const mine = await ensureIdentity(name, guest);  // before the table: a name someone holds is said first
    // (the table and one's seat at it in one request: a seat refused leaves no table behind)
    const r = await fetch("/api/rooms", { method: "POST", headers: { "Content-Type": "application/json", ...playerHeaders(guest) }, body: JSON.stringify({ game: game.name, options, seats, turn_timer: $("turn-timer").value ? Number($("turn-timer").value) : null, ...(strongSeats() ? { think_time: Number($("think-time").value) } : {}), join: { name: mine, seat: 0 } }) });
    const body = await r.json();
    if (!r.ok) throw new Error(refusalText(body));
    keepName(mine, guest);
    keepSeat(body.code, { token: body.token, seat: body.seat, name: mine });
    keep(game.name, options, seats);  // (after the seat: the seat is what matters)
    // every other seat a bot's: nobody to invite, straight to the table (a page of a code and a
    // link to share had stood between a newcomer and their first game)
    // (the button left disabled as the page goes: a second tap had made a second table)
    if (!seats.includes("open", 1)) { location.href = "/r/" + body.code; return; }
    const link = /^https?:/.test(body.invite) ? body.invite : location.origin + body.invite;
    $("created-code").textContent = body.code;
    $("invite-link").value = link;
    // (for friends round this screen: a phone's camera opens the table)
    const qr = $("invite-qr");
    if (qr) Object.assign(qr, { src: `/r/${body.code}/qr.svg`, hidden: false });
    $("go-table").href = "/r/" + body.code;
    $("create-form").hidden = true;
    $("created").hidden = false;
    $("created-title").focus();  // (the form the focus was in is gone: on to what comes next)
    Promise.resolve(refreshing).then(refresh);  // (the table just made among the open ones and one's own at once)
    $("create-button").disabled = false;
  } catch (error) {
    refuse(sentence(error.message));
    $("create-button").disabled = false;
  }
}

// A list's items replaced only when they say something new (a refresh had taken the keyboard's
// focus off a link every 10 s); a refresh that failed keeps what was shown.
function showList(list, items) {
  const said = items.map((item) => item.outerHTML).join("");
  if (list.dataset.said !== said) { list.dataset.said = said; list.replaceChildren(...items); }
}

// Who sits at a table, the free seats said apart ("Anna, —, —" had read as a glitch).
const seated = (room) => room.seats.filter((s) => s.kind !== "open").map(seatName).join(", ");
const freeSeats = (room) => room.seats.filter((s) => s.kind === "open").length;

let openRooms = [];  // (the last list: a known player's tables waiting for players are among them)
async function loadRooms() {
  const list = $("open-rooms");
  try {
    const r = await fetch("/api/rooms?open=true");
    const rooms = openRooms = (await r.json()).rooms;
    showList(list, rooms.length ? rooms.map((room) => {
      return el("li", {}, el("a", { href: "/r/" + room.code, class: "room-link" }, el("b", {}, t("game." + room.game)), " ", el("span", { class: "code" }, room.code)),
        el("span", { class: "muted" }, " " + [seated(room), t("lobby.free_seats", { n: freeSeats(room) })].filter(Boolean).join(" · ")));
    }) : [el("li", { class: "muted" }, t("lobby.no_rooms"))]);
  } catch { if (!list.dataset.said) showList(list, [el("li", { class: "muted" }, t("error.generic"))]); }
}

document.querySelectorAll('input[name="game"]').forEach((r) => r.addEventListener("change", drawGame));
$("create-form").addEventListener("submit", createRoom);
nameField($("create-name"), $("create-guest"));
// (a phone's share sheet, where it has one: the link straight into a messenger)
$("share-link").hidden = !canShare();
$("share-link").addEventListener("click", () => shareInvite($("invite-link").value, currentGame()));
let copiedShown = null;
$("copy-link").addEventListener("click", async () => {
  const input = $("invite-link");
  try { await navigator.clipboard.writeText(input.value); } catch { input.select(); document.execCommand && document.execCommand("copy"); }
  // said as well as shown (the button's new words had not been read), and "Copy" again after a
  // moment, for the next time
  $("copy-link").textContent = $("copy-said").textContent = t("lobby.copied");
  clearTimeout(copiedShown);
  copiedShown = setTimeout(() => { $("copy-link").textContent = t("lobby.copy"); $("copy-said").textContent = ""; }, 3000);
});
// A table's code as typed or pasted: its letters and digits, or the invite link's last part
// ("https://…/r/K7QXMA", which the box had cut to "http:/").
function tableCode(text) {
  const link = text.match(/\/r\/([A-Za-z0-9]+)/);
  return (link ? link[1] : text).replace(/[^A-Za-z0-9]/g, "").toUpperCase();
}

$("join-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const code = tableCode($("join-code").value);
  $("join-error").textContent = code.length === 6 ? "" : t("lobby.bad_code");
  if (code.length === 6) location.href = "/r/" + code;
});
// The tables this browser has a seat at (kept per table since it sat down) and a known player's
// running matches and waiting tables: the way back to a table whose link was lost, each saying
// whose turn it is.
const MY_TABLES = 8;
// how long after sitting down a table whose match is over is still listed (for the rematch)
const OVER_KEPT_MS = 12 * 3600 * 1000;
async function loadMyTables() {
  const me = identity();
  const seats = new Map();
  const kept = [];  // [code, seat, at], the newest first: a browser may hold many tables' seats
  for (const key of Object.keys(localStorage).filter((k) => k.startsWith(SEAT_KEY))) {
    try { const { seat, at } = JSON.parse(localStorage.getItem(key)); kept.push([key.slice(SEAT_KEY.length), seat, at || 0]); } catch { /* not ours */ }
  }
  kept.sort((a, b) => b[2] - a[2]).slice(0, MY_TABLES).forEach(([code, seat]) => seats.set(code, seat));
  // (a table whose match is over stays a while, for the rematch: it had gone from the list at
  // once, and a guest who went to the lobby had no way back to it)
  const recent = new Set(kept.filter(([, , at]) => Date.now() - at < OVER_KEPT_MS).map(([code]) => code));
  if (me) {  // (a known player's name is theirs alone: their seats on any device)
    const r = await fetch(`/api/matches?status=running&limit=${MY_TABLES}&player=${encodeURIComponent(me.name)}`).catch(() => null);
    const matches = r && r.ok ? (await r.json()).matches : [];
    for (const m of matches) {
      const mine = m.players.find((p) => p.name === me.name && !p.bot);
      if (mine && !m.abandoned && !seats.has(m.room)) seats.set(m.room, mine.seat);
    }
    // and the tables still waiting for players, which have no match yet
    for (const room of openRooms) {
      const mine = room.seats.find((s) => s.kind === "human" && s.name === me.name);
      if (mine && !seats.has(room.code)) seats.set(room.code, mine.seat);
    }
  }
  const rooms = await Promise.all([...seats.keys()].map(async (code) => {
    const r = await fetch("/api/rooms/" + encodeURIComponent(code)).catch(() => null);
    if (r && r.status === 404) keepSeat(code, null);  // (a table this server does not have: a database made anew)
    return r && r.ok ? r.json() : null;
  }));
  if (seats.size && rooms.every((room) => room === null)) return;  // (the network gone: kept as it was)
  const going = rooms.filter((room) => room && (room.status !== "finished" || recent.has(room.code)))
    .sort((a, b) => (a.created < b.created ? 1 : -1)).slice(0, 5);
  $("my-tables").hidden = !going.length;
  showList($("my-tables-list"), going.map((room) => {
    const free = freeSeats(room);
    const people = [seated(room), free ? t("lobby.free_seats", { n: free }) : ""].filter(Boolean).join(" · ");
    const yours = room.status === "playing" && (room.to_act || []).includes(seats.get(room.code));
    const now = yours ? t("lobby.your_turn") : t({ playing: "lobby.table_playing", finished: "lobby.table_over" }[room.status] || "lobby.table_waiting");
    return el("li", { "data-testid": "my-table" }, el("a", { href: "/r/" + room.code, class: "room-link" }, el("b", {}, t("game." + room.game)), " ", el("span", { class: "code" }, room.code)),
      " ", el(yours ? "b" : "span", { class: yours ? "your-turn" : "muted" }, now), el("span", { class: "muted" }, ` · ${people}`));
  }));
}

// (both kept current: "waiting for players" had stayed beside an open-tables list that no longer
// had the table, and "your turn" had come only with a reload)
// (one at a time: a slow one had been overtaken, and an older list drawn over a newer)
let refreshing = null;
const refresh = () => refreshing || (refreshing = loadRooms().then(loadMyTables).finally(() => { refreshing = null; }));
loadGames();
refresh();
setInterval(refresh, window.CARDROOM_REFRESH_MS ?? 10000);  // (the tests shorten it)
