// The result panel over the felt, for players and spectators. Between two deals: the deal just
// played, each side's points and where they came from (the deal's `summary`, as the score sheet
// reads it), who asked for the next deal, the countdown to it (ROOM.deal_left) and "Next deal"
// for the people at the table. Once the match is over: the winners, the final totals,
// "Rematch" and who asked for it.
import { t, tParts, el, fullStop, signed } from "../common.js";
import { columnLabels, columnNames, dealDetails, dealHeadline } from "../sheet.js";
import { table } from "./state.js";
import { announce } from "./notices.js";

const $ = (id) => document.getElementById(id);

/** `names` and `teams` by seat (state.js); `send`: the connection's. */
export function drawResult({ names, teams, send }) {
  const box = $("result");
  const m = table.state.match;
  const shown = resultDue();
  // "Last trick" pressed: the felt under the panel shows it, until pressed again
  box.hidden = !shown || table.showLast;
  if (!shown) {
    box.replaceChildren();
    table.said.result = "";
    return;
  }
  const labels = columnLabels(teams, names);
  const last = m.deals[m.deals.length - 1];
  const winners = m.winners.map((w) => labels[w]).join(", ");
  const many = teams || m.winners.length > 1;  // (a pair wins together: "winners")
  const title = m.finished
    ? el("h2", { id: "result-title", class: "banner match-over", "data-testid": "match-over" }, t(many ? "table.match_over_many" : "table.match_over", { names: winners }))
    : el("h2", { id: "result-title" }, t("result.deal_over", { n: m.deals.length }));
  const me = table.state.you.seat;
  const side = teams && me !== null ? teams.findIndex((pair) => pair.includes(me)) : null;
  const line = headline(m.game, last.summary, names, side);
  box.replaceChildren(...[title, line,
    m.finished ? el("h3", { class: "last-deal" }, t("result.last_deal", { n: m.deals.length })) : null,
    sides(m, last, columnNames(teams, names), names),
    whatNext(send, names, m.finished)].filter(Boolean));
  drawDealCountdown();
  // (and, to whoever may ask for time, when the next deal comes: the result closes by itself)
  const left = box.querySelector("[data-testid=wait-deal]") ? secondsLeft() : null;
  tell(m, labels, [title.textContent, line ? wordsOf(line) : "", left ? t("result.countdown_said", { n: left }) : ""]);
}

// A line's words without its card chips ("Anna took the queen of spades", not "… Q♠").
const wordsOf = (node) => [...node.childNodes].filter((n) => !(n.classList && n.classList.contains("cardtext"))).map((n) => n.textContent).join("").trim();

/** Whether the result panel is due: a deal (or the match) is over, its last trick no longer
 * held in the middle. */
export function resultDue() {
  const m = table.state.match;
  return Boolean(m && m.deal && (m.finished || m.deal.phase === "over") && !table.holding);
}

/** Whether the result panel is not on the page yet (it appears with the next draw if due). */
export const resultNew = () => !$("result").childElementCount;

// A sentence over the columns: how the contract went, who took the queen of spades.
function headline(game, summary, names, side) {
  const said = dealHeadline(game, summary, names, side);
  return said && el("p", { class: "headline", "data-testid": "result-headline" }, ...said);
}

// One block per column (a seat, or a team): the deal's points, their details (the contract is
// the headline's), the total after.
function sides(m, last, headings, names) {
  return el("div", { class: "result-sides" }, headings.map((heading, i) => {
    const won = m.finished && m.winners.includes(i);
    const score = last.scores[i];
    return el("div", { class: "result-side" + (won ? " winner" : ""), "data-testid": "result-side-" + i },
      el("h3", {}, heading, won ? el("span", { class: "star", "aria-hidden": "true" }, "★") : ""),  // (the winners are said in words)
      el("p", { class: "deal-points", "data-testid": "result-points-" + i }, signed(score, m.game === "big_mariage")),
      el("ul", { class: "details" }, dealDetails(m.game, last.summary, i, names, false).map((part) => el("li", {}, part))),
      el("p", { class: "total", "data-testid": "result-total-" + i }, ...tParts("result.total", { n: el("b", {}, signed(m.totals[i])) })));
  }));
}

// What comes next, and whom the table waits for: every person at it (not a bot, not a
// stand-in) who is here and has not asked yet. Between deals the server deals once nobody is
// left, or at the end of the countdown; after the match, the rematch begins once nobody is left
// (one person's tap had wiped the result from everyone's screen).
function whatNext(send, names, finished) {
  const { room, you } = table.state;
  const people = room.seats.filter((s) => s.kind === "human" && !s.standin && s.connected);
  const waiting = people.filter((s) => !room.ready.includes(s.seat));
  const iAmReady = you.seat !== null && room.ready.includes(you.seat);
  const listed = (seats) => ({ names: seats.map((s) => names[s.seat]).join(", ") });
  const out = el("div", { class: "result-next" });
  // (the deal read: asked for as the countdown ends, the next deal already dealt, it is no error)
  const deal = table.state.match.deals.length - 1;
  if (you.seat !== null && !iAmReady) {
    out.append(finished
      ? el("button", { type: "button", class: "button primary", "data-testid": "rematch", onclick: () => send({ type: "rematch" }) }, t("table.rematch"))
      : el("button", { type: "button", class: "button primary", "data-testid": "next-deal", onclick: () => send({ type: "next", deal }) }, t("result.next_deal")));
    // (the countdown had closed the result on whoever still read it: it stops for them)
    if (!finished && !room.waiting.includes(you.seat)) out.append(el("button", { type: "button", class: "button", "data-testid": "wait-deal", onclick: () => send({ type: "wait", deal }) }, t("result.wait")));
  }
  const readers = people.filter((s) => room.waiting.includes(s.seat) && !room.ready.includes(s.seat));
  const others = readers.filter((s) => s.seat !== you.seat);
  if (!finished && readers.length) {
    out.append(el("p", { class: "note", "data-testid": "waiting-list" }, others.length ? t("result.waiting_asked", listed(others)) : t("result.you_wait")));
  }
  // ("Wait" pressed: its button goes and the focus with it to "Next deal"; said, as it is shown)
  const waitKey = `${(room.match || {}).id}:${deal}`;
  if (room.waiting.includes(you.seat) && table.said.wait !== waitKey) {
    table.said.wait = waitKey;
    announce(t("result.you_wait"));
  }
  if (iAmReady && waiting.length) out.append(el("p", { class: "note", tabindex: "-1", "data-testid": "ready-waiting" }, t(finished ? "result.rematch_waiting" : "result.waiting_for", listed(waiting))));
  const ready = people.filter((s) => room.ready.includes(s.seat));
  if (ready.length && !iAmReady) out.append(el("p", { class: "note", "data-testid": "ready-list" }, t(finished ? "result.rematch_asked" : "result.ready", listed(ready))));
  if (!finished) out.append(el("p", { class: "countdown", id: "deal-countdown", "data-testid": "deal-countdown" }));
  // (the match is in the history now: its page had been reached only through the history)
  else if (room.match) out.append(el("a", { class: "button", href: "/matches/" + room.match.id, "data-testid": "match-link" }, t("result.match_page")));
  // (and the way back to the lobby: a phone's table page has no top bar, only its menu)
  if (finished) out.append(el("a", { class: "button", href: "/", "data-testid": "lobby-link" }, t("nav.lobby")));
  // (and out of one's seat: a rematch the others ask for waits for a friend or a bot in it;
  // there had been no way to leave but to close the page)
  if (finished && you.seat !== null) {
    out.append(el("button", { type: "button", class: "button", "data-testid": "leave-table",
      onclick: () => send({ type: "leave" }) }, t("table.leave")));
  }
  return out;
}

/** The countdown to the next deal, counted down on the page between two states (table.js calls
 * it every second). */
export function drawDealCountdown() {
  const box = $("deal-countdown");
  if (!box) return;
  const left = secondsLeft();
  box.hidden = left === null;
  box.textContent = left === null ? "" : t("result.countdown", { n: left });
}

const secondsLeft = () => (table.dealDeadline === null ? null : Math.max(0, Math.ceil((table.dealDeadline - performance.now()) / 1000)));

// Screen readers hear the result once: its title, its headline and each column's points in the
// deal and in the match (the match's end had been said with the last deal's points alone:
// "Winner: Clara … Clara: 6", where her total was 28).
function tell(m, labels, lines) {
  const key = m.deals.length + ":" + m.finished;
  if (table.said.result === key) return;
  table.said.result = key;
  const last = m.deals[m.deals.length - 1];
  const [title, headline, countdown] = lines;
  const points = labels.map((label, i) => t("result.said_side", { name: label, points: last.scores[i], total: m.totals[i] })).join("; ");
  announce([title, headline, points, countdown].filter(Boolean).map(fullStop).join(" "));
}
