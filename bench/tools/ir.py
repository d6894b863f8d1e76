"""The loop bench/engine_bench.py times, for N deals: run under callgrind by irdeal.sh."""
import pathlib
import random
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2]))

from engine import new_match  # noqa: E402
from engine.bots.random_bot import random_bot  # noqa: E402

game, n = sys.argv[1], int(sys.argv[2])
rng = random.Random(1)
for _ in range(n):
    m = new_match(game)
    m.start_deal(rng=rng)
    while m.current is not None:
        s = m.to_act()[0]
        m.apply(s, random_bot(None, m.moves(s), rng))
