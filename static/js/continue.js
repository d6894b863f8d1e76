// "Continue on another device": the link's fragment holds the player key (browsers never send
// a fragment to the server). It is taken out of the address at once, checked, and kept here.
import { t } from "./common.js";
import { keepIdentity } from "./identity.js";

const status = document.getElementById("continue-status");
const key = new URLSearchParams(location.hash.slice(1)).get("key");
history.replaceState(null, "", location.pathname);
if (!key) {
  status.textContent = t("me.continue_no_key");
} else {
  fetch("/api/me", { headers: { "X-Player-Key": key } }).then(async (r) => {
    if (!r.ok) { status.textContent = t("me.continue_bad_key"); return; }
    const { name } = await r.json();
    keepIdentity({ key, name });
    status.textContent = t("me.continue_done", { name });
  }).catch(() => { status.textContent = t("error.generic"); });
}
