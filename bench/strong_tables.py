"""Tables of strong bots beside a load: rooms of strong bots alone on a running server, each
watched by a spectator (a room of bots nobody watches pauses), their bots thinking all along,
until interrupted. Run it beside bench/load_bench.py --url to see whether the other tables keep
their p99 while strong bots think (docs/strong-bot.md#at-the-table).

    .venv/bin/python bench/strong_tables.py http://127.0.0.1:8765 [--tables 2] [--think 1]
        [--game black_maria]

Every ten seconds it prints how many moves the strong bots made and how long the spectators
waited between two of them (a strong bot's move is due by its think time, the pause before it
included).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time

import httpx
import websockets

SEATS = {"marjolet": 2, "black_maria": 3, "big_mariage": 4}


async def watch(ws_url: str, code: str, gaps: list[float]) -> None:
    """Watch one room: every action's arrival, the gap since the one before."""
    while True:
        try:
            async with websockets.connect(f"{ws_url}/ws/{code}", max_size=2 ** 22) as ws:
                await ws.send(json.dumps({"type": "hello"}))
                last = None
                async for raw in ws:
                    message = json.loads(raw)
                    event = message.get("event") or {}
                    if message.get("type") == "event" and event.get("kind") == "action":
                        now = time.monotonic()
                        if last is not None:
                            gaps.append(now - last)
                        last = now
                    elif message.get("type") == "event":
                        last = None  # a deal or a match begins: its pause is not a move's
        except (OSError, websockets.ConnectionClosed):
            await asyncio.sleep(1)


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("url")
    parser.add_argument("--tables", type=int, default=2)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--game", default="black_maria", choices=sorted(SEATS))
    args = parser.parse_args()
    codes = []
    async with httpx.AsyncClient(base_url=args.url) as http:
        for _ in range(args.tables):
            r = await http.post("/api/rooms", json={
                "game": args.game, "options": {"target": 1000 if args.game == "black_maria"
                                               else 100000},
                "seats": ["bot:strong"] * SEATS[args.game], "think_time": args.think})
            if r.status_code != 201:
                print(f"room refused: {r.text}", file=sys.stderr)
                return 1
            codes.append(r.json()["code"])
    print(f"{args.tables} {args.game} tables of strong bots thinking {args.think} s: "
          f"{' '.join(codes)}", flush=True)
    ws_url = args.url.replace("http", "ws", 1)
    gaps: list[float] = []
    watchers = [asyncio.create_task(watch(ws_url, code, gaps)) for code in codes]
    try:
        while True:
            await asyncio.sleep(10)
            taken, gaps[:] = sorted(gaps), []
            if taken:
                print(f"  {len(taken)} moves; between two: median {statistics.median(taken):.3f}"
                      f" s, max {taken[-1]:.3f} s", flush=True)
    finally:
        for task in watchers:
            task.cancel()


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except KeyboardInterrupt:
        pass
