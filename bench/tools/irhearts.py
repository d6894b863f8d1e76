"""OpenSpiel Hearts, N deals of the stricter loop bench/engine_bench.py times (chance "uniform":
every action uniformly among ``legal_actions()``): run under callgrind by irdeal.sh with a
python that has pyspiel."""
import random
import sys

import pyspiel

n = int(sys.argv[1])
game, rng = pyspiel.load_game("hearts"), random.Random(1)
for _ in range(n):
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
