// "Your turn" told beyond the table: the tab's title, a short tone (Web Audio, no file) and,
// while the tab is hidden, a desktop notification; the table bar's settings menu turns the
// sound and the notifications on and off, remembered in localStorage. The sound is on and the
// notifications off until the person says otherwise; the browser asks for the permission once.
import { t } from "../common.js";

const $ = (id) => document.getElementById(id);
const SOUND = "cardroom.sound", NOTIFY = "cardroom.notify", KEYS = "cardroom.keys";
const baseTitle = document.title;
let mineBefore = false;
let audio = null; // made at the person's first touch: browsers keep sound for pages used

const soundOn = () => localStorage.getItem(SOUND) !== "off";
/** Whether the single keys L and S work (WCAG 2.1.4: a person whose software types letters, by
 * voice for one, can turn them off). */
export const keysOn = () => localStorage.getItem(KEYS) !== "off";
const notifyOn = () => localStorage.getItem(NOTIFY) === "on" && "Notification" in window && Notification.permission === "granted";

/** Called with each drawing of the table: `mine` says whether the person has something to do.
 * Returns whether their turn has just begun. */
export function noticeTurn(mine, what) {
  document.title = mine ? `● ${t("table.your_turn")} — ${baseTitle}` : baseTitle;
  const begun = mine && !mineBefore;
  if (begun) {
    if (soundOn()) tone();
    if (document.hidden && notifyOn()) notify(what);
  }
  mineBefore = mine;
  return begun;
}

// Two short rising notes, quiet.
function tone() {
  if (!audio || audio.state !== "running") return;
  const start = audio.currentTime;
  [660, 880].forEach((hz, i) => {
    const osc = audio.createOscillator(), gain = audio.createGain();
    osc.frequency.value = hz;
    gain.gain.setValueAtTime(0.0001, start + i * 0.12);
    gain.gain.exponentialRampToValueAtTime(0.15, start + i * 0.12 + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + i * 0.12 + 0.11);
    osc.connect(gain).connect(audio.destination);
    osc.start(start + i * 0.12);
    osc.stop(start + i * 0.12 + 0.12);
  });
}

function notify(what) {
  let note;
  try {
    note = new Notification(t("table.your_turn"), { body: what, tag: "cardroom-turn" });
  } catch {
    return; // Chrome on Android makes notifications through a service worker only: none there
  }
  note.onclick = () => { window.focus(); note.close(); };
}

function unlockAudio() {
  if (audio || !window.AudioContext) return;
  audio = new AudioContext();
}

/** The settings menu of the table bar. */
export function listenToSettings() {
  const button = $("menu-button"), menu = $("table-menu");
  const sound = $("opt-sound"), alerts = $("opt-notify"), keys = $("opt-keys");
  const open = (on) => { menu.hidden = !on; button.setAttribute("aria-expanded", String(on)); };
  button.addEventListener("click", () => open(menu.hidden));
  document.addEventListener("click", (ev) => { if (!menu.hidden && !ev.target.closest(".menu")) open(false); });
  // (Esc on the ⚙ button itself too: it had closed the menu only from inside it)
  // (and Esc closes the menu alone: a chat or a sheet open under it stays)
  button.parentNode.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && !menu.hidden) { open(false); button.focus(); ev.stopPropagation(); }
  });
  button.parentNode.addEventListener("focusout", (ev) => { if (ev.relatedTarget && !button.parentNode.contains(ev.relatedTarget)) open(false); });
  sound.checked = soundOn();
  alerts.checked = notifyOn();
  alerts.disabled = !("Notification" in window);
  sound.addEventListener("change", () => localStorage.setItem(SOUND, sound.checked ? "on" : "off"));
  keys.checked = keysOn();
  const drawKeys = () => {
    for (const [id, key] of [["toggle-last", "L"], ["toggle-sheet", "S"]]) {
      if (keysOn()) $(id).setAttribute("aria-keyshortcuts", key);
      else $(id).removeAttribute("aria-keyshortcuts");
    }
  };
  keys.addEventListener("change", () => { localStorage.setItem(KEYS, keys.checked ? "on" : "off"); drawKeys(); });
  drawKeys();
  alerts.addEventListener("change", async () => {
    if (alerts.checked && Notification.permission !== "granted") {
      alerts.checked = (await Notification.requestPermission()) === "granted";
    }
    localStorage.setItem(NOTIFY, alerts.checked ? "on" : "off");
    $("notify-note").hidden = alerts.checked || Notification.permission !== "denied";
  });
  for (const kind of ["pointerdown", "keydown"]) document.addEventListener(kind, unlockAudio, { once: true });
}
