"""The bench loop over a game whose rules do nothing: what Match, Deal.apply, the schema, moves
and the random bot cost by themselves, before any rules (51 plays a deal, like Black Maria's).

    bash bench/tools/irdeal.sh floor
"""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2]))

from bench.tools.ir import random_deals  # noqa: E402
from engine.actions import CARD, Schema  # noqa: E402
from engine.black_maria import PACK  # noqa: E402
from engine.core import Deal, Game, Match  # noqa: E402


class NullDeal(Deal):
    seats = 3
    schema = Schema({"play": {"card": CARD}})

    def __init__(self, options, dealer, deck, kitty=None):
        super().__init__(options, dealer, deck, kitty)
        self.turn, self.left = (dealer + 1) % 3, 51

    def to_act(self):
        return [] if self.over else [self.turn]

    def moves(self, seat):
        return {"play": ["AS", "KS", "QS"]} if seat == self.turn else {}

    def _play(self, seat, action):
        self.left -= 1
        self.turn = (seat + 1) % 3
        if not self.left:
            self.over, self.turn = True, None

    handlers = {"play": _play}

    def scores(self):
        return [0, 0, 0]


class Null(Game):
    name, deal_type, options = "null", NullDeal, {}

    def shuffle(self, rng):
        return list(PACK.cards), None

    def winners(self, totals, options):
        return None


if __name__ == "__main__":
    random_deals(lambda: Match(Null()), int(sys.argv[2]))
