// The person's hand: a row of card buttons made from `moves` (cards to play, to pass, to give, to
// call trumps with), the cards chosen and not sent yet (table.chosen), arrow keys between cards,
// and the keyboard focus kept in place when the table is redrawn.
import { t, el, cardEl, cardName } from "../common.js";
import { table, releaseHold } from "./state.js";
import { toast } from "./notices.js";
import { cardsSending } from "./inflight.js";

let lastFocused = null;  // the card of the hand the focus was last on (its Tab stop)

/** Draws #hand; `cardMarks(deal, me)`: the game's marks, card -> {className (one or more),
 * label, title (else "★ " and the label)}. */
export function drawHand({ moves, cardMarks, act, redraw }) {
  const box = document.getElementById("hand");
  box.replaceChildren();
  const { state } = table;
  const me = state.you.seat;
  // a region named "Your hand" for the seated only (a screen reader had heard it twice, the
  // row inside named so too, and a spectator had heard of a hand they do not have)
  if (me === null) box.removeAttribute("aria-label");
  else box.setAttribute("aria-label", t("table.your_hand"));
  if (me === null) {
    box.append(el("p", { class: "muted watching" }, t("table.watching")));
    return;
  }
  const deal = state.match && state.match.deal;
  if (!deal || !deal.hands || !deal.hands[me]) return;
  const offer = {
    moves,
    playable: new Set(moves.play || []),
    choosable: new Set((moves.pass && moves.pass.from) || (moves.give && moves.give.cards) || []),
    callers: new Set(moves.trump || []),
    marks: cardMarks(deal, me),
    sending: cardsSending(),
    choose: (card) => chooseCard(card, moves, act, redraw),
  };
  const cards = deal.hands[me];
  const row = el("div", { class: "hand-row" });
  // as many cards in a row as make them big enough to touch: a long hand takes two rows (CSS)
  row.style.setProperty("--per-row", String(cards.length > 12 ? Math.ceil(cards.length / 2) : cards.length));
  row.style.setProperty("--cards", String(cards.length));
  for (const card of cards) row.append(cardButton(card, offer));
  // one stop of the Tab key for the whole hand, the arrows going from card to card (seventeen
  // stops had stood between the cards chosen and the button that passes them): the card last
  // focused there, else the first that may be played or chosen
  const entry = [...row.children].find((b) => b.dataset.card === lastFocused) || row.querySelector(".card.playable") || row.firstElementChild;
  for (const button of row.children) button.tabIndex = button === entry ? 0 : -1;
  row.addEventListener("focusin", (ev) => {
    lastFocused = ev.target.dataset.card;
    for (const button of row.children) button.tabIndex = button === ev.target ? 0 : -1;
  });
  box.append(row);
}

function cardButton(card, { moves, playable, choosable, callers, marks, sending, choose }) {
  const { chosen } = table;
  const button = cardEl(card, { button: true });
  const legal = playable.has(card) || choosable.has(card);
  const words = [cardName(card)];
  // greyed only when other cards may be played or chosen now (not while bidding, say, where
  // Big Mariage's `pass` is a bid, not cards)
  const choosing = Boolean(moves.play || (moves.pass && moves.pass.from) || moves.give);
  button.classList.add(legal ? "playable" : choosing ? "unplayable" : "idle");
  if (!legal) {
    button.setAttribute("aria-disabled", "true");
    if (choosing) words.push(t("card.not_playable"));
  }
  if (sending.has(card)) {  // (played, passed or given: its answer is not here yet)
    button.classList.add("sending");
    words.push(t("card.sending"));
  }
  const isChosen = (choosable.has(card) && chosen.pass.has(card)) || chosen.give === card || chosen.call === card;
  if (isChosen) button.classList.add("selected");
  if (choosable.size || callers.has(card)) button.setAttribute("aria-pressed", String(isChosen));
  const mark = marks.get(card);
  if (mark) {
    button.classList.add(...mark.className.split(" "));
    // (said, and shown on pointing at it: the star had said nothing of what it meant)
    if (mark.label) { words.push(mark.label); button.title = mark.title || "★ " + mark.label; }
  }
  if (callers.has(card)) {
    words.push(t("card.can_call_mark"));  // (in its title alone, a screen reader had not heard it)
    button.classList.add("can-call");
    button.dataset.call = "1";
    button.title = [button.title, t("bm.can_call")].filter(Boolean).join(" · ");
  }
  button.setAttribute("aria-label", words.join(", "));
  button.addEventListener("click", () => {
    if (!releaseHold()) return choose(card);
    // (the hand drawn again with the turn's moves: the same card's new button takes the click)
    const again = document.querySelector(`#hand .card[data-card="${card}"]`);
    if (again && again !== button) again.click();
  });
  button.addEventListener("keydown", moveAlongRow);
  return button;
}

// ←/→ to the neighbouring card, Home/End to the first and the last.
function moveAlongRow(ev) {
  const card = ev.currentTarget, row = card.parentNode;
  const target = { ArrowRight: card.nextElementSibling, ArrowLeft: card.previousElementSibling,
    Home: row.firstElementChild, End: row.lastElementChild }[ev.key];
  if (target === undefined) return;
  if (target) target.focus();
  ev.preventDefault();
}

// A click (or Enter) on a card: choose it to pass or to give, choose a lead that may call trumps
// (the actions box then asks how to lead it), or play it.
function chooseCard(card, moves, act, redraw) {
  const { chosen } = table;
  if (moves.pass && moves.pass.from && moves.pass.from.includes(card)) {
    const before = chosen.pass.size;
    if (chosen.pass.has(card)) chosen.pass.delete(card);
    else if (chosen.pass.size < moves.pass.choose) chosen.pass.add(card);
    else toast(t("bmaria.three_only", { n: moves.pass.choose }), "info");
    redraw();
    // the last card chosen: on to the button that passes them
    if (chosen.pass.size === moves.pass.choose && before < chosen.pass.size) focusFirst("[data-testid=pass-button]");
    return;
  }
  // (a card chosen to give, or a lead that may call trumps: on to the buttons that say what to do
  // with it, above the hand, as when the cards to pass are chosen)
  if (moves.give && moves.give.cards.includes(card)) {
    chosen.give = chosen.give === card ? null : card;
    redraw();
    if (chosen.give) focusFirst(".give");
    return;
  }
  if (moves.play && moves.play.includes(card)) {
    if (moves.trump && moves.trump.includes(card)) {
      chosen.call = chosen.call === card ? null : card;
      redraw();
      if (chosen.call) focusFirst("[data-testid=call-trumps]");
      return;
    }
    act({ type: "play", card });
    return;
  }
  // a card the rules do not allow now is sent all the same: the engine's refusal says why
  // ("you must follow suit (hearts)"), which the page could only guess
  // (in Marjolet's window after a trick won too: "you must draw before the next trick")
  if ((moves.play || moves.draw) && act({ type: "play", card })) table.tried = card;
}

function focusFirst(selector) {
  const control = document.querySelector(`#actions ${selector}:not(:disabled)`);
  if (control) control.focus({ preventScroll: true });
}

// The hand, the actions box and the result panel are rebuilt from each STATE: keep the keyboard
// focus where it was (the same card, else the one now at its place; the same control). When
// what it was on is gone (the pass sent, a declaration made, the deal's last card played), it
// goes to what comes next: the result's button, the game's controls, the cards to play; and if
// nothing is there yet (the other seats' turn), to the first of them that comes. A keyboard
// player never loses their place, and a screen reader never falls back to the page's top.
let lost = null;  // where the focus was when its element went away, until something takes it
const LOST_MS = 20000;  // (after that, a focus that comes back would only surprise)
// the invitation, given the focus on taking a seat before the deal is dealt: the focus goes on
// from it to what the deal asks, unless the person has moved it meanwhile
let waiting = null;
document.addEventListener("focusin", (ev) => {
  lost = null;
  if (waiting && ev.target !== waiting.target) waiting = null;
});
document.addEventListener("focusout", (ev) => { if (waiting && ev.target === waiting.target) waiting = null; });

export function rememberFocus() {
  const a = document.activeElement;
  if (waiting && a === waiting.target) return waiting.place;
  if (!a || a === document.body) return lost && (lost.offline || performance.now() - lost.at < LOST_MS) ? lost : null;
  // (a seat taken, its form goes: the focus had gone back to the top of the page)
  if (a.closest("#join-panel")) return { joining: a.dataset.testid || a.id };
  const area = a.closest("#hand, #actions, #result");
  if (!area) return null;
  if (a.dataset.card && area.id === "hand") return { card: a.dataset.card, index: [...a.parentNode.children].indexOf(a) };
  if (!a.dataset.testid) return null;  // (every control there has one: the same is found again)
  const same = [...area.querySelectorAll(`[data-testid="${a.dataset.testid}"]`)];
  // (a value being typed keeps its caret: the table is drawn anew at every frame, a chat line's)
  const caret = a.tagName === "INPUT" ? [a.selectionStart, a.selectionEnd, a.selectionDirection] : undefined;
  return { area: area.id, testid: a.dataset.testid, index: same.indexOf(a), caret, free: Boolean(a.closest(".standin-free")) };
}

export function restoreFocus(place) {
  if (!place) return;
  const target = samePlace(place) || nextControl();
  // (out of reach, offline: the focus goes back to it when the table is back, however long that takes)
  const offline = Boolean(target && target.closest("[inert]"));
  if (!target || offline) { lost = { ...place, at: place.at ?? performance.now(), offline }; return; }
  if (document.activeElement !== target) target.focus({ preventScroll: true });
  if (place.caret !== undefined && target.tagName === "INPUT") target.setSelectionRange(...place.caret);  // (a selection too)
  waiting = place.joining && !dealt() ? { place, target } : null;
}

const dealt = () => Boolean(table.state && table.state.match && table.state.match.deal);

/** Takes the focus on to what comes next (the result's button, the game's controls, the cards
 * to play), when what it was on is closed. */
export function focusNext() {
  const target = nextControl();
  if (target) target.focus({ preventScroll: true });
  return Boolean(target) && document.activeElement === target;  // (not when it is out of reach)
}

function samePlace(place) {
  if (place.joining) {  // (the form drawn again while other seats are open: the same control)
    const panel = document.getElementById("join-panel");
    if (!panel.hidden) return panel.querySelector(`[data-testid="${place.joining}"], #${place.joining}`);
    // seated, the match waiting for the seats still open (or a moment for its first deal): the
    // bots offered for them (folded), or the invitation; the deal dealt, what it asks of them
    if (dealt()) return nextControl();
    return nextControl() || document.querySelector("#actions :is(button, summary)") || document.getElementById("copy-invite");
  }
  if (place.card) {
    const cards = document.querySelectorAll("#hand .card");
    return document.querySelector(`#hand .card[data-card="${place.card}"]`) || cards[Math.min(place.index, cards.length - 1)] || null;
  }
  // (Marjolet's declarations share a test id: the one at its place, else the one before)
  const same = document.querySelectorAll(`#${place.area} [data-testid="${place.testid}"]:not(:disabled)`);
  const found = same[Math.min(place.index, same.length - 1)];
  if (found || !place.testid.startsWith("standin-")) return found || null;
  // a free seat handed to a bot: the same bot for the next free seat, else what comes next (it
  // had fallen to the page's body, seat after seat); never someone away's, whom one more Enter
  // would hand to a bot. (None yet, the last seat taken: the focus lost goes to the deal's
  // first move once dealt.)
  const bot = place.testid.split("-").pop();
  const next = place.free && document.querySelector(`#actions .standin-free[open] .standin-box [data-testid$="-${bot}"]`);
  return next || nextControl() || document.querySelector("#actions .standin-free summary");
}

/** A turn begins with the focus on a card it cannot move: on to the nearest card it can play, or,
 * when it asks for no card (a bid, the contract, Marjolet's draw), to the first of its moves (the
 * one that bids or fixes the contract, not a step of its value). The controls are above the hand:
 * a keyboard had been 16 tabs from the bid, a screen reader told nothing, and a turn had often
 * begun on a card that "cannot be played now". A focus anywhere else is left where it is. */
export function focusTurn() {
  const a = document.activeElement;
  if (!a || !a.closest("#hand .hand-row") || a.classList.contains("playable")) return;
  const cards = [...a.parentNode.children], at = cards.indexOf(a);
  const playable = cards.filter((c) => c.classList.contains("playable"));
  const nearest = playable.sort((x, y) => Math.abs(cards.indexOf(x) - at) - Math.abs(cards.indexOf(y) - at))[0];
  const target = nearest || nextControl();
  if (target) target.focus({ preventScroll: true });
}

function nextControl() {
  const controls = [...document.querySelectorAll("#result:not([hidden]) button, #actions button:not(:disabled)")]
    // (a seat for a bot is not what comes next, nor a step of a bid's value: the bid is; nor
    // the "?" of the first deal's word on the game)
    .filter((b) => !b.closest(".standin-box, .stepper, .aim-toggle"));
  // (past "Next deal" or "Rematch" asked, whom the table waits for: the focus had fallen to the
  // page's body, and nothing was said)
  return controls[0] || document.querySelector("#result:not([hidden]) [data-testid=ready-waiting]")
    || document.querySelector("#hand .card.playable") || document.querySelector("#hand .card");
}

// A phone's page may be taller than its screen. A redraw that grows what is above the hand (the
// trump-call buttons, Marjolet's declarations, a chooser's line) keeps the hand where it was on
// the screen rather than pushing it under the bottom bar: the page scrolls by what it grew. On a
// phone held upright and in a laptop's short window the table scrolls inside the page's main
// (cardroom.css), and a hand out of sight there is brought into it when it first appears and
// when a turn begins: it is what the person plays with (a table scrolled up to look at the felt
// is left alone meanwhile).
function scroller() {
  const main = document.querySelector("main");
  return getComputedStyle(main).overflowY === "auto" ? main : null;
}

function visibleBottom() {
  const bar = document.querySelector(".tablepage .tools");
  return bar && getComputedStyle(bar).position === "fixed" ? bar.getBoundingClientRect().top : innerHeight;
}

/** Where the hand's bottom is on the screen, if it is drawn and all in sight (`bottom`, else
 * null), and whether it is drawn at all (`shown`: a seat's hand row, even an empty one). */
export function handInSight() {
  const hand = document.getElementById("hand");
  const shown = Boolean(hand.querySelector(".hand-row"));
  const bottom = hand.getBoundingClientRect().bottom;
  return { shown, bottom: shown && bottom <= visibleBottom() + 1 ? bottom : null };
}

export function keepHandInSight(before, turnBegins) {
  const now = document.getElementById("hand").getBoundingClientRect().bottom;
  const below = now - visibleBottom();
  if (below <= 1) return;
  const box = scroller();
  if (before.bottom !== null) (box || window).scrollBy(0, Math.max(now - before.bottom, below));
  else if ((turnBegins || !before.shown) && box && document.querySelector("#hand .hand-row")) box.scrollBy(0, below);
}
