// The match page's post-match analysis (docs/analysis.md): its progress, a summary per
// player, the marked moves and a chart of where the points were lost (each taking the replay
// to its move), and each replay step's mark.
import { t, el, actionText, cardText, refusalText, sentence, spoken, LANG } from "./common.js";

const MARKS = ["inaccuracy", "mistake", "blunder"];
// (as chess writes them: a phone's summary heads its columns with these, the words under it)
const SYMBOLS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
const SVG = "http://www.w3.org/2000/svg";
// the marked moves a phone lists unfolded at most
const UNFOLDED_MOST = 8;
// the running totals' colours (app/web/charts.py), by seat: a player is one colour on the page
const COLOURS = ["#f2c14e", "#5ab1ef", "#f78154", "#9bd26a"];
const TENTHS = new Intl.NumberFormat(LANG, { minimumFractionDigits: 1, maximumFractionDigits: 1, signDisplay: "negative" });  // (no "−0,0")
/** Points to a tenth, as the page's language writes them (44.2, 44,2), with the sheet's minus
 * sign ("−153,2", not a hyphen). */
const tenths = (value) => TENTHS.format(value).replace("-", "\u2212");

function svg(tag, attrs, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const c of children) node.append(c);
  return node;
}

/** The analysis section of ``match`` (a finished match), into ``box``; ``onResult(result)``
 * once an analysis is there (the replay shows its marks); ``showMove(deal, index)`` takes the
 * replay to a deal's decision. */
export function startAnalysis(box, match, names, onResult, showMove) {
  // (tabindex: it takes the focus from "Analyse", which goes while it works)
  const status = el("p", { class: "an-status", id: "analysis-status", tabindex: "-1", "data-testid": "analysis-status" });
  // what a screen reader is told when an analysis asked for here is ready (its progress, every
  // 2 s, is read only where the focus is)
  const told = el("p", { class: "sr-only", role: "status", "data-testid": "analysis-told" });
  // (the decisions analysed, stored as the analysis goes: it had moved a deal at a time)
  const bar = el("progress", { class: "an-progress", "aria-labelledby": "analysis-status", "data-testid": "analysis-progress", hidden: true });
  const ask = el("button", { type: "button", class: "button", "data-testid": "analysis-ask", hidden: true });
  const summary = el("div", { class: "scroll an-summary", "data-testid": "analysis-summary" });
  const marked = el("div", { class: "an-marked", "data-testid": "analysis-marked" });
  const chart = el("div", { class: "chart-box", "data-testid": "analysis-chart" });
  box.append(status, bar, ask, summary, marked, chart, told);
  const url = `/api/matches/${match.id}/analysis`;
  let timer = null;
  // the chart drawn at the width it has, and again when that changes (at a fixed 640 it had
  // used half a desktop's width)
  let charted = null, chartedAt = 0;
  function drawChart() {
    chartedAt = chartWidth(chart);
    renderChart(chart, charted, names, showMove, chartedAt);
  }
  new ResizeObserver(() => { if (charted && chartWidth(chart) !== chartedAt) drawChart(); }).observe(chart);

  async function load() {
    clearTimeout(timer);
    const r = await fetch(url);
    if (!r.ok) { status.textContent = t("error.generic"); return; }
    show(await r.json());
  }

  // (asked again, the last analysis stays until the new one replaces it: it had gone from the
  // page, for everyone, for as long as the new one took)
  let shownFinished = null;
  function showResult(a) {
    if (!a.result || a.finished === shownFinished) return;
    shownFinished = a.finished;
    renderSummary(summary, a.result, names);
    renderMarked(marked, a.result, names, showMove);
    charted = a.result;
    drawChart();
    onResult(a.result);
  }

  function show(a) {
    ask.hidden = bar.hidden = true;
    showResult(a);
    if (a.status === null || a.status === "failed") {
      status.textContent = t(a.status === null ? "analysis.none" : "analysis.failed");
      if (asked && a.status === "failed") told.textContent = t("analysis.failed");
      asked = false;
      ask.textContent = t(a.status === null ? "analysis.ask" : "analysis.again");
      ask.hidden = false;
      return;
    }
    if (a.status === "queued" || a.status === "running") {
      // (its size is known once its record is read: until then, no "0 of 0")
      status.textContent = a.status === "queued" ? t("analysis.queued")
        : a.total ? t("analysis.running", { done: a.done, total: a.total }) : t("analysis.starting");
      if (a.total) Object.assign(bar, { max: a.total, value: a.done, hidden: false });
      timer = setTimeout(load, 2000);
      return;
    }
    if (asked) told.textContent = t("analysis.ready");
    asked = false;
    status.textContent = t("analysis.done") + " " + t("analysis.measure." + match.game);
    ask.textContent = t("analysis.again");
    ask.hidden = false;
    box.append(ask);  // (under what it would redo: above the summary, a tap meant for it had asked again)
  }

  let asked = false;
  ask.onclick = async () => {
    const focused = document.activeElement === ask;
    ask.hidden = true;
    if (focused) status.focus();  // (it had fallen to the page's body)
    const again = ask.textContent === t("analysis.again");
    const r = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ again }) });
    if (!r.ok) {  // (what the server said, "try again in 3135 s", and the button again to try)
      status.textContent = sentence(refusalText(await r.json().catch(() => null)));
      ask.hidden = false;
      return;
    }
    bar.after(ask);  // (back under the progress, for a failure's "Analyse again")
    asked = true;
    told.textContent = "";
    load();
  };
  load();
}

function renderSummary(box, result, names) {
  const head = el("tr", {}, el("th", { text: t("analysis.player") }), el("th", { text: t("analysis.decisions") }),
    el("th", { text: t("analysis.lost") }), el("th", { text: t("analysis.lost_per_deal") }),
    // (each column's sign beside its word, as the marked moves are signed: "?!" had been said nowhere)
    ...MARKS.map((m) => el("th", { class: "an-mark-head" }, el("span", { class: "symbol mark-" + m, "aria-hidden": "true" }, SYMBOLS[m]),
      " ", el("span", { class: "word" }, t("analysis.marks." + m)))));
  const rows = result.summary.map((s) => el("tr", { "data-testid": "analysis-row" },
    el("td", { text: names[s.seat] }), el("td", { text: String(s.decisions) }),
    el("td", { text: tenths(s.lost) }), el("td", { text: tenths(s.lost_per_deal) }),
    ...MARKS.map((m) => el("td", { class: "mark-" + m, text: String(s.marks[m]) }))));
  const legend = el("p", { class: "an-marks", "aria-hidden": "true" },
    MARKS.map((m) => `${SYMBOLS[m]} ${t("analysis.marks." + m).toLowerCase()}`).join(" · "));
  box.replaceChildren(el("table", { class: "sheet" }, el("thead", {}, head), el("tbody", {}, ...rows)), legend);
}

/** The marked moves in the match's order, each a button to it in the replay: what was played,
 * what it cost, what was better (they had been found only by stepping through the replay);
 * a choice of whose moves to list (a player looks back at their own). */
function renderMarked(box, result, names, showMove) {
  const moves = result.deals.flatMap((deal) => deal.decisions.filter((d) => d.mark).map((d) => ({ deal: deal.deal, d })));
  if (!moves.length) { box.replaceChildren(el("p", { class: "muted" }, t("analysis.no_marks"))); return; }
  const heading = el("h3", {});
  const items = moves.map(({ deal, d }) => el("li", { "data-seat": String(d.seat) },
    el("button", { type: "button", class: "an-move mark-" + d.mark, "data-testid": "analysis-move", onclick: () => showMove(deal, d.index) },
      el("span", { class: "symbol", "aria-hidden": "true" }, SYMBOLS[d.mark]), " ",
      el("b", {}, t("analysis.in_deal", { n: deal + 1 })), " ", ...choiceText(d.seat, d.action, names), " — ",
      t("analysis.cost", { mark: t("analysis.mark." + d.mark), cost: tenths(d.cost) }), " · ", t("analysis.better"), " ",
      ...betterText(d, names))));
  const whose = el("select", { id: "analysis-whose", "data-testid": "analysis-whose" },
    el("option", { value: "" }, t("analysis.everyone")), ...names.map((name, seat) => el("option", { value: String(seat) }, name)));
  const list = () => {
    const shown = items.filter((li) => !whose.value || li.dataset.seat === whose.value);
    items.forEach((li) => { li.hidden = !shown.includes(li); });
    heading.textContent = t("analysis.marked", { n: shown.length });
  };
  whose.addEventListener("change", list);
  list();
  // (folded on a phone when long: 29 moves had put the chart and the replay 6,000 pixels down)
  const open = items.length <= UNFOLDED_MOST || !matchMedia("(max-width: 600px)").matches;
  box.replaceChildren(el("details", { open }, el("summary", {}, heading),
    el("p", { class: "row an-whose" }, el("label", { for: "analysis-whose" }, t("analysis.whose")), whose),
    el("ol", {}, ...items)));
}

/** The width, in its units, to draw the chart in ``box`` at: the box's, drawn as it is (a
 * desktop's), or 640 scaled down to a narrower box (a phone's: analysis.css sizes its labels). */
function chartWidth(box) {
  const style = getComputedStyle(box);
  return Math.max(640, Math.floor(box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)));
}

/** Every decision with a choice along the match, its cost upwards (a dot a decision, in its
 * player's colour, ringed when marked; a click takes the replay to it), the deals apart: where
 * each deal turned. */
function renderChart(box, result, names, showMove, width) {
  const points = [];
  for (const deal of result.deals) {
    for (const d of deal.decisions) if (d.choices) points.push({ deal: deal.deal, d });
  }
  if (!points.length) { box.replaceChildren(); return; }
  const height = 160, pad = 24;
  const top = Math.max(1, ...points.map((p) => p.d.cost));
  const x = (i) => pad + (i + 0.5) * (width - 2 * pad) / points.length;
  const y = (cost) => height - pad - cost / top * (height - 2 * pad - 10);  // (the top dot under the axis's label)
  const parts = [svg("line", { x1: pad, x2: width - pad, y1: y(0), y2: y(0), class: "an-axis" })];
  points.forEach((p, i) => {
    if (i && points[i - 1].deal !== p.deal) {
      const at = (x(i - 1) + x(i)) / 2;
      parts.push(svg("line", { x1: at, x2: at, y1: pad / 2, y2: height - pad, class: "an-deal" }));
    }
    const dot = svg("circle", { cx: x(i), cy: y(p.d.cost), r: p.d.mark ? 4 : 2,
      fill: COLOURS[p.d.seat % COLOURS.length], class: p.d.mark ? "an-dot mark-" + p.d.mark : "an-dot" },
    svg("title", {}, `${t("analysis.deal", { n: p.deal + 1 })} · ${spoken(choiceText(p.d.seat, p.d.action, names))} · ${tenths(p.d.cost)}`));
    dot.addEventListener("click", () => showMove(p.deal, p.d.index));  // (the list above, for a keyboard)
    parts.push(dot);
  });
  // what the axes are: the points lost, up to the largest; the deals, along (the first named)
  parts.push(svg("text", { x: pad, y: pad / 2 + 4, class: "an-label" }, `${top.toFixed(0)} · ${t("analysis.lost").toLowerCase()}`));
  for (const deal of new Set(points.map((p) => p.deal))) {
    const at = points.flatMap((p, i) => (p.deal === deal ? [x(i)] : []));
    const middle = (at[0] + at[at.length - 1]) / 2;
    parts.push(svg("text", { x: middle, y: height - pad / 2 + 6, class: "an-label", "text-anchor": "middle" },
      deal === points[0].deal ? t("analysis.deal", { n: deal + 1 }) : String(deal + 1)));
  }
  const legend = el("p", { class: "an-legend" }, ...names.map((n, s) =>
    el("span", { class: "an-key", dataset: { seat: String(s) } }, `● ${n} `)), el("span", { class: "an-rings" }, t("analysis.rings")));
  box.replaceChildren(el("h3", { text: t("analysis.chart") }),
    svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": t("analysis.chart"), class: "an-chart" }, ...parts),
    legend);
  legend.querySelectorAll(".an-key").forEach((k) => k.classList.add("seat-" + k.dataset.seat));
}

/** What a decision's choice (its ``action``, ``best``) did: an action, or a declarer's gives
 * ("Anna gives 7♣ to Boris, 8♣ to Gleb, K♥ to Vera"). */
function choiceText(seat, choice, names, passTo = null) {
  if (!Array.isArray(choice)) return actionText(seat, choice, names, passTo);
  const parts = [t("replay.gives", { name: names[seat] }), " "];
  choice.forEach((g, i) => parts.push(i ? ", " : "", cardText(g.card, "object"), " ", t("replay.gives_to", { to: names[g.to] })));
  return parts;
}

/** The better choice of decision ``d``; of a set of gives, only the gives that differ from
 * those made ("8♠ to Vera, the others as given": the card that cost the points). */
function betterText(d, names, passTo = null) {
  if (!Array.isArray(d.best)) return actionText(d.seat, d.best, names, passTo);
  const made = new Set(d.action.map((g) => g.card + g.to));
  const other = d.best.filter((g) => !made.has(g.card + g.to));
  if (other.length === d.best.length) return choiceText(d.seat, d.best, names);
  const parts = [];
  other.forEach((g, i) => parts.push(i ? ", " : "", cardText(g.card, "object"), " ", t("replay.gives_to", { to: names[g.to] })));
  return [...parts, ", ", t("analysis.gives_rest")];
}

/** The mark line of replay frame ``i`` (``frames`` as /replay gives them), into ``line``. */
export function showMark(line, result, frames, i, names) {
  line.replaceChildren();
  line.className = "rp-mark";
  const f = frames[i];
  if (!result || !f || !f.action) return;
  const first = frames.findIndex((g) => g.deal === f.deal);
  const index = i - first - 1;
  const deal = result.deals[f.deal];
  let d = deal && deal.decisions.find((x) => x.index === index);
  // (a declarer's later gives: the set's, valued as one at the first)
  if (d && d.with !== undefined) d = deal.decisions.find((x) => x.index === d.with);
  if (!d || d.forced) return;
  if (d.by_bot) {
    line.append(t("analysis.says"), " ", t("analysis.by_bot"));
    return;
  }
  if (!d.mark) {
    // (a cost too small to mark is said too: a blank line had read as "nothing to say"; and
    // whose word it is: a bare "The best choice" over the felt had said nothing of where it came from)
    // (a cost within the play-outs' margin of error said so: "9.0 points lost" had not been
    // among the points lost that the analysis adds up)
    const said = d.cost === 0 ? t("analysis.best") : t(d.significant ? "analysis.small" : "analysis.within", { cost: tenths(d.cost) });
    line.append(t("analysis.says"), " ", said, d.exact ? ` · ${t("analysis.exact")}` : "");
    return;
  }
  line.classList.add("mark-" + d.mark);
  // (the values in a part of their own, which a small phone leaves out: the line stays short)
  line.append(t("analysis.cost", { mark: t("analysis.mark." + d.mark), cost: tenths(d.cost) }),
    " · ", t("analysis.better"), " ", ...betterText(d, names, f.deal_view.pass_to),
    el("span", { class: "detail" }, " · ", t("analysis.values", { best: tenths(d.best_value), made: tenths(d.value) }),
      d.exact ? ` · ${t("analysis.exact")}` : ""));
}
