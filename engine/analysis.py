"""Post-match analysis: what each decision of a match record was worth, from what its seat knew.

For every action of a record (issue 28), :func:`analyse` works out the expected deal points of
each legal choice *from that seat's knowledge at that moment* (its view, as the server showed
it, rebuilt by replaying the record to that point), the best choice, and what the choice made
cost against it. It reuses the strong bot (``engine/bots/strong``): hidden cards are placed as
its models sample them (``Model.worlds``), and each choice is played out to the end of the
deal as its search plays candidates out (``search.play_out``: the rules bot at every seat, and
Marjolet's end phase solved exactly). Every choice is played out in the same determinizations
with the same random numbers, so that their comparison is paired (the cost of the choice made
is the mean of its paired differences with the best, with their standard error).

Where the seat's position is of perfect information (Marjolet once the stock is drawn, and any
ending where every card the seat has not seen can be in one place only) the values are exact: a
full search of the rest of the deal (Marjolet: the end-phase solver; otherwise a search of the
engine's moves in which every player maximises its own outcome, ties broken against the seat
analysed), and the decision says ``"exact": true``.

The values are those the strong bot maximises (:data:`MEASURES`), higher always better: in
Marjolet the seat's deal points minus its opponent's; in Black Maria minus the penalty points
the seat takes in the deal; in Big Mariage its team's deal score minus the other team's. The
format of the result is documented in ``docs/analysis.md``; a result is JSON as it is.

    >>> from engine.analysis import MARKS, THRESHOLDS, mark
    >>> MARKS, THRESHOLDS["black_maria"]
    (('inaccuracy', 'mistake', 'blunder'), (2, 5, 10))
    >>> mark("black_maria", 13.0, error=None), mark("black_maria", 1.5, error=None)
    ('blunder', None)
"""

from __future__ import annotations

import itertools
import math
import random
import statistics
import time
from typing import Callable

from .actions import PLAY, Action
from .bots.heuristic import HEURISTIC_BOTS
from .bots.strong import MODELS
from .bots.strong.marjolet_end import EndSolver
from .bots.strong.search import play_out
from .core import Deal, expand_moves
from .record import positions, replay

FORMAT = "cardroom-analysis/2"

#: What a choice's value is, per game (higher is always better).
MEASURES = {
    "marjolet": "the seat's deal points minus its opponent's",
    "black_maria": "minus the penalty points the seat takes in the deal",
    "big_mariage": "the seat's team's deal score minus the other team's",
}

#: The marks, mildest first, and per game the cost (in the game's value) from which each is
#: given: ``THRESHOLDS[game][i]`` is the least cost of ``MARKS[i]``.
MARKS = ("inaccuracy", "mistake", "blunder")
THRESHOLDS = {
    "marjolet": (10, 25, 50),
    "black_maria": (2, 5, 10),
    "big_mariage": (10, 30, 80),
}

#: The default quality: the determinizations each choice of a decision is played out in.
#: ``bench/analysis_bench.py`` measures what a deal costs at these (docs/analysis.md).
DEFAULT_SIMULATIONS = {"marjolet": 30, "black_maria": 40, "big_mariage": 30}

#: A sampled cost is marked only when it exceeds this many standard errors of the paired
#: differences between the best choice and the choice made (below that it may be the luck of
#: the sample: the best of many noisy averages is often only the luckiest).
SIGNIFICANCE = 2.0

#: The most positions an exact search of a position known by elimination may visit (beyond
#: that the decision is sampled like the others); Marjolet's end phase has its own solver.
EXACT_NODES = 20_000

#: Each decision's kind, by its action's type (Big Mariage's ``pass`` is a bid's).
KINDS = {"declare": "declaration", "exchange": "dix", "draw": "draw", "bid": "bid",
         "give": "give", "contract": "contract"}


def analyse(record: dict, simulations: int | None = None, seed: int = 0,
            progress: Callable[[int, int], None] | None = None) -> dict:
    """The analysis of a match record (a parsed JSON object; RecordError where it breaks).

    ``simulations``: the determinizations each choice is played out in (default: the game's
    :data:`DEFAULT_SIMULATIONS`). ``seed``: the same seed gives the same analysis (each
    decision's random numbers come from the seed, the deal and the action's index alone, so a
    decision's analysis does not depend on the others'). ``progress(done, total)`` is called
    after each decision analysed.
    """
    replayed = _decisions(record)
    total = sum(len(d["steps"]) for d in replayed["deals"])
    done = 0

    def tick() -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, total)

    deals = [_deal(replayed, number, simulations, seed, tick)
             for number in range(len(replayed["deals"]))]
    return _assemble(replayed, deals, simulations, seed)


def analyse_deal(record: dict, number: int, simulations: int | None = None, seed: int = 0,
                 progress: Callable[[int, int], None] | None = None) -> dict:
    """Deal ``number``'s entry of ``analyse(record, simulations, seed)["deals"]``, worked out
    alone (the same, decision for decision): for a server that analyses a match deal by deal,
    keeps each deal's result and resumes after a restart. ``progress(done, total)`` counts
    this deal's decisions."""
    replayed = _decisions(record)
    if not 0 <= number < len(replayed["deals"]):
        raise IndexError(f"the record has no deal {number}")
    total, done = len(replayed["deals"][number]["steps"]), 0

    def tick() -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, total)

    return _deal(replayed, number, simulations, seed, tick)


def assemble(record: dict, deals: list[dict], simulations: int | None = None,
             seed: int = 0) -> dict:
    """The analysis of ``record`` from its deals' entries (:func:`analyse_deal`'s, one per
    deal in order, worked out at this quality and seed): ``analyse``'s result."""
    replayed = _decisions(record)
    if [d["deal"] for d in deals] != list(range(len(replayed["deals"]))):
        raise ValueError("assemble takes every deal's entry, in order")
    return _assemble(replayed, deals, simulations, seed)


def _deal(replayed: dict, number: int, simulations: int | None, seed: int,
          tick: Callable[[], None]) -> dict:
    game = replayed["game"]
    model = MODELS[game]
    simulations = simulations or DEFAULT_SIMULATIONS[game]
    entry = replayed["deals"][number]
    steps, results = entry["steps"], []
    solvers: dict = {}
    at = 0
    while at < len(steps):
        group = _together(steps, at)
        first = steps[at]
        rng = random.Random(f"{seed}/{number}/{first['index']}")
        made = [s["action"] for s in group] if _gives(first) else first["action"]
        result = decision(model, first["view"], first["moves"], made, rng, simulations,
                          solvers, index=first["index"])
        # (a bot's move for the player, the turn timer's or a stand-in's: not theirs to answer for)
        if any(s["index"] in entry["by_bot"] for s in group) and not result.get("forced"):
            result.update(by_bot=True, mark=None)
        results.append(result)
        tick()
        for step in group[1:]:
            results.append({"index": step["index"], "seat": step["seat"],
                            "kind": kind(game, step["action"]), "action": dict(step["action"]),
                            "legal": len(expand_moves(step["moves"])), "with": first["index"]})
            tick()
        at += len(group)
    lost = [0.0] * replayed["seats"]
    for result in results:
        if result.get("significant") and not result.get("by_bot"):
            lost[result["seat"]] += result["cost"]
    return {"deal": number, "dealer": entry["dealer"], "scores": entry["scores"],
            "over": entry["over"], "decisions": results, "lost": [round(x, 2) for x in lost]}


def _gives(step: dict) -> bool:
    return step["action"]["type"] == "give"


def _together(steps: list[dict], at: int) -> list[dict]:
    """The steps from ``at`` that are one decision: a Big Mariage declarer's gives, valued as
    one set (each valued alone had been valued with the rules bot making the gives after it,
    so that a poor set could be blamed on its one good card); otherwise ``at``'s alone."""
    group = [steps[at]]
    while _gives(group[0]) and at + len(group) < len(steps) \
            and _gives(steps[at + len(group)]) and steps[at + len(group)]["seat"] == group[0]["seat"]:
        group.append(steps[at + len(group)])
    return group


def _assemble(replayed: dict, deals: list[dict], simulations: int | None, seed: int) -> dict:
    game = replayed["game"]
    return {
        "format": FORMAT,
        "game": game,
        "options": replayed["options"],
        "players": replayed["players"],
        "measure": MEASURES[game],
        "marks": {name: THRESHOLDS[game][i] for i, name in enumerate(MARKS)},
        "quality": {"simulations": simulations or DEFAULT_SIMULATIONS[game], "seed": seed},
        "deals": deals,
        "summary": _summary(deals, replayed["seats"]),
    }


def _decisions(record: dict) -> dict:
    """Replay ``record``, keeping before each action the acting seat's view and moves."""
    deals: list[dict] = []
    pending = None  # (view, moves) of the action the next position is after
    match = None
    for position in positions(record):
        match = position.match
        entry = record["deals"][position.deal]
        if position.index is None:
            deals.append({"dealer": entry["dealer"], "steps": [],
                          "by_bot": set(_by_bot(entry))})
        elif pending is not None:
            view, moves = pending
            deals[-1]["steps"].append({"index": position.index, "seat": position.seat,
                                       "view": view, "moves": moves,
                                       "action": position.action})
        following = 0 if position.index is None else position.index + 1
        actions = entry.get("actions", [])
        pending = None
        if following < len(actions):
            seat = actions[following][0] if isinstance(actions[following], list) \
                and actions[following] else None
            if type(seat) is int and 0 <= seat < match.game.seats:
                pending = (match.view(seat), match.moves(seat))
    if match is None:  # no deal at all: still a valid record
        match = replay(record)
    for number, deal in enumerate(match.deals):
        deals[number]["scores"] = deal.scores()
        deals[number]["over"] = deal.over
    players = record.get("players")
    return {"game": match.game.name, "deals": deals, "options": dict(match.options),
            "players": list(players) if players is not None else None,
            "seats": match.game.seats}


def _by_bot(entry: dict) -> list[int]:
    """The indices of the deal's actions a bot made for a person (the turn timer's, a
    stand-in's), as cardroom's server lists them in a deal's ``by_bot`` (a key other readers of
    records ignore); none for anything else there."""
    listed = entry.get("by_bot")
    if not isinstance(listed, list):
        return []
    return [i for i in listed if type(i) is int]


def kind(game: str, action: dict) -> str:
    """What sort of decision ``action`` made: ``card``, ``trump_call``, ``declaration``,
    ``dix``, ``draw``, ``pass`` (Black Maria's three cards), ``bid`` (a bid or a pass in Big
    Mariage's bidding), ``give`` or ``contract`` (a declarer's gives valued together are of the
    kind ``gives``: :func:`decision`)."""
    kind_ = action["type"]
    if kind_ == "play":
        return "trump_call" if action.get("trump") else "card"
    if kind_ == "pass":
        return "pass" if game == "black_maria" else "bid"
    return KINDS[kind_]


def _key(action: dict) -> tuple:
    """An action's identity: the cards of a pass in any order are the same pass."""
    if "cards" in action and action["type"] == "pass":
        return ("pass", frozenset(action["cards"]))
    return tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in action.items()))


def decision(model, view: dict, moves: dict, made: Action | list[Action], rng: random.Random,
             simulations: int, solvers: dict | None = None, index: int | None = None) -> dict:
    """The analysis of one decision: ``view`` and ``moves`` are the acting seat's before it
    chose ``made`` (in normal form): an action, or the list of a Big Mariage declarer's gives,
    valued as one set (kind ``gives``). ``solvers`` keeps Marjolet's end-phase solvers between
    the decisions of one deal. See docs/analysis.md for the fields."""
    game, seat = view["game"], view["seat"]
    several = isinstance(made, list)
    chosen = tuple(made) if several else (made,)
    result = {"index": index, "seat": seat, "kind": "gives" if several else kind(game, made),
              "action": _shown(chosen, several),
              "legal": _sets(moves, len(chosen)) if several else len(expand_moves(moves))}
    if result["legal"] == 1:
        result["forced"] = True
        return result
    knowledge = model.knowledge(view)
    worlds = model.worlds(view, knowledge, rng)
    if several:
        candidates = _sets_of_gives(model, view, moves, chosen, next(worlds))
    else:
        candidates = [(action,) for action in _candidates(model, view, moves, made)]
    values = None
    if not several and certain(knowledge):
        world = next(worlds)
        values = _exact(model, world, seat, [c for c, in candidates],
                        solvers if solvers is not None else {})
    again = False
    if values is not None:
        samples = [1] * len(candidates)
        best = max(range(len(candidates)), key=lambda i: (values[i], -i))
        made_value, best_value, error = values[0], values[best], None
    else:
        rescore = None if several else \
            getattr(model, "rescorer", lambda view, moves: None)(view, moves)
        outcomes = _measured(model, view, candidates, rng, worlds, simulations, rescore)
        values = [statistics.fmean(o.values()) for o in outcomes]
        samples = [len(o) for o in outcomes]
        best = max(range(len(candidates)), key=lambda i: (values[i], -i))
        made_value, best_value = values[0], values[best]
        error = _error(outcomes[best], outcomes[0])
        if significant(best_value - made_value, error):
            # Measured again on fresh determinizations: the set that chose the best flatters
            # it (the best of many noisy means is often only the luckiest), so a cost beyond
            # that set's luck is marked only if it stands on a second, independent set.
            again = True
            outcomes = _measured(model, view, [candidates[0], candidates[best]], rng, worlds,
                                 simulations, rescore)
            made_value, best_value = (statistics.fmean(o.values()) for o in outcomes)
            error = _error(outcomes[1], outcomes[0])
    # (measured again, the choice made may come out no worse than the best: no cost)
    cost = max(0.0, best_value - made_value)
    order = sorted(range(len(candidates)), key=lambda i: (-values[i], i))
    result.update({
        "exact": error is None,
        "choices": [{"action": _shown(candidates[i], several), "value": round(values[i], 2),
                     "samples": samples[i]} for i in order],
        "best": _shown(candidates[best], several),
        "measured_again": again,
        "best_value": round(best_value, 2),
        "value": round(made_value, 2),
        "cost": round(cost, 2),
        "error": None if error is None else round(error, 2),
        "significant": significant(cost, error),
        "mark": mark(game, cost, error),
    })
    return result


def _shown(choice: tuple, several: bool) -> dict | list[dict]:
    """A choice as the result gives it: its action, or the list of its actions."""
    return [dict(action) for action in choice] if several else dict(choice[0])


def significant(cost: float, error: float | None) -> bool:
    """Whether a cost is more than the luck of the sample: exact (``error`` None) and above
    nothing, or sampled and beyond :data:`SIGNIFICANCE` standard errors ``error``. Only such
    costs are marked and counted as points lost."""
    return cost > 0 and (error is None or cost > SIGNIFICANCE * error)


def mark(game: str, cost: float, error: float | None) -> str | None:
    """The mark of a choice that cost ``cost`` (None: no mark). ``error`` is the standard error
    of a sampled cost (None: exact); a cost that is not :func:`significant` is not marked."""
    if not significant(cost, error):
        return None
    given = None
    for name, threshold in zip(MARKS, THRESHOLDS[game]):
        if cost >= threshold:
            given = name
    return given


def _candidates(model, view: dict, moves: dict, made: Action) -> list[Action]:
    """The choices evaluated, the one made first: every legal action, except where the strong
    bot's model shortlists them (Black Maria's passes, Big Mariage's bids and contracts),
    where its shortlist, the rules bot's choice and the choice made."""
    rules = model.parse(HEURISTIC_BOTS[view["game"]](view, moves, random.Random(0)))
    listed = model.candidates(view, moves, rules)
    result, seen = [made], {_key(made)}
    for action in listed:
        if _key(action) not in seen:
            seen.add(_key(action))
            result.append(action)
    return result


def _sets(moves: dict, size: int) -> int:
    """How many sets of ``size`` gives, one card to each of as many seats, ``moves`` allows."""
    return math.perm(len(moves["give"]["cards"]), size) * math.comb(len(moves["give"]["to"]), size)


def _sets_of_gives(model, view: dict, moves: dict, made: tuple, world: Deal) -> list[tuple]:
    """The sets of gives evaluated (too many to play out all: 990 from a hand of eleven), the
    set made first: the set the rules bot would give; the set made with one card changed for
    another that the strong bot's model would give (not a nine, eight or seven above the lowest
    of its suit), its cards to the same seats; and its cards to the seats in another order. (A
    record that ends in the middle of the gives: the sets are of the gives it has.)"""
    seat, rules = view["seat"], HEURISTIC_BOTS[view["game"]]
    deal = world.copy()  # (the seat's own gives depend on nothing it has not seen)
    # its hand in the order the match held it (the engine's moves list it so, and a bot may
    # choose by it: a determinization's hand is in another)
    deal.hands[seat] = list(moves["give"]["cards"])
    theirs = []
    for _ in made:
        moves_now = deal.moves(seat)
        seen = {"game": view["game"], "seat": seat, "options": view["options"],
                "moves": moves_now, "deal": deal.view(seat)}  # (as a play-out shows a bot)
        action = model.parse(rules(seen, moves_now, random.Random(0)))
        deal.apply(seat, action)
        theirs.append(action)
    worth = {a["card"] for a in model.candidates(view, moves, theirs[0])}
    cards, to = [a["card"] for a in made], [a["to"] for a in made]

    def gives(cards, to) -> tuple:
        return tuple(model.parse({"type": "give", "card": c, "to": t}) for c, t in zip(cards, to))

    sets = [made, tuple(theirs)]
    for i in range(len(made)):
        sets += [gives(cards[:i] + [card] + cards[i + 1:], to)
                 for card in sorted(worth - set(cards))]
    sets += [gives(cards, list(order)) for order in itertools.permutations(to)]
    result, seen = [], set()
    for choice in sets:
        key = frozenset(map(_key, choice))
        if key not in seen:
            seen.add(key)
            result.append(choice)
    return result


def _measured(model, view: dict, candidates: list[tuple], rng: random.Random, worlds,
              simulations: int, rescore) -> list[dict[int, float]]:
    """Each candidate's outcome in each of ``simulations`` fresh determinizations, by number
    (rescored from one play-out each when the model has a ``rescorer`` for the decision)."""
    if rescore is not None:
        return _rescored(model, view, candidates, rng, worlds, simulations, rescore)
    return _sampled(model, view, candidates, rng, worlds, simulations)


def _error(best: dict[int, float], made: dict[int, float]) -> float:
    """The standard error of the mean of the paired differences ``best - made`` (whose mean
    is the difference of their means: every candidate has the same determinizations)."""
    differences = [best[w] - made[w] for w in made]
    return statistics.stdev(differences) / math.sqrt(len(differences)) \
        if len(differences) > 1 else 0.0


def _sampled(model, view: dict, candidates: list[tuple], rng: random.Random, worlds,
             simulations: int) -> list[dict[int, float]]:
    """Each candidate's outcome in each of ``simulations`` determinizations, by number: every
    candidate is played out in the same determinizations with the same random numbers."""
    seat, options = view["seat"], view["options"]
    outcomes: list[dict[int, float]] = [{} for _ in candidates]
    memory: dict = {}
    for number in range(max(2, simulations)):
        world, seed = next(worlds), rng.getrandbits(32)
        for i, choice in enumerate(candidates):
            *before, last = choice
            start = world
            if before:  # (a set of gives: all but the last made, the last played out)
                start = world.copy()
                for action in before:
                    start.apply(seat, action)
            outcomes[i][number] = play_out(model, start, seat, last, options, seed, memory,
                                           time.perf_counter, None)
    return outcomes


def _rescored(model, view: dict, candidates: list[tuple], rng: random.Random, worlds,
              simulations: int, rescore) -> list[dict[int, float]]:
    """As :func:`_sampled`, for a decision whose choices change only how the deal's end is
    scored (the model's ``rescorer``: Big Mariage's contract): each determinization is played
    out once, after the choice made, and scored for every choice."""
    seat, options = view["seat"], view["options"]
    outcomes: list[dict[int, float]] = [{} for _ in candidates]
    memory: dict = {}
    for number in range(max(2, simulations)):
        deal = next(worlds).copy()
        deal.apply(seat, candidates[0][0])
        model.play_out(deal, options, random.Random(rng.getrandbits(32)), memory)
        for i, (candidate,) in enumerate(candidates):
            outcomes[i][number] = rescore(deal, candidate, seat)
    return outcomes


# -- exact values ----------------------------------------------------------------------------

def certain(knowledge) -> bool:
    """Whether the seat knows where every card is, by elimination: each card it has not seen
    has one place it may be in once the places whose room is taken by cards that can be
    nowhere else are struck off (over and over), and no place holds more than one of them in an
    order that matters (Marjolet's stock). Stronger than ``Knowledge.certain``: the cards a
    Black Maria seat passed fill its right-hand neighbour's hand, the rest is the other's."""
    room = {place: size - len(knowledge.known.get(place, ()))
            for place, size in knowledge.sizes.items()}
    places = {card: {p for p in where if room.get(p, 0) > 0}
              for card, where in knowledge.unseen.items()}
    changed = True
    while changed:
        changed = False
        for place, free in room.items():
            only = [card for card, where in places.items() if where == {place}]
            if len(only) != free:
                continue
            for where in places.values():
                if place in where and len(where) > 1:
                    where.discard(place)
                    changed = True
    return all(len(where) == 1 for where in places.values()) \
        and sum(1 for where in places.values() if where == {"stock"}) <= 1

class _TooBig(Exception):
    pass


def _exact(model, world: Deal, seat: int, candidates: list[Action],
           solvers: dict) -> list[float] | None:
    """Each candidate's value by a full search of ``world`` (a position of perfect information
    for ``seat``), or None when the position is not one this module searches in full."""
    if model.game == "marjolet":
        if world.phase != "end":
            return None
        solver = solvers.get(world.trump)
        if solver is None:
            solver = solvers[world.trump] = EndSolver(world.trump)
        values = []
        for action in candidates:
            deal = world.copy()
            deal.apply(seat, action)
            values.append(float(_marjolet_end(deal, seat, solver)))
        return values
    if world.phase != "play":
        return None
    search = _Search(model, seat)
    try:
        return [search.after(world, seat, action) for action in candidates]
    except _TooBig:
        return None


def _marjolet_end(deal, seat: int, solver: EndSolver) -> int:
    """``seat``'s margin from ``deal`` (in the end phase) under perfect play of both."""
    if deal.over:
        scores = deal.scores()
        return scores[seat] - scores[1 - seat]
    if not deal.trick:
        scores = solver.scores(deal)
        return scores[seat] - scores[1 - seat]
    mover = deal.turn
    values = []
    for card in deal.moves(mover)["play"]:
        after = deal.copy()
        after.apply(mover, PLAY[card])
        values.append(_marjolet_end(after, seat, solver))
    return max(values) if mover == seat else min(values)


class _Search:
    """A full search of a trick-play position of perfect information over the engine's moves:
    each player chooses what is best for its own outcome (its team's, in Big Mariage; zero-sum
    between two sides, this is minimax), ties broken against the seat analysed. At most
    :data:`EXACT_NODES` positions."""

    def __init__(self, model, seat: int):
        self.model, self.seat = model, seat
        self.nodes = 0
        self.table: dict = {}

    def after(self, deal: Deal, actor: int, action: Action) -> float:
        child = deal.copy()
        child.apply(actor, action)
        return float(self.model.outcome(self.scores(child), self.seat))

    def scores(self, deal: Deal) -> tuple:
        """The deal's final scores under that play."""
        if deal.over:
            return tuple(deal.scores())
        key = (tuple(frozenset(h) for h in deal.hands), tuple(deal.trick), deal.turn,
               deal.trump, tuple(deal.scores()))
        known = self.table.get(key)
        if known is not None:
            return known
        self.nodes += 1
        if self.nodes > EXACT_NODES:
            raise _TooBig
        actor = deal.turn
        outcome, seat = self.model.outcome, self.seat
        best, best_key = None, None
        for action in expand_moves(deal.moves(actor)):
            child = deal.copy()
            child.apply(actor, self.model.parse(action))
            scores = self.scores(child)
            rank = (outcome(list(scores), actor), -outcome(list(scores), seat))
            if best_key is None or rank > best_key:
                best, best_key = scores, rank
        self.table[key] = best
        return best


# -- summary ---------------------------------------------------------------------------------

def _summary(deals: list[dict], seats: int) -> list[dict]:
    """Per seat: decisions analysed (with a choice, made by its player, not a bot for them; a
    declarer's gives are one), points lost (their significant costs) in all and per deal,
    marks."""
    result = []
    for seat in range(seats):
        mine = [d for deal in deals for d in deal["decisions"]
                if d["seat"] == seat and not d.get("forced") and not d.get("by_bot")
                and "with" not in d]
        lost = sum(d["cost"] for d in mine if d["significant"])
        result.append({
            "seat": seat,
            "decisions": len(mine),
            "exact": sum(1 for d in mine if d["exact"]),
            "lost": round(lost, 2),
            "lost_per_deal": round(lost / len(deals), 2) if deals else 0.0,
            "marks": {name: sum(1 for d in mine if d["mark"] == name) for name in MARKS},
        })
    return result
