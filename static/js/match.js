// The match page: per-deal table (score sheet) and the replay viewer (all hands open).
import { t, el, actionText, declaredText, pageData, signed } from "./common.js";
import { renderSheet, dealHeadline } from "./sheet.js";
import { renderSeats, renderInfo, renderTrick } from "./render.js";
import { startAnalysis, showMark } from "./analysis.js";
import { identity, keptSeat } from "./identity.js";

const match = pageData("match-data");
const names = match.players.map((p) => (p.bot ? t("bot.name", { n: p.seat + 1 }) : p.name));
// the seats of each team, as the engine pairs them (null: each seat scores for itself)
const teams = pageData("match-teams");
// (each side as the page's heading names it: a pair in Big Mariage, a seat otherwise)
const sides = pageData("match-sides");
const winners = (match.winners || []).map((w) => sides[w]).join(", ");
const $ = (id) => document.getElementById(id);

// The viewer's own seat at the foot of the replay, as at the table (Vera had found herself at its
// top): the seat this browser took at the match's table, else a known player's by name; anyone
// else sees the first seat there.
function viewerSeat() {
  const kept = keptSeat(match.room);
  if (kept && Number.isInteger(kept.seat) && kept.seat < match.players.length) return kept.seat;
  const me = identity();
  const mine = me && match.players.find((p) => !p.bot && p.name === me.name);
  return mine ? mine.seat : 0;
}
const viewer = viewerSeat();

// The post-match analysis: its marks show in the replay once it is there.
let analysis = null;
let redraw = () => {};
let showMove = () => {};  // (the replay's, once it is loaded)
if ($("analysis") && match.status === "finished") {
  startAnalysis($("analysis"), match, names, (result) => {
    analysis = result;
    $("replay-section").classList.toggle("analysed", !!result);
    redraw();
  }, (deal, index) => showMove(deal, index));
}

let showDeal = null;  // (the replay's, once it is loaded: each deal's number in the table then leads to it)
const drawSheet = () => renderSheet($("deal-table"), {
  game: match.game, deals: match.deal_list, names, teams, winners: match.winners || [],
  finished: match.status === "finished", caption: false, target: (match.options || {}).target, onDeal: showDeal,
});
drawSheet();

async function startReplay() {
  const box = $("replay");
  if (!box) return;
  const r = await fetch(`/api/matches/${match.id}/replay`);
  if (!r.ok) { box.textContent = t("error.generic"); return; }
  const data = await r.json();
  const frames = data.frames;
  const felt = el("section", { class: "felt replay-felt", dataset: { seats: String(data.seats) } },
    el("div", { class: "seat-slot", dataset: { pos: "top" } }), el("div", { class: "seat-slot", dataset: { pos: "left" } }),
    el("div", { class: "seat-slot", dataset: { pos: "right" } }),
    el("div", { class: "centre" }, el("div", { class: "info" }), el("div", { class: "trick" })),
    el("div", { class: "seat-slot", dataset: { pos: "bottom" } }));
  box.append(felt);
  // Held sideways (the stylesheet's query), the felt is short: the top and bottom seats put
  // their names beside their cards; upright, over them (beside a name, seventeen open cards
  // wrapped into a column).
  const sideways = matchMedia("(max-height: 500px) and (orientation: landscape)");
  const placeNames = () => felt.querySelectorAll(".seat-slot:is([data-pos=top], [data-pos=bottom])")
    .forEach((slot) => slot.classList.toggle("beside", sideways.matches));
  placeNames();
  const slider = $("rp-slider");
  slider.max = String(frames.length - 1);
  let i = 0, timer = null;
  const dealFirst = (deal) => frames.findIndex((f) => f.deal === deal);  // (-1 past the last)
  // The felt keeps the greatest height its cards have needed at its width, and its foot the
  // lowest place it has had under the bar's top: a step to a shorter position (or a shorter line
  // of what it did) does not pull the page, and the buttons under a thumb, up. Turned, or its
  // screen made taller or shorter (its foot had stayed under a shorter one), it starts again.
  // Where the bar lies over the felt (not held sideways: beside it), that foot is at least the
  // screen's foot with the bar at the screen's top: the page has room to bring the bar there,
  // and what a step shows grows into the felt. (A felt seen whole at the page's foot had grown,
  // the page had scrolled it into sight, and the buttons had gone up from under the thumb: by 18
  // then 42 pixels at 360×640, the next taps landing on the line under ▶.)
  const bar = document.querySelector(".replay-side");
  let tallest = { width: 0, screen: 0, height: 0, reach: 0 };
  const keepHeight = () => {
    if (felt.clientWidth !== tallest.width || innerHeight !== tallest.screen) {
      tallest = { width: felt.clientWidth, screen: innerHeight, height: 0, reach: 0 };
    }
    // (measured in a box that holds the page's length: a page shorter for a moment had had its
    // scroll cut back, the buttons jumping down the screen)
    box.style.minHeight = felt.offsetHeight + "px";
    felt.style.minHeight = tallest.height ? tallest.height + "px" : "";  // (none: the stylesheet's)
    tallest.height = felt.getBoundingClientRect().height;  // (border-box)
    const barOver = sideways.matches ? 0 : bar.offsetHeight;
    tallest.reach = Math.max(tallest.reach, barOver + tallest.height, barOver ? innerHeight : 0);
    felt.style.minHeight = tallest.reach - barOver + "px";
    box.style.minHeight = "";
  };
  addEventListener("resize", () => { placeNames(); keepHeight(); });
  const show = (k) => {
    i = Math.max(0, Math.min(frames.length - 1, k));
    slider.value = String(i);
    const f = frames[i];
    const m = { game: data.game, nSeats: data.seats, teams, me: viewer, names, seatInfo: [], deal: f.deal_view, toAct: f.to_act, replay: true };
    renderSeats(felt, m);
    renderInfo(felt.querySelector(".info"), m);
    const d = f.deal_view;
    const justClosed = f.action && f.action.type === "play" && d.trick.length === 0 && d.last_trick;
    renderTrick(felt.querySelector(".trick"), m, justClosed ? d.last_trick : null);
    // (the step counted within its deal, as a person thinks of it: "step 45/132" of the whole
    // match had said nothing of where the deal stood)
    const first = dealFirst(f.deal), next = dealFirst(f.deal + 1);
    const steps = (next < 0 ? frames.length : next) - first;
    $("rp-where").textContent = t("replay.where", { deal: f.deal + 1, deals: frames[frames.length - 1].deal + 1, step: i - first + 1, steps });
    slider.setAttribute("aria-valuetext", $("rp-where").textContent);
    const line = $("rp-action");
    line.replaceChildren(...(f.action ? [...actionText(f.seat, f.action, names, d.pass_to), ...declaredText(f.seat, f.action, f.deal_view)] : [t("replay.dealt", { deal: f.deal + 1, name: names[d.dealer] })]));
    // (a bot's move for the person, the turn timer's or a stand-in's: it had read as theirs)
    if (f.by_bot) line.append(" ", el("span", { class: "by-bot", "data-testid": "replay-by-bot" }, t("replay.by_bot")));
    // (at a deal's end, how it came out: the score alone had not said that a contract failed)
    const over = d.phase === "over" && match.deal_list[f.deal] && match.deal_list[f.deal].summary;
    const outcome = over ? dealHeadline(data.game, over, names) : null;
    // (said short on a phone held upright, where the line has two rows: "contract failed")
    const team = over && data.game === "big_mariage" && !over.thrown_in ? over.teams.find((x) => x.declaring) : null;
    if (outcome) line.append(" · ", el("span", { class: team ? "outcome long" : "outcome" }, ...outcome));
    if (team) line.append(el("span", { class: "short" }, t(team.made ? "replay.made_short" : "replay.failed_short")));
    // (the score read only when it changes: "score 0 : 0" had been heard at every step)
    const sameScore = i > 0 && frames[i - 1].totals.join() === f.totals.join();
    line.append(el("span", { "aria-hidden": sameScore ? "true" : null }, " · ", el("span", { class: "totals" }, t("replay.totals", { totals: f.totals.map((n) => signed(n)).join(" : ") }))));
    if (i === frames.length - 1 && match.status === "finished") line.append(" · ", el("b", { "data-testid": "replay-winners" }, `${t(teams || match.winners.length > 1 ? "match.winners" : "match.winner")}: ${winners}`));
    if ($("rp-mark")) showMark($("rp-mark"), analysis, frames, i, names);
    keepHeight();
  };
  redraw = () => show(i);
  // a marked move chosen in the analysis, or a deal in the table: the replay at it, in sight,
  // the focus on its position
  showMove = (deal, index) => {
    show(dealFirst(deal) + 1 + index);
    bringReplayInSight();
  };
  showDeal = (deal) => showMove(deal, -1);
  // (the link under the title: the replay where it stands)
  document.querySelector("[data-testid=to-replay]").addEventListener("click", (ev) => {
    ev.preventDefault();
    bringReplayInSight();
  });
  drawSheet();
  const dealStart = (dir) => {
    const cur = frames[i].deal;
    if (dir < 0) {
      const first = dealFirst(cur);
      const target = i > first ? cur : cur - 1;
      show(Math.max(0, dealFirst(target)));
    } else {
      const k = dealFirst(cur + 1);
      show(k < 0 ? frames.length - 1 : k);
    }
  };
  $("rp-prev").onclick = () => show(i - 1);
  $("rp-next").onclick = () => show(i + 1);
  $("rp-prev-deal").onclick = () => dealStart(-1);
  $("rp-next-deal").onclick = () => dealStart(1);
  slider.oninput = () => show(Number(slider.value));
  // (the button says whether it plays: it had stayed "▷" throughout; from the end it starts again)
  const play = $("rp-play");
  // (each move is said as it is stepped to, with what the analysis says of it, not while it
  // plays by itself: one every 700 ms)
  const said = (live) => { for (const id of ["rp-action", "rp-mark"]) if ($(id)) $(id).setAttribute("aria-live", live); };
  const stop = () => { clearInterval(timer); timer = null; play.textContent = "▷"; play.setAttribute("aria-pressed", "false"); said("polite"); };
  play.onclick = () => {
    if (timer) { stop(); return; }
    if (i >= frames.length - 1) show(0);
    timer = setInterval(() => (i >= frames.length - 1 ? stop() : show(i + 1)), 700);
    play.textContent = "❚❚";
    play.setAttribute("aria-pressed", "true");
    said("off");
  };
  // ← → a move anywhere on the page; in the replay's controls also PgUp PgDn a deal and Home End
  // the match's first and last step (outside them those keys scroll the page, as they should)
  const inReplay = { PageUp: () => dealStart(-1), PageDown: () => dealStart(1), Home: () => show(0), End: () => show(frames.length - 1) };
  document.addEventListener("keydown", (ev) => {
    if (ev.target.matches("input:not([type=range]), textarea, select") || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const go = ev.key === "ArrowRight" ? () => show(i + 1) : ev.key === "ArrowLeft" ? () => show(i - 1)
      : ev.target.closest(".replay-controls") ? inReplay[ev.key] : null;
    if (go) { go(); ev.preventDefault(); }
  });
  show(0);
}
startReplay();

// The replay at the screen's top, the focus on its position. Where its bar sticks there (a phone
// upright, a screen as short as a phone's sideways), the felt under it is seen whole only once
// the section's heading has gone above the screen (in sight, it had cut the bottom seat by 36
// pixels at 360×640).
function bringReplayInSight() {
  $("replay-section").scrollIntoView({ block: "start" });
  const bar = document.querySelector(".replay-side");
  if (getComputedStyle(bar).position === "sticky") scrollBy(0, bar.getBoundingClientRect().top);
  $("rp-slider").focus({ preventScroll: true });
}
