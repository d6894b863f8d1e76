"""The server's own work per action, without sockets: K Black Maria rooms of three people on
SQLite, whose connections keep nothing, each choosing as the load bench's seats do and acting
in turn through ``app.web.socket.handle`` (K/B batches of B rooms at a time, so that writes share group
commits as under load), ROUNDS times.
Prints CPU ms per action; irroom.sh counts its instructions (0 rounds subtracted).

    .venv/bin/python bench/tools/irroom.py [K=100] [B=10] [ROUNDS=50]
"""
import asyncio
import pathlib
import random
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2]))

from app import protocol  # noqa: E402
from app.rooms import Connection, RoomRegistry  # noqa: E402
from app.settings import Settings  # noqa: E402
from app.storage.migrate import upgrade  # noqa: E402
from app.storage.repository import RoomRepository  # noqa: E402
from app.storage.store import Store  # noqa: E402
from app.web.limits import Limits  # noqa: E402
from app.web.socket import handle  # noqa: E402
from bench.load_bench import choose  # noqa: E402


async def discard(text: str) -> None:
    return None


async def main(rooms: int, batch: int, rounds: int) -> None:
    url = f"sqlite:///{tempfile.mkdtemp()}/irroom.db"
    upgrade(url)
    store = Store(url)
    settings = Settings(database_url=url, bot_delay=0, deal_pause=0, room_idle=0,
                        log_level="WARNING", limits=False)
    registry = RoomRegistry(settings, RoomRepository(store))
    limits = Limits(settings)
    tables = []
    for _ in range(rooms):
        room = await registry.create("black_maria", {"target": 1000}, [("open", None)] * 3,
                                    None)
        conns = []
        for seat in range(3):
            _, token = await room.join(f"p{seat}", seat)
            conns.append(Connection(discard))
            await room.attach(conns[-1], token, None)
        tables.append((room, conns))
    while any(room.state.match is None or room.state.match.current is None
              for room, _ in tables):
        await asyncio.sleep(0.01)
    sent = 0
    rng = random.Random(1)  # the same choices every run

    async def act(room, conns) -> None:
        nonlocal sent
        match = room.state.match
        if match.current is None:  # between deals: the room's driver deals the next one
            return
        seat = match.to_act()[0]
        sent += 1
        data = {"type": "action", "id": str(sent), "action": choose(match.moves(seat), rng)}
        await handle(room, conns[seat], protocol.parse(data), limits)

    cpu = time.process_time()
    for _ in range(rounds):
        for start in range(0, rooms, batch):
            await asyncio.gather(*(act(*table) for table in tables[start:start + batch]))
        await asyncio.sleep(0)
    cpu = time.process_time() - cpu
    if sent:
        print(f"{sent} actions, {1000 * cpu / sent:.3f} ms CPU per action")
    await registry.close()
    store.close()


if __name__ == "__main__":
    k, b, r = (int(a) for a in (sys.argv[1:] + ["100", "10", "50"][len(sys.argv) - 1:]))
    asyncio.run(main(k, b, r))
