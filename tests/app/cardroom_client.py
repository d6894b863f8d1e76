"""A test client of the WebSocket protocol (docs/protocol.md) that keeps every message."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import re

import httpx
import websockets

from app import protocol
from engine import expand_moves
from engine.record import replay

CARD = re.compile(r'"([2-9TJQKA][SHDC])"')
_ids = itertools.count()


async def create_room(base: str, game: str, seats: list[str], options=None, **extra) -> str:
    async with httpx.AsyncClient(base_url=base) as http:
        r = await http.post("/api/rooms", json={"game": game, "options": options or {},
                                                "seats": seats, **extra})
        assert r.status_code == 201, r.text
        return r.json()["code"]


async def join(base: str, code: str, name: str, seat: int | None = None) -> tuple[int, str]:
    async with httpx.AsyncClient(base_url=base) as http:
        r = await http.post(f"/api/rooms/{code}/join", json={"name": name, "seat": seat})
        assert r.status_code == 200, r.text
        return r.json()["seat"], r.json()["token"]


def answers(message: dict, id_: str) -> bool:
    """Whether ``message`` answers the action sent with ``id_``: its event (with the ack), an
    ack alone (a duplicate) or an error."""
    if message["type"] == "event":
        return "ack" in message and message["ack"] == id_
    return message["type"] in ("ack", "error") and message.get("id") == id_


class Client:
    def __init__(self, ws_base: str, code: str, token: str | None = None, name: str = "?",
                 player: str | None = None, **connect_options):
        self.url, self.code, self.token, self.name = f"{ws_base}/ws/{code}", code, token, name
        self.player = player  # a player key: seated by their identity
        self.options = connect_options  # for websockets.connect: ssl, origin
        self.messages: list[dict] = []  # every message ever received (all connections)
        self.state: dict | None = None
        self.seq = 0
        self.follower = protocol.Follower()
        self.ws = None
        self.inbox: asyncio.Queue = asyncio.Queue()
        self.reader: asyncio.Task | None = None
        self.rng = random.Random()
        self.seat: int | None = None

    async def connect(self, since: int | None = None, url: str | None = None) -> dict:
        """Connect (again) and say hello; the welcome. One connection at a time, as a page
        has: a socket still open is closed first, so that no two feed one state."""
        if url:
            self.url = url
        await self._hang_up()
        self.inbox = asyncio.Queue()
        self.ws = await websockets.connect(self.url, max_size=2 ** 22, **self.options)
        self.reader = asyncio.create_task(self._read(self.ws))
        hello = {"type": "hello"}
        if self.token:
            hello["token"] = self.token
        if self.player:
            hello["player"] = self.player
        if since is not None:
            hello["since"] = since
        await self.send(hello)
        return await self.expect("welcome")

    async def _read(self, ws) -> None:
        try:
            async for raw in ws:
                message = json.loads(raw)
                message["_at_seq"] = self.seq  # for leak checks of unnumbered messages
                self.messages.append(message)
                wrong = self._follow(message) or self._wrong_seat(message)
                if wrong:  # fail the test now, not when a play loop times out
                    await self.inbox.put({"type": "_broken", "why": wrong})
                    return
                if "seq" in message and message["type"] in ("event", "welcome"):
                    self.seq = max(self.seq, message["seq"])
                self.state = self.follower.state
                await self.inbox.put(message)
        except websockets.ConnectionClosed:
            pass
        await self.inbox.put({"type": "_closed"})

    def _follow(self, message: dict) -> str | None:
        """Keep this connection's STATE as a browser does (protocol.Follower) and put each new
        one in its message as ``state``, for the tests to read; what went wrong, if anything."""
        if message["type"] == "welcome":
            self.follower = protocol.Follower()
        try:
            state = self.follower.follow(message)
        except protocol.OutOfStep as error:
            return f"{self.name}: {error}"
        if state is not None and message["type"] != "presence":
            message["state"] = state
        return None

    def _wrong_seat(self, message: dict) -> str | None:
        """A state built for another seat than this connection's (a frame shared by mistake)."""
        state = message.get("state")
        if message["type"] == "welcome":
            self.seat = state["you"]["seat"]
        if not state:
            return None
        if state["you"]["seat"] != self.seat:
            return f"{self.name} (seat {self.seat}) got a state for seat {state['you']['seat']}"
        return None

    async def _take(self) -> dict:
        """The next message; a closed or broken connection fails the test at once."""
        message = await self.inbox.get()
        if message["type"] == "_broken":
            self.inbox.put_nowait(message)  # every later wait fails too
            raise AssertionError(message["why"])
        return message

    async def _hang_up(self) -> None:
        ws, reader, self.ws, self.reader = self.ws, self.reader, None, None
        if ws is not None:
            try:
                await asyncio.wait_for(ws.close(), 2)
            except Exception:  # noqa: BLE001 - gone already
                pass
        if reader is not None:
            reader.cancel()
            try:
                await reader
            except BaseException:  # noqa: BLE001 - cancelled, or its socket broke
                pass

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
            if self.reader:
                await self.reader
            self.ws = None

    async def send(self, obj) -> None:
        await self.ws.send(obj if isinstance(obj, (str, bytes)) else json.dumps(obj))

    async def next(self, timeout: float = 10) -> dict:
        return await asyncio.wait_for(self._take(), timeout)

    async def expect(self, kind: str, timeout: float = 10, **fields) -> dict:
        async def find():
            while True:
                message = await self._take()
                if message["type"] == kind and all(message.get(k) == v for k, v in fields.items()):
                    return message
                if message["type"] == "_closed":
                    raise AssertionError(f"connection closed while waiting for {kind}")
        return await asyncio.wait_for(find(), timeout)

    async def until(self, predicate, timeout: float = 30) -> dict:
        """Wait until the latest state satisfies ``predicate(state)``."""
        async def find():
            while True:
                if self.state is not None and predicate(self.state):
                    return self.state
                message = await self._take()
                if message["type"] == "_closed":
                    raise AssertionError("connection closed")
        return await asyncio.wait_for(find(), timeout)

    def my_turn(self) -> bool:
        view = self.state and self.state["match"]
        return bool(view and not view["finished"] and view["moves"])

    def choose(self) -> dict:
        moves = self.state["match"]["moves"]
        if isinstance(moves.get("pass"), dict) and "choose" in moves["pass"]:
            return {"type": "pass", "cards": self.rng.sample(moves["pass"]["from"], 3)}
        if "bid" in moves and "pass" in moves:  # people who never overbid keep matches short
            return {"type": "pass"}
        if "contract" in moves:
            return {"type": "contract", "value": min(moves["contract"])}
        return self.rng.choice(expand_moves(moves))

    async def act(self, action: dict | None = None, id_: str | None = None) -> dict:
        """Send one action and wait for the answer to it: the event that stored it (carrying
        the ack), an ``ack`` alone (a duplicate) or an ``error``."""
        action = action or self.choose()
        id_ = id_ or f"{self.name}-{next(_ids)}"
        await self.send({"type": "action", "id": id_, "action": action})

        async def reply():
            while True:
                message = await self._take()
                if answers(message, id_):
                    return message
                if message["type"] == "_closed":
                    raise AssertionError("connection closed")
        answer = await asyncio.wait_for(reply(), 15)
        if answer["type"] == "error" and answer["code"] == "rate_limited":
            await asyncio.sleep(0.2)  # a fast test client can outrun a person's rate limit
            return await self.act(action, id_)
        return answer

    async def play(self, stop=None, timeout: float = 90) -> None:
        """Play legal moves from this seat's own view until the match ends (or ``stop``)."""
        async def loop():
            while True:
                state = self.state
                if state and state["match"] and state["match"]["finished"]:
                    return
                if stop is not None and state and stop(state):
                    return
                if self.my_turn():
                    reply = await self.act()
                    if reply["type"] == "error":
                        assert reply["code"] in ("not_your_turn", "conflict"), reply
                    continue
                message = await self._take()
                if message["type"] == "_closed":
                    raise AssertionError("connection closed")
        await asyncio.wait_for(loop(), timeout)


async def play_all(clients, timeout: float = 120) -> None:
    await asyncio.gather(*(c.play(timeout=timeout) for c in clients))


def visible_cards(obj) -> set[str]:
    return set(CARD.findall(json.dumps(obj)))


def allowed_by_seq(record: dict, events: list[tuple[int, dict]], seats: list) -> dict:
    """For each room event number of the match, the cards each viewer may know by then: every
    card that appeared in its own engine view since the start of the current deal.

    ``events`` are the match's numbered events as the spectator saw them, in order.
    """
    from engine import new_match

    match = new_match(record["game"], record["options"])
    deals = iter(record["deals"])
    deal_actions = None
    allowed: dict = {}
    known = {s: set() for s in seats}
    for seq, event in events:
        if event["kind"] == "deal":
            entry = next(deals)
            match.start_deal(entry["deck"], entry["dealer"], entry.get("kitty"))
            deal_actions = iter(entry["actions"])
            known = {s: set() for s in seats}
        elif event["kind"] == "action":
            seat, action = next(deal_actions)
            assert seat == event["seat"]
            match.apply(seat, action)
        for s in seats:
            known[s] |= visible_cards(match.view(s))
        allowed[seq] = {s: set(known[s]) for s in seats}
    return allowed


def check_no_leak(client: "Client", allowed: dict, viewer) -> int:
    """Every card code in every message ``client`` got must be known to ``viewer`` then."""
    checked = 0
    first, last = min(allowed), max(allowed)
    for message in client.messages:
        parts = []
        if message["type"] == "welcome":
            for missed in message.get("missed") or []:
                parts.append((missed["seq"], missed))
            parts.append((message["seq"], {k: v for k, v in message.items() if k != "missed"}))
        else:
            parts.append((message.get("seq", message["_at_seq"]), message))
        for seq, part in parts:
            if not first <= seq <= last:
                continue
            cards = visible_cards(part)
            leaked = cards - allowed[seq][viewer]
            assert not leaked, f"seat {viewer} saw {leaked} at event {seq}: {part}"
            checked += 1
    return checked


def replay_record(record: dict):
    return replay(record)
