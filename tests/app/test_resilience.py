"""Bad messages, retries, races, reconnection, a second server instance, a failing database,
stand-in bots and the turn timer."""

from __future__ import annotations

import asyncio
import json
import socket

import httpx
import pytest
import websockets
from cardroom_client import Client, create_room, join
from sqlalchemy import select
from sqlalchemy.exc import OperationalError

from app import protocol
from app.storage.models import RoomEvent
from engine.record import replay


async def seated(server, game="black_maria", seats=("open", "bot:rules", "bot:random"),
                 options=None, name="anna", **extra):
    code = await create_room(server.http, game, list(seats), options or {"target": 15}, **extra)
    _, token = await join(server.http, code, name, 0)
    client = Client(server.ws, code, token, name=name)
    await client.connect()
    return code, token, client


def action_events(server, match_id: int) -> list[RoomEvent]:
    """The match's stored actions (its action events), in order."""
    with server.app.state.store.sessions() as session:
        return list(session.scalars(select(RoomEvent).where(
            RoomEvent.kind == "action", RoomEvent.match_id == match_id).order_by(RoomEvent.seq)))


def stored_actions(server, match_id: int) -> int:
    return len(action_events(server, match_id))


async def test_bad_messages_get_errors_and_the_room_goes_on(server):
    code, token, anna = await seated(server)
    # A second connection before hello, a spectator, and a forged token.
    early = Client(server.ws, code, name="early")
    early.ws = await websockets.connect(early.url)
    early.reader = asyncio.create_task(early._read(early.ws))
    await early.send({"type": "action", "id": "x", "action": {"type": "play", "card": "AS"}})
    assert (await early.expect("error"))["code"] == "hello_first"
    await early.close()
    forged = Client(server.ws, code, token="forged-" + token[7:], name="forged")
    welcome = await forged.connect()
    assert welcome["state"]["you"]["seat"] is None
    assert any(m["type"] == "error" and m["code"] == "bad_token" for m in forged.messages)
    await forged.send({"type": "action", "id": "f", "action": {"type": "pass", "cards": []}})
    assert (await forged.expect("error"))["code"] == "not_seated"
    await forged.send({"type": "chat", "text": "hi"})
    assert (await forged.expect("error"))["code"] == "not_seated"

    checks = [
        ("{not json", "bad_json"),
        ("[1, 2]", "bad_json"),
        (json.dumps({"type": "dance"}), "unknown_type"),
        (json.dumps({"type": "action", "id": "a1"}), "bad_field"),
        (json.dumps({"type": "action", "id": "a2", "action": {"type": "fly"}}), "malformed"),
        (json.dumps({"type": "action", "id": "a3",
                     "action": {"type": "pass", "cards": ["AS", "KS", "QS", "JS"]}}), None),
        (json.dumps({"type": "action", "id": "a4", "action": {"type": "play", "card": "AS"}}),
         "illegal"),
        (json.dumps({"type": "chat", "text": "x" * 301}), "bad_field"),
        (json.dumps({"type": "standin", "seat": 1}), "not_available"),
        (json.dumps({"type": "rematch"}), "not_available"),
        (json.dumps({"type": "chat", "text": "y" * 5000}), "too_large"),
    ]
    for text, code_ in checks:
        await anna.send(text)
        reply = await anna.expect("error")
        if code_:
            assert reply["code"] == code_, (text[:60], reply)
        else:
            assert reply["code"] in ("illegal", "malformed"), reply
    # The chat is text, passed on as text; the sender's event of a line carries its id.
    await anna.send({"type": "chat", "id": "line-1", "text": "<b>hello</b>"})
    event = await anna.expect("event")
    assert event["event"]["kind"] == "chat" and event["event"]["text"] == "<b>hello</b>"
    assert event["ack"] == "line-1"
    assert anna.state["chat"][-1]["text"] == "<b>hello</b>"
    seen = await forged.expect("event")  # (the spectator's)
    assert seen["event"]["text"] == "<b>hello</b>" and "ack" not in seen
    await anna.send({"type": "chat", "id": ["line-2"], "text": "hi"})
    assert (await anna.expect("error"))["reason"] == "bad_id"
    # A flood is refused, the connection stays: pings sent faster than the rate limit refills
    # get rate_limited (in bursts of 80, however slowly a loaded machine sends them).
    kinds = []
    for _ in range(10):
        for _ in range(80):
            await anna.send({"type": "ping"})
        for _ in range(80):
            message = await anna.next()
            kinds.append(message.get("code") or message["type"])
        if "rate_limited" in kinds:
            break
    assert "rate_limited" in kinds and "pong" in kinds
    # Oversize frame beyond the hard limit closes that connection only.
    other = Client(server.ws, code, token, name="other")
    await other.connect()
    await other.send("x" * (server.settings.ws_max_size + 10))
    assert (await other.next())["type"] == "_closed"
    assert other.ws.close_code == 1009
    # Nothing changed: no action stored, one chat event only; the room goes on to the end.
    assert not [e for e in action_events(server, anna.state["room"]["match"]["id"])
                if e.data["seat"] == 0]
    assert sum(1 for m in anna.messages if m["type"] == "event"
               and m["event"]["kind"] == "chat") == 1
    await anna.play()
    assert anna.state["match"]["finished"]
    await anna.close()
    await forged.close()


async def test_retry_is_applied_once_and_one_of_two_racing_actions_wins(server):
    code, token, anna = await seated(server)
    match_id = anna.state["room"]["match"]["id"]
    # Race two connections of the same seat for its one pass of the deal.
    await anna.until(lambda s: s["match"]["deal"]["passed"] == [False, True, True])
    twin = Client(server.ws, code, token, name="twin")
    await twin.connect()
    cards = anna.state["match"]["moves"]["pass"]["from"]
    r1, r2 = await asyncio.gather(anna.act({"type": "pass", "cards": cards[:3]}, "race-1"),
                                  twin.act({"type": "pass", "cards": cards[-3:]}, "race-2"))
    assert sorted([r1["type"], r2["type"]]) == ["error", "event"], (r1, r2)
    loser = r1 if r1["type"] == "error" else r2
    assert loser["code"] in ("not_your_turn", "illegal", "conflict")
    mine = [e for e in action_events(server, match_id) if e.data["seat"] == 0]
    assert len(mine) == 1 and mine[0].client_id in ("race-1", "race-2")
    await twin.close()
    # A retry with the same id is applied once.
    await anna.until(lambda s: bool(s["match"]["moves"].get("play")))
    action = anna.choose()
    first = await anna.act(action, "same-id")
    assert first["type"] == "event" and first["ack"] == "same-id"
    again = await anna.act(action, "same-id")
    assert again["type"] == "ack" and again.get("duplicate") and again["seq"] == first["seq"]
    assert again["action"] == first["event"]["action"]  # the stored action, read back
    assert [e.client_id for e in action_events(server, match_id)].count("same-id") == 1
    await anna.play()
    await anna.close()


def events_of(client, seqs) -> dict[int, dict]:
    """The events numbered ``seqs`` as ``client`` received them (live or as missed)."""
    seen = {}
    for message in client.messages:
        if message["type"] == "event":
            seen[message["seq"]] = message["event"]
        for missed in (message.get("missed") or []) if message["type"] == "welcome" else []:
            seen[missed["seq"]] = missed["event"]
    return {seq: seen[seq] for seq in seqs}


async def away_while_others_act(anna, boris, code, token):
    """Anna acts and hangs up; Boris plays when it is his turn (the bot plays by itself) until
    it is Anna's turn again or the deal is over; she comes back with ``since``. Returns (her
    new connection, its welcome, the seqs she missed)."""
    reply = await anna.act()
    assert reply["type"] == "event", reply
    last = anna.seq
    await anna.close()

    def anna_awaited(state):
        deal = state["match"]["deal"]
        return 0 in state["match"]["to_act"] or deal["phase"] == "over"

    while not anna_awaited(boris.state):
        if boris.my_turn():
            reply = await boris.act()
            assert reply["type"] == "event", reply
        else:
            await boris.next()
    back = Client(anna.url.rsplit("/ws/", 1)[0], code, token, name=anna.name)
    welcome = await back.connect(since=last)
    await boris.until(lambda s: boris.seq >= welcome["seq"])
    return back, welcome, list(range(last + 1, welcome["seq"] + 1))


async def test_reconnection_brings_exactly_the_events_missed_while_others_acted(server):
    """Anna hangs up while Boris and the bot act: on her return ``missed`` holds exactly the
    events numbered after hers, in order, as her seat may see them (others' passes without
    their cards), the same as Boris saw them otherwise."""
    code, token, anna = await seated(server, seats=("open", "open", "bot:rules"),
                                     options={"target": 30})
    _, token_b = await join(server.http, code, "boris", 1)
    boris = Client(server.ws, code, token_b, name="boris")
    await boris.connect()
    await anna.until(lambda s: s["match"]["deal"]["phase"] == "pass")

    # The pass: Anna passes first and leaves; Boris's pass comes while she is away.
    anna, welcome, seqs = await away_while_others_act(anna, boris, code, token)
    missed = welcome["missed"]
    assert [m["seq"] for m in missed] == seqs and seqs
    passes = [m["event"] for m in missed if m["event"]["kind"] == "action"
              and m["event"]["action"]["type"] == "pass"]
    assert [p["seat"] for p in passes if p["seat"] == 1] == [1]
    assert all("cards" not in p["action"] for p in passes)  # not hers to see
    assert any("cards" in e["action"] for e in events_of(boris, seqs).values()
               if e["kind"] == "action" and e["seat"] == 1)  # Boris saw his own

    # The tricks: whenever she hangs up after a card, the others' cards come as missed, the
    # same events Boris got, until both Boris and the bot acted in one absence.
    actors_while_away: set[int] = set()
    while actors_while_away != {1, 2}:
        assert anna.state["match"]["deal"]["phase"] == "play", "the deal ended first"
        await anna.until(lambda s, anna=anna: anna.my_turn())
        anna, welcome, seqs = await away_while_others_act(anna, boris, code, token)
        missed = welcome["missed"]
        assert [m["seq"] for m in missed] == seqs
        assert {m["seq"]: m["event"] for m in missed} == events_of(boris, seqs)
        actions = [m["event"] for m in missed if m["event"]["kind"] == "action"]
        assert all(a["action"]["type"] == "play" for a in actions)
        if len({a["seat"] for a in actions}) == 2:
            actors_while_away = {a["seat"] for a in actions}
        assert welcome["state"]["match"] == anna.state["match"]
    await anna.close()
    await boris.close()


async def test_a_client_that_asks_for_its_state_again_gets_it_whole_and_follows_on(server):
    """``sync``: a welcome with the whole state (no missed events), after which the events'
    changes apply to it; the test client checks every hash on the way."""
    code, token, anna = await seated(server, game="big_mariage",
                                     seats=("open", "bot:rules", "bot:rules", "bot:rules"))
    await anna.until(lambda s: anna.my_turn())
    await anna.act()
    await anna.send({"type": "sync"})
    again = await anna.expect("welcome")
    assert again["missed"] is None and again["state"]["seq"] == again["seq"]
    # the bots play on meanwhile: the welcome's state is the one her last event had given her
    before = anna.messages[:next(i for i, m in enumerate(anna.messages) if m is again)]
    assert again["state"] == next(m["state"] for m in reversed(before) if "state" in m)
    assert again["state"]["you"]["seat"] == 0
    assert again["hash"] == protocol.state_hash(protocol.canonical(again["state"]))
    await anna.play(stop=lambda s: len(s["match"]["deals"]) > 1 or s["match"]["finished"])
    await anna.close()


async def test_the_whole_state_asked_for_again_and_again_is_refused_past_its_rate(server):
    """Each ``sync`` is answered with the whole STATE, the chat's last lines with it (some
    130 KB for a 15-byte request): a connection gets two at once and one a second after that
    (a page asks at most every 2 s); more are refused to it alone, and it plays on."""
    code, token, anna = await seated(server)
    start = len(anna.messages)
    for n in range(5):
        await anna.send({"type": "sync", "id": f"s{n}"})
    refused = [await anna.expect("error", id=f"s{n}") for n in (2, 3, 4)]
    assert {(e["code"], e["reason"]) for e in refused} == {("rate_limited", "sync_too_often")}
    assert sum(m["type"] == "welcome" for m in anna.messages[start:]) == 2
    await asyncio.sleep(1.1)
    await anna.send({"type": "sync", "id": "later"})
    await anna.expect("welcome")
    await anna.until(lambda s: anna.my_turn())
    assert (await anna.act())["type"] == "event"
    await anna.close()


async def test_a_connection_that_does_not_read_what_it_is_sent_is_dropped(server, monkeypatch):
    """Someone watching a table of bots, whose socket takes nothing in (a client that stopped
    reading, or reads at a trickle): once what waits for it passes MAX_BACKLOG the server drops
    the connection rather than hold it all in memory (it had grown by megabytes a minute)."""
    from app.rooms import outbox

    monkeypatch.setattr(outbox, "MAX_BACKLOG", 20_000)
    code = await create_room(server.http, "black_maria", ["bot:rules"] * 3, {"target": 1000})
    raw = socket.socket()
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # (set before connecting)
    raw.settimeout(10)
    raw.connect(("127.0.0.1", server.port))
    raw.sendall((f"GET /ws/{code} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                 "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                 "Sec-WebSocket-Version: 13\r\n\r\n").encode())
    assert raw.recv(12) == b"HTTP/1.1 101"
    hello = b'{"type":"hello"}'
    raw.sendall(bytes([0x81, 0x80 | len(hello)]) + bytes(4) + hello)  # (masked with zeros)
    room = server.app.state.rooms.rooms[code]
    while not room.outbox.conns:
        await asyncio.sleep(0.001)
    # the server's side takes little too (the kernel's buffer on the loopback, of megabytes,
    # would hold a whole match of a table of bots)
    protocol_ = next(iter(room.outbox.conns)).probe.__self__  # (uvicorn's, app/web/keepalive.py)
    protocol_.transport.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    for _ in range(600):  # the bots play for their watcher, who reads nothing meanwhile
        await asyncio.sleep(0.05)
        if not room.outbox.conns:
            break
    assert not room.outbox.conns, "the connection was kept"
    try:  # closed: what the kernel held, then the end (a timeout otherwise)
        while raw.recv(65536):
            pass
    except ConnectionResetError:
        pass
    raw.close()


async def test_reconnection_without_the_missed_events_when_they_cannot_be_trusted(
        server, monkeypatch):
    """``missed`` is null (the state alone is the truth) for a ``since`` too far back, from
    the future, not a number, or from an earlier match of the room."""
    from app.rooms import room

    code, token, anna = await seated(server, options={"target": 1})
    await anna.play()
    last_of_first_match = anna.seq
    await anna.send({"type": "rematch"})
    # nothing happens while she is away: the bots have passed, the room waits for her pass
    await anna.until(lambda s: s["match"]["deals"] and not s["match"]["finished"]
                     and s["match"]["deal"]["passed"] == [False, True, True])
    now = anna.seq
    await anna.close()
    again = Client(server.ws, code, token, name="again")
    assert len((await again.connect(since=now - 1))["missed"]) == 1  # within this match
    # her ask for the rematch is the first match's last event; from it, the second match's
    # events are all there
    asked = next(m["seq"] for m in anna.messages
                 if m.get("type") == "event" and m["event"]["kind"] == "ready")
    assert asked == last_of_first_match + 1
    missed = (await again.connect(since=asked))["missed"]
    assert [m["seq"] for m in missed] == list(range(asked + 1, now + 1))
    assert missed[0]["event"]["kind"] == "match"
    for since in (asked - 1, now + 5, "3", None):
        welcome = await again.connect(since=since)
        assert welcome["missed"] is None, since
        assert welcome["state"]["match"]["deals"], since
    monkeypatch.setattr(room, "MISSED_LIMIT", 2)
    assert len((await again.connect(since=now - 2))["missed"]) == 2
    assert (await again.connect(since=now - 3))["missed"] is None  # too far back
    await again.close()


async def test_second_instance_takes_over_after_the_first_stops(database_url):
    from tests.conftest import LiveServer

    first = LiveServer(database_url).start()
    code, token, anna = await seated(first, seats=("open", "bot:rules", "bot:random"))
    await anna.play(stop=lambda s: sum(s["match"]["deal"]["tricks_won"]) >= 3)
    await anna.until(lambda s: bool(s["match"]["moves"].get("play")))
    last = anna.choose()
    stored = await anna.act(last, "before-restart")
    assert stored["type"] == "event"
    seen = anna.seq
    match_id = anna.state["room"]["match"]["id"]
    hand = anna.state["match"]["deal"]["hands"][0]
    await anna.close()
    first.stop()
    second = LiveServer(database_url).start()
    try:
        welcome = await anna.connect(since=seen, url=f"{second.ws}/ws/{code}")
        # what the bots did meanwhile comes as missed; her hand is as she left it
        assert [m["seq"] for m in welcome["missed"]] == list(range(seen + 1, welcome["seq"] + 1))
        assert welcome["state"]["match"]["deal"]["hands"][0] == hand
        # a retry of an action stored before the restart: applied once, and its event named
        again = await anna.act(last, "before-restart")
        assert again["type"] == "ack" and again["duplicate"] and again["seq"] == stored["seq"]
        await anna.play()
        assert anna.state["match"]["finished"]
        async with httpx.AsyncClient(base_url=second.http) as http:
            record = (await http.get(f"/api/matches/{match_id}/record")).json()
            detail = (await http.get(f"/api/matches/{match_id}")).json()
        match = replay(record)
        assert match.finished and list(match.totals) == detail["totals"]
        await anna.close()
    finally:
        second.stop()


async def test_a_rematch_asked_for_is_remembered_by_the_next_instance(database_url):
    from tests.conftest import LiveServer

    first = LiveServer(database_url).start()
    code = await create_room(first.http, "marjolet", ["open", "open"], {"target": 1})
    tokens, people = [], []
    for seat, name in enumerate(("anna", "boris")):
        _, token = await join(first.http, code, name.title(), seat)
        tokens.append(token)
        people.append(Client(first.ws, code, token, name=name))
    anna, boris = people
    for person in people:
        await person.connect()
    await asyncio.gather(*(p.play() for p in people))
    await anna.send({"type": "rematch"})
    await boris.until(lambda s: s["room"]["ready"] == [0])
    match_id = boris.state["room"]["match"]["id"]
    for person in people:
        await person.close()
    first.stop()
    second = LiveServer(database_url).start()
    try:
        boris = Client(second.ws, code, tokens[1], name="boris")
        welcome = await boris.connect()
        # her ask is still there (a room read from the database had forgotten it)
        assert welcome["state"]["room"]["ready"] == [0] and welcome["state"]["match"]["finished"]
        await boris.send({"type": "rematch"})
        await boris.until(lambda s: s["room"]["match"]["id"] != match_id and s["match"]["deals"])
        await boris.close()
    finally:
        second.stop()


async def test_database_failure_refuses_and_nothing_half_done_remains(server):
    code, token, anna = await seated(server)
    match_id = anna.state["room"]["match"]["id"]
    # Both bots have passed: only Anna can write now.
    await anna.until(lambda s: s["match"]["deal"]["passed"] == [False, True, True])
    before = stored_actions(server, match_id)

    def broken():
        raise RuntimeError("database unreachable (test)")

    server.app.state.store.fault = broken
    try:
        reply = await anna.act(anna.choose(), "during-failure")
    finally:
        server.app.state.store.fault = None
    assert reply["type"] == "error" and reply["code"] == "storage"
    assert stored_actions(server, match_id) == before
    room = server.app.state.rooms.rooms[code]
    assert room.state.action_count == before
    # The same id again, now that the database is back: applied (once).
    reply = await anna.act(anna.choose(), "during-failure")
    assert reply["type"] == "event" and reply["ack"] == "during-failure"
    await anna.play()
    assert anna.state["match"]["finished"]
    await anna.close()


def failing(*args, **kwargs):
    raise OperationalError("SELECT", {}, Exception("database unreachable (test)"))


async def test_reads_the_database_fails_are_refused_and_the_connection_goes_on(
        server, monkeypatch):
    """A read the database fails is "unreachable, try again", never a server error nor a
    closed socket: a room to load (REST and page), a retried action's stored ack; a person
    back after a break gets the whole state when their missed events cannot be read."""
    store = server.app.state.store  # (its sessions serve reads; the hot writes go around them)
    with monkeypatch.context() as patch:
        patch.setattr(store, "sessions", failing)
        reply = httpx.get(f"{server.http}/api/rooms/NOSUCH")
        assert reply.status_code == 503 and reply.json()["code"] == "storage", reply.text
        page = httpx.get(f"{server.http}/r/NOSUCH", headers={"Accept": "text/html"})
        assert page.status_code == 503, page.status_code
        assert "<h1>The tables are closed for a moment</h1>" in page.text
        async with websockets.connect(f"{server.ws}/ws/NOSUCH") as socket:  # (a room to load)
            said = json.loads(await socket.recv())
            assert (said["type"], said["code"]) == ("error", "storage"), said
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await socket.recv()
            assert closed.value.rcvd.code == 1013

    code, token, anna = await seated(server)
    await anna.until(lambda s: bool(s["match"]["moves"].get("pass")))
    action = anna.choose()
    assert (await anna.act(action, "once"))["type"] == "event"
    last = anna.seq
    with monkeypatch.context() as patch:
        patch.setattr(store, "sessions", failing)
        again = await anna.act(action, "once")
        assert again["type"] == "error" and again["code"] == "storage", again
        await anna.send({"type": "ping"})
        await anna.expect("pong")
    await anna.close()

    with monkeypatch.context() as patch:
        patch.setattr(store, "sessions", failing)
        back = Client(server.ws, code, token, name="anna")
        welcome = await back.connect(since=last - 1)
    assert welcome.get("missed") is None and welcome["seq"] >= last
    assert welcome["state"]["match"]["deal"]["passed"][0]
    await back.play()
    await back.close()


async def test_a_sync_shows_what_is_stored_when_a_failed_write_left_the_replica_stale(server):
    """A failed write leaves the replica moved on by the engine and nothing stored (the room
    is rebuilt before the next command): a ``sync`` meanwhile gets the state as stored."""
    code, token, anna = await seated(server)
    await anna.until(lambda s: s["match"]["deal"]["passed"] == [False, True, True])
    room = server.app.state.rooms.rooms[code]

    async def fail_a_write():
        async with room.lock:
            room.state.match.apply(0, anna.choose())
            room.broken = True

    await server.on_its_loop(fail_a_write())
    await anna.send({"type": "sync"})
    welcome = await anna.expect("welcome")
    assert welcome["state"]["match"]["deal"]["passed"] == [False, True, True]
    assert not room.broken and room.state.match.view(0)["deal"]["passed"] == [False, True, True]
    await anna.close()


async def test_standin_bot_and_taking_the_seat_back(server):
    code, token, anna = await seated(server, seats=("open", "open", "bot:rules"))
    _, token_b = await join(server.http, code, "boris", 1)
    boris = Client(server.ws, code, token_b, name="boris")
    await boris.connect()
    await boris.close()
    await anna.until(lambda s: not s["room"]["seats"][1]["connected"])
    # Boris is played for in earnest: not by the bot that plays any card, to his opponent's gain
    await anna.send({"type": "standin", "seat": 1, "bot": "random"})
    refused = await anna.expect("error")
    assert (refused["code"], refused["reason"]) == ("not_available", "standin_not_random")
    assert not anna.state["room"]["seats"][1]["standin"]
    await anna.send({"type": "standin", "seat": 1, "bot": "rules"})
    await anna.until(lambda s: s["room"]["seats"][1]["standin"])
    # The stand-in plays Boris's pass and cards: Anna can play on.
    await anna.play(stop=lambda s: s["match"]["deal"]["phase"] == "play"
                    and sum(s["match"]["deal"]["tricks_won"]) >= 2)
    back = Client(server.ws, code, token_b, name="boris2")
    await back.connect()
    await back.until(lambda s: not s["room"]["seats"][1]["standin"])
    await asyncio.gather(anna.play(), back.play())
    assert anna.state["match"]["finished"]
    await anna.close()
    await back.close()


async def test_turn_timer_plays_for_a_slow_person(server):
    code, token, anna = await seated(server, turn_timer=1)
    await anna.until(lambda s: bool(s["match"]["moves"]))
    # once the bots have passed, only Anna's clock runs, and her state says so
    await anna.until(lambda s: s["room"]["turn_seat"] == 0, timeout=10)
    assert 0 <= anna.state["room"]["turn_left"] <= 1  # counted down from the timer's 1 s
    seq = anna.seq
    # Anna does nothing: after a second the rules bot passes for her, and the event says so.
    await anna.until(lambda s: s["match"]["deal"]["passed"][0], timeout=10)
    assert anna.seq > seq
    hers = [m["event"] for m in anna.messages if m["type"] == "event"
            and m["event"]["kind"] == "action" and m["event"]["seat"] == 0]
    assert [e.get("timer") for e in hers] == [True]
    stored = action_events(server, anna.state["room"]["match"]["id"])
    bots = [e.data for e in stored if e.data["seat"] != 0]
    assert bots and not any("timer" in data for data in bots)  # the bots' own moves
    await anna.close()


async def test_history_filters_and_running_record_is_secret(server):
    code, token, anna = await seated(server, name="histo")
    match_id = anna.state["room"]["match"]["id"]
    async with httpx.AsyncClient(base_url=server.http) as http:
        r = await http.get(f"/api/matches/{match_id}/record")
        assert r.status_code == 409
        detail = (await http.get(f"/api/matches/{match_id}")).json()
        assert "deck" not in json.dumps(detail)
        running = (await http.get("/api/matches", params={"status": "running",
                                                          "player": "histo"})).json()
        assert [m["id"] for m in running["matches"]] == [match_id]
        assert (await http.get("/api/matches", params={"game": "marjolet",
                                                       "player": "histo"})).json()["matches"] == []
        assert (await http.get("/api/matches", params={"since": "2999-01-01T00:00:00"})
                ).json()["matches"] == []
        assert (await http.get("/api/players")).status_code == 200
        assert (await http.get("/api/players/nobody-at-all")).status_code == 404
        assert (await http.get("/api/rooms/NOPE00")).status_code == 404
        bad = await http.post("/api/rooms", json={"game": "black_maria",
                                                  "options": {"target": -1}})
        assert bad.status_code == 422
        taken = await http.post(f"/api/rooms/{code}/join", json={"name": "x", "seat": 0})
        assert taken.status_code == 409
        assert (await http.get("/docs")).status_code == 200
    await anna.close()


async def test_two_instances_racing_for_one_seat_store_one_action(database_url):
    """Two processes on one database (no fan-out between them): the unique (match, seq)
    decides; the loser refreshes from the database and says so."""
    from tests.conftest import LiveServer

    a = LiveServer(database_url).start()
    b = LiveServer(database_url).start()
    try:
        code, token, anna = await seated(a, name="racer")
        await anna.until(lambda s: s["match"]["deal"]["passed"] == [False, True, True])
        twin = Client(b.ws, code, token, name="twin")
        await twin.connect()
        match_id = anna.state["room"]["match"]["id"]
        before = stored_actions(a, match_id)
        cards = anna.state["match"]["moves"]["pass"]["from"]
        r1, r2 = await asyncio.gather(
            anna.act({"type": "pass", "cards": cards[:3]}, "x-1"),
            twin.act({"type": "pass", "cards": cards[-3:]}, "x-2"))
        kinds = sorted([r1["type"], r2["type"]])
        assert kinds == ["error", "event"], (r1, r2)
        loser = r1 if r1["type"] == "error" else r2
        # the loser's write conflicts; the room catches up and checks it again on the fresh
        # state, where the seat has already passed: the engine refuses it
        assert loser["code"] in ("conflict", "not_your_turn", "illegal")
        rows = action_events(a, match_id)[before:]
        assert [r.client_id for r in rows if r.data["seat"] == 0] in (["x-1"], ["x-2"])
        await anna.close()
        await twin.close()
    finally:
        a.stop()
        b.stop()


async def test_history_date_filters(server):
    from datetime import datetime, timedelta, timezone

    code, token, anna = await seated(server, name="dated")
    match_id = anna.state["room"]["match"]["id"]
    now = datetime.now(timezone.utc)
    async with httpx.AsyncClient(base_url=server.http) as http:
        def ids(**params):
            return http.get("/api/matches", params={"player": "dated", **params})

        inside = (await ids(since=(now - timedelta(hours=1)).isoformat(),
                            until=(now + timedelta(hours=1)).isoformat())).json()["matches"]
        assert [m["id"] for m in inside] == [match_id]
        assert inside[0]["started"].endswith("+00:00")
        later = (await ids(since=(now + timedelta(hours=1)).isoformat())).json()["matches"]
        assert later == []
        shifted = (now + timedelta(hours=1)).astimezone(timezone(timedelta(hours=3)))
        assert (await ids(until=shifted.isoformat())).json()["matches"][0]["id"] == match_id
    await anna.close()


async def test_a_link_that_died_while_its_turn_came_is_found_in_seconds(sqlite_url):
    """Boris's link dies without a word (``TcpProxy.freeze``) and then his turn comes: a moment
    into it the server pings his connection, no answer comes, and Anna sees him away (and may
    hand his seat to a bot) within seconds rather than at the keepalive, 35-45 s on. Anna,
    slow but there, is pinged on her turn too, answers, and plays on."""
    from tests.conftest import LiveServer
    from tests.scale.conftest import TcpProxy

    server = LiveServer(sqlite_url, probe_after=1.0, probe_timeout=3.0).start()
    link = TcpProxy(server.port)
    try:
        code = await create_room(server.http, "marjolet", ["open", "open"], {"target": 15})
        _, anna_token = await join(server.http, code, "anna", 0)
        _, boris_token = await join(server.http, code, "boris", 1)
        anna = Client(server.ws, code, anna_token, name="anna")
        boris = Client(f"ws://127.0.0.1:{link.port}", code, boris_token, name="boris")
        await anna.connect()
        await boris.connect()
        await anna.until(lambda s: s["match"] is not None and s["match"]["to_act"] in ([0], [1]))
        if not anna.my_turn():
            await boris.act()
            await anna.until(lambda s: s["match"]["to_act"] == [0])
        await asyncio.sleep(4)  # Anna takes her time: probed, she answers, and plays on
        assert not [m for m in boris.messages if m["type"] == "presence" and not m["connected"]]
        link.freeze()
        while anna.state["match"]["to_act"] == [0]:  # (a trick she wins, then her draw)
            await anna.act()
        started = asyncio.get_running_loop().time()
        assert anna.state["match"]["to_act"] == [1]
        gone = await anna.expect("presence", timeout=15, seat=1, connected=False)
        waited = asyncio.get_running_loop().time() - started
        assert gone and 1.0 <= waited < 12, waited  # (the keepalive: 35 s at the least)
        await anna.send({"type": "standin", "seat": 1, "bot": "rules"})  # away: a bot for now
        await anna.until(lambda s: s["room"]["seats"][1]["standin"], timeout=10)
        await anna.close()
    finally:
        link.close()
        server.stop()
