// The actions box under the felt: whose turn it is, the end of the match with the rematch button,
// the stand-in offers, then the game's own controls (its panel, table/panels/).
import { t, el } from "../common.js";
import { columnLabels } from "../sheet.js";
import { table } from "./state.js";
import { announce } from "./notices.js";

/** `moves`: what the person may do now (none while a finished trick is held); `names` and
 * `teams` by seat (state.js); `send` and `act` are the connection's. */
export function drawActions({ panel, moves, names, teams, send, act }) {
  const box = document.getElementById("actions");
  box.replaceChildren();
  const { state, said } = table;
  const m = state.match;
  const me = state.you.seat;
  const line = (...content) => box.append(el("div", { class: "action-line" }, ...content));
  if (m && m.finished) {
    drawMatchOver({ m, me, names, teams, line, send });
    return;
  }
  const mine = me !== null && Object.keys(moves).length > 0;
  const status = mine ? t("table.your_turn") : waitingText(state, names);
  box.append(el("p", { class: "status" + (mine ? " yours" : ""), "data-testid": "status" }, status));
  if (status !== said.status) {
    said.status = status;
    if (mine || !m) announce(status);
  }
  drawStandins(state, line, send);
  if (m && m.deal) panel.drawControls({ state, deal: m.deal, moves, me, names, line, act });
}

function drawMatchOver({ m, me, names, teams, line, send }) {
  table.said.status = "";
  const labels = columnLabels(teams, names); // m.winners counts teams when there are teams
  const over = t("table.match_over", { names: m.winners.map((w) => labels[w]).join(", ") });
  const key = m.deals.length + ":" + over;
  if (table.said.over !== key) { table.said.over = key; announce(over); }
  line(el("p", { class: "banner match-over", "data-testid": "match-over" }, over));
  if (me !== null) line(el("button", { type: "button", class: "button primary", "data-testid": "rematch", onclick: () => send({ type: "rematch" }) }, t("table.rematch")));
}

function waitingText(state, names) {
  const m = state.match;
  if (!m) return t("info.waiting_open", { n: state.room.seats.filter((s) => s.kind === "open").length });
  if (m.finished) return "";
  const who = m.to_act.map((s) => names[s]);
  if (!who.length) return t("info.next_deal");
  return t("table.waiting_for", { names: who.join(", ") });
}

// Stand-ins (docs/protocol.md `standin`): a seated person may hand a free seat, or the seat of
// someone who is away, to a bot; the person who comes back takes it back (the server does that).
function drawStandins(state, line, send) {
  const me = state.you.seat;
  for (const info of state.room.seats) {
    const s = info.seat;
    if (s === me) continue;
    const name = info.name || t("lobby.seat_n", { n: s + 1 });
    if (info.kind === "human" && info.standin) {
      line(el("span", { class: "note standin-note", "data-testid": "standin-note-" + s }, t("standin.playing", { name })));
      continue;
    }
    if (me === null) continue;
    const away = info.kind === "human" && !info.connected;
    if (info.kind !== "open" && !away) continue;
    const ask = (bot) => () => send({ type: "standin", seat: s, bot });
    const label = (bot) => (away ? t(`standin.${bot}_for`, { name }) : t(`standin.seat_${bot}`, { n: s + 1 }));
    const why = away ? t("standin.away", { name }) : t("standin.free", { n: s + 1 });
    line(el("div", { class: "standin-box", role: "group", "aria-label": why, "data-testid": "standin-box-" + s },
      el("span", { class: "note" }, why),
      el("button", { type: "button", class: "button small", "data-testid": `standin-${s}-rules`, onclick: ask("rules") }, label("rules")),
      el("button", { type: "button", class: "button small", "data-testid": `standin-${s}-random`, onclick: ask("random") }, label("random"))));
  }
}
