// Draws the felt: seats around the table, the centre (trumps, contract, stock), the trick.
// Used by the live table and by the replay viewer. Everything comes from the engine's view and
// the server's facts, in a model `m` = {game, nSeats, teams ([[0, 2], [1, 3]] or null), me,
// names, seatInfo (SEATs; none in a replay), deal, toAct, replay}.
import { t, tWho, fitNames, el, cardEl, cardName, cardsText, SUIT_SYMBOL, positions, suitName, rankLabel, teamLetter, signed } from "./common.js";


// A badge's letter seen, its meaning read: "D" and "A" alone had been read as bare letters.
const lettered = (shown, meaning) => [el("span", { "aria-hidden": "true" }, shown), el("span", { class: "sr-only" }, meaning)];

function seatBadges(m, s) {
  const info = (m.seatInfo || [])[s] || {};
  const d = m.deal;
  const badges = [];
  if (d && d.dealer === s) badges.push(el("span", { class: "badge dealer", title: t("seat.dealer") }, lettered(t("seat.dealer_short"), t("seat.dealer"))));
  const team = m.teams ? m.teams.findIndex((members) => members.includes(s)) : -1;
  const teamName = team >= 0 ? t("seat.team", { n: teamLetter(team) }) : "";
  if (team >= 0) badges.push(el("span", { class: "badge team team" + team, title: teamName }, lettered(teamLetter(team), teamName)));
  if (team >= 0 && !m.replay && s !== m.me && m.teams[team].includes(m.me)) badges.push(el("span", { class: "badge partner", "data-testid": "partner-" + s }, t("rel.partner_short")));
  // (a bot's name says it is one, "Bot 2": a badge says only that it stands in, or is the strong one)
  if (info.standin) badges.push(el("span", { class: "badge standin", title: t("seat.standin"), "data-testid": "standin-badge-" + s }, t("seat.standin_short")));
  else if (info.kind === "bot" && info.bot === "strong") badges.push(el("span", { class: "badge bot strong", title: t("seat.strong"), "data-testid": "strong-badge-" + s }, t("seat.strong_short")));
  if (!m.replay && info.kind === "human") badges.push(el("span", { class: "dot " + (info.connected ? "on" : "off"), title: info.connected ? t("seat.connected") : t("seat.disconnected"), "data-testid": "presence-" + s }));
  if (!m.replay && info.kind === "human" && !info.connected && !info.standin) badges.push(el("span", { class: "badge away", "data-testid": "away-" + s }, t("seat.disconnected")));
  if (info.kind === "open") badges.push(el("span", { class: "badge open" }, t("seat.open")));
  return badges;
}

function seatExtras(m, s) {
  const d = m.deal, out = [];
  if (!d) return out;
  // (a seat still choosing says so by its turn's badge, "to pass": "choosing…" under it had said
  // it twice)
  if (m.game === "black_maria" && d.phase === "pass" && d.passed[s]) out.push(el("span", { class: "note pass-state" }, t("bmaria.passed")));
  if (m.game === "big_mariage") {
    const mine = d.bids.filter((b) => b[0] === s);
    const said = mine.length ? mine[mine.length - 1][1] : null;
    if (d.phase === "bidding" && said !== null) out.push(el("span", { class: "note bid" }, said === "pass" ? t("bm.pass_said") : t("bm.said", { bid: said })));
    if (d.declarer === s) out.push(el("span", { class: "note declarer" }, t("bm.declarer")));
    const marriages = d.marriages.filter((x) => x.seat === s);
    // (a space between the chips, where a narrow seat may wrap the line; a phone held sideways
    // says the suit and the points alone: "♠ 40")
    // (each named for a screen reader: "K♥Q♥ 100" had been read as letters and symbols)
    if (marriages.length) out.push(el("span", { class: "note marriages" }, t("bm.marriages"), ...marriages.flatMap((x) => [" ", el("span", {
      class: "cardtext" + ("HD".includes(x.suit) ? " red" : ""), role: "img", "aria-label": marriageName(x) },
      el("span", { class: "long" }, `${rankLabel("K")}${SUIT_SYMBOL[x.suit]}${rankLabel("Q")}${SUIT_SYMBOL[x.suit]} ${x.points}`),
      el("span", { class: "short" }, `${SUIT_SYMBOL[x.suit]}\u00a0${x.points}`))])));
  }
  if (d.tricks_won) out.push(el("span", { class: "note tricks" }, t("seat.tricks", { n: d.tricks_won[s] })));
  if (!m.teams && d.scores) out.push(el("span", { class: "note pts" }, t(m.game === "black_maria" ? "seat.penalty" : "seat.points", { n: d.scores[s] })));
  return out;
}

/** A marriage of the deal's ``marriages`` by name: "marriage in hearts, 100". */
export function marriageName(marriage) {
  return `${t("combo.marriage", { suit: t("suit_of." + marriage.suit) })}, ${marriage.points}`;
}

function seatCards(m, s, pos) {
  const d = m.deal;
  if (!d) return null;
  const hand = d.hands ? d.hands[s] : null;
  const wrap = el("div", { class: "seat-cards" });
  // (Marjolet: the cards declared lie face up beside the hand, declaredCards: they had been
  // shown twice, there and in an open hand, or counted among its backs)
  const shown = new Set(m.game === "marjolet" && d.declared ? d.declared[s] : []);
  if (hand && (m.replay || pos !== "bottom")) {
    wrap.classList.add("open");
    // (the replay: the kitty's cards in the declarer's hand while it gives them; the hand had
    // only grown from seven cards to eleven)
    const fromKitty = new Set(m.replay && d.phase === "kitty" && s === d.declarer ? d.kitty || [] : []);
    hand.filter((c) => !shown.has(c)).forEach((c) => {
      const card = cardEl(c);
      if (fromKitty.has(c)) {
        card.classList.add("kitty");
        card.title = t("card.kitty_mark");
        card.setAttribute("aria-label", `${cardName(c)}, ${t("card.kitty_mark")}`);  // (as the hand says it)
      }
      wrap.append(card);
    });
  } else if (pos !== "bottom") {
    const n = (d.hand_sizes ? d.hand_sizes[s] : 0) - shown.size;
    // one picture named by the count ("8 cards, face down"), not eight a screen reader reads out
    for (let i = 0; i < n; i++) {
      const back = cardEl(null);
      back.setAttribute("aria-hidden", "true");
      wrap.append(back);
    }
    wrap.dataset.count = String(n);
    if (n) { wrap.setAttribute("role", "img"); wrap.setAttribute("aria-label", t("card.backs", { n })); }
  }
  return wrap;
}

function declaredCards(m, s) {
  const d = m.deal;
  if (m.game !== "marjolet" || !d || !d.declared || !d.declared[s].length) return null;
  return el("div", { class: "declared", "data-testid": "declared-" + s, title: t("mj.declared_cards") },
    el("span", { class: "label" }, t("mj.declared")), d.declared[s].map((c) => cardEl(c)));
}

/** A person's name links to their page (in a new tab: the table stays); a bot's does not. Each
 * word in a span of its own, which a narrow seat cuts short ("Констант…") rather than breaks. */
function nameOf(m, s, name) {
  const info = (m.seatInfo || [])[s] || {};
  const words = name.split(/(\s+)/).map((part, i) => (i % 2 ? part : el("span", { class: "word" }, part)));
  if (info.kind !== "human" || !info.name) return el("span", { class: "name", title: name }, words);
  // (described to a screen reader as opening a new tab: Enter had opened tabs unannounced)
  return el("a", { class: "name", title: name, href: "/players/" + encodeURIComponent(info.name), target: "_blank", rel: "noopener", "aria-describedby": "new-tab" }, words);
}

// What the seats whose turn it is are to do: bid, give the kitty's cards, pass three cards,
// play a card, or (fixing the contract, declaring and drawing) simply move.
const TURN_WORDS = { bidding: "seat.to_bid", kitty: "seat.to_give", pass: "seat.to_pass", play: "seat.to_play", end: "seat.to_play" };
const turnWord = (deal) => TURN_WORDS[deal ? deal.phase : ""] || "seat.to_move";

export function renderSeats(felt, m) {
  const pos = positions(m.nSeats, m.me);
  felt.querySelectorAll(".seat-slot").forEach((slot) => slot.replaceChildren());
  for (let s = 0; s < m.nSeats; s++) {
    const slot = felt.querySelector(`.seat-slot[data-pos="${pos[s]}"]`);
    const turn = (m.toAct || []).includes(s);
    const name = m.names[s] || t("seat.empty", { n: s + 1 });
    const panel = el("div", { class: "seat" + (turn ? " turn" : "") + (s === m.me ? " me" : ""), "data-seat": String(s), "data-testid": "seat-" + s },
      el("div", { class: "nameplate" }, nameOf(m, s, name), seatBadges(m, s), turn ? el("span", { class: "turnmark" }, t(turnWord(m.deal))) : null),
      el("div", { class: "extras" }, seatExtras(m, s)),
      declaredCards(m, s),
      seatCards(m, s, pos[s]));
    slot.append(panel);
  }
}

function trumpBadge(suit) {
  if (!suit) return el("span", { class: "trump none" }, t("info.no_trumps"));
  // (the suit's sign and name kept together: "♣" had ended a line, "трефы" begun the next; the
  // name in a span of its own, which the narrowest centre leaves to be read, not seen)
  return el("span", { class: "trump" + ("HD".includes(suit) ? " red" : "") }, t("info.trumps"), " ", el("b", {}, SUIT_SYMBOL[suit]),
    el("span", { class: "suit-name" }, "\u00a0" + suitName(suit)));
}

export function renderInfo(box, m) {
  box.replaceChildren();
  const d = m.deal;
  if (!d) { box.append(el("p", { class: "phase" }, t("info.waiting_players"))); return; }
  const lines = [];
  if (m.game === "marjolet") {
    lines.push(trumpBadge(d.trump));
    const stock = el("div", { class: "stock", "data-testid": "stock" });
    // stock_count: the face-down cards; the turn-up lies beside them, face up and upright
    if (d.turn_up) stock.append(el("div", { class: "turnup" }, cardEl(d.turn_up), el("span", { class: "caption" }, t("mj.turn_up"))),
      el("div", { class: "stockpile" }, cardEl(null), el("span", { class: "count", "aria-hidden": "true" }, String(d.stock_count))));  // (read by its label: "19 stock: 19")
    stock.append(el("span", { class: "stock-label" }, t("mj.stock", { n: d.stock_count })));
    lines.push(stock);
    if (d.end_phase && d.phase !== "over") lines.push(el("p", { class: "banner strict", "data-testid": "end-phase" }, t("mj.end_phase"), el("span", { class: "more" }, " " + t("mj.end_phase_more"))));
    // (while the turn-up it brought lies there: after, a line the strict play had kept to no end)
    const exchanged = d.exchanged_by !== null && d.exchanged_by !== undefined;
    if (exchanged && d.turn_up) lines.push(el("p", { class: "note dix", "data-testid": "dix-exchanged" },
      el("span", { class: "long" }, tWho("mj.exchanged", { name: m.names[d.exchanged_by] })),
      el("span", { class: "short" }, t("mj.exchanged_short"))));
    // (the dealer's points before any card, while the dix lies turned up: unexplained, they had
    // puzzled a newcomer; said short on a phone, beside the stock, as the exchange is, where a
    // line of its own had pushed the top seat under the table's bar)
    const turned = d.turn_up && (d.dix || []).find((e) => e.how === "turn-up");
    if (turned) lines.push(el("p", { class: "note dix", "data-testid": "dix-turned" },
      el("span", { class: "long" }, tWho("mj.dix_turned", { name: m.names[turned.seat], points: turned.points })),
      el("span", { class: "short" }, t("mj.dix_turned_short", { points: turned.points }))));
  } else if (m.game === "black_maria") {
    lines.push(el("span", { class: "trump none" }, t("info.no_trumps")));
    if (d.phase === "pass") lines.push(el("p", { class: "phase" }, t("bmaria.pass_phase")));
  } else {
    if (d.phase === "bidding") {
      lines.push(el("p", { class: "phase" }, t("bm.bidding")));
      lines.push(el("p", {}, d.high_bid ? tWho("bm.high_bid", { n: d.high_bid, name: m.names[d.high_bidder] }) : t("bm.no_bid")));
    } else {
      // (a phone says the contract and the points short: .long and .short in the CSS)
      if (d.declarer !== null) lines.push(el("p", { class: "contract", "data-testid": "contract" }, d.contract
        ? [el("span", { class: "long" }, tWho("bm.contract_line", { n: d.contract, name: m.names[d.declarer] })), el("span", { class: "short" }, t("bm.contract_short", { n: d.contract }))]
        : tWho("bm.declarer_line", { n: d.high_bid, name: m.names[d.declarer] })));
      if (d.phase === "kitty") lines.push(el("p", { class: "phase kitty-phase" }, tWho("bm.kitty_phase", { name: m.names[d.declarer], n: d.gives.length })));
      // (the replay: which cards were the kitty's, marked so in the declarer's hand)
      if (d.phase === "kitty" && m.replay && d.kitty) lines.push(el("p", { class: "kitty-cards" }, t("bm.kitty_cards"), " ", cardsText(d.kitty)));
      if (d.phase === "contract") lines.push(el("p", { class: "phase" }, tWho("bm.contract_phase", { name: m.names[d.declarer] })));
      if (d.phase === "play" || (d.phase === "over" && d.contract !== null)) {  // (thrown in: nothing was played)
        lines.push(trumpBadge(d.trump));
        const points = { a: d.team_points[0], b: d.team_points[1] };
        lines.push(el("p", { class: "teampoints" }, el("span", { class: "long" }, t("bm.team_points", points)), el("span", { class: "short" }, t("bm.team_points_short", points))));
      }
    }
    if (d.phase === "over" && d.contract === null) lines.push(el("p", { class: "phase" }, t("bm.thrown_in")));
  }
  if (d.phase === "over") lines.push(el("p", { class: "phase" }, t("info.deal_over")));
  else if (m.totals && m.totals.some((n) => n !== 0)) lines.push(matchScore(m));
  box.append(...lines);
  fitNames(box);
}

// The match's score so far, at the table (a phone's score sheet covers the cards): "Match — A 75 ·
// B 40 · to 1000", each seat by its name where there are no teams ("Anna: 90"). (Not in a deal's end, whose
// result panel says the totals.)
function matchScore(m) {
  // (each side with its figure on one line: "Б" had ended a line, "70" begun the next)
  const scores = m.teams
    ? m.totals.map((n, team) => `${teamLetter(team)}\u00a0${signed(n)}`)
    : m.totals.map((n, seat) => `${m.names[seat]}:\u00a0${signed(n)}`);  // ("Бот 2 0" had read as "Бот 20")
  return el("p", { class: "match-score", "data-testid": "match-score" }, t("info.match", { scores: scores.join(" · ") }),
    m.target ? el("span", { class: "long" }, " · " + t("info.match_target", { n: m.target })) : null);
}

/** The trick in the middle; `shown` = {cards:[[seat,card]], winner} to display a finished trick. */
export function renderTrick(box, m, shown) {
  box.replaceChildren();
  const d = m.deal;
  if (!d) return;
  const pos = positions(m.nSeats, m.me);
  const cards = shown ? shown.cards : d.trick || [];
  box.className = "trick seats" + m.nSeats + (shown ? " done" : "");
  cards.forEach(([seat, card], i) => {
    const c = cardEl(card);
    // (who played it, read: "3 of diamonds" alone had left the trick to be guessed)
    c.setAttribute("aria-label", `${m.names[seat]} — ${cardName(card)}` + (i === 0 ? `, ${t("trick.led")}` : ""));
    c.classList.add("in-trick", "at-" + pos[seat]);
    if (i === 0) c.append(el("span", { class: "led" }, t("trick.led")));
    if (shown && seat === shown.winner) c.classList.add("winner");
    c.dataset.seat = String(seat);
    box.append(c);
  });
  // (a name kept on one line under a narrow trick: "Берёт Бот / 3" had been split)
  const whole = (seat) => m.names[seat].replace(/ /g, "\u00a0");
  if (shown) {
    // (said short where the trick is narrow: "Взятку берёт Бот 2" had been cut to "Взятку бе…")
    const won = { name: whole(shown.winner) };
    box.append(el("div", { class: "trick-caption", "data-testid": "trick-winner" },
      el("span", { class: "long" }, t("trick.won_by", won)), el("span", { class: "short" }, t("trick.won_by_short", won))));
  } else if (cards.length && d.leader !== null && d.leader !== undefined) box.append(el("div", { class: "trick-caption subtle" }, t("trick.led_by", { name: whole(d.leader) })));
}
