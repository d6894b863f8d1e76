"""Generate the demo matches of seeds/: a few whole matches of each game, played by the rules
bot at every seat, written as record.md records.

    .venv/bin/python seeds/make_demo.py [SEED]     # rewrites seeds/*.json

The same seed gives the same matches; without one the shuffles are fresh.

``cardroom load-demo`` loads them into the database.
"""

from __future__ import annotations

import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine import GAMES, new_match  # noqa: E402
from engine.bots import bot_for  # noqa: E402
from engine.record import write  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
NAMES = ["Anna", "Boris", "Vera", "Gleb"]
PLAN = {"marjolet": [{"target": 300}] * 3, "black_maria": [{"target": 60}] * 3,
        "big_mariage": [{"target": 500}] * 3}


def play(game: str, options: dict, rng: random.Random) -> dict:
    match = new_match(game, options)
    bots = [bot_for(game, "rules") for _ in range(GAMES[game].seats)]
    while not match.finished:
        match.start_deal(rng=rng)
        while match.current is not None:
            seat = match.to_act()[0]
            match.apply(seat, bots[seat](match.view(seat), match.moves(seat), rng))
    return write(match, NAMES[:GAMES[game].seats])


def main() -> None:
    rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else None)
    for game, option_list in PLAN.items():
        for i, options in enumerate(option_list, 1):
            record = play(game, options, rng)
            path = os.path.join(HERE, f"{game}-{i}.json")
            with open(path, "w", encoding="utf-8") as out:
                json.dump(record, out, separators=(",", ":"))
            print(path, len(record["deals"]), "deals")


if __name__ == "__main__":
    main()
