"""The loop bench/engine_bench.py times, for N deals: run under callgrind by irdeal.sh."""
import pathlib
import random
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2]))

from engine import new_match  # noqa: E402
from engine.bots.random_bot import random_bot  # noqa: E402


def random_deals(make_match, n: int) -> None:
    """``n`` deals of fresh matches from ``make_match()``, every action the random bot's."""
    rng = random.Random(1)
    for _ in range(n):
        m = make_match()
        m.start_deal(rng=rng)
        while m.current is not None:
            s = m.to_act()[0]
            m.apply(s, random_bot(None, m.moves(s), rng))


if __name__ == "__main__":
    game = sys.argv[1]
    random_deals(lambda: new_match(game), int(sys.argv[2]))
