// Standings: without a choice of people, the people this browser's player plays with most.
import { identity } from "./identity.js";

const MOST = 6;
const chosen = document.getElementById("standings-players");
const me = identity();
if (chosen && !chosen.value.trim() && me) {
  fetch("/api/players/" + encodeURIComponent(me.name)).then(async (r) => {
    if (!r.ok) return;
    const page = await r.json();
    const names = [me.name, ...page.partners.map((p) => p.name), ...page.opponents.map((o) => o.name)];
    const people = [...new Set(names)].slice(0, MOST);
    if (people.length > 1) location.replace("/standings?players=" + encodeURIComponent(people.join(",")));
  });
}
