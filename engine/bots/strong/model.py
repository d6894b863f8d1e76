"""What search needs to know of one game: a :class:`Model`, subclassed by each game."""

from __future__ import annotations

import random
from typing import Iterator

from ...actions import Action
from ...core import Deal, expand_moves
from ...games import GAMES
from ..heuristic import HEURISTIC_BOTS
from .inference import Knowledge, Place

#: How many standard errors of the paired differences search's best must beat the prior by,
#: unless a model says otherwise for a decision (:meth:`Model.confidence`).
CONFIDENCE = 1.0
#: How many placements a model's checks may turn down in a row before search takes one anyway
#: (checks that read how people bid can be wrong).
PLAUSIBLE_TRIES = 8


class Model:
    """One game as search sees it. Search chooses among :meth:`candidates`, playing each out
    in determinizations (:meth:`worlds`) to the end of the deal (:meth:`play_out`: every seat
    as the rules bot would, unless a game knows better), and scores the end with
    :meth:`outcome`."""

    game: str

    @property
    def policy(self):
        """How every seat plays in a play-out: the rules bot, the model of the other players."""
        return HEURISTIC_BOTS[self.game]

    # -- what the seat knows ---------------------------------------------------------------

    def knowledge(self, view: dict) -> Knowledge:
        """Where the cards ``view``'s seat cannot see may be."""
        raise NotImplementedError

    def plausible(self, view: dict, placement: dict[Place, list[str]],
                  rng: random.Random) -> bool:
        """Whether to keep a placement, beyond the limits of :meth:`knowledge` (default: yes)."""
        return True

    def determinize(self, view: dict, placement: dict[Place, list[str]],
                    rng: random.Random) -> Deal:
        """The deal ``view`` shows, with its hidden cards placed as ``placement`` says."""
        raise NotImplementedError

    def worlds(self, view: dict, knowledge: Knowledge, rng: random.Random) -> Iterator[Deal]:
        """Endless determinizations of ``view``, drawn from ``knowledge``."""
        while True:
            for _ in range(PLAUSIBLE_TRIES):
                placement = knowledge.sample(rng)
                if self.plausible(view, placement, rng):
                    break
            yield self.determinize(view, placement, rng)

    # -- choosing and scoring --------------------------------------------------------------

    def candidates(self, view: dict, moves: dict, prior: Action) -> list[Action]:
        """The actions worth searching, ``prior`` (the rules bot's choice) first. Default:
        every legal action."""
        return with_prior(prior, expand_moves(moves), self.parse)

    def time_share(self, view: dict, moves: dict) -> float:
        """The share of its think time a decision takes (search with seconds): all of it,
        unless a game knows the rules bot is nearly always right there and a person decides
        at once."""
        return 1.0

    def confidence(self, view: dict, moves: dict) -> float:
        """How many standard errors search's best must beat the prior by (search.py)."""
        return CONFIDENCE

    def rescorer(self, view: dict, moves: dict):
        """For a decision whose candidates change only how the deal's end is scored (the
        play that follows is the same), ``rescore(deal, candidate, seat) -> outcome`` of a
        deal played out after the prior: search then plays each determinization out once and
        scores it for every candidate. None (the default): each candidate is played out."""
        return None

    def parse(self, action: dict) -> Action:
        return GAMES[self.game].deal_type.schema.parse(action)

    def outcome(self, scores: list[int], seat: int) -> float:
        """How good a deal's ``scores`` are for ``seat`` (higher is better), in points."""
        raise NotImplementedError

    def utility(self, outcome: float) -> float:
        """What search maximises, of an :meth:`outcome`: the outcome itself unless a game
        weighs more than points (Big Mariage: coming out of the deal ahead)."""
        return outcome

    def plans(self, view: dict, moves: dict, prior: Action) -> list[tuple[Action, object]]:
        """What search compares: each candidate with a *plan* for the seat's own later
        decisions in the play-outs (None: as :attr:`policy` would), the prior first with
        None. Default: :meth:`candidates`, without plans."""
        return [(action, None) for action in self.candidates(view, moves, prior)]

    def play_out(self, deal: Deal, options: dict, rng: random.Random,
                 memory: dict, plan=None) -> list[int] | None:
        """Play ``deal`` to its end, every seat as :attr:`policy` would (and as ``plan``
        says, one of :meth:`plans`'). ``memory`` is kept by search for the play-outs of one
        decision, to share what they may (a transposition table). A model that works out the
        end rather than playing it returns the deal's final scores (as far as :meth:`outcome`
        tells them apart); None: ``deal.scores()``."""
        policy, game = self.policy, self.game
        while not deal.over:
            turn = deal.turn
            for actor in [turn] if turn is not None else deal.to_act():
                moves = deal.moves(actor)
                view = {"game": game, "seat": actor, "options": options, "moves": moves,
                        "deal": deal.view(actor)}
                deal.apply(actor, policy(view, moves, rng))


def with_prior(prior: Action, actions: list[dict], parse) -> list[Action]:
    """``actions`` in normal form, ``prior`` first (added when it is not one of them: search
    measures every candidate against it)."""
    result = list(map(parse, actions))
    if prior in result:
        result.remove(prior)
    result.insert(0, prior)
    return result
