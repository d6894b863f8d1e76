"""A table client that survives its server process: it reconnects (to the next URL) with
``since`` and resends an unanswered action under the same id, as a browser would."""

from __future__ import annotations

import asyncio
import itertools

from cardroom_client import Client, answers, create_room, join

_ids = itertools.count()

GAME, SEATS, OPTIONS = "black_maria", ["open", "open", "bot:rules"], {"target": 40}


class Player:
    def __init__(self, urls: list[str], code: str, token: str | None, name: str,
                 **connect_options):
        self.urls, self.name = list(urls), name
        self.client = Client(urls[0], code, token, name=name, **connect_options)
        self.acked: dict[str, int | None] = {}  # client id -> event seq of its ack
        self.refused: dict[str, int] = {}       # error code -> count
        self.reconnects = 0

    @property
    def state(self):
        return self.client.state

    async def connect(self) -> None:
        await self.client.connect()

    async def reconnect(self) -> None:
        delay = 0.1
        while True:
            self.urls.append(self.urls.pop(0))  # try the next process
            url = f"{self.urls[0]}/ws/{self.client.code}"
            try:
                await self.client.connect(since=self.client.seq, url=url)
                self.reconnects += 1
                return
            except Exception:  # noqa: BLE001 - that process is gone: try another
                await asyncio.sleep(delay)
                delay = min(delay * 2, 1.0)

    async def _reply(self, id_: str, timeout: float = 20) -> dict:
        async def find():
            while True:
                message = await self.client.next(timeout)  # a broken client fails at once
                if answers(message, id_):
                    return message
                if message["type"] == "_closed":
                    return message
        return await asyncio.wait_for(find(), timeout)

    async def act_once(self, action: dict | None = None) -> dict:
        """One action, retried under the same id until the server answers it."""
        action = action or self.client.choose()
        id_ = f"{self.name}-{next(_ids)}"
        while True:
            try:
                await self.client.send({"type": "action", "id": id_, "action": action})
                answer = await self._reply(id_)
            except AssertionError:  # the client saw something wrong: not a socket to retry
                raise
            except Exception:  # noqa: BLE001 - the socket broke under us
                answer = {"type": "_closed"}
            if answer["type"] == "_closed":
                await self.reconnect()
                continue
            if answer["type"] in ("event", "ack"):
                self.acked[id_] = answer["seq"]
                return answer
            code = answer["code"]
            self.refused[code] = self.refused.get(code, 0) + 1
            if code in ("storage", "rate_limited"):
                await asyncio.sleep(0.3)
                continue
            return answer  # not_your_turn / illegal / conflict: decide again from the state

    async def play(self, timeout: float = 120, stop=None) -> None:
        async def loop():
            while True:
                state = self.client.state
                if state and state["match"] and state["match"]["finished"]:
                    return
                if stop is not None and stop(self):
                    return
                if self.client.my_turn():
                    await self.act_once()
                    continue
                try:  # a client whose state went wrong fails the test here, at once
                    message = await self.client.next(5)
                except asyncio.TimeoutError:
                    continue
                if message["type"] == "_closed":
                    await self.reconnect()
        await asyncio.wait_for(loop(), timeout)

    async def close(self) -> None:
        try:
            await self.client.close()
        except Exception:  # noqa: BLE001
            pass


def stored_client_ids(database_url: str) -> dict[str, int]:
    """client id -> how many stored actions carry it."""
    from sqlalchemy import func, select

    from app.storage.models import RoomEvent
    from app.storage.store import Store

    store = Store(database_url)
    try:
        with store.sessions() as s:
            return dict(s.execute(select(RoomEvent.client_id, func.count())
                                  .where(RoomEvent.kind == "action",
                                         RoomEvent.client_id.is_not(None))
                                  .group_by(RoomEvent.client_id)).all())
    finally:
        store.close()


def check_acknowledged(players, database_url: str) -> int:
    """Every acknowledged action is stored exactly once."""
    stored = stored_client_ids(database_url)
    acked = [id_ for p in players for id_ in p.acked]
    missing = [i for i in acked if stored.get(i, 0) != 1]
    assert not missing, f"acknowledged actions not stored exactly once: {missing[:5]}"
    assert all(n == 1 for n in stored.values()), "a client action id was applied twice"
    return len(acked)


async def table(apps, name: str, options=None) -> tuple[str, list["Player"]]:
    """A room with two people (seat 0 on the first process, seat 1 on the second, if there is
    one) and a bot."""
    code = await create_room(apps[0].http, GAME, SEATS, options or OPTIONS)
    players = []
    for seat in (0, 1):
        app = apps[seat % len(apps)]
        _, token = await join(app.http, code, f"{name}-{seat}", seat)
        others = [a.ws for a in apps if a is not app]
        player = Player([app.ws, *others], code, token, f"{name}-{seat}")
        await player.connect()
        players.append(player)
    return code, players


def assert_audit(database_url: str) -> dict:
    """Every stored match replays through the engine to its stored scores, and all finished."""
    from app.ops.audit import audit

    result = audit(database_url)
    assert result["ok"], result["problems"]
    assert result["matches"] and result["finished"] == result["matches"], result
    return result
