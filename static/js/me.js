// The identity menu on every page: who this browser plays as, their page, renaming, the link
// (and QR code) that brings the identity and its seats to another device, and signing out.
import { t, el, refusalText, sentence } from "./common.js";
import { identity, keepIdentity, playerHeaders, PLAYER_KEY } from "./identity.js";

const box = document.getElementById("me");

function draw() {
  const me = identity();
  box.hidden = !me;
  if (!me) return;
  const out = el("div", { class: "me-out", "data-testid": "me-out" });
  const rename = el("form", { class: "row", "data-testid": "me-rename" },
    el("label", {}, t("me.rename"), " ", el("input", { name: "name", value: me.name, maxlength: "32", required: true })),
    el("button", { class: "button small", type: "submit" }, t("me.rename_button")));
  rename.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const r = await fetch("/api/me", { method: "PATCH", headers: { "Content-Type": "application/json", ...playerHeaders() }, body: JSON.stringify({ name: rename.elements.name.value }) });
    const body = await r.json().catch(() => ({}));
    if (!r.ok) { out.textContent = sentence(refusalText(body)); return; }
    keepIdentity({ ...me, name: body.name });
    draw();
  });
  // the link that brings the identity to another device (`help` says what it is for), and its
  // QR code, shown under the menu's buttons with `after` below them
  const showLink = async (help, ...after) => {
    const r = await fetch("/api/me/device", { method: "POST", headers: playerHeaders() });
    const body = await r.json().catch(() => ({}));
    if (!r.ok) { out.textContent = sentence(refusalText(body)); return false; }
    const qr = el("div", { class: "qr", role: "img", "aria-label": t("me.qr") });
    qr.innerHTML = body.qr; // the server's SVG of the link: no text anyone typed
    const host = new URL(body.link).hostname;
    const here = host === "localhost" || host === "[::1]" || host.startsWith("127.");  // (another device cannot open it)
    out.replaceChildren(el("p", {}, help), el("input", { readonly: true, value: body.link, "aria-label": t("me.device_link"), "data-testid": "me-link" }),
      ...(here ? [el("p", { class: "note", "data-testid": "me-link-local" }, t("me.device_local", { host }))] : []), qr, ...after);
    (after.length ? after[after.length - 1] : qr).scrollIntoView({ block: "nearest" });  // (it had run past a laptop screen's foot)
    return true;
  };
  const device = el("button", { class: "button small", type: "button", "data-testid": "me-device" }, t("me.device"));
  device.addEventListener("click", () => showLink(t("me.device_help")));
  // Signing out: the link is then the only way back, so it is shown first, with the button
  // that forgets (shown on its own if the link cannot be had).
  const signOut = el("button", { class: "button small", type: "button", "data-testid": "me-sign-out" }, t("me.sign_out"));
  signOut.addEventListener("click", () => {
    const forget = el("button", { class: "button small primary", type: "button", "data-testid": "me-sign-out-now", onclick: forgetMe }, t("me.sign_out_now"));
    showLink(t("me.sign_out_help", { name: me.name }), forget).then((shown) => { if (!shown) out.append(forget); });
  });
  const summary = el("summary", { "data-testid": "me-name" }, t("me.you", { name: me.name }));
  const menu = el("details", { class: "me-menu" }, summary,
    el("div", { class: "me-panel" },
      // (one's matches, each saying whether one won: the history, filtered by one's name)
      el("p", { class: "row" }, el("a", { href: "/players/" + encodeURIComponent(me.name) }, t("me.page")),
        el("a", { href: "/history?player=" + encodeURIComponent(me.name), "data-testid": "me-matches" }, t("me.matches"))),
      rename, el("div", { class: "row" }, device, signOut), out));
  // it closes as a menu does: Escape, a click elsewhere, the focus gone elsewhere (left open,
  // it had lain over the table's settings and its score sheet)
  menu.addEventListener("keydown", (ev) => { if (ev.key === "Escape" && menu.open) { menu.open = false; summary.focus(); } });
  menu.addEventListener("focusout", (ev) => { if (ev.relatedTarget && !menu.contains(ev.relatedTarget)) menu.open = false; });
  box.replaceChildren(menu);
}

/** What this browser keeps of its settings, not of anyone's play: the rest goes on signing out. */
const SETTINGS = new Set(["cardroom.sound", "cardroom.notify", "cardroom.keys", "cardroom.lastTable"]);

/** Forgets everything this browser keeps of its player (else a shared computer's next person
 * would be them, in their seats, with their hand of the deal and the cards chosen to pass), and
 * opens the page again as a visitor's; other tabs follow (below). */
function forgetMe() {
  for (const kept of [localStorage, sessionStorage]) {
    Object.keys(kept).filter((k) => k.startsWith("cardroom.") && !SETTINGS.has(k)).forEach((k) => kept.removeItem(k));
  }
  keepIdentity(null);
  location.reload();
}

// signed out in another tab: this one no longer plays as them either (it had stayed seated)
window.addEventListener("storage", (ev) => { if (ev.key === PLAYER_KEY && ev.newValue === null) location.reload(); });

document.addEventListener("click", (ev) => {
  const menu = box && box.querySelector(".me-menu");
  if (menu && menu.open && !menu.contains(ev.target)) menu.open = false;
});

if (box) {
  draw();
  window.addEventListener("cardroom-identity", draw);
}
