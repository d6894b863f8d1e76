// The score sheet: every deal of a match with its details and the running totals.
import { t, el, cardText, cardsText, SUIT_SYMBOL, combinationName, signed } from "./common.js";

/** The sheet's columns: one per team ("Anna & Carl") when `teams` ([[0, 2], [1, 3]]), else one
 * per seat. (Partners are joined as the pages join them: "team_and".) */
export function columnLabels(teams, names) {
  if (teams) return teams.map((side) => side.map((seat) => names[seat]).join(t("team_and")));
  return names;
}

function detailsBlackMaria(sum, i) {
  const parts = [];
  // ("♥ ×3" read aloud had been "heart times 3")
  parts.push(el("span", {}, el("span", { "aria-hidden": "true" }, t("sheet.hearts", { n: sum.hearts[i] })), el("span", { class: "sr-only" }, t("sheet.hearts_said", { n: sum.hearts[i] }))));
  // each honour with its penalty where the deal says it ("Q♠ 13"; deals stored before: the cards)
  const points = sum.spade_penalties ? sum.spade_penalties[i] : [];
  sum.spades[i].forEach((card, k) => parts.push(el("span", { class: "scored" }, cardsText([card]), points[k] === undefined ? "" : ` ${points[k]}`)));
  parts.push(t("sheet.tricks", { n: sum.tricks[i] }));
  return parts;
}

function detailsMarjolet(sum, i) {
  const s = sum.seats[i], parts = [t("sheet.aces_tens", { n: s.card_points })];  // (the only cards that count)
  // (the cards and their points on one line: the points had wrapped alone under them)
  for (const c of s.combinations) parts.push(el("span", { class: "combo" }, combinationName(c.name), " ", el("span", { class: "scored" }, cardsText(c.cards), ` ${c.points}`)));
  if (s.dix) parts.push(t("sheet.dix", { n: s.dix }));
  if (s.turn_up_bonus) parts.push(t("sheet.turn_up", { n: s.turn_up_bonus }));
  if (s.last_trick) parts.push(t("sheet.last_trick", { n: s.last_trick }));
  if (s.all_six) parts.push(t("sheet.all_six", { n: s.all_six }));
  return parts;
}

function detailsBigMariage(sum, i, names, contract) {
  if (sum.thrown_in) return i === 0 && contract ? [t("sheet.thrown_in")] : [];
  const team = sum.teams[i], parts = [];
  if (team.declaring && contract) {
    parts.push(el("b", {}, t("sheet.contract", { n: sum.contract, who: names[sum.declarer] ?? "" })));
    parts.push(team.made ? el("span", { class: "made" }, t("sheet.made")) : el("span", { class: "lost" }, t("sheet.lost")));
  }
  // (a contract raised above the winning bid: the bid had been seen only while the bidding lasted)
  if (team.declaring && sum.contract > sum.high_bid) parts.push(t("sheet.raised_from", { n: sum.high_bid }));
  parts.push(t("sheet.card_points", { n: team.card_points }));
  for (const m of team.marriages) parts.push(el("span", { class: "combo" }, t("sheet.marriage", { suit: SUIT_SYMBOL[m.suit], n: m.points })));
  if (team.rounded !== undefined && team.rounded !== team.points) parts.push(t("sheet.rounded", { raw: team.points, n: team.rounded }));
  return parts;
}

const DETAILS = { black_maria: detailsBlackMaria, marjolet: detailsMarjolet, big_mariage: detailsBigMariage };

/** Where column `i`'s points of a finished deal came from (its `summary`): texts and elements;
 * `contract`: with the contract and its outcome (Big Mariage), unless it is said elsewhere. */
export const dealDetails = (game, summary, i, names, contract = true) => DETAILS[game](summary, i, names, contract);

/** What a finished deal comes to, in a sentence (the result panel's and the replay's): how the
 * contract went, who took the queen of spades; null where the columns say it all (Marjolet).
 * `side`: the reader's team, whose good news is green (the opponents' contract made had been
 * green to the pair that lost by it); null for a reader at no side, to whom a contract made is. */
export function dealHeadline(game, summary, names, side = null) {
  if (game === "black_maria") {
    const taker = summary.spades.findIndex((cards) => cards.includes("QS"));
    return taker < 0 ? null : [t("result.queen_taken", { name: names[taker] }), " ", cardText("QS")];
  }
  if (game !== "big_mariage") return null;
  if (summary.thrown_in) return [t("bm.thrown_in")];
  const team = summary.teams.find((x) => x.declaring);
  const values = { name: names[summary.declarer], n: summary.contract, points: team.points };
  const good = team.made === (side === null || summary.teams[side] === team);
  const said = team.made ? t("result.made", { ...values, by: team.points - summary.contract }) : t("result.failed", { ...values, by: summary.contract - team.points });
  return [el("span", { class: good ? "good" : "bad" }, said)];
}

/** The columns' headings, cut with an ellipsis when long, each whole in its title: a name's
 * words on two lines at most, each cut short ("Констант…") rather than broken ("Алексе / й");
 * partners one a line, each cut alone (joined on one line, a long first name had pushed the
 * second out of a narrow column: "Константин44 &…"; "& Stanislav" on the second line). */
export function columnNames(teams, names) {
  return columnLabels(teams, names).map((label, i) => el("span", { class: teams ? "colname partners" : "colname", title: label },
    teams ? teams[i].map((seat, k) => el("span", {}, k ? t("team_and") : "", names[seat]))
      : label.split(/(\s+)/).map((part, k) => (k % 2 ? part : el("span", { class: "word" }, part)))));
}

/** On the match page, a deal's number: a button to its replay. */
function dealLink(index, onDeal) {
  const label = t("replay.deal", { n: index + 1 });
  return el("button", { type: "button", class: "deal-link", title: label, "aria-label": label, onclick: () => onDeal(index) }, `${index + 1} ▶`);
}

/** deals: [{scores, summary, over}], names by seat, teams as columnLabels takes them; onDeal(index),
 * if given, is called by each deal's number. */
export function renderSheet(container, { game, deals, names, teams = null, winners = [], finished = false, caption = true, target = null, onDeal = null }) {
  container.replaceChildren();
  const cols = columnNames(teams, names);
  const table = el("table", { class: "grid sheet-table" });
  if (caption) table.append(el("caption", {}, t("table.score_sheet")));
  table.append(el("thead", {}, el("tr", {}, el("th", { class: "num" }, "#"), cols.map((c) => el("th", {}, c)))));
  const body = el("tbody");
  let totals = cols.map(() => 0);
  deals.forEach((deal, index) => {
    if (!deal.over || !deal.summary) return;
    totals = totals.map((v, i) => v + (deal.scores[i] || 0));
    const row = el("tr", { dataset: { deal: String(index) } }, el("th", { scope: "row" }, onDeal ? dealLink(index, onDeal) : String(index + 1)));
    cols.forEach((_, i) => {
      const details = dealDetails(game, deal.summary, i, names);
      const sc = deal.scores[i];
      row.append(el("td", {},
        el("div", { class: "score" }, el("b", {}, signed(sc, game === "big_mariage")), el("span", { class: "running", title: t("sheet.total") }, el("span", { "aria-hidden": "true" }, "Σ "), el("span", { class: "sr-only" }, t("sheet.total") + " "), signed(totals[i]))),
        el("div", { class: "details" }, details.map((d) => el("span", { class: "detail" }, d)))));
    });
    body.append(row);
  });
  if (!body.children.length) body.append(el("tr", {}, el("td", { colspan: String(cols.length + 1), class: "muted" }, t("sheet.empty"))));
  table.append(body);
  // (the totals are cells of the row "Total", not headers: a screen reader had read "31" as a column's name)
  table.append(el("tfoot", {}, el("tr", {}, el("th", { scope: "row", "data-testid": "sheet-total" }, t("sheet.total"), target ? el("span", { class: "target" }, " " + t("sheet.to", { n: target })) : ""), totals.map((v, i) => el("td", { class: finished && winners.includes(i) ? "winner" : "" }, signed(v), finished && winners.includes(i) ? " ★" : "")))));
  container.append(table);
  return totals;
}
