"""Whole matches of every game over real WebSockets: people played by the test, bots in the
other seats, a spectator watching; no connection ever sees a card it may not know; the
history API and the downloaded record agree with what was played."""

from __future__ import annotations

import asyncio
import io
import json
import os
import re
import secrets
import subprocess
from datetime import datetime, timezone

import httpx
import pytest
import segno
from cardroom_client import Client, allowed_by_seq, check_no_leak, create_room, join

from engine.record import replay

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

TABLES = {
    "black_maria": (["open", "open", "bot:rules"], {"target": 15}),
    "marjolet": (["open", "open"], {"target": 150}),
    "big_mariage": (["open", "bot:rules", "open", "bot:random"], {"target": 150}),
}


@pytest.mark.parametrize("game", list(TABLES))
async def test_whole_match(server, game):
    seats, options = TABLES[game]
    code = await create_room(server.http, game, seats, options)
    spectator = Client(server.ws, code, name="watcher")
    await spectator.connect()
    people = []
    for seat, kind in enumerate(seats):
        if kind == "open":
            _, token = await join(server.http, code, f"{game}-p{seat}", seat)
            people.append(Client(server.ws, code, token, name=f"p{seat}"))
    for person in people:
        await person.connect()
    await asyncio.gather(*(p.play(timeout=150) for p in people))
    await spectator.until(lambda s: s["match"] and s["match"]["finished"])
    match_id = spectator.state["room"]["match"]["id"]
    final = spectator.state["match"]

    async with httpx.AsyncClient(base_url=server.http) as http:
        detail = (await http.get(f"/api/matches/{match_id}")).json()
        assert detail["status"] == "finished"
        assert detail["totals"] == final["totals"] and detail["winners"] == final["winners"]
        assert [d["scores"] for d in detail["deal_list"]] == [d["scores"] for d in final["deals"]]
        assert all(d["summary"] is not None for d in detail["deal_list"])
        # the replay: a frame a position, each its deal's view and the totals (not the deals so
        # far: they had grown the answer by their square, 1.1 MB for ten deals)
        replay = (await http.get(f"/api/matches/{match_id}/replay")).json()
        assert replay["frames"][-1]["totals"] == detail["totals"]
        assert all(set(f) == {"deal", "index", "seat", "action", "totals", "deal_view", "to_act"}
                   for f in replay["frames"])
        r = await http.get(f"/api/matches/{match_id}/record")
        assert r.status_code == 200
        record = r.json()
        listed = (await http.get("/api/matches", params={"player": f"{game}-p0",
                                                         "game": game})).json()["matches"]
        assert [m["id"] for m in listed] == [match_id]
        stats = (await http.get(f"/api/players/{game}-p0")).json()
        assert stats["played"] >= 1 and stats["deals"] >= len(detail["deal_list"])

    out = subprocess.run([os.path.join(ROOT, ".venv", "bin", "cardroom"), "replay", "-"],
                         input=json.dumps(record), capture_output=True, text=True, check=True)
    replayed = json.loads(out.stdout)
    assert replayed["deal_scores"] == [d["scores"] for d in detail["deal_list"]]
    assert replayed["totals"] == detail["totals"] and replayed["finished"]
    assert replayed["winners"] == detail["winners"]

    # No connection saw a card it may not know, at any moment of the match.
    events = [(m["seq"], m["event"]) for m in spectator.messages if m["type"] == "event"]
    start = max(i for i, (_, e) in enumerate(events) if e["kind"] == "match")
    events = events[start:]
    nseats = len(seats)
    allowed = allowed_by_seq(record, events, list(range(nseats)) + [None])
    checked = check_no_leak(spectator, allowed, None)
    for person in people:
        checked += check_no_leak(person, allowed, person.seat)
    assert checked > 50
    # Each action came back to the connection that sent it in its own event, with the ack;
    # no other connection saw an ack, and no ack came in a frame of its own.
    for person in people:
        events = [m for m in person.messages if m["type"] == "event"]
        acks = [m["ack"] for m in events if "ack" in m]
        own = [m for m in events if m["event"]["kind"] == "action"
               and m["event"]["seat"] == person.seat]
        assert len(acks) == len(set(acks)) == len(own) > 0
        assert all(m["ack"].startswith(f"{person.name}-") for m in own)
        assert not any(m["type"] == "ack" for m in person.messages)
    assert not any("ack" in m for m in spectator.messages)
    # Every seat's event stream is complete and in order.
    for client in people + [spectator]:
        seqs = [m["seq"] for m in client.messages if m["type"] == "event"]
        assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
    for client in people + [spectator]:
        await client.close()


async def test_rematch_and_open_rooms(server):
    code = await create_room(server.http, "black_maria", ["open", "bot:random", "bot:random"],
                             {"target": 1})
    async with httpx.AsyncClient(base_url=server.http) as http:
        rooms = (await http.get("/api/rooms")).json()["rooms"]
        assert code in [r["code"] for r in rooms]
    _, token = await join(server.http, code, "Rema")
    person = Client(server.ws, code, token, name="rema")
    await person.connect()
    # whose move it is, for the lobby's list of one's own tables: the REST side says it (the
    # bots have passed: the person is left to)
    await person.until(lambda s: s["match"] and s["match"]["to_act"] == [0])
    async with httpx.AsyncClient(base_url=server.http) as http:
        assert (await http.get(f"/api/rooms/{code}")).json()["to_act"] == [0]
        # (every ROOM of the REST side: a table made, a seat taken)
        made = (await http.post("/api/rooms", json={"game": "marjolet", "seats": ["open", "open"]})).json()
        joined = (await http.post(f"/api/rooms/{made['code']}/join", json={"name": "Early", "seat": 0})).json()
        assert made["room"]["to_act"] == [] and joined["room"]["to_act"] == []
    assert "to_act" not in person.state["room"]  # (the socket's ROOM does not repeat it)
    await person.play()
    first = person.state["room"]["match"]["id"]
    await person.send({"type": "rematch"})
    await person.until(lambda s: s["room"]["match"]["id"] != first and s["match"]["deals"])
    assert person.state["match"]["finished"] is False
    await person.play()
    await person.close()


async def two_who_finished(server) -> tuple[Client, Client, int]:
    """Anna and Boris, connected, at the end of a Marjolet match to 1; the match's id."""
    code = await create_room(server.http, "marjolet", ["open", "open"], {"target": 1})
    people = []
    for seat, name in enumerate(("anna", "boris")):
        _, token = await join(server.http, code, name.title(), seat)
        people.append(Client(server.ws, code, token, name=name))
    for person in people:
        await person.connect()
    await asyncio.gather(*(p.play() for p in people))
    return people[0], people[1], people[0].state["room"]["match"]["id"]


async def test_a_rematch_begins_once_every_person_at_the_table_asked(server):
    anna, boris, first = await two_who_finished(server)
    people = [anna, boris]
    await anna.send({"type": "rematch"})
    # Boris is told she asked; the result stays on his table (one tap had wiped it for all)
    await boris.until(lambda s: s["room"]["ready"] == [0])
    for n in range(2):  # (the room's turns go by: a rematch it began would come first)
        await boris.send({"type": "chat", "text": f"reading {n}"})
        await boris.until(lambda s, n=n: s["chat"] and s["chat"][-1]["text"] == f"reading {n}")
    assert boris.state["room"]["match"]["id"] == first and boris.state["match"]["finished"]
    await anna.send({"type": "rematch"})  # asked again: nothing more
    await boris.send({"type": "rematch"})
    for person in people:
        await person.until(lambda s: s["room"]["match"]["id"] != first and s["match"]["deals"])
        assert person.state["room"]["ready"] == [] and not person.state["match"]["finished"]
    for person in people:
        await person.close()


async def test_a_rematch_asked_for_opens_the_seat_of_the_one_who_left(server):
    """Boris leaves without asking for the rematch Anna asked for: his seat is opened, not
    carried into the rematch (he had been, "away", and a stand-in's match had counted as his);
    it begins once a bot, or a friend, takes the seat (it had waited for a chat line)."""
    anna, boris, first = await two_who_finished(server)
    await anna.send({"type": "rematch"})
    await boris.until(lambda s: s["room"]["ready"] == [0])
    await boris.close()
    await anna.until(lambda s: s["room"]["seats"][1]["kind"] == "open")
    assert anna.state["room"]["match"]["id"] == first and anna.state["match"]["finished"]
    await anna.send({"type": "standin", "seat": 1, "bot": "rules"})
    await anna.until(lambda s: s["room"]["match"]["id"] != first and s["match"]["deals"])
    async with httpx.AsyncClient(base_url=server.http) as http:
        rematch = (await http.get(f"/api/matches/{anna.state['room']['match']['id']}")).json()
    assert [(p["name"], p["bot"]) for p in rematch["players"]] == [("Anna", None), ("Bot 2", "rules")]
    await anna.close()


async def test_a_person_leaves_the_table_once_the_match_is_over(server):
    """"Leave the table": refused while the match is played; once it is over, the seat is
    opened and its connection watches from then on (there had been no way to leave but to
    close the page); the rematch the other asks for waits for the seat to be taken."""
    code = await create_room(server.http, "marjolet", ["open", "open"], {"target": 1})
    people = []
    for seat, name in enumerate(("anna", "boris")):
        _, token = await join(server.http, code, name.title(), seat)
        people.append(Client(server.ws, code, token, name=name))
    anna, boris = people
    for person in people:
        await person.connect()
    await boris.send({"type": "leave"})
    refused = await boris.expect("error")
    assert (refused["code"], refused["reason"]) == ("not_available", "leave_in_play")
    await asyncio.gather(*(p.play() for p in people))
    first = anna.state["room"]["match"]["id"]
    await anna.send({"type": "rematch"})
    await anna.until(lambda s: s["room"]["ready"] == [0])  # (asked before Boris leaves)
    await boris.send({"type": "leave"})
    welcome = await boris.expect("welcome")
    assert welcome["state"]["you"]["seat"] is None  # (a spectator now)
    await anna.until(lambda s: s["room"]["seats"][1]["kind"] == "open")
    await boris.send({"type": "rematch"})
    refused = await boris.expect("error")
    assert refused["code"] == "not_seated"
    assert anna.state["room"]["match"]["id"] == first and anna.state["room"]["ready"] == [0]
    # a friend takes it, for the rematch: asked for with the seat, it begins
    _, token = await join(server.http, code, "Vera", 1)
    vera = Client(server.ws, code, token, name="vera")
    await vera.connect()
    await anna.until(lambda s: s["room"]["match"]["id"] != first and s["match"]["deals"])
    assert [s["name"] for s in anna.state["room"]["seats"]] == ["Anna", "Vera"]
    for person in (anna, boris, vera):
        await person.close()


async def play_match(server, game, seats, options, names: dict[int, str]) -> int:
    """A whole match: ``names`` seat -> person, the other seats as ``seats`` says. Its id."""
    code = await create_room(server.http, game, seats, options)
    people = []
    for seat, name in names.items():
        _, token = await join(server.http, code, name, seat)
        people.append(Client(server.ws, code, token, name=name))
    for person in people:
        await person.connect()
    await asyncio.gather(*(p.play(timeout=150) for p in people))
    for person in people:
        await person.close()
    return people[0].state["room"]["match"]["id"]


def expected_stats(records: list[dict], name: str) -> dict:
    """A person's statistics worked out from the records of finished matches: for each game,
    matches played and won, deals, points (their seat's, or their team's), points per deal."""
    by_game: dict[str, dict] = {}
    for record in records:
        if name not in record["players"]:
            continue
        seat = record["players"].index(name)
        match = replay(record)
        mine = seat % 2 if match.game.teams else seat
        g = by_game.setdefault(record["game"], {"played": 0, "won": 0, "deals": 0, "points": 0})
        g["played"] += 1
        g["won"] += mine in match.winners
        for scores in match.deal_scores():
            g["deals"] += 1
            g["points"] += scores[mine]
    total = {key: sum(g[key] for g in by_game.values())
             for key in ("played", "won", "deals", "points")}
    for g in [*by_game.values(), total]:
        g["average_per_deal"] = round(g["points"] / g["deals"], 2) if g["deals"] else None
    return {"name": name, **total, "by_game": by_game}


async def test_player_statistics_agree_with_the_records(server):
    """Points and wins from each person's own seat (their team's in Big Mariage), summed over
    games and matches where they sat at different seats; running matches not played yet."""
    tag = secrets.token_hex(3)
    vera, gleb, ivan = f"vera-{tag}", f"gleb-{tag}", f"ivan-{tag}"
    ids = [
        await play_match(server, "black_maria", ["bot:random", "open", "open"], {"target": 1},
                         {1: vera, 2: gleb}),
        await play_match(server, "black_maria", ["open", "bot:rules", "open"], {"target": 1},
                         {0: gleb, 2: vera}),
        await play_match(server, "marjolet", ["open", "open"], {"target": 1},
                         {0: ivan, 1: vera}),
        await play_match(server, "big_mariage", ["bot:rules", "open", "bot:random", "open"],
                         {"target": 1}, {1: vera, 3: gleb}),
    ]
    # a match still in its first deal counts for nothing yet
    code = await create_room(server.http, "black_maria", ["open", "bot:random", "bot:random"])
    await join(server.http, code, vera, 0)
    async with httpx.AsyncClient(base_url=server.http) as http:
        records = [(await http.get(f"/api/matches/{i}/record")).json() for i in ids]
        listed = {p["name"]: p for p in (await http.get("/api/players")).json()["players"]}
        for name in (vera, gleb, ivan):
            expected = expected_stats(records, name)
            page = (await http.get(f"/api/players/{name}")).json()
            assert {k: page[k] for k in expected if k != "by_game"} == \
                {k: v for k, v in expected.items() if k != "by_game"}
            assert {g: {k: v for k, v in figures.items() if k in expected["by_game"][g]}
                    for g, figures in page["by_game"].items()} == expected["by_game"]
            assert listed[name] == expected
    assert expected_stats(records, vera)["played"] == 4  # the running match is not in it
    assert expected_stats(records, gleb)["by_game"]["big_mariage"]["points"] == sum(
        scores[1] for scores in replay(records[3]).deal_scores())  # Gleb's team: seats 1 and 3


async def test_history_filters_each_select_only_their_matches(server):
    """By person, game and status, in the API and on the history page."""
    tag = secrets.token_hex(3)
    mila = f"mila-{tag}"
    finished = await play_match(server, "black_maria", ["open", "bot:random", "bot:random"],
                                {"target": 1}, {0: mila})
    marjolet = await play_match(server, "marjolet", ["open", "open"], {"target": 1},
                                {0: mila, 1: f"other-{tag}"})
    code = await create_room(server.http, "black_maria", ["open", "bot:random", "bot:random"])
    _, token = await join(server.http, code, mila, 0)
    async with httpx.AsyncClient(base_url=server.http) as http:
        running = (await http.get(f"/api/rooms/{code}")).json()["match"]["id"]

        async def ids(**params) -> list[int]:
            r = await http.get("/api/matches", params={"player": mila, **params})
            return [m["id"] for m in r.json()["matches"]]

        async def page_ids(**params) -> list[int]:
            html = (await http.get("/history", params={"player": mila, **params})).text
            # each row links its match twice (its date and its Open button)
            return list(dict.fromkeys(int(i) for i in re.findall(r'href="/matches/(\d+)"', html)))

        for listing in (ids, page_ids):
            assert await listing() == [running, marjolet, finished]  # newest first
            assert await listing(status="running") == [running]
            assert await listing(status="finished") == [marjolet, finished]
            assert await listing(game="marjolet") == [marjolet]
            assert await listing(game="black_maria", status="finished") == [finished]
        assert await ids(player=f"other-{tag}") == [marjolet]
        assert await ids(limit=1, offset=1) == [marjolet]


CARD_CODE = re.compile(r'["\'=]([2-9TJQKA][SHDC])["\']')
CARD_FACE = re.compile(r"(?:10|[2-9JQKA])[♠♥♦♣]")


def get_routes(routes) -> list[str]:
    """The paths of every GET route, in included routers too."""
    paths = []
    for route in routes:
        if hasattr(route, "original_router"):  # FastAPI's wrapper of an included router
            paths += get_routes(route.original_router.routes)
        elif "GET" in (getattr(route, "methods", None) or ()):
            paths.append(route.path)
    return paths


async def test_dates_and_names_at_the_edges_are_refused_or_ignored_never_a_server_error(server):
    async with httpx.AsyncClient(base_url=server.http) as http:
        everything = (await http.get("/api/matches", params={"limit": 500})).json()["matches"]
        # a day UTC cannot say (0001-01-01 east of it): a page ignores it, the API refuses it
        for path in ("/history?since=0001-01-01&tz=Asia/Tokyo",
                     "/standings?players=x&until=9999-12-31&tz=America/Los_Angeles",
                     "/history?since=2026-01-01&tz=../../etc/passwd"):
            assert (await http.get(path)).status_code == 200, path
        refused = await http.get("/api/matches", params={"since": "0001-01-01T00:00:00+01:00"})
        assert refused.status_code == 422 and refused.json()["reason"] == "bad_field"
        # a name of spaces filters nothing (as a substring it would have meant everyone's)
        spaces = (await http.get("/api/matches", params={"player": "  ", "limit": 500})).json()
        assert spaces["matches"] == everything
        # a seat is a number: not true, "1" nor 1.0
        for seat in (True, "1", 1.0):
            code = await create_room(server.http, "marjolet", ["open", "open"])
            refused = await http.post(f"/api/rooms/{code}/join", json={"name": "Ann", "seat": seat})
            assert refused.status_code == 422, seat


async def test_no_page_or_endpoint_shows_the_cards_of_a_running_match(server):
    """While a match runs, every GET route (pages and API) that names it, its room or its
    people refuses or shows none of its cards: its packs, hands and passes stay secret."""
    routes = [path for path in get_routes(server.app.routes) if not path.startswith("/static")]
    assert "/api/matches/{match_id}/replay" in routes and "/matches/{match_id:int}" in routes
    name = f"sly-{secrets.token_hex(3)}"

    def shown(text: str) -> set[str]:
        return set(CARD_CODE.findall(text)) | set(CARD_FACE.findall(text))

    async with httpx.AsyncClient(base_url=server.http) as http:
        # what the routes that name nothing show anyway (the rules page's example cards)
        before = {path: shown((await http.get(path, params={"player": name})).text)
                  for path in routes if "{" not in path}
        code = await create_room(server.http, "black_maria",
                                 ["open", "bot:random", "bot:random"])
        _, token = await join(server.http, code, name, 0)
        anna = Client(server.ws, code, token, name=name)
        await anna.connect()
        # the bots have passed: packs, hands and passes exist, none of them public yet
        await anna.until(lambda s: s["match"]["deal"]["passed"] == [False, True, True])
        values = {"match_id": str(anna.state["room"]["match"]["id"]), "code": code,
                  "name": name}
        await anna.close()
        refused = []
        for path in routes:
            url = re.sub(r"\{(\w+)(:\w+)?\}", lambda m: values.get(m.group(1), "x"), path)
            r = await http.get(url, params={"player": name})
            if r.status_code in (403, 404, 409):
                refused.append(path)
                continue
            assert r.status_code < 400, (url, r.status_code)
            leaked = shown(r.text) - before.get(path, set())
            assert not leaked, f"{url} shows {leaked}"
    assert {"/api/matches/{match_id}/record", "/api/matches/{match_id}/replay"} <= set(refused)


async def test_bots_are_named_by_their_seats(server):
    code = await create_room(server.http, "big_mariage", ["open", "bot:rules", "bot:random",
                                                          "bot:rules"])
    _, token = await join(server.http, code, "Nika", 0)
    async with httpx.AsyncClient(base_url=server.http) as http:
        room = (await http.get(f"/api/rooms/{code}")).json()
        assert [s["name"] for s in room["seats"]] == ["Nika", "Bot 2", "Bot 3", "Bot 4"]
        match = (await http.get(f"/api/matches/{room['match']['id']}")).json()
        assert [(p["name"], p["bot"]) for p in match["players"]] == [
            ("Nika", None), ("Bot 2", "rules"), ("Bot 3", "random"), ("Bot 4", "rules")]
        page = (await http.get(f"/matches/{room['match']['id']}",
                               headers={"Accept-Language": "ru"})).text
        assert "Бот 2" in page and "Bot 2" not in page.split('id="match-data"')[0]
        # the random bot said to be one, there and in the history (the rules bot is the default)
        assert '<b>Бот 3</b> <span class="muted">(случайный)</span>' in page
        assert "<b>Бот 2</b>," in page
        listed = (await http.get("/history", params={"player": "Nika"})).text
        assert 'Bot 3 <span class="muted">(random)</span>' in listed
        # a guest said to be one on both pages (the match page had left it out)
        guest = re.compile(r'<a href="/players/Nika">(<b>)?Nika(</b>)?</a> <span class="muted" title="[^"]+">\((гость|guest)\)</span>')
        assert guest.search(page) and guest.search(listed), page.split('id="match-data"')[0][-2000:]
        # its tab named as its heading ("Большой марьяж #10" had stood beside "… · партия 10")
        number = room["match"]["id"]
        assert f"<title>Большой марьяж · партия {number} · " in page
        assert f"<h1>Большой марьяж · партия {number}</h1>" in page


async def test_a_missing_match_has_a_page_in_the_readers_language(server):
    async with httpx.AsyncClient(base_url=server.http) as http:
        r = await http.get("/matches/999999", headers={"Accept-Language": "ru"})
        assert r.status_code == 404 and r.headers["content-type"].startswith("text/html")
        assert "Такой партии нет" in r.text and "999999" in r.text
        r = await http.get("/r/NOPE99")
        assert r.status_code == 404 and "NOPE99" in r.text


#: What a browser asks for when it opens an address.
BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


@pytest.mark.parametrize("path", ["/nothing", "/matches/abc", "/r/NOPE99/more"])
@pytest.mark.parametrize("lang, words", [("en", "Page not found"),
                                         ("ru", "Страница не найдена")])
async def test_an_address_nobody_serves_is_a_page_for_a_browser(server, path, lang, words):
    async with httpx.AsyncClient(base_url=server.http) as http:
        r = await http.get(path, headers={"Accept": BROWSER, "Accept-Language": lang})
    assert r.status_code == 404 and r.headers["content-type"].startswith("text/html")
    assert words in r.text and 'href="/"' in r.text and f'lang="{lang}"' in r.text


async def test_the_api_and_other_clients_keep_their_json_answers(server):
    async with httpx.AsyncClient(base_url=server.http) as http:
        for path, accept in [("/nothing", "*/*"), ("/nothing", "application/json"),
                             ("/api/nothing", BROWSER), ("/static/nothing.js", "*/*")]:
            r = await http.get(path, headers={"Accept": accept})
            assert (r.status_code, r.json()) == (404, {"detail": "Not Found"}), path
        r = await http.get("/api/matches/abc", headers={"Accept": BROWSER})
        assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["path", "match_id"]
        r = await http.get("/api/rooms/NOPE99", headers={"Accept": BROWSER})
        assert r.status_code == 404 and r.json()["code"] == "no_room"


async def test_a_table_typed_in_small_letters_is_sent_to_its_code(server):
    """The proxy sends a room's page and socket to one process by its code as written: a page
    asked for in small letters goes to the code's own address, its query kept."""
    code = await create_room(server.http, "marjolet", ["open", "open"])
    async with httpx.AsyncClient(base_url=server.http) as http:
        r = await http.get(f"/r/{code.lower()}", params={"lang": "ru"})
        assert r.status_code == 308
        assert r.headers["location"] == f"{server.http}/r/{code}?lang=ru"
        assert (await http.get(r.headers["location"])).status_code == 200


async def test_a_running_match_nobody_touched_for_half_a_day_is_shown_abandoned(server):
    from datetime import datetime, timedelta, timezone

    from sqlalchemy import update

    from app.storage.models import RoomEvent

    name = f"gone-{secrets.token_hex(3)}"
    code = await create_room(server.http, "black_maria", ["open", "bot:random", "bot:random"])
    await join(server.http, code, name, 0)
    async with httpx.AsyncClient(base_url=server.http) as http:
        async def listed():
            return (await http.get("/api/matches", params={"player": name})).json()["matches"]

        [match] = await listed()
        assert match["status"] == "running" and not match["abandoned"]
        assert match["deals"] == 0  # the deal in progress is not counted
        room_id = server.app.state.rooms.rooms[code].state.id
        long_ago = datetime.now(timezone.utc) - timedelta(hours=13)
        with server.app.state.store.sessions() as session, session.begin():
            session.execute(update(RoomEvent).where(RoomEvent.room_id == room_id)
                            .values(created=long_ago))
        [match] = await listed()
        assert match["status"] == "running" and match["abandoned"]
        page = (await http.get("/history", params={"player": name})).text
        assert "abandoned" in page


async def test_negative_figures_are_written_with_a_minus_sign_on_every_page(server):
    """("-2305" in the history, a hyphen, where the sheet writes "−2305".) A Big Mariage demo
    match whose losers end below zero, in the history, on a player's page and in the
    standings."""
    from tests.conftest import stored_match

    names = [f"{n}-{secrets.token_hex(2)}" for n in ("Anna", "Vera", "Boris", "Gleb")]
    stored_match(server, "big_mariage-1", names, datetime.now(timezone.utc))
    async with httpx.AsyncClient(base_url=server.http) as http:
        history = (await http.get("/history", params={"player": names[0]})).text
        player = (await http.get(f"/players/{names[0]}")).text  # (a loser: team A ends at −85)
        standings = (await http.get("/standings", params={"players": ",".join(names), "game": "big_mariage"})).text
    totals = re.search(r'<td class="m-totals"[^>]*>(.*?)</td>', history).group(1)
    assert "\u2212" in totals and not re.search(r"-\d", totals), totals
    assert not re.search(r">[^<>]*\s-\d", player), "a hyphen for a minus"  # (its best match, "-1600 points")
    for page in (player, standings):
        cells = re.findall(r"<td>([^<]*)</td>", page)
        assert any(c.startswith("\u2212") for c in cells) and not any(re.match(r"-\d", c) for c in cells), cells


def test_invite_links_come_from_public_url_and_say_when_only_this_machine_opens_them(
        tmp_path_factory):
    from tests.conftest import LiveServer, fresh_sqlite

    url = fresh_sqlite(tmp_path_factory, "invites")
    local, public = LiveServer(url), LiveServer(url, public_url="https://cards.example.org/")
    for live in (local, public):
        live.start()
    try:
        for live, invite in ((local, "/r/{}"), (public, "https://cards.example.org/r/{}")):
            code = asyncio.run(create_room(live.http, "marjolet", ["open", "open"]))
            r = httpx.post(f"{live.http}/api/rooms", json={"game": "marjolet"})
            assert r.json()["invite"] == invite.format(r.json()["code"])
            table = httpx.get(f"{live.http}/r/{code}").text
            lobby = httpx.get(f"{live.http}/").text
            # the invite link as a QR code, for a phone's camera (none for a table not there)
            qr = httpx.get(f"{live.http}/r/{code}/qr.svg")
            link = invite.format(code) if live is public else f"{live.http}/r/{code}"
            drawn = io.BytesIO()
            segno.make(link, error="m").save(drawn, kind="svg", scale=4, border=2,
                                             xmldecl=False, dark="#000", light="#fff")
            assert qr.headers["content-type"] == "image/svg+xml" and qr.content == drawn.getvalue()
            assert httpx.get(f"{live.http}/r/NOSUCH/qr.svg").status_code == 404
            if live is public:
                assert f'data-invite="https://cards.example.org/r/{code}"' in table
                assert "invite-local" not in lobby and 'data-loopback=""' in table
                assert 'data-testid="invite-qr"' in lobby  # (beside the link, once it is made)
            else:  # the tests' server listens on 127.0.0.1 only
                assert 'data-invite=""' in table and 'data-loopback="yes"' in table
                assert 'data-testid="invite-local"' in lobby and "invite-qr" not in lobby
    finally:
        for live in (local, public):
            live.stop()
